/**
 * omnia-tools: execute LLM tool calls exactly the way the Omnia agent runtime does.
 *
 * @packageDocumentation
 */
// core
export {
  ErrorCode,
  errorBrand,
  OmniaToolsError,
  isOmniaToolsError,
  ConfigError,
  InvalidOptionError,
  ClosedError,
  AbortedError,
  TimeoutError,
  systemClock,
  noopLogger,
  parseGoDuration,
  formatGoDuration,
} from "./core/index.js";
export type {
  ErrorCodeValue,
  OmniaToolsErrorOptions,
  ConfigIssue,
  Clock,
  TimerHandle,
  Logger,
  LogFields,
  JsonValue,
  JsonObject,
} from "./core/index.js";
