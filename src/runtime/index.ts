export { createRuntimeService, buildRuntimeService } from "./runtime-service.js";
export type { RuntimeRoutes } from "./runtime-service.js";
export { serveRuntime } from "./serve-runtime.js";
export type { ServeRuntimeOptions, RuntimeServer } from "./serve-runtime.js";
export type { RuntimeServiceOptions } from "./options.js";
export { turnText } from "./turn-text.js";
export { RuntimeMessages, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_HEARTBEAT_INTERVAL_MS } from "./constants.js";
export { ConverseStateError } from "./errors.js";
export { RUNTIME_PEER_ADDRESS, runtimeContextValues, isLoopbackAddress } from "./peer.js";
export { resolveCapabilities } from "./capabilities.js";
export type {
  TurnPart,
  TokenUsage,
  FinishReason,
  TurnDone,
  TurnMedia,
  Turn,
  ClientToolReply,
  Emitter,
  RuntimeCallContext,
  InvocationEvent,
  InvocationEvents,
  Invocation,
  InvocationResult,
  ResumeStateName,
  ConversationProbeResult,
  RuntimeHandler,
  DuplexStartInfo,
  DuplexNegotiation,
  AudioInput,
  DuplexSession,
  DuplexEmitter,
} from "./types.js";
export { startRuntime } from "./start-runtime.js";
export type { RuntimeStartContext, StartRuntimeOptions, StartedRuntime } from "./start-runtime.js";
export { readRuntimeEnvironment, DEFAULT_PROMPTPACK_PATH } from "./environment.js";
export type { RuntimeEnvironment } from "./environment.js";
export type { TurnRecordSequence } from "./record-sequence.js";
