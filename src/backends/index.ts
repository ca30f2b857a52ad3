export type { Backend, BackendCall, BackendEnv, BackendSuccess, PreparedCall, ExecutableHandler, PlatformHandlerConfig } from "./backend.js";
export type { PlatformTool, PlatformToolContext } from "./platform-tool.js";
export { createBackendTable, type BackendTable, type ServerHandlerType } from "./table.js";
export { httpAttempt, type HttpExchange } from "./http.js";
export { grpcAttempt, type PreparedGrpcCall } from "./grpc.js";
export { httpRetrySetup, grpcRetrySetup, normalizedPolicy } from "./retry-setup.js";
