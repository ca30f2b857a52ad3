export { loadToolRegistry, inspectToolRegistry, emptyToolRegistry, rebuildToolRegistry } from "./load-tool-registry.js";
export type { LoadToolRegistryOptions, ToolRegistryInspection } from "./load-tool-registry.js";
export { checkSchemaTargets, parseSchemaTargets, SCHEMA_TARGETS } from "./schema-targets.js";
export { formatPath } from "./issues.js";
export { withEndpoints } from "./with-endpoints.js";
export type { SchemaTarget, SchemaTargetIssue } from "./schema-targets.js";
export { loadPromptPack } from "./load-prompt-pack.js";
export type { PromptPack, PackPrompt, PackToolDefinition, LoadPromptPackOptions } from "./load-prompt-pack.js";
export { DuplicateToolError } from "./duplicate-tool-error.js";
export type { DuplicateTool } from "./duplicate-tool-error.js";
export type { ManifestInput } from "./documents.js";
export {
  TOOL_REGISTRY_API_VERSION,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_BACKOFF_MULTIPLIER,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_HTTP_RETRY_ON,
  DEFAULT_GRPC_RETRYABLE_STATUS_CODES,
  GRPC_STATUS_CODE_NAMES,
  CLIENT_ENDPOINT,
} from "./defaults.js";
export type {
  HandlerType,
  ToolExecution,
  ToolDescriptor,
  ToolDefinition,
  SecretKeyRef,
  AuthConfig,
  BearerAuthConfig,
  BasicAuthConfig,
  ServiceAccountAuthConfig,
  WorkloadIdentityAuthConfig,
  HttpRetryPolicy,
  GrpcRetryPolicy,
  McpRetryPolicy,
  GrpcStatusCodeName,
  HttpConfig,
  GrpcConfig,
  McpConfig,
  McpTransport,
  OpenApiConfig,
  ClientConfig,
  DelegationConfig,
  ProbeConfig,
  HandlerConfigBase,
  HandlerConfig,
  HttpHandlerConfig,
  GrpcHandlerConfig,
  McpHandlerConfig,
  OpenApiHandlerConfig,
  ClientHandlerConfig,
  ToolRegistry,
  ManifestIssue,
} from "./types.js";
