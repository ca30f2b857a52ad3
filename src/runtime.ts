/**
 * omnia-tools/runtime: the omnia.runtime.v1 contract (1.9.0), the runtime SDK
 * (serve a RuntimeService) and identity rehydration.
 *
 * @packageDocumentation
 */
export {
  CONTRACT_VERSION,
  Capability,
  knownCapabilities,
  hasCapability,
  normalizeCapabilities,
} from "./contract/index.js";
export type { CapabilityName } from "./contract/index.js";
export { ErrorCode, OmniaToolsError, isOmniaToolsError } from "./core/index.js";
export type { OmniaToolsErrorOptions, JsonValue } from "./core/index.js";
export * from "./contract/gen.js";

// runtime SDK (issue #9): serve omnia.runtime.v1.RuntimeService from a handler
export {
  createRuntimeService,
  serveRuntime,
  turnText,
  RuntimeMessages,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  ConverseStateError,
  RUNTIME_PEER_ADDRESS,
  runtimeContextValues,
  isLoopbackAddress,
} from "./runtime/index.js";
export type {
  RuntimeRoutes,
  ServeRuntimeOptions,
  RuntimeServer,
  RuntimeServiceOptions,
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
} from "./runtime/index.js";
// identity rehydration, for hosts that read metadata outside a turn
export { identityFromMetadata } from "./headers/index.js";
export type { Identity, IncomingIdentity, MetadataInput, HeadersLike, IdentityFromMetadataOptions } from "./headers/index.js";
export type { ClientToolRequest } from "./client-tools/index.js";
export type { Clock, TimerHandle, Logger, LogFields } from "./core/index.js";
