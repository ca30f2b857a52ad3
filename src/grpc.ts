/**
 * omnia-tools/grpc: the omnia.tools.v1.ToolService client and its outcome
 * mapping, the backend helper (serve a ToolService from a map of tools), and
 * the generated ToolService descriptor and message schemas. This entry loads
 * connect and protobuf; the root entry does not.
 *
 * @packageDocumentation
 */
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
export { ErrorCode, OmniaToolsError } from "./core/index.js";
export type { OmniaToolsErrorOptions, Clock, TimerHandle, JsonObject, JsonValue, Logger, LogFields } from "./core/index.js";
export type {
  GrpcStatusCodeName,
  ToolServiceClient,
  ToolServiceClientOptions,
  ToolServiceCallOptions,
  ToolResponseFields,
  ToolResponseInterpretation,
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
