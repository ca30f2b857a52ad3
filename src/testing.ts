/**
 * omnia-tools/testing: helpers for test harnesses that exercise a runtime or a
 * tool backend: loopback HTTP, gRPC and MCP tool backends with fault
 * injection, a registry pointed at them (`withEndpoints`), a manual clock, an
 * in-memory recorder and outcome assertions with a diff.
 *
 * @packageDocumentation
 */
export {
  createManualClock,
  MemoryRecorder,
  startHttpToolBackend,
  httpReply,
  startGrpcToolBackend,
  startMcpToolBackend,
  mcpResult,
  assertOutcome,
  assertRecord,
  toOutcomeJson,
} from "./testing/index.js";
export type {
  ManualClock,
  HttpToolBackend,
  HttpToolBackendOptions,
  HttpBackendRequest,
  HttpRoute,
  HttpReply,
  HttpReplyOptions,
  HttpFault,
  GrpcToolBackend,
  GrpcToolBackendOptions,
  GrpcBackendCall,
  GrpcFault,
  McpToolBackend,
  McpToolBackendOptions,
  McpBackendRequest,
  McpBackendTool,
  McpBackendResult,
  McpBackendTransport,
  McpResult,
  McpResultOptions,
  McpFault,
  FaultScope,
  FaultMap,
  ExpectedOutcome,
  ExpectedRecord,
} from "./testing/index.js";
export { recordCassette, replayCassette, CassetteMissError } from "./testing/index.js";
export type { RecordCassetteOptions, ReplayCassetteOptions, CassetteCall, CassetteEntry, CassetteRecordedOutcome, CassetteExecutor, CassetteExecutorEvents, CassetteToolCall, CassetteOutcome, CassetteClientRequest, CassetteClientResult, CassetteToolDescriptor } from "./testing/index.js";
export { ErrorCode, OmniaToolsError, InvalidOptionError } from "./core/index.js";
export type { Clock, TimerHandle } from "./core/index.js";
export { withEndpoints } from "./manifest/index.js";
export { checkBackend } from "./backend-check/index.js";
export type { BackendCheckReport, BackendCheckResult, BackendCheckStatus, BackendCheckName, CheckBackendOptions } from "./backend-check/index.js";
export type { HttpDispatcher, HttpDispatchOptions, HttpDispatchHandler, HttpDispatchController, Logger, LogFields } from "./core/index.js";
export type { Identity, AgentInfo } from "./headers/index.js";
export type { SecretResolver, WorkloadTokenAcquirer } from "./executor/index.js";
export type { SecretKeyRef } from "./manifest/index.js";
export type { ToolRegistry } from "./manifest/index.js";
export type { Recorder, ToolCallRecord, ToolCallStart, ToolCallStatus } from "./records/index.js";
export type { JsonValue, JsonObject, GrpcStatusCodeName, HandlerType, ToolHandlerType } from "./core/index.js";
export type { ToolImplementations, ToolImplementation, ToolServiceContext } from "./grpc/index.js";
