export { createToolExecutor } from "./executor.js";
export type { ToolExecutor, ToolExecutorOptions, ToolExecutorEvents, DelegationSource } from "./executor.js";
export { SandboxUnreachableError, SANDBOX_DIAL_TIMEOUT_MS } from "./sandbox.js";
export {
  UnknownToolError,
  InvalidArgumentsError,
  AuthError,
  ClientToolError,
  BackendError,
} from "./outcome.js";
export type {
  ToolCall,
  CallContext,
  ToolOutcome,
  OutcomeBase,
  SuccessOutcome,
  ErrorOutcome,
  DeniedOutcome,
  ClientOutcome,
} from "./outcome.js";
export type { SecretResolver, WorkloadTokenAcquirer } from "./auth.js";
