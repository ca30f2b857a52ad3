/**
 * omnia-tools: execute LLM tool calls exactly the way the Omnia agent runtime does.
 *
 * @packageDocumentation
 */
// core
export {
  ErrorCode,
  errorBrand,
  OmniaToolsError,
  isOmniaToolsError,
  ConfigError,
  InvalidOptionError,
  ClosedError,
  AbortedError,
  TimeoutError,
  systemClock,
  noopLogger,
  parseGoDuration,
  formatGoDuration,
} from "./core/index.js";
export type {
  ErrorCodeValue,
  OmniaToolsErrorOptions,
  ConfigIssue,
  Clock,
  TimerHandle,
  Logger,
  LogFields,
  JsonValue,
  JsonObject,
} from "./core/index.js";

// manifest: ToolRegistry and PromptPack loading (issue #4)
export {
  loadToolRegistry,
  loadPromptPack,
  DuplicateToolError,
  TOOL_REGISTRY_API_VERSION,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_BACKOFF_MULTIPLIER,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_HTTP_RETRY_ON,
  DEFAULT_GRPC_RETRYABLE_STATUS_CODES,
  GRPC_STATUS_CODE_NAMES,
  CLIENT_ENDPOINT,
} from "./manifest/index.js";
export type {
  LoadToolRegistryOptions,
  ManifestInput,
  ManifestIssue,
  DuplicateTool,
  PromptPack,
  PackPrompt,
  PackToolDefinition,
  ToolRegistry,
  ToolDescriptor,
  ToolDefinition,
  ToolExecution,
  HandlerType,
  HandlerConfig,
  HandlerConfigBase,
  HttpHandlerConfig,
  GrpcHandlerConfig,
  McpHandlerConfig,
  OpenApiHandlerConfig,
  ClientHandlerConfig,
  HttpConfig,
  GrpcConfig,
  McpConfig,
  McpTransport,
  OpenApiConfig,
  ClientConfig,
  HttpRetryPolicy,
  GrpcRetryPolicy,
  McpRetryPolicy,
  GrpcStatusCodeName,
  AuthConfig,
  BearerAuthConfig,
  BasicAuthConfig,
  ServiceAccountAuthConfig,
  WorkloadIdentityAuthConfig,
  SecretKeyRef,
  DelegationConfig,
  ProbeConfig,
} from "./manifest/index.js";

// reconcile: which tools each prompt is offered, and pack/registry mismatches (issue #4)
export { reconcileTools, EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "./reconcile/index.js";
export type { ReconcilablePack, ServedTools, ReconcileOptions, ReconcileResult, Mismatch, MismatchKind } from "./reconcile/index.js";
