export {
  createTelemetry,
  TOOL_CALL_SPAN_NAME,
  TOOL_CALLS_METRIC,
  TOOL_CALL_DURATION_METRIC,
  TOOL_CALL_DURATION_BUCKETS_S,
  BREAKER_TRANSITIONS_METRIC,
  INSTRUMENTATION_SCOPE,
  TURN_ROUND_SPAN_NAME,
  TURN_ROUND_CALLS_ATTRIBUTE,
} from "./telemetry.js";
export { GEN_AI_SEMCONV_VERSION, GEN_AI_LIMITS } from "./gen-ai.js";
export type { McpRequestInfo, McpRequestTrace, McpRequestObserver } from "./mcp-spans.js";
export type {
  Telemetry,
  TelemetryOptions,
  TelemetryAttributes,
  TracePropagationMode,
  CallSpan,
  CallStartInfo,
  CallRetryInfo,
  CallEndInfo,
  CallContent,
  TelemetryConvention,
} from "./telemetry.js";
export {
  logExecuteEnter,
  logToolNotFound,
  logDispatchEnter,
  logPolicyCall,
  logPolicyDecision,
  logPolicyDenied,
  logCallEvent,
  logClientToolRequested,
  logToolsInitialized,
} from "./log-lines.js";
export type { CallEventLine } from "./log-lines.js";
export type {
  OtelAttributes,
  OtelContext,
  OtelSpan,
  OtelTracer,
  OtelCounter,
  OtelHistogram,
  OtelMeter,
  OtelTextMapSetter,
  OtelPropagator,
} from "./otel-types.js";
