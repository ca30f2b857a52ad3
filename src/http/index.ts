export { buildHttpRequest, buildParsedHttpRequest, argumentsPresent, pathEscape } from "./request.js";
export type { HttpRequestShaping, HttpRequestHandler, HttpHeaderContext } from "./request.js";
export { interpretHttpResponse, errorBodyText, evaluateMapping, ERROR_BODY_MAX_BYTES } from "./response.js";
export type { HttpResponseShaping, HttpInterpretation } from "./response.js";
export { sendHttpRequest, createDefaultDispatcher, sensitiveHeaderNames, ALWAYS_SENSITIVE_HEADERS, MAX_RESPONSE_BYTES, MAX_RESPONSE_HEADER_BYTES, MAX_REDIRECTS } from "./transport.js";
export type { HttpRequestShape, HttpWireResponse, SendOptions, HttpDispatcher } from "./transport.js";
export { HttpStatusError, HttpTransportError, HttpRequestError, MappingError } from "./errors.js";
