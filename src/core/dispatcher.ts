// The dispatcher shape the package calls, declared structurally (no undici types), so that
// a host's undici 7 or 8 Agent, Pool, Client or composed dispatcher type-checks.

/**
 * The controller a dispatcher hands the transport's handler: the transport only
 * aborts a transfer through it (undici's `DispatchController` fits).
 * @public
 */
export interface HttpDispatchController {
  abort(reason: Error): void;
}

/**
 * The handler the transport passes to `dispatch()`: undici's
 * `onRequestStart` … `onResponseEnd` handler interface, the members it implements.
 * (An `Agent`, `Pool` or `Client` of the package's own undici gets a handler of
 * undici's `onConnect` … `onComplete` interface instead, the one those run every
 * handler through.)
 * @public
 */
export interface HttpDispatchHandler {
  onRequestStart?(controller: HttpDispatchController, context: unknown): void;
  onResponseStart?(controller: HttpDispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void;
  onResponseData?(controller: HttpDispatchController, chunk: Buffer): void;
  onResponseEnd?(controller: HttpDispatchController, trailers: Record<string, string | string[] | undefined>): void;
  onResponseError?(controller: HttpDispatchController | null, error: Error): void;
}

/**
 * The options the transport passes to `dispatch()`: one request, redirects
 * followed by the transport itself.
 * @public
 */
export interface HttpDispatchOptions {
  readonly origin: string;
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/**
 * What HTTP backends are called through: any object with undici's
 * `dispatch(options, handler)`, the one method the transport calls. An undici 7
 * or 8 `Agent`, `Pool`, `Client` or a composed dispatcher fits. Note that
 * undici's `compose()` runs interceptors in the opposite order to this
 * package's interceptor arrays (first = outermost here).
 * @public
 */
export interface HttpDispatcher {
  dispatch(options: HttpDispatchOptions, handler: HttpDispatchHandler): boolean;
}
