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
  startRuntime,
  readRuntimeEnvironment,
  DEFAULT_PROMPTPACK_PATH,
} from "./runtime/index.js";
export type {
  TurnRecordSequence,
  RuntimeStartContext,
  StartRuntimeOptions,
  StartedRuntime,
  RuntimeEnvironment,
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
  DuplexStartInfo,
  DuplexNegotiation,
  AudioInput,
  DuplexSession,
  DuplexEmitter,
} from "./runtime/index.js";
// identity rehydration, for hosts that read metadata outside a turn
export { identityFromMetadata } from "./headers/index.js";
export type { Identity, IncomingIdentity, MetadataInput, HeadersLike, IdentityFromMetadataOptions } from "./headers/index.js";
export type { ClientToolRequest } from "./client-tools/index.js";
export type { Clock, TimerHandle, Logger, LogFields } from "./core/index.js";
// What startRuntime hands createHandler (the executor, the loaded manifests, the recorder), and every type they use.
export type {
  BreakReason,
  BreakerBreakEvent,
  BreakerEventMap,
  BreakerHalfOpenEvent,
  BreakerResetEvent,
  BreakerSettings,
  BreakerSnapshot,
  BreakerState,
  BreakerThresholds,
  BreakerTicket,
  CircuitBreaker,
  CircuitBreakers,
  Conversation,
  Disposable,
  ReachabilityMemory,
} from "./breaker/index.js";
export type { ConfigIssue, JsonObject, ToolHandlerType } from "./core/index.js";
export type {
  CallContext,
  RecordSequence,
  ClientOutcome,
  DelegationSource,
  DeniedOutcome,
  ErrorOutcome,
  HandlerHealth,
  OutcomeBase,
  PlatformTool,
  PlatformToolContext,
  SecretResolver,
  SuccessOutcome,
  ToolCallHooks,
  ToolExecutor,
  ToolExecutorEvents,
  ToolExecutorOptions,
  ToolOutcome,
  ToolRoundSpan,
  WorkloadTokenAcquirer,
} from "./executor/index.js";
export type { AgentInfo, IdentityPayload } from "./headers/index.js";
export type { HttpDispatchController, HttpDispatchHandler, HttpDispatchOptions, HttpDispatcher } from "./http/index.js";
export type {
  AuthConfig,
  BasicAuthConfig,
  BearerAuthConfig,
  ClientConfig,
  ClientHandlerConfig,
  DelegationConfig,
  GrpcConfig,
  GrpcHandlerConfig,
  GrpcRetryPolicy,
  GrpcStatusCodeName,
  HandlerConfig,
  HandlerConfigBase,
  HandlerType,
  HttpConfig,
  HttpHandlerConfig,
  HttpRetryPolicy,
  ManifestIssue,
  McpConfig,
  McpHandlerConfig,
  McpRetryPolicy,
  McpTransport,
  OpenApiConfig,
  OpenApiHandlerConfig,
  PackPrompt,
  PackToolDefinition,
  ProbeConfig,
  PromptPack,
  SecretKeyRef,
  ServiceAccountAuthConfig,
  ToolDefinition,
  ToolDescriptor,
  ToolRegistry,
  WorkloadIdentityAuthConfig,
} from "./manifest/index.js";
export type { Decision, DecisionRequest, PolicyAudit, PolicyDecide, PolicyOption } from "./policy/index.js";
export type { Mismatch, MismatchKind, ReconcileResult, ToolUse, ToolUseKind } from "./reconcile/index.js";
export type { Recorder, SessionApiRecorder, SessionApiRecorderStats, ToolCallRecord, ToolCallStart, ToolCallStatus } from "./records/index.js";
export type {
  OtelAttributes,
  OtelContext,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelPropagator,
  OtelSpan,
  OtelTextMapSetter,
  OtelTracer,
  TelemetryAttributes,
  TelemetryConvention,
  TelemetryOptions,
  TracePropagationMode,
} from "./telemetry/index.js";
// Three names the runtime contract's messages already use: the executor's own types under another name here.
export type { ToolCall as ExecutorToolCall } from "./executor/index.js";
export type { ClientToolResult as ExecutorClientToolResult } from "./client-tools/index.js";
export type { ToolExecution as ToolExecutionKind } from "./manifest/index.js";
