export { createToolServiceClient } from "./client.js";
export type { ToolServiceClient, ToolServiceClientOptions, ToolServiceCallOptions } from "./client.js";
export { interpretToolResponse } from "./response.js";
export type { ToolResponseFields, ToolResponseInterpretation } from "./response.js";
export { ToolError, GrpcStatusError, grpcCodeName } from "./errors.js";
export { toGrpcStatusError } from "./status-error.js";
export type { GrpcStatusCodeName } from "./errors.js";
export { createToolServiceHandler } from "./handler.js";
export type { ToolImplementation, ToolImplementations, ToolServiceContext, ToolServiceHandlerOptions } from "./handler.js";
export { serveToolService } from "./serve.js";
export type { ServeToolServiceOptions, ToolServiceServer, ToolServiceTlsOptions } from "./serve.js";
export { outboundMetadata } from "./metadata.js";
export { registerHealth } from "./health.js";
export { closeIdleSessions, serverLimits, trackConnections, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_CONCURRENT_STREAMS } from "./server-limits.js";
export {
  ToolService,
  ToolRequestSchema,
  ToolResponseSchema,
  ListToolsRequestSchema,
  ListToolsResponseSchema,
  ToolInfoSchema,
  file_omnia_tools_v1_tools,
} from "../gen/omnia/tools/v1/tools_pb.js";
export type { ToolRequest, ToolResponse, ListToolsRequest, ListToolsResponse, ToolInfo } from "../gen/omnia/tools/v1/tools_pb.js";
