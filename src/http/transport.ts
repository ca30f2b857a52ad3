import { createRequire } from "node:module";
import { Buffer } from "node:buffer";
import type * as Undici from "undici";
import { HttpRequestError, HttpTransportError } from "./errors.js";
import { abortHookOf, type AbortHook } from "../retry/index.js";
import { redactUrl } from "./redact-url.js";
import { goQuote, nodeErrorText, type HttpDispatcher, type HttpDispatchOptions, type HttpDispatchHandler, type HttpDispatchController } from "../core/index.js";
import { goLocationError } from "./go-location.js";
import { ALWAYS_SENSITIVE_HEADERS, droppedCrossOrigin, MAX_REDIRECTS } from "../headers/index.js";

/** undici, loaded on the first default `Agent` (the first HTTP call without a host dispatcher), so that importing the package does not load it. undici is CommonJS: `require` gives the instance `import` would. */
let undiciModule: typeof Undici | undefined;
function undici(): typeof Undici {
  return (undiciModule ??= createRequire(import.meta.url)("undici") as typeof Undici);
}

/** The most of a response body ever read: 10 MiB, Omnia's `httpBodyMaxBytes`. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
// Redirects followed before `stopped after 10 redirects`, and the headers no cross-origin hop carries: one rule,
// in the headers layer, for every request the library sends (tool calls, spec fetches, probes, MCP).
export { ALWAYS_SENSITIVE_HEADERS, MAX_REDIRECTS };
/**
 * The most bytes of response headers the executor's own dispatcher accepts:
 * 10 MiB, Go's `Transport` default when `MaxResponseHeaderBytes` is 0
 * (undici's own default is 16 KiB). Past it the call fails with
 * `net/http: HTTP/1.x transport connection broken: net/http: server response headers exceeded 10485760 bytes; aborted`
 * (the text names this limit even for a host-supplied dispatcher with another `maxHeaderSize`).
 * @internal Does not follow semver.
 */
export const MAX_RESPONSE_HEADER_BYTES = 10 * 1024 * 1024;

/**
 * A request exactly as it goes on the wire.
 * @public
 */
export interface HttpRequestShape {
  /** Upper-case method, e.g. `POST`. */
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** Header names as they are sent; values as JS strings (non-ASCII is sent as UTF-8). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body text, when there is one. */
  readonly body?: string | undefined;
  /** Query keys whose values error texts show as `***` (the handler's fixed query values). */
  readonly redactQuery?: readonly string[] | undefined;
}

/**
 * What came back: the status, the headers, and at most `maxBodyBytes` of body.
 * @internal Does not follow semver.
 */
export interface HttpWireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
  /** The body was longer than the cap and was cut there; the rest was never read. */
  readonly truncated: boolean;
  /** How many redirects were followed. */
  readonly redirects: number;
}

export type { HttpDispatcher, HttpDispatchOptions, HttpDispatchHandler, HttpDispatchController };

/**
 * The executor's own keep-alive `Agent`, created on the first HTTP call and
 * closed by `executor.close()`.
 * @internal Does not follow semver.
 */
export function createDefaultDispatcher(): HttpDispatcher & { close(): Promise<void>; destroy(err?: Error | null): Promise<void> } {
  return new (undici().Agent)({ keepAliveTimeout: 4_000, connections: 256, maxHeaderSize: MAX_RESPONSE_HEADER_BYTES });
}

/**
 * The lower-cased names of every header in `records` (the handler's `auth`
 * headers, its resolved `headersFromSecret`, a policy broker's injected
 * headers): the set to pass as {@link SendOptions.sensitiveHeaders}.
 * @internal Does not follow semver.
 */
export function sensitiveHeaderNames(...records: readonly (Readonly<Record<string, string>> | undefined)[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const record of records) if (record !== undefined) for (const name of Object.keys(record)) names.add(name.toLowerCase());
  return names;
}

