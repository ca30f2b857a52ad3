import { ErrorCode, OmniaToolsError, type OmniaToolsErrorOptions } from "../core/index.js";

/**
 * The backend answered with a status outside 200–299. The message is the text
 * the model sees: `HTTP <status>: <body>`, the body cut at 512 bytes plus `...`.
 * A 4xx is not a breaker failure (the backend answered; the request was wrong).
 * @public
 */
export class HttpStatusError extends OmniaToolsError {
  static override readonly code = ErrorCode.HTTP_STATUS;
  declare readonly code: typeof ErrorCode.HTTP_STATUS;
  /** The HTTP status code. */
  readonly status: number;
  /** `Retry-After` as sent, when the response carried one. */
  readonly retryAfter: string | undefined;
  constructor(status: number, bodyText: string, retryAfter?: string, options?: OmniaToolsErrorOptions) {
    super(`HTTP ${status}: ${bodyText}`, options);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/**
 * A `responseMapping` or `bodyMapping` JMESPath expression failed to compile or
 * evaluate. Messages: `JMESPath response mapping "<expr>": <library message>`
 * and `body mapping: JMESPath expression "<expr>": <library message>`.
 * @public
 */
export class MappingError extends OmniaToolsError {
  static override readonly code = ErrorCode.MAPPING;
  declare readonly code: typeof ErrorCode.MAPPING;
  /** The expression that failed. */
  readonly expression: string;
  constructor(message: string, expression: string, options?: OmniaToolsErrorOptions) {
    super(message, options);
    this.expression = expression;
  }
}

/**
 * The request never produced a status: refused or reset connection, DNS
 * failure, TLS failure, too many redirects, a body that broke off before the
 * headers. The message follows Go's shape, `<Method> "<url>": <reason>`.
 * @public
 */
export class HttpTransportError extends OmniaToolsError {
  static override readonly code = ErrorCode.TRANSPORT;
  declare readonly code: typeof ErrorCode.TRANSPORT;
  /**
   * Network-class (connect, read or write failure, DNS, reset): retried when
   * the retry policy has `retryOnNetworkError`. Other transport errors are not.
   */
  readonly networkClass: boolean;
  /** The Node or undici error code behind it, such as `ECONNREFUSED`. */
  readonly causeCode: string | undefined;
  /**
   * The status, when the headers arrived and the body then broke off
   * (`reading response body: <reason>`); retries then go by this status.
   */
  readonly status: number | undefined;
  constructor(
    message: string,
    networkClass: boolean,
    details: { readonly causeCode?: string | undefined; readonly status?: number | undefined } = {},
    options?: OmniaToolsErrorOptions,
  ) {
    super(message, options);
    this.networkClass = networkClass;
    this.causeCode = details.causeCode;
    this.status = details.status;
  }
}

/**
 * The request could not be built from the handler and the arguments: wrong
 * argument shape for the advanced path, a bad URL, a bad method, a failing
 * bodyMapping. Nothing was sent. Not retried; counts as a breaker failure, as
 * in Omnia.
 * @public
 */
export class HttpRequestError extends OmniaToolsError {
  static override readonly code = ErrorCode.HTTP_REQUEST;
  declare readonly code: typeof ErrorCode.HTTP_REQUEST;
}
