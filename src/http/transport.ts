import { Agent, type Dispatcher } from "undici";
import { HttpRequestError, HttpTransportError } from "./errors.js";

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

/**
 * Sends one request through `dispatcher`, follows redirects the way Go's
 * default client does (at most 10; 301/302/303 become GET without a body, HEAD
 * stays HEAD; 307/308 resend; `Authorization` and `Cookie` are dropped on a
 * redirect to another host), and reads the body while counting, stopping at
 * the cap: a larger body is cut and its transfer stopped, never buffered.
 *
 * Throws {@link HttpTransportError} when no status arrives, the abort reason
 * when `signal` fires, and {@link HttpRequestError} for a request undici
 * refuses to send (an invalid method or header).
 * @internal Does not follow semver.
 */
export async function sendHttpRequest(dispatcher: Dispatcher, request: HttpRequestShape, options: SendOptions = {}): Promise<HttpWireResponse> {
  const { signal } = options;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let method = request.method;
  let body = request.body;
  let headers = wireHeaders(request.headers);
  let url = parseUrl(request.url, method);
  for (let redirects = 0; ; redirects++) {
    let response: Dispatcher.ResponseData;
    try {
      response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        signal: signal ?? null,
      });
    } catch (e) {
      throw transportError(e, method, url, signal);
    }
    const location = response.headers["location"];
    if (isRedirect(response.statusCode) && typeof location === "string" && location !== "") {
      await discard(response.body);
      if (redirects >= maxRedirects) {
        throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(redacted(url))}: stopped after ${maxRedirects} redirects`, false);
      }
      const next = parseUrl(new URL(location, url).href, method);
      if (response.statusCode <= 303 && method !== "HEAD") {
        method = "GET";
        body = undefined;
        headers = withoutHeaders(headers, ["content-type", "content-length"]);
      }
      if (next.host !== url.host) headers = withoutHeaders(headers, ["authorization", "cookie", "cookie2", "www-authenticate"]);
      url = next;
      continue;
    }
    const ok = response.statusCode >= 200 && response.statusCode <= 299;
    const cap = ok ? (options.maxBodyBytes ?? MAX_RESPONSE_BYTES) : (options.maxErrorBodyBytes ?? 513);
    const read = await readCapped(response.body, cap, signal, response.statusCode);
    return { status: response.statusCode, headers: response.headers, body: read.bytes, truncated: read.truncated && ok, redirects };
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

async function readCapped(
  body: Dispatcher.ResponseData["body"],
  cap: number,
  signal: AbortSignal | undefined,
  status: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = cap - total;
      if (chunk.byteLength > room) {
        // One byte past the cap proves the body is longer; keep exactly `cap`.
        if (room > 0) chunks.push(chunk.subarray(0, room));
        total = cap;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      total += chunk.byteLength;
    }
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw new HttpTransportError(`reading response body: ${reasonOf(e)}`, false, { causeCode: codeOf(e), status }, { cause: e });
  } finally {
    // Stop the transfer: whatever is left of an over-long body is never read.
    if (!body.destroyed) body.destroy();
  }
  return { bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total), truncated };
}

async function discard(body: Dispatcher.ResponseData["body"]): Promise<void> {
  try {
    await body.dump({ limit: 64 * 1024 });
  } catch {
    // A redirect's body is never used; a failure to drain it only costs the socket.
  }
}

function parseUrl(text: string, method: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(text)}: unsupported protocol scheme ""`, false);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HttpTransportError(`${goMethod(method)} ${JSON.stringify(redacted(url))}: unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))}`, false);
  }
  return url;
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

/**
 * The URL as Go's `net/http` client prints it in errors (`stripPassword`): a
 * userinfo password becomes `***`, so a credential in an endpoint never reaches
 * the model or a record through an error message.
 */
function redacted(url: URL): string {
  if (url.password === "") return url.href;
  const copy = new URL(url.href);
  copy.password = "";
  return copy.href.replace(`${copy.protocol}//${copy.username}@`, `${copy.protocol}//${copy.username}:***@`);
}

function transportError(e: unknown, method: string, target: URL, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  const code = codeOf(e);
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
    return new HttpRequestError(`creating HTTP request: ${reasonOf(e)}`, { cause: e });
  }
  const host = target.host;
  let reason = reasonOf(e);
  if (code === "ECONNREFUSED") reason = `dial tcp ${host}: connect: connection refused`;
  else if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") reason = `read tcp ${host}: connection reset by peer`;
  else if (code === "ENOTFOUND") reason = `dial tcp: lookup ${target.hostname}: no such host`;
  return new HttpTransportError(`${goMethod(method)} ${JSON.stringify(redacted(target))}: ${reason}`, code !== undefined && NETWORK_CODES.has(code), { causeCode: code }, { cause: e });
}
