export { reconcileTools } from "./reconcile-tools.js";
export type { ReconcilablePack, ReconcilableStep, ServedTools, ReconcileOptions, ReconcileResult, Mismatch, MismatchKind, ToolUse, ToolUseKind } from "./reconcile-tools.js";
export { EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "./exempt.js";