/** @internal Does not follow semver. */
export interface SendOptions {
  readonly signal?: AbortSignal | undefined;
  /** The attempt's cancellation, cheaper than a signal; takes precedence over `signal`. */
  readonly abort?: AbortHook | undefined;
  /** Cap for a 2xx body (default 10 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Cap for any other body: only the error text's 512 bytes (+1 to know it is longer) are needed. */
  readonly maxErrorBodyBytes?: number | undefined;
  readonly maxRedirects?: number | undefined;
  /**
   * Lower-case names of headers that carry a secret (the handler's `auth`
   * headers, `headersFromSecret`, broker-injected headers; see
   * {@link sensitiveHeaderNames}). With {@link ALWAYS_SENSITIVE_HEADERS}, they
   * are dropped on a redirect to another origin and stay dropped.
   */
  readonly sensitiveHeaders?: ReadonlySet<string> | undefined;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/** The most of a redirect's body drained to keep its connection; a longer one costs the socket. */
const REDIRECT_DRAIN_BYTES = 64 * 1024;

/**
 * Sends one request through `dispatcher`, follows redirects the way Go's
 * default client does (at most 10; 301/302/303 become GET without a body, HEAD
 * stays HEAD; 307/308 resend the method and body; the first `Location` is
 * used), and reads the body while counting, stopping at the cap: a larger body
 * is cut and its transfer stopped, never buffered.
 *
 * A redirect to another origin (scheme, host or port differ) carries no
 * secret, identity or manifest value: `Authorization`, `Proxy-Authorization`,
 * `Www-Authenticate`, `Cookie`, `Cookie2`, every `x-omnia-*` header,
 * `traceparent`, `tracestate`, `baggage` and every name in
 * `options.sensitiveHeaders` (the handler's credentials and static headers)
 * are dropped, and stay dropped for the rest of the chain (Go strips only the
 * first four, and only when the host is not the same domain or a subdomain). A
 * 307/308 that would resend a request body to another origin is not followed:
 * that redirect response is the result, as Go's client returns it when it
 * cannot resend a body. Other headers follow; a hop within the origin keeps
 * every header, as Go does.
 *
 * It drives undici's `dispatch()` with its own handler: the body's chunks are
 * collected as they arrive, with no stream and no async iteration in between
 * (`dispatcher.request()` wraps each response in a Readable, about a fifth of
 * a loopback call's CPU; issue #13).
 *
 * Throws {@link HttpTransportError} when no status arrives (messages as Go's
 * client: `Post "<url>": <reason>`), the abort reason when the signal (or abort
 * hook) fires, and {@link HttpRequestError} for a request undici refuses to
 * send (an invalid method or header).
 * @internal Does not follow semver.
 */
export function sendHttpRequest(dispatcher: HttpDispatcher, request: HttpRequestShape, options: SendOptions = {}): Promise<HttpWireResponse> {
  return new Promise<HttpWireResponse>((resolve, reject) => startHttpRequest(dispatcher, request, options, { received: resolve, failed: reject }));
}

/**
 * Where {@link startHttpRequest} delivers its one result: `received` with the
 * response, or `failed` with what {@link sendHttpRequest} would reject with.
 * Neither may throw (they run inside undici's callbacks).
 * @internal Does not follow semver.
 */
export interface HttpResponseSink {
  received(response: HttpWireResponse): void;
  failed(error: unknown): void;
}

/**
 * {@link sendHttpRequest} without its promise: the same request, redirects,
 * caps and errors, delivered to `sink` exactly once (possibly before this
 * returns). A caller that settles its own promise from the response (one
 * HTTP attempt) needs no promise per exchange.
 * @internal Does not follow semver.
 */
export function startHttpRequest(dispatcher: HttpDispatcher, request: HttpRequestShape, options: SendOptions, sink: HttpResponseSink): void {
  // Not an async function: the common call (no redirect) holds no suspended frame while it waits for
  // the response; only a redirect goes on in the async loop of `follow`.
  let send: Sending;
  try {
    const hook = options.abort ?? (options.signal === undefined ? undefined : abortHookOf(options.signal));
    send = new Sending(dispatcher, request, options, hook, sink);
    if (hook?.aborted === true) throw hook.reason;
  } catch (e) {
    sink.failed(e);
    return;
  }
  exchange(send, send);
}

/** What a {@link ResponseReader} settles with: one exchange's result, or its error. */
interface ReaderSink {
  readerDone(received: Received): void;
  readerFailed(error: unknown): void;
}

/**
 * One request on its way, with what a redirect changes (method, body, headers, url); also where
 * its first exchange settles (the response, or the redirects after it).
 */
class Sending implements ReaderSink {
  readonly dispatcher: HttpDispatcher;
  readonly request: HttpRequestShape;
  readonly options: SendOptions;
  readonly hook: AbortHook | undefined;
  readonly maxBody: number;
  readonly maxErrorBody: number;
  method: string;
  body: HttpRequestShape["body"];
  headers: Readonly<Record<string, string>>;
  url: ParsedUrl;
  readonly #sink: HttpResponseSink;

