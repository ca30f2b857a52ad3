export { createToolExecutor } from "./create-executor.js";
export type { ToolExecutor, ToolExecutorOptions, ToolExecutorEvents, DelegationSource, ToolCallHooks, ToolRoundSpan } from "./types.js";
export type { HandlerHealth } from "./types.js";
export { SandboxUnreachableError, SANDBOX_DIAL_TIMEOUT_MS } from "./sandbox.js";
export { UnknownToolError, InvalidArgumentsError, AuthError, ClientToolError, BackendError, DuplicateCallIdError } from "../core/index.js";
export type {
  ToolCall,
  CallContext,
  RecordSequence,
  ToolOutcome,
  OutcomeBase,
  SuccessOutcome,
  ErrorOutcome,
  DeniedOutcome,
  ClientOutcome,
} from "./outcome.js";
export type { SecretResolver, WorkloadTokenAcquirer } from "./auth.js";
export type { PlatformTool, PlatformToolContext } from "../backends/index.js";
