import type { JsonValue } from "../core/index.js";
import {
  interpretHttpResponse,
  sendHttpRequest,
  type HttpHeaderContext,
  type HttpInterpretation,
  type HttpRequestShape,
  type HttpWireResponse,
  type SendOptions,
  type HttpDispatcher,
} from "../http/index.js";
import { buildOpenApiRequest } from "./request.js";
import type { OpenApiOperation } from "./types.js";

/**
 * One attempt of an OpenAPI operation: what was sent, what came back, and
 * what it means for the model.
 * @internal Does not follow semver.
 */
export interface OpenApiAttempt {
  readonly request: HttpRequestShape;
  readonly response: HttpWireResponse;
  readonly interpretation: HttpInterpretation;
}

/**
 * Runs one attempt of an operation through the HTTP transport, exactly as an
 * http handler's attempt runs (Omnia: "executed through the
 * HTTP path"): {@link buildOpenApiRequest}, then `sendHttpRequest` (redirects,
 * the 10 MiB cap, Go-shaped transport errors), then `interpretHttpResponse`
 * with no `redact` or `responseMapping` (`openAPIConfig` has neither): a 2xx
 * JSON body verbatim, a non-JSON one as `{"result": ...}`, anything else
 * `HTTP <status>: <body>`.
 *
 * The executor wraps it like an http attempt: per-attempt timeout as
 * `options.signal`, breaker by status (4xx is not a failure), retry by
 * `openAPIConfig.retryPolicy` with `classifyHttpStatus`/`classifyHttpError`.
 *
 * @throws HttpRequestError for arguments that are not an object;
 *   HttpTransportError when no status arrived; the signal's reason when it aborted
 * @internal Does not follow semver.
 */
export async function executeOpenApiOperation(
  dispatcher: HttpDispatcher,
  operation: OpenApiOperation,
  args: string | JsonValue | undefined,
  context: HttpHeaderContext = {},
  options: SendOptions = {},
): Promise<OpenApiAttempt> {
  return sendOpenApiRequest(dispatcher, buildOpenApiRequest(operation, args, context), options);
}

/**
 * The sending half of {@link executeOpenApiOperation}: one attempt of a request
 * already built by `buildOpenApiRequest` (the executor builds it once per call).
 * @internal Does not follow semver.
 */
export async function sendOpenApiRequest(dispatcher: HttpDispatcher, request: HttpRequestShape, options: SendOptions = {}): Promise<OpenApiAttempt> {
  const response = await sendHttpRequest(dispatcher, request, options);
  const retryAfter = response.headers["retry-after"];
  const interpretation = interpretHttpResponse({}, response.status, response.body, {
    truncated: response.truncated,
    retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
  });
  return { request, response, interpretation };
}
