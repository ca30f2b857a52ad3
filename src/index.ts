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
  ConfigError,
  InvalidOptionError,
  ClosedError,
  AbortedError,
  TimeoutError,
  MissingPeerError,
  systemClock,
  noopLogger,
  parseGoDuration,
  formatGoDuration,
} from "./core/index.js";
export { isOmniaToolsError } from "./errors/index.js";
export type { OmniaToolsErrorByCode } from "./errors/index.js";
export type {
  ErrorCodeValue,
  ToolHandlerType,
  OmniaToolsErrorOptions,
  ConfigIssue,
  Clock,
  TimerHandle,
  Logger,
  LogFields,
  JsonValue,
  JsonObject,
} from "./core/index.js";
// breaker and retry (issue #5): per-tool and per-claim circuit breakers, the retries-exhausted error
export {
  createCircuitBreakers,
  createConversation,
  createReachabilityMemory,
  CircuitOpenError,
  isBreakerFailure,
} from "./breaker/index.js";
export type {
  CircuitBreakers,
  CircuitBreakersOptions,
  CircuitBreaker,
  BreakerTicket,
  BreakerState,
  BreakerSnapshot,
  BreakerThresholds,
  BreakerSettings,
  BreakerEventMap,
  BreakerBreakEvent,
  BreakerHalfOpenEvent,
  BreakerResetEvent,
  BreakReason,
  CircuitRejectionState,
  Disposable,
  Conversation,
  ConversationOptions,
  ReachabilityMemory,
} from "./breaker/index.js";
export { RetriesExhaustedError } from "./retry/index.js";

// headers: x-omnia-* identity propagation, claims, parameters, Go-exact formatting (Omnia's pkg/policy/context.go, internal/runtime/tools/http_client.go)
export {
  OmniaHeader,
  OMNIA_HEADER_KEYS,
  canonicalHeaderKey,
  canonicalClaimHeader,
  toPascalCase,
  goFormat,
  goFormatFloat,
  promoteScalarParams,
  toOutboundHeaders,
  toGrpcMetadata,
  identityFromMetadata,
  identityPayload,
  appendQuery,
  mergeHeaders,
  mergeHttpToolHeaders,
  mergeGrpcToolMetadata,
  canonicalizeHeaders,
  HTTP_TOOL_HEADER_PRECEDENCE,
  GRPC_TOOL_METADATA_PRECEDENCE,
  buildOmniaHeaders,
  buildOmniaGrpcMetadata,
} from "./headers/index.js";
export type {
  Identity,
  AgentInfo,
  IncomingIdentity,
  IdentityPayload,
  OmniaHeaderName,
  OmniaKeyGroup,
  OmniaHeaderKey,
  IdentityStringField,
  HeaderBuildOptions,
  HeadersLike,
  MetadataInput,
  IdentityFromMetadataOptions,
  HeaderLayer,
  HttpToolHeaderSources,
  GrpcToolMetadataSources,
  OmniaHeaderContext,
} from "./headers/index.js";

