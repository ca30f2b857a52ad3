export {
  createTelemetry,
  TOOL_CALL_SPAN_NAME,
  TOOL_CALLS_METRIC,
  TOOL_CALL_DURATION_METRIC,
  TOOL_CALL_DURATION_BUCKETS_S,
  BREAKER_TRANSITIONS_METRIC,
  INSTRUMENTATION_SCOPE,
} from "./telemetry.js";
export type {
  Telemetry,
  TelemetryOptions,
  TelemetryAttributes,
  TracePropagationMode,
  CallSpan,
  CallStartInfo,
  CallRetryInfo,
  CallEndInfo,
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
