export { createToolExecutor } from "./executor.js";
export type { ToolExecutor, ToolExecutorOptions, DelegationSource } from "./executor.js";
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