// grpc: the errors a gRPC tool's outcome carries. The ToolService client, the backend helper
// (serve a ToolService from a map of tools) and the generated descriptors are in `omnia-tools/grpc`,
// so that this entry does not load connect or protobuf; the executor loads them on its first gRPC call.
export { ToolError, GrpcStatusError } from "./grpc/errors.js";

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
  checkSchemaTargets,
  SCHEMA_TARGETS,
} from "./manifest/index.js";
export type {
  SchemaTarget,
  SchemaTargetIssue,
  LoadToolRegistryOptions,
  ManifestInput,
  ManifestIssue,
  DuplicateTool,
  PromptPack,
  PackPrompt,
  PackToolDefinition,
  LoadPromptPackOptions,
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
export type { ReconcilablePack, ReconcilableStep, ServedTools, ReconcileOptions, ReconcileResult, Mismatch, MismatchKind, ToolUse, ToolUseKind } from "./reconcile/index.js";

// turn: the PromptKit provider stage in front of the executor, what the model sees
export { createTurn, TurnError, DEFAULT_MAX_PARALLEL_CALLS, DEFAULT_MAX_RESULT_BYTES, DEFAULT_REPEAT_THRESHOLD, DEFAULT_MAX_ROUNDS } from "./turn/index.js";
export type {
  Turn,
  TurnOptions,
  TurnExecutor,
  TurnExecuteHooks,
  TurnRoundSpan,
  TurnOutcome,
  TurnCall,
  TurnToolCall,
  TurnTool,
  TurnMessage,
  TurnRound,
  TurnCompletion,
  TurnFailure,
  PromptKitVersion,
  TurnApprovalCall,
  TurnApprovalHold,
  TurnApprovalRequest,
  TurnApproveOptions,
  TurnSnapshot,
  TurnResultBudget,
  ResultBudget,
  ResultBudgetCut,
} from "./turn/index.js";

// the executor pipeline, platform tools, policy hook, records, client tools
export {
  createToolExecutor,
  UnknownToolError,
  InvalidArgumentsError,
  AuthError,
  ClientToolError,
  BackendError,
  DuplicateCallIdError,
  SandboxUnreachableError,
  SANDBOX_DIAL_TIMEOUT_MS,
} from "./executor/index.js";
export type {
  ToolExecutor,
  ToolExecutorOptions,
  ToolExecutorEvents,
  DelegationSource,
  ToolCallHooks,
  ToolRoundSpan,
  ToolCall,
  CallContext,
  RecordSequence,
  ToolOutcome,
  OutcomeBase,
  SuccessOutcome,
  ErrorOutcome,
  DeniedOutcome,
  ClientOutcome,
  SecretResolver,
  WorkloadTokenAcquirer,
  PlatformTool,
  PlatformToolContext,
  HandlerHealth,
} from "./executor/index.js";
export { PolicyDeniedError, POLICY_UNREACHABLE_REASON } from "./policy/index.js";
export type { DecisionRequest, Decision, PolicyDecide, PolicyOption } from "./policy/index.js";
// policy broker (issue #8): the HTTP client of Omnia's ToolPolicy decision broker, usable as the executor's `policy` option
export {
  createPolicyBrokerClient,
  POLICY_BROKER_DECISION_PATH,
  DEFAULT_POLICY_BROKER_TIMEOUT_MS,
  POLICY_BROKER_UNREACHABLE_RULE,
} from "./policy/index.js";
export type { PolicyAudit, PolicyBrokerClient, PolicyBrokerClientOptions } from "./policy/index.js";
export type { ToolCallRecord, ToolCallStart, Recorder, ToolCallStatus, SessionApiRecorder, SessionApiRecorderOptions, SessionApiRecorderStats } from "./records/index.js";
export { createSessionApiRecorder } from "./records/index.js";
// telemetry (issue #22): OpenTelemetry spans, metrics and trace propagation, when the host installs @opentelemetry/api
export type {
  TelemetryOptions,
  TelemetryAttributes,
  TracePropagationMode,
  TelemetryConvention,
  McpRequestInfo,
  McpRequestTrace,
  McpRequestObserver,
  OtelAttributes,
  OtelContext,
  OtelSpan,
  OtelTracer,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelTextMapSetter,
  OtelPropagator,
} from "./telemetry/index.js";
export { interpretClientResult, NO_CLIENT_REASON, CLIENT_NEVER_ANSWERED_REASON, UnknownClientCallError } from "./client-tools/index.js";
export type { ClientToolRequest, ClientToolResult, ClientResultMeaning } from "./client-tools/index.js";

// http
export {
  buildHttpRequest,
  interpretHttpResponse,
  HttpStatusError,
  HttpTransportError,
  HttpRequestError,
  MappingError,
  MAX_RESPONSE_BYTES,
  ERROR_BODY_MAX_BYTES,
} from "./http/index.js";
export type {
  HttpRequestShaping,
  HttpRequestHandler,
  HttpHeaderContext,
  HttpResponseShaping,
  HttpInterpretation,
  HttpRequestShape,
  HttpDispatcher,
  HttpDispatchOptions,
  HttpDispatchHandler,
  HttpDispatchController,
} from "./http/index.js";
// mcp (issue #11): an MCP tool client on the official SDK (streamable-http, sse, stdio), result shaping, typed errors
export {
  createMcpToolClient,
  interpretMcpResult,
  mcpToolAllowed,
  McpToolError,
  McpTransportError,
  McpArgumentsError,
  McpAuthError,
  McpResultTooLargeError,
  MCP_TOOL_ERROR_FALLBACK,
  MCP_CLIENT_INFO,
  MCP_MODERN_REVISION,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  describeMcpStdioExit,
} from "./mcp/index.js";
export type {
  McpStdioExit,
  McpToolClient,
  McpToolClientOptions,
  McpCallOptions,
  McpListOptions,
  McpHeaderProvider,
  McpCallResult,
  McpCallToolResultFields,
  McpTransportKind,
  McpToolFilter,
  McpConnectionConfig,
  McpHandlerInput,
  McpToolDescriptor,
} from "./mcp/index.js";

// openapi (issue #11): tools derived from an OpenAPI 3.0/3.1 or Swagger 2.0 spec, requests built for the HTTP transport
export { loadOpenApiOperations, deriveOpenApiOperations, buildOpenApiRequest, OpenApiSpecError, DEFAULT_SPEC_FETCH_TIMEOUT_MS } from "./openapi/index.js";
export type {
  LoadOpenApiOptions,
  DeriveOpenApiOptions,
  OpenApiConfigInput,
  OpenApiHandlerInput,
  OpenApiMethod,
  OpenApiParameterLocation,
  OpenApiParameter,
  OpenApiOperation,
} from "./openapi/index.js";