  constructor(dispatcher: HttpDispatcher, request: HttpRequestShape, options: SendOptions, hook: AbortHook | undefined, sink: HttpResponseSink) {
    this.dispatcher = dispatcher;
    this.request = request;
    this.options = options;
    this.hook = hook;
    this.maxBody = options.maxBodyBytes ?? MAX_RESPONSE_BYTES;
    this.maxErrorBody = options.maxErrorBodyBytes ?? 513;
    this.method = request.method;
    this.body = request.body;
    this.headers = wireHeaders(request.headers);
    this.url = parseUrl(request.url, request.method, request.redactQuery);
    this.#sink = sink;
  }

  readerDone(received: Received): void {
    const sink = this.#sink;
    if (received.redirect === undefined) sink.received(wireResponse(received, 0));
    else
      follow(this, received).then(
        (response) => sink.received(response),
        (error: unknown) => sink.failed(error),
      );
  }

  readerFailed(error: unknown): void {
    this.#sink.failed(error);
  }
}

function wireResponse(response: Received, redirects: number): HttpWireResponse {
  return { status: response.status, headers: response.headers, body: response.body, truncated: response.truncated, redirects };
}

/** One exchange of `send` as it stands, settled into `sink`. */
function exchange(send: Sending, sink: ReaderSink): void {
  const { url, body, dispatcher } = send;
  const reader = new ResponseReader(sink, send, url);
  try {
    dispatcher.dispatch(
      { origin: url.origin, path: url.path, method: send.method, headers: send.headers, body: body ?? null },
      takesRawHandler(dispatcher) ? (reader as unknown as HttpDispatchHandler) : new ControllerHandler(reader),
    );
  } catch (e) {
    reader.failedWith(e as Error);
  }
}

/**
 * Whether `dispatcher` is an `Agent`, `Pool` or `Client` of this package's
 * undici (not a subclass, nor a composed or host-written dispatcher): those
 * run every handler through undici's own `onConnect` … `onComplete`
 * interface, which a {@link ResponseReader} speaks, so it is passed as it is.
 * Any other dispatcher gets the reader behind a {@link ControllerHandler}.
 * Why: undici wraps an `onRequestStart` handler in an `UnwrapHandler` and an
 * `UnwrapController` (120 bytes held per call in flight) and parses the
 * trailers of every response for it.
 */
function takesRawHandler(dispatcher: HttpDispatcher): boolean {
  const proto: unknown = Object.getPrototypeOf(dispatcher);
  if (proto === Object.prototype || proto === null) return false;
  const u = undici();
  return proto === u.Agent.prototype || proto === u.Pool.prototype || proto === u.Client.prototype;
}

/** One exchange of `send` as it stands (a redirect's). */
function receive(send: Sending): Promise<Received> {
  return new Promise<Received>((resolve, reject) => exchange(send, { readerDone: resolve, readerFailed: reject }));
}

/** The redirects after the first response, as the loop Go's client runs. */
async function follow(send: Sending, first: Received): Promise<HttpWireResponse> {
  const { request, options, hook } = send;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let response = first;
  for (let redirects = 0; ; redirects++) {
    if (response.redirect === undefined) return wireResponse(response, redirects);
    if (redirects >= maxRedirects) {
      throw new HttpTransportError(`${goMethod(request.method)} ${JSON.stringify(send.url.redacted)}: stopped after ${maxRedirects} redirects`, false);
    }
    const next = response.next as ParsedUrl;
    if (response.status <= 303 && send.method !== "HEAD") {
      send.method = "GET";
      send.body = undefined;
      send.headers = withoutHeaders(send.headers, (name) => name === "content-type" || name === "content-length");
    }
    if (next.origin !== send.url.origin) {
      const caller = options.sensitiveHeaders;
      send.headers = withoutHeaders(send.headers, (name) => droppedCrossOrigin(name) || caller?.has(name) === true);
    }
    send.url = next;
    if (hook?.aborted === true) throw hook.reason;
    response = await receive(send);
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** One exchange's result: a response, or the Location of a redirect to follow. */
interface Received {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
  readonly truncated: boolean;
  readonly redirect: string | undefined;
  /** The redirect's target, resolved against the request URL. */
  readonly next: ParsedUrl | undefined;
}

const EMPTY = new Uint8Array(0);
/** The headers of a response whose head never arrived. */
const NO_HEADERS: Readonly<Record<string, string | string[] | undefined>> = Object.freeze({});
const settledAlready = (): void => {};
/** Where a settled reader's sink went: nothing more is delivered, and the caller's objects are not kept. */
const SETTLED_SINK: ReaderSink = { readerDone: settledAlready, readerFailed: settledAlready };
/** The reason undici gets when the exchange stops a transfer it has settled (cap reached, caller aborted): never seen by a caller. */
const CUT = new Error("omnia-tools: exchange settled; transfer stopped");

/** How an exchange stops its transfer: undici's `abort` function (given to `onConnect`), or a dispatch controller. */
type Stop = ((reason: Error) => void) | HttpDispatchController;

function stopWith(stop: Stop, reason: Error): void {
  if (typeof stop === "function") stop(reason);
  else stop.abort(reason);
}

/**
 * One exchange's handler: keeps the status and headers, collects the body up
 * to the cap (10 MiB for a 2xx, 513 bytes otherwise, 64 KiB drained for a
 * redirect), aborts the transfer past it, and settles once. It speaks
 * undici's own handler interface (`onConnect`, `onHeaders`, `onData`,
 * `onComplete`, `onError`, the one undici's dispatchers run every handler
 * through); a {@link ControllerHandler} puts the `onRequestStart` …
 * `onResponseEnd` interface in front of it for any other dispatcher.
 */
class ResponseReader {
  #stop: Stop | null = null;
  #settled = false;
  #status = 0;
  #headers: Readonly<Record<string, string | string[] | undefined>> = NO_HEADERS;
  #redirect: string | undefined = undefined;
  #next: ParsedUrl | undefined = undefined;
  /** A status line arrived (the status may be 0). */
  #started = false;
  #ok = false;
  #cap = 0;
  #total = 0;
  #chunks: Buffer[] | undefined = undefined;
  // Not readonly: dropped on settling, as the sink keeps its caller (and a promise, and so the body) alive.
  #sink: ReaderSink;
  /** The request this exchange belongs to: its hook, caps and method (one field instead of five per exchange). */
  readonly #send: Sending;
  /** This exchange's URL (a redirect's exchange has its own). */
  readonly #url: ParsedUrl;

  constructor(sink: ReaderSink, send: Sending, url: ParsedUrl) {
    this.#sink = sink;
    this.#send = send;
    this.#url = url;
    // The caller's abort settles the exchange at once, even while the request waits for a connection.
    send.hook?.onAbort(this);
  }

  /** The caller's abort (this reader is the hook's listener). */
  handleAbort(reason: unknown): void {
    this.#fail(reason);
    const stop = this.#stop;
    this.#stop = null; // stopped once
    if (stop !== null) stopWith(stop, CUT); // the exchange has settled: undici's error for it is not read
  }

  // undici's handler interface.

  onConnect(abort: (reason: Error) => void): void {
    this.connected(abort);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.head(statusCode, undici().util.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>, this.#stop);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.data(chunk, this.#stop);
    return true;
  }

  onComplete(): void {
    this.onResponseEnd();
  }

  onError(error: Error): void {
    this.failedWith(error);
  }

  /** A CONNECT or an upgrade: not read, as undici's own wrapper of an `onRequestStart` handler without `onRequestUpgrade` does. */
  onUpgrade(): void {}

  // What both interfaces come to.

  /** The request was written to a connection; `stop` stops its transfer. */
  connected(stop: Stop): void {
    this.#stop = stop;
    if (this.#settled) {
      this.#stop = null;
      stopWith(stop, CUT); // aborted while it waited for a connection
    }
  }

  head(statusCode: number, headers: Record<string, string | string[] | undefined>, stop: Stop | null): void {
    this.#started = true;
    this.#status = statusCode;
    this.#headers = headers;
    const raw = headers["location"];
    // Two Location headers: the first is used, as Go's Header.Get reads it.
    const location = Array.isArray(raw) ? raw[0] : raw;
    if (isRedirect(statusCode) && location !== undefined && location !== "") {
      let next: ParsedUrl;
      try {
        next = resolveLocation(location, this.#url, this.#send.request.method);
      } catch (error) {
        this.#fail(error);
        if (stop !== null) stopWith(stop, CUT);
        return;
      }
      // A 307/308 resends the body: never to another origin. The redirect itself is the answer.
      // `send.body` is this exchange's body: a redirect changes it only once this exchange has settled.
      const body = this.#send.body;
      if (!(body !== undefined && body !== "" && statusCode >= 307 && next.origin !== this.#url.origin)) {
        this.#redirect = location;
        this.#next = next;
        this.#cap = REDIRECT_DRAIN_BYTES;
        return;
      }
    }
    this.#ok = statusCode >= 200 && statusCode <= 299;
    this.#cap = this.#ok ? this.#send.maxBody : this.#send.maxErrorBody;
  }

  data(chunk: Buffer, stop: Stop | null): void {
    if (this.#settled) return;
    const room = this.#cap - this.#total;
    if (chunk.byteLength > room) {
      // One byte past the cap proves the body is longer: keep exactly `cap` and stop the transfer.
      // A redirect's body is never used: past the drain limit its connection is given up.
      if (this.#redirect === undefined && room > 0) (this.#chunks ??= []).push(chunk.subarray(0, room));
      this.#total = this.#cap;
      this.#succeed(this.#redirect === undefined && this.#ok);
      if (stop !== null) stopWith(stop, CUT);
      return;
    }
    if (this.#redirect === undefined) (this.#chunks ??= []).push(chunk);
    this.#total += chunk.byteLength;
  }

  onResponseEnd(): void {
    this.#succeed(false);
  }

  /** The exchange failed (or `dispatch` threw). */
  failedWith(error: Error): void {
    if (this.#settled) return;
    const hook = this.#send.hook;
    if (hook?.aborted === true) this.#fail(hook.reason);
    else if (this.#redirect !== undefined) this.#succeed(false); // a redirect's body is never used: follow it anyway
    else if (this.#started && this.#status < 100) {
      // undici asserts on a status below 100 (Go would take it): said as Go says a status it cannot parse.
      this.#fail(malformedStatus(this.#send.request.method, this.#url, String(this.#status).padStart(3, "0"), error));
    } else if (this.#started) {
      // The headers arrived, then the body broke off: a body-read error that keeps the status.
      this.#fail(new HttpTransportError(`reading response body: ${bodyReasonOf(error)}`, false, { causeCode: codeOf(error), status: this.#status }, { cause: error }));
    } else this.#fail(transportError(error, this.#send.request.method, this.#url));
  }

  #succeed(truncated: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#send.hook?.onAbort(undefined);
    const chunks = this.#chunks ?? [];
    // undici may keep a finished request (and so this handler) until its connection's next one: drop the chunks now.
    this.#chunks = undefined;
    const body = this.#redirect !== undefined ? EMPTY : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#total);
    const sink = this.#sink;
    this.#sink = SETTLED_SINK;
    sink.readerDone({ status: this.#status, headers: this.#headers, body, truncated, redirect: this.#redirect, next: this.#next });
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#send.hook?.onAbort(undefined);
    const sink = this.#sink;
    this.#sink = SETTLED_SINK;
    sink.readerFailed(error);
  }
}

/**
 * A {@link ResponseReader} behind undici's `onRequestStart` … `onResponseEnd`
 * handler interface, for a dispatcher that is not one of undici's own
 * (see {@link takesRawHandler}).
 */
class ControllerHandler implements HttpDispatchHandler {
  readonly #reader: ResponseReader;

  constructor(reader: ResponseReader) {
    this.#reader = reader;
  }

  onRequestStart(controller: HttpDispatchController): void {
    this.#reader.connected(controller);
  }

  onResponseStart(controller: HttpDispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.#reader.head(statusCode, headers, controller);
  }

  onResponseData(controller: HttpDispatchController, chunk: Buffer): void {
    this.#reader.data(chunk, controller);
  }

  onResponseEnd(): void {
    this.#reader.onResponseEnd();
  }

  onResponseError(_controller: HttpDispatchController | null, error: Error): void {
    this.#reader.failedWith(error);
  }
}

/** What the transport reads of a request URL, parsed once per distinct URL text. */
interface ParsedUrl {
  readonly href: string;
  readonly origin: string;
  /** Path and query, as undici's `dispatch` takes them. */
  readonly path: string;
  readonly host: string;
  readonly hostname: string;
  /** The URL as error texts show it: userinfo and fixed query values as `***` (see redactUrl). */
  readonly redacted: string;
  /** The query keys whose values `redacted` hides; a redirect target hides the same ones. */
  readonly redactQuery: readonly string[] | undefined;
}

/**
 * Parsed URLs by their text: an endpoint is the same on every call, and
 * `new URL()` was a few percent of a call's CPU. A bounded memo of a pure
 * function (emptied when full), like the header-name caches.
 */
const PARSED_URLS = new Map<string, ParsedUrl>();
const PARSED_URL_LIMIT = 256;

function parseUrl(text: string, method: string, redactQuery: readonly string[] | undefined): ParsedUrl {
  const memo = redactQuery === undefined || redactQuery.length === 0 ? text : `${text}\u0000${redactQuery.join("\u0000")}`;
  const hit = PARSED_URLS.get(memo);
  if (hit !== undefined) return hit;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(redactUrl(text, redactQuery))}: unsupported protocol scheme ""`, false);
  }
  const redacted = redactUrl(url.href, redactQuery);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(redacted)}: unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))}`, false);
  }
  const parsed: ParsedUrl = Object.freeze({
    href: url.href,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    host: url.host,
    hostname: url.hostname,
    redacted: goEmptyPath(text, url, redacted),
    redactQuery,
  });
  if (PARSED_URLS.size >= PARSED_URL_LIMIT) PARSED_URLS.clear();
  PARSED_URLS.set(memo, parsed);
  return parsed;
}

/**
 * Go's `url.URL.String()` prints an empty path as empty (`http://h:1`,
 * `http://h:1?q`) where WHATWG's `href` adds `/`. `shown` is the URL as
 * printed so far (`href`, password hidden); the `/` WHATWG added is removed.
 */
function goEmptyPath(text: string, url: URL, shown: string): string {
  if (url.pathname !== "/") return shown;
  const start = text.indexOf("//");
  if (start < 0) return shown;
  const end = text.slice(start + 2).search(/[/?#\\]/);
  if (end >= 0 && text[start + 2 + end] !== "?" && text[start + 2 + end] !== "#") return shown;
  const slash = shown.indexOf("/", url.protocol.length + 2);
  return slash < 0 ? shown : shown.slice(0, slash) + shown.slice(slash + 1);
}

/**
 * undici sends header values as Latin-1 and refuses anything above U+00FF; Go
 * sends the UTF-8 bytes. Re-encode non-ASCII values so the bytes match Go.
 */
function wireHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  // All ASCII (the usual case): the headers go out as they are, without a copy. Nothing mutates them.
  let ascii = true;
  for (const name in headers) {
    if (Object.prototype.hasOwnProperty.call(headers, name) && !isAscii(headers[name]!)) {
      ascii = false;
      break;
    }
  }
  if (ascii) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isAscii(value) ? value : Buffer.from(value, "utf8").toString("latin1");
  }
  return out;
}

/**
 * Only characters below U+0080: exactly when the UTF-8 form is as long as the
 * string (any other character, a lone surrogate too, takes more bytes than
 * UTF-16 code units). Node counts the bytes natively, for less than a
 * `charCodeAt` loop costs; a value that is not a string is read as the loop read it.
 */
function isAscii(text: string): boolean {
  if (typeof text === "string") return Buffer.byteLength(text, "utf8") === text.length;
  const other = text as { readonly length: number; charCodeAt(i: number): number };
  for (let i = 0; i < other.length; i++) if (other.charCodeAt(i) > 0x7f) return false;
  return true;
}

function withoutHeaders(headers: Readonly<Record<string, string>>, drop: (lowerName: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!drop(name.toLowerCase())) out[name] = value;
  return out;
}

/**
 * A redirect's `Location`, resolved against the URL that answered, or the
 * error Go's client gives when it cannot parse it:
 * `Get "<url>": failed to parse Location header "<loc>": parse "<loc>": <reason>`.
 * An absolute Location keeps its own text, so that an empty path is printed
 * as Go prints it.
 */
function resolveLocation(location: string, base: ParsedUrl, method: string): ParsedUrl {
  let reason = goLocationError(location);
  let resolved: URL | undefined;
  if (reason === undefined) {
    try {
      resolved = new URL(location, base.href);
    } catch {
      // Go accepts what WHATWG refuses here (a port above 65535, a bad IPv6 literal): still no request can be built.
      reason = `parse ${goQuote(location)}: invalid URL`;
    }
  }
  if (resolved === undefined) {
    throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(base.redacted)}: failed to parse Location header ${goQuote(location)}: ${reason ?? ""}`, false);
  }
  return parseUrl(ABSOLUTE.test(location) ? location : resolved.href, method, base.redactQuery);
}

const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Go capitalises the method in transport errors: `Post`, `Get`. */
function goMethod(method: string): string {
  return method.length === 0 ? method : method[0] + method.slice(1).toLowerCase();
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? nodeErrorText(e.message) : String(e);
}

/**
 * Why a response body could not be read. A connection reset after part of the
 * body reads `other side closed` on every Node: Node 24's undici reports the
 * reset as the socket's own `read ECONNRESET`, Node 20 and 22's as `other side closed`.
 */
function bodyReasonOf(e: unknown): string {
  return codeOf(e) === "ECONNRESET" ? "other side closed" : reasonOf(e);
}

function transportError(e: unknown, method: string, target: ParsedUrl): unknown {
  const code = codeOf(e);
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
    return new HttpRequestError(`creating HTTP request: ${reasonOf(e)}`, { cause: e });
  }
  const host = target.host;
  let reason = reasonOf(e);
  if (code === "ECONNREFUSED") reason = `dial tcp ${host}: connect: connection refused`;
  else if (code === "UND_ERR_HEADERS_OVERFLOW") reason = `${BROKEN}net/http: server response headers exceeded ${MAX_RESPONSE_HEADER_BYTES} bytes; aborted`;
  else if (code === "UND_ERR_SOCKET" && reason === "bad response") reason = `${BROKEN}unsolicited 100 Continue response`;
  else if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") reason = `read tcp ${host}: connection reset by peer`;
  else if (code === "ENOTFOUND") reason = `dial tcp: lookup ${target.hostname}: no such host`;
  else if ((e as { name?: unknown } | null)?.name === "HTTPParserError") reason = BROKEN + parserReason(reason, parserData(e));
  return new HttpTransportError(`${goMethod(method)} ${JSON.stringify(target.redacted)}: ${reason}`, code !== undefined && NETWORK_CODES.has(code), { causeCode: code }, { cause: e });
}

/** Go's prefix for a response it could not read from a broken HTTP/1 connection (transport.go). */
const BROKEN = "net/http: HTTP/1.x transport connection broken: ";

/** Go's error for a status line whose code is not three digits (`ReadResponse`). */
function malformedStatus(method: string, target: ParsedUrl, token: string, cause: unknown): HttpTransportError {
  return new HttpTransportError(`${goMethod(method)} ${JSON.stringify(target.redacted)}: ${BROKEN}malformed HTTP status code ${goQuote(token)}`, false, { causeCode: codeOf(cause) }, { cause });
}

/** The bytes llhttp stopped at (undici's `HTTPParserError.data`), as text. */
function parserData(e: unknown): string {
  const data = (e as { data?: unknown }).data;
  return typeof data === "string" ? data : "";
}

/**
 * Go's words for a response head llhttp refused (response.go `ReadResponse`),
 * instead of undici's `Response does not match the HTTP/1.1 protocol (…)`.
 * llhttp stops at the first byte it refuses: the start of a code that is not
 * digits (quoted as Go quotes it), or the fourth digit of a longer code (its
 * first digits are consumed and unknown: that code is not quoted).
 */
function parserReason(message: string, rest: string): string {
  if (message.includes("(Invalid status code)")) {
    const end = rest.search(/[ \r\n]/);
    return `malformed HTTP status code ${goQuote(end < 0 ? rest.slice(0, 16) : rest.slice(0, end))}`;
  }
  if (message.includes("(Invalid response status)")) return "malformed HTTP status code";
  if (message.includes("(Expected HTTP/") || message.includes("(Invalid major version)") || message.includes("(Invalid minor version)")) {
    const end = rest.search(/\r?\n/);
    return `malformed HTTP response ${goQuote((end < 0 ? rest : rest.slice(0, end)).slice(0, 128))}`;
  }
  const reason = /\(([^)]*)\)$/.exec(message)?.[1];
  return `malformed HTTP response${reason === undefined ? "" : ` (${reason.toLowerCase()})`}`;
}
