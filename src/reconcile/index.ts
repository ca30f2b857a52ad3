export { reconcileTools } from "./reconcile-tools.js";
export type { ReconcilablePack, ServedTools, ReconcileOptions, ReconcileResult, Mismatch, MismatchKind } from "./reconcile-tools.js";
export { EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "./exempt.js";
