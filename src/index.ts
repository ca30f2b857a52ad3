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

// grpc: the omnia.tools.v1.ToolService client, its outcome mapping, and the
// backend helper (serve a ToolService from a map of tools), plus the generated
// ToolService descriptor and message schemas/types as a convenience.
export {
  createToolServiceClient,
  interpretToolResponse,
  createToolServiceHandler,
  serveToolService,
  ToolError,
  GrpcStatusError,
  ToolService,
  ToolRequestSchema,
  ToolResponseSchema,
  ListToolsRequestSchema,
  ListToolsResponseSchema,
  ToolInfoSchema,
} from "./grpc/index.js";
export type {
  ToolServiceClient,
  ToolServiceClientOptions,
  ToolServiceCallOptions,
  ToolResponseFields,
  ToolResponseInterpretation,
  GrpcStatusCodeName,
  ToolImplementation,
  ToolImplementations,
  ToolServiceContext,
  ToolServiceHandlerOptions,
  ServeToolServiceOptions,
  ToolServiceServer,
  ToolServiceTlsOptions,
  ToolRequest,
  ToolResponse,
  ListToolsRequest,
  ListToolsResponse,
  ToolInfo,
} from "./grpc/index.js";
