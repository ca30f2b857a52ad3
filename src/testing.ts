/**
 * omnia-tools/testing: helpers for test harnesses that exercise a runtime or a
 * tool backend: loopback HTTP and gRPC tool backends with fault injection, a
 * manual clock, an in-memory recorder and outcome assertions with a diff.
 *
 * @packageDocumentation
 */
export {
  createManualClock,
  MemoryRecorder,
  startHttpToolBackend,
  httpReply,
  startGrpcToolBackend,
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
  FaultScope,
  FaultMap,
  ExpectedOutcome,
  ExpectedRecord,
} from "./testing/index.js";
export type { Clock, TimerHandle } from "./core/index.js";
export type { Recorder, ToolCallRecord, ToolCallStart, ToolCallStatus } from "./records/index.js";
export type { JsonValue, JsonObject, GrpcStatusCodeName, HandlerType, ToolHandlerType } from "./core/index.js";
export type { ToolImplementations, ToolImplementation, ToolServiceContext } from "./grpc/index.js";
