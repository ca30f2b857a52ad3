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

// headers: x-omnia-* identity propagation, claims, parameters, Go-exact formatting (contract.md §4, http.md §2.10–§2.12)
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

// mcp (issue #11): an MCP tool client on the official SDK (streamable-http, sse, stdio), result shaping, typed errors
export {
  createMcpToolClient,
  interpretMcpResult,
  mcpToolAllowed,
  McpToolError,
  McpTransportError,
  McpArgumentsError,
  McpAuthError,
  MCP_TOOL_ERROR_FALLBACK,
  MCP_CLIENT_INFO,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
} from "./mcp/index.js";
export type {
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
