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
  toError,
  thrownText,
} from "./errors.js";
export type { ErrorCodeValue, OmniaToolsErrorOptions, ConfigIssue } from "./errors.js";
export { UnknownToolError, InvalidArgumentsError, AuthError, ClientToolError, BackendError, DuplicateCallIdError } from "./call-errors.js";
export type { HandlerType, ToolHandlerType } from "./handler-type.js";
export { rejectUnknownOptions } from "./known-options.js";
export { systemClock, MAX_TIMER_MS, armTimer } from "./clock.js";
export { didYouMean, nearestName } from "./did-you-mean.js";
export { matchToolPattern } from "./tool-pattern.js";
export { maskValues } from "./mask-values.js";
export type { Clock, TimerHandle, TimerTarget } from "./clock.js";
export { noopLogger } from "./logger.js";
export type { Logger, LogFields } from "./logger.js";
export { parseGoDuration, formatGoDuration } from "./duration.js";
export type { JsonValue, JsonObject } from "./json.js";
export { copyJsonValue } from "./json.js";
export { goJsonMarshal, goJsonString, compareUtf8, goJsonDecode, goJsonEncode, encodeGoJson, goJsonIndent } from "./go-json.js";
export { goJsonReencode, jsonNumberEnd, jsonSpaceEnd } from "./go-json-text.js";
export type { GoJsonValue, GoJsonDecoded, GoJsonDecodeOptions, GoJsonSink } from "./go-json.js";
export type { GrpcStatusCodeName } from "./grpc-status.js";
export { goQuote } from "./go-quote.js";
export { GRPC_STATUS_CODE_NAMES, DEFAULT_GRPC_RETRYABLE_STATUS_CODES } from "./grpc-status.js";
export { MAX_JSON_DEPTH, jsonDepthMessage, jsonTextTooDeep, jsonValueTooDeep } from "./json-depth.js";
export { urlTemplateLayout, pathTemplateLayout, urlTemplatePlacementProblem } from "./url-template.js";
export type { UrlTemplateField, UrlTemplatePlaceholder, UrlTemplateLayout } from "./url-template.js";
export { pathEscape, queryEscape, queryEscapeBinary, queryUnescapeBinary } from "./url-escape.js";
export { formatGrpcGoError, grpcGoStatusMessage } from "./grpc-go-error.js";
export { onSharedAbort, offSharedAbort } from "./shared-abort.js";
export { boundPeerText, PEER_TEXT_MAX_BYTES } from "./bound-text.js";
export { nodeErrorText } from "./node-error-text.js";
export { MissingPeerError, importWithPeers, GRPC_PEERS } from "./optional-peer.js";
export type { SharedAbortListener } from "./shared-abort.js";
export type { HttpDispatcher, HttpDispatchOptions, HttpDispatchHandler, HttpDispatchController } from "./dispatcher.js";
export { raceAbort } from "./race-abort.js";
