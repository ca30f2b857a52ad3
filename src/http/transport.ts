import { Agent, type Dispatcher } from "undici";
import { HttpRequestError, HttpTransportError } from "./errors.js";
import { abortHookOf, type AbortHook } from "../retry/index.js";
import { redactUrl } from "./redact-url.js";

/** The most of a response body ever read: 10 MiB, Omnia's `httpBodyMaxBytes`. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Redirects followed before `stopped after 10 redirects`, as Go's default client. */
export const MAX_REDIRECTS = 10;

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

/**
 * The undici dispatcher type HTTP backends are called through (a host may pass
 * its own `Agent`, `Pool` or a composed dispatcher). Note that undici's
 * `compose()` runs interceptors in the opposite order to this package's
 * interceptor arrays (first = outermost here).
 * @public
 */
export type HttpDispatcher = Dispatcher;

/**
 * The executor's own keep-alive `Agent`, created on the first HTTP call and
 * closed by `executor.close()`.
 * @internal Does not follow semver.
 */
export function createDefaultDispatcher(): Dispatcher {
  return new Agent({ keepAliveTimeout: 4_000, connections: 256 });
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
 * stays HEAD; 307/308 resend; `Authorization` and `Cookie` are dropped on a
 * redirect to another host), and reads the body while counting, stopping at
 * the cap: a larger body is cut and its transfer stopped, never buffered.
 *
 * It drives undici's `dispatch()` with its own handler: the body's chunks are
 * collected as they arrive, with no stream and no async iteration in between
 * (`dispatcher.request()` wraps each response in a Readable, about a fifth of
 * a loopback call's CPU; issue #13).
 *
 * Throws {@link HttpTransportError} when no status arrives, the abort reason
 * when the signal (or abort hook) fires, and {@link HttpRequestError} for a
 * request undici refuses to send (an invalid method or header).
 * @internal Does not follow semver.
 */
export async function sendHttpRequest(dispatcher: Dispatcher, request: HttpRequestShape, options: SendOptions = {}): Promise<HttpWireResponse> {
  const hook = options.abort ?? (options.signal === undefined ? undefined : abortHookOf(options.signal));
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const maxBody = options.maxBodyBytes ?? MAX_RESPONSE_BYTES;
  const maxErrorBody = options.maxErrorBodyBytes ?? 513;
  let method = request.method;
  let body = request.body;
  let headers = wireHeaders(request.headers);
  let url = parseUrl(request.url, method, request.redactQuery);
  for (let redirects = 0; ; redirects++) {
    if (hook?.aborted === true) throw hook.reason;
    const response = await new Promise<Received>((resolve, reject) => {
      const handler = new ResponseReader(resolve, reject, hook, maxBody, maxErrorBody, method, url);
      try {
        dispatcher.dispatch({ origin: url.origin, path: url.path, method: method as Dispatcher.HttpMethod, headers, body: body ?? null }, handler);
      } catch (e) {
        handler.onResponseError(null, e as Error);
      }
    });
    if (response.redirect !== undefined) {
      if (redirects >= maxRedirects) {
        throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(url.redacted)}: stopped after ${maxRedirects} redirects`, false);
      }
      const next = parseUrl(new URL(response.redirect, url.href).href, method, request.redactQuery);
      if (response.status <= 303 && method !== "HEAD") {
        method = "GET";
        body = undefined;
        headers = withoutHeaders(headers, ["content-type", "content-length"]);
      }
      if (next.host !== url.host) headers = withoutHeaders(headers, ["authorization", "cookie", "cookie2", "www-authenticate"]);
      url = next;
      continue;
    }
    return { status: response.status, headers: response.headers, body: response.body, truncated: response.truncated, redirects };
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
}

const EMPTY = new Uint8Array(0);
const settledAlready = (): void => {};
/** The reason undici gets when the exchange stops a transfer it has settled (cap reached, caller aborted): never seen by a caller. */
const CUT = new Error("omnia-tools: exchange settled; transfer stopped");

/**
 * undici's handler for one exchange (the `onRequestStart` … `onResponseEnd`
 * interface): keeps the status and headers, collects the body up to the cap
 * (10 MiB for a 2xx, 513 bytes otherwise, 64 KiB drained for a redirect),
 * aborts the transfer past it, and settles once.
 */
class ResponseReader implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  #settled = false;
  #status = 0;
  #headers: Readonly<Record<string, string | string[] | undefined>> = {};
  #redirect: string | undefined = undefined;
  #ok = false;
  #cap = 0;
  #total = 0;
  #chunks: Buffer[] = [];
  // Not readonly: dropped on settling, as a resolve function keeps its promise, and so the body, alive.
  #resolve: (received: Received) => void;
  #reject: (error: unknown) => void;
  readonly #hook: AbortHook | undefined;
  readonly #maxBody: number;
  readonly #maxErrorBody: number;
  readonly #method: string;
  readonly #url: ParsedUrl;

  constructor(
    resolve: (received: Received) => void,
    reject: (error: unknown) => void,
    hook: AbortHook | undefined,
    maxBody: number,
    maxErrorBody: number,
    method: string,
    url: ParsedUrl,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#hook = hook;
    this.#maxBody = maxBody;
    this.#maxErrorBody = maxErrorBody;
    this.#method = method;
    this.#url = url;
    // The caller's abort settles the exchange at once, even while the request waits for a connection.
    hook?.onAbort((reason) => {
      this.#fail(reason);
      this.#controller?.abort(CUT); // the exchange has settled: undici's error for it is not read

    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#settled) controller.abort(CUT); // aborted while it waited for a connection
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.#status = statusCode;
    this.#headers = headers;
    const location = headers["location"];
    if (isRedirect(statusCode) && typeof location === "string" && location !== "") {
      this.#redirect = location;
      this.#cap = REDIRECT_DRAIN_BYTES;
    } else {
      this.#ok = statusCode >= 200 && statusCode <= 299;
      this.#cap = this.#ok ? this.#maxBody : this.#maxErrorBody;
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    const room = this.#cap - this.#total;
    if (chunk.byteLength > room) {
      // One byte past the cap proves the body is longer: keep exactly `cap` and stop the transfer.
      // A redirect's body is never used: past the drain limit its connection is given up.
      if (this.#redirect === undefined && room > 0) this.#chunks.push(chunk.subarray(0, room));
      this.#total = this.#cap;
      this.#succeed(this.#redirect === undefined && this.#ok);
      controller.abort(CUT);
      return;
    }
    if (this.#redirect === undefined) this.#chunks.push(chunk);
    this.#total += chunk.byteLength;
  }

  onResponseEnd(): void {
    this.#succeed(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.#settled) return;
    const hook = this.#hook;
    if (hook?.aborted === true) this.#fail(hook.reason);
    else if (this.#redirect !== undefined) this.#succeed(false); // a redirect's body is never used: follow it anyway
    else if (this.#status !== 0) {
      // The headers arrived, then the body broke off: a body-read error that keeps the status.
      this.#fail(new HttpTransportError(`reading response body: ${reasonOf(error)}`, false, { causeCode: codeOf(error), status: this.#status }, { cause: error }));
    } else this.#fail(transportError(error, this.#method, this.#url));
  }

  #succeed(truncated: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#hook?.onAbort(undefined);
    const chunks = this.#chunks;
    // undici may keep a finished request (and so this handler) until its connection's next one: drop the chunks now.
    this.#chunks = [];
    const body = this.#redirect !== undefined ? EMPTY : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#total);
    const resolve = this.#resolve;
    this.#resolve = this.#reject = settledAlready;
    resolve({ status: this.#status, headers: this.#headers, body, truncated, redirect: this.#redirect });
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#hook?.onAbort(undefined);
    const reject = this.#reject;
    this.#resolve = this.#reject = settledAlready;
    reject(error);
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
    redacted,
  });
  if (PARSED_URLS.size >= PARSED_URL_LIMIT) PARSED_URLS.clear();
  PARSED_URLS.set(memo, parsed);
  return parsed;
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

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function withoutHeaders(headers: Readonly<Record<string, string>>, drop: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!drop.includes(name.toLowerCase())) out[name] = value;
  return out;
}

/** Go capitalises the method in transport errors: `Post`, `Get`. */
function goMethod(method: string): string {
  return method.length === 0 ? method : method[0] + method.slice(1).toLowerCase();
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function transportError(e: unknown, method: string, target: ParsedUrl): unknown {
  const code = codeOf(e);
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
    return new HttpRequestError(`creating HTTP request: ${reasonOf(e)}`, { cause: e });
  }
  const host = target.host;
  let reason = reasonOf(e);
  if (code === "ECONNREFUSED") reason = `dial tcp ${host}: connect: connection refused`;
  else if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") reason = `read tcp ${host}: connection reset by peer`;
  else if (code === "ENOTFOUND") reason = `dial tcp: lookup ${target.hostname}: no such host`;
  return new HttpTransportError(`${goMethod(method)} ${JSON.stringify(target.redacted)}: ${reason}`, code !== undefined && NETWORK_CODES.has(code), { causeCode: code }, { cause: e });
}
