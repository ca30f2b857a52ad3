import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Clock, JsonValue } from "../core/index.js";
import { MAX_RESPONSE_BYTES } from "../http/index.js";
import { BackendTimers } from "./backend-delay.js";
import { describe, FaultCursor, faultsFor, normaliseFaultMap, normaliseFaults, sequenceAt, type FaultMap, type FaultScope } from "./fault-schedule.js";

/**
 * One request as the HTTP test backend received it.
 * @public
 */
export interface HttpBackendRequest {
  /** The route key that matched (`"GET /weather"`, `"/convert/*"`), or undefined (answered 404). */
  readonly route: string | undefined;
  /** This request's number among the requests of its route, from 1 (among unrouted requests when `route` is undefined). */
  readonly call: number;
  /** Upper-case method. */
  readonly method: string;
  /** Path and query exactly as requested. */
  readonly url: string;
  /** The path, without the query, as sent (still percent-encoded). */
  readonly path: string;
  /** The query parameters, decoded; a repeated key gives an array in order. */
  readonly query: Readonly<Record<string, string | string[]>>;
  /** Lower-cased header names (node's `IncomingHttpHeaders`). */
  readonly headers: IncomingHttpHeaders;
  /** The body, decoded as UTF-8. */
  readonly body: string;
  /** The body's bytes. */
  readonly bodyBytes: Uint8Array;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  readonly json: unknown;
}

const REPLY = Symbol.for("omnia-tools.testing.http-reply");

/**
 * A response with a chosen status, headers and body, made by {@link httpReply}.
 * @public
 */
export interface HttpReply {
  readonly [REPLY]: true;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/**
 * Options of {@link httpReply}: a status, headers, and at most one of `json`,
 * `text` or `bytes` (none: an empty body).
 * @public
 */
export interface HttpReplyOptions {
  /** Default 200; from 200 to 999 (node cannot send a 1xx as a final status). */
  readonly status?: number;
  /** Extra response headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A value sent as JSON (`content-type: application/json`). */
  readonly json?: JsonValue;
  /** Text sent as UTF-8 (`content-type: text/plain; charset=utf-8`). */
  readonly text?: string;
  /** Raw bytes (`content-type: application/octet-stream` unless `headers` says otherwise). */
  readonly bytes?: Uint8Array;
}

/**
 * Builds a route answer with a chosen status and body, for when a plain JSON
 * value (answered 200) is not enough.
 * @example
 * ```ts
 * routes: { "/lookup": (req) => req.query.id === "404" ? httpReply({ status: 404, text: "no such order" }) : { id: req.query.id } }
 * ```
 * @public
 */
export function httpReply(options: HttpReplyOptions): HttpReply {
  const given = ["json", "text", "bytes"].filter((k) => (options as Record<string, unknown>)[k] !== undefined);
  if (given.length > 1) throw new TypeError(`httpReply: give at most one of json, text and bytes; got ${given.join(", ")}`);
  const status = options.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 999) throw new RangeError(`httpReply: status must be an integer in [200, 999]; got ${describe(status)}`);
  let body: Uint8Array = new Uint8Array(0);
  let type: string | undefined;
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json), "utf8");
    type = "application/json";
  } else if (options.text !== undefined) {
    body = Buffer.from(options.text, "utf8");
    type = "text/plain; charset=utf-8";
  } else if (options.bytes !== undefined) {
    body = options.bytes;
    type = "application/octet-stream";
  }
  const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
  return Object.freeze({ [REPLY]: true as const, status, headers: Object.freeze(headers), body });
}

function isReply(value: unknown): value is HttpReply {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[REPLY] === true;
}

/**
 * What a route answers: a JSON value (sent with status 200), an
 * {@link HttpReply}, or a function of the request returning either (possibly
 * async). A function that throws answers 500 with the error's message as text.
 * @public
 */
export type HttpRoute = JsonValue | HttpReply | ((request: HttpBackendRequest) => JsonValue | HttpReply | Promise<JsonValue | HttpReply>);

/**
 * A fault the HTTP test backend injects into a route's responses. Every kind
 * takes `calls` ({@link FaultScope}) to apply to some calls only. What the
 * executor makes of each:
 *
 * - `latency`: waits `ms` before answering, on the backend's clock (the real
 *   clock unless `startHttpToolBackend({ clock })`). Latencies add up and run
 *   before any other fault. Past the handler's `timeout`: `timed out after <ms>ms`.
 * - `status`: answers `status` with `body` (default: the status text, e.g.
 *   `Service Unavailable`) instead of the route. A list is a sequence: the
 *   n-th call the fault applies to gets the n-th status, and a 2xx entry (or
 *   the end of the list) lets the route answer. Outcome: `HTTP 503: <body>`.
 * - `reset-before-headers`: reads the request, then resets the connection
 *   (TCP RST) without a byte of response. Outcome: a transport error
 *   `<Method> "<url>": read tcp <host>: connection reset by peer`.
 * - `reset-mid-body`: sends the headers (`status`, default 200, with a
 *   `content-length` larger than what follows) and the first `afterBytes`
 *   (default 16) bytes of the route's body, then closes the connection.
 *   Outcome: a transport error `reading response body: ...`.
 * - `hang`: never answers; the connection stays open until the client gives
 *   up or the backend closes. Outcome: the handler's timeout.
 * - `oversized-body`: answers 200 with a JSON-looking body of `bytes` bytes
 *   (default 10 MiB + 1, one past the executor's read cap), streamed. Outcome:
 *   success, the first 10 MiB wrapped as `{"result":"..."}`, `truncated: true`.
 * - `invalid-json`: answers 200, `content-type: application/json`, with
 *   `body` (default `{"result": "unterminated`). Outcome: success,
 *   `{"result":"<the body>"}`.
 * - `invalid-utf8`: answers 200 with `{"text":"caf\xE9 \xFF"}` (bytes that
 *   are not UTF-8, inside a JSON string). Outcome: success, each bad byte read
 *   as U+FFFD: `{"text":"caf\uFFFD \uFFFD"}`.
 * @public
 */
export type HttpFault =
  | ({ readonly kind: "latency"; readonly ms: number } & FaultScope)
  | ({ readonly kind: "status"; readonly status: number | readonly number[]; readonly body?: string; readonly headers?: Readonly<Record<string, string>> } & FaultScope)
  | ({ readonly kind: "reset-before-headers" } & FaultScope)
  | ({ readonly kind: "reset-mid-body"; readonly status?: number; readonly afterBytes?: number } & FaultScope)
  | ({ readonly kind: "hang" } & FaultScope)
  | ({ readonly kind: "oversized-body"; readonly bytes?: number } & FaultScope)
  | ({ readonly kind: "invalid-json"; readonly body?: string } & FaultScope)
  | ({ readonly kind: "invalid-utf8" } & FaultScope);

/**
 * Options of {@link startHttpToolBackend}.
 * @public
 */
export interface HttpToolBackendOptions {
  /**
   * The routes, keyed `"<METHOD> <path>"` or `"<path>"` (any method). A path
   * ending in `*` matches every path with that prefix (`"/convert/*"` for a
   * `urlTemplate`). An exact key wins over a prefix, and a longer prefix over
   * a shorter one. A request no route matches is answered 404.
   */
  readonly routes: Readonly<Record<string, HttpRoute>>;
  /** Faults per route key (the same keys as `routes`, or `"*"` for every route). Default: none. */
  readonly faults?: FaultMap<HttpFault>;
  /**
   * The clock `latency` faults wait on. Default: the real clock (unref'd
   * timers, cleared by `close()`). Pass the executor's manual clock to make a
   * latency fire only when the test advances time.
   */
  readonly clock?: Clock;
}

/**
 * A running HTTP tool backend on `127.0.0.1`.
 * @public
 */
export interface HttpToolBackend {
  /** `http://127.0.0.1:<port>`: prefix it to a route path for an `endpoint`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: readonly HttpBackendRequest[];
  /** How many requests a route key received (every request when omitted; `null` counts unrouted ones). */
  count(route?: string | null): number;
  /** Replaces a route's faults (or `"*"`'s); an empty list removes them. Call numbering goes on. */
  setFaults(route: string, faults: HttpFault | readonly HttpFault[]): void;
  /** Removes every fault. */
  clearFaults(): void;
  /**
   * Stops listening, ends every connection (a `hang` included) and every
   * latency wait, and resolves when no socket is left. Idempotent.
   */
  close(): Promise<void>;
}

const WHERE = "startHttpToolBackend";
const KINDS = new Set(["latency", "status", "reset-before-headers", "reset-mid-body", "hang", "oversized-body", "invalid-json", "invalid-utf8"]);
const INVALID_UTF8 = Buffer.from([...Buffer.from('{"text":"caf', "latin1"), 0xe9, 0x20, 0xff, ...Buffer.from('"}', "latin1")]);

interface RouteEntry {
  readonly key: string;
  readonly method: string | undefined;
  readonly path: string;
  readonly prefix: boolean;
  readonly route: HttpRoute;
}

/**
 * Starts an HTTP tool backend: a `node:http` server on `127.0.0.1`, port 0,
 * whose routes answer JSON and whose faults break responses in the ways
 * {@link HttpFault} lists. It records every request.
 *
 * @example
 * ```ts
 * const backend = await startHttpToolBackend({
 *   routes: { "GET /weather": (req) => ({ city: req.query.city, tempC: 21 }) },
 *   faults: { "GET /weather": { kind: "status", status: [503, 503] } },
 * });
 * // endpoint: `${backend.url}/weather`: calls 1 and 2 get 503, call 3 the JSON.
 * await backend.close();
 * ```
 * @throws TypeError for a malformed route key or fault
 * @public
 */
export async function startHttpToolBackend(options: HttpToolBackendOptions): Promise<HttpToolBackend> {
  if (typeof options !== "object" || options === null || typeof options.routes !== "object" || options.routes === null) {
    throw new TypeError(`${WHERE}: options.routes must be an object of route key -> answer; got ${describe(options?.routes)}`);
  }
  const routes = Object.entries(options.routes).map(([key, route]) => parseRouteKey(key, route));
  let faults = normaliseFaultMap(WHERE, options.faults, checkFault);
  const cursor = new FaultCursor<HttpFault>();
  const timers = new BackendTimers(options.clock);
  const requests: HttpBackendRequest[] = [];
  const counts = new Map<string | null, number>();
  const sockets = new Set<Socket>();
  let closing: Promise<void> | undefined;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", () => {});
    req.on("end", () => {
      void answer(req, res, Buffer.concat(chunks)).catch(() => {
        if (!res.headersSent && !res.destroyed) {
          res.statusCode = 500;
          res.end();
        }
      });
    });
  });
  server.on("connection", (s: Socket) => {
    if (closing !== undefined) return void s.destroy();
    sockets.add(s);
    s.on("error", () => {});
    s.once("close", () => sockets.delete(s));
  });
  server.on("clientError", (_e, s) => s.destroy());

  async function answer(req: IncomingMessage, res: ServerResponse, bytes: Buffer): Promise<void> {
    const url = req.url ?? "/";
    const method = (req.method ?? "GET").toUpperCase();
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const entry = matchRoute(routes, method, path);
    const key = entry?.key ?? null;
    const call = (counts.get(key) ?? 0) + 1;
    counts.set(key, call);
    const body = bytes.toString("utf8");
    const request: HttpBackendRequest = Object.freeze({
      route: entry?.key,
      call,
      method,
      url,
      path,
      query: queryOf(q === -1 ? "" : url.slice(q + 1)),
      headers: req.headers,
      body,
      bodyBytes: bytes,
      json: parseJson(body),
    });
    requests.push(request);
    // A closed connection (the client gave up) ends every wait of this request.
    const gone = new AbortController();
    res.once("close", () => gone.abort());

    const applicable: { fault: HttpFault; position: number }[] = [];
    for (const fault of faultsFor(faults, entry?.key)) {
      const position = cursor.position(fault, call);
      if (position !== undefined) applicable.push({ fault, position });
    }
    const latency = applicable.reduce((ms, a) => ms + (a.fault.kind === "latency" ? a.fault.ms : 0), 0);
    if (latency > 0 && !(await timers.wait(latency, gone.signal))) return;
    if (res.destroyed) return;

    for (const { fault, position } of applicable) {
      switch (fault.kind) {
        case "latency":
          continue;
        case "status": {
          const status = sequenceAt(fault.status, position);
          if (status === undefined || (status >= 200 && status <= 299)) continue;
          res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...fault.headers });
          res.end(fault.body ?? STATUS_CODES[status] ?? `status ${status}`);
          return;
        }
        case "reset-before-headers":
          req.socket.resetAndDestroy();
          return;
        case "reset-mid-body": {
          const reply = await routeReply(entry, request);
          const full = reply.body.byteLength > 0 ? reply.body : Buffer.from('{"partial":"this body never ends"}');
          const cut = Math.min(fault.afterBytes ?? 16, full.byteLength - 1);
          res.writeHead(fault.status ?? 200, { ...reply.headers, "content-length": String(full.byteLength + 1024) });
          res.write(full.subarray(0, Math.max(0, cut)), () => req.socket.destroy());
          return;
        }
        case "hang":
          await new Promise<void>((resolve) => (gone.signal.aborted ? resolve() : gone.signal.addEventListener("abort", () => resolve(), { once: true })));
          return;
        case "oversized-body":
          await streamOversized(res, fault.bytes ?? MAX_RESPONSE_BYTES + 1);
          return;
        case "invalid-json":
          res.writeHead(200, { "content-type": "application/json" });
          res.end(fault.body ?? '{"result": "unterminated');
          return;
        case "invalid-utf8":
          res.writeHead(200, { "content-type": "application/json" });
          res.end(INVALID_UTF8);
          return;
      }
    }

    const reply = entry === undefined ? httpReply({ status: 404, json: { error: `no route for ${method} ${path}` } }) : await routeReply(entry, request);
    if (res.destroyed) return;
    res.writeHead(reply.status, { ...reply.headers });
    res.end(reply.body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    count(route?: string | null) {
      if (route === undefined) return requests.length;
      return counts.get(route) ?? 0;
    },
    setFaults(route, list) {
      const next = new Map(faults);
      const normalised = normaliseFaults(`${WHERE}: setFaults(${JSON.stringify(route)})`, list, checkFault);
      if (normalised.length === 0) next.delete(route);
      else next.set(route, normalised);
      faults = next;
    },
    clearFaults() {
      faults = new Map();
    },
    close() {
      closing ??= (async () => {
        timers.clear();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        while (sockets.size > 0) {
          const ending = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
          server.closeAllConnections();
          for (const s of sockets) s.destroy();
          await Promise.all(ending);
        }
        await closed;
      })();
      return closing;
    },
  };
}

async function routeReply(entry: RouteEntry | undefined, request: HttpBackendRequest): Promise<HttpReply> {
  if (entry === undefined) return httpReply({});
  let value: JsonValue | HttpReply;
  try {
    value = typeof entry.route === "function" ? await entry.route(request) : entry.route;
  } catch (e) {
    return httpReply({ status: 500, text: e instanceof Error ? e.message : String(e) });
  }
  return isReply(value) ? value : httpReply({ json: value === undefined ? null : value });
}

/** Streams `total` bytes in 64 KiB chunks, honouring backpressure; stops when the client goes away. */
async function streamOversized(res: ServerResponse, total: number): Promise<void> {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(total) });
  const head = Buffer.from('{"data":"');
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  const write = (buf: Buffer): Promise<void> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve();
      if (res.write(buf)) return resolve();
      const done = (): void => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.once("drain", done);
      res.once("close", done);
    });
  const first = head.subarray(0, Math.min(head.byteLength, total));
  await write(first);
  sent += first.byteLength;
  while (sent < total && !res.destroyed) {
    const part = chunk.subarray(0, Math.min(chunk.byteLength, total - sent));
    await write(part);
    sent += part.byteLength;
  }
  if (!res.destroyed) res.end();
}

function parseRouteKey(key: string, route: HttpRoute): RouteEntry {
  const m = /^(?:([A-Za-z]+) +)?(\/\S*)$/.exec(key);
  if (m === null) throw new TypeError(`${WHERE}: a route key is "<METHOD> /path" or "/path" (a trailing * matches a prefix); got ${JSON.stringify(key)}`);
  const path = m[2] as string;
  const prefix = path.endsWith("*");
  return { key, method: m[1]?.toUpperCase(), path: prefix ? path.slice(0, -1) : path, prefix, route };
}

function matchRoute(routes: readonly RouteEntry[], method: string, path: string): RouteEntry | undefined {
  let best: RouteEntry | undefined;
  const rank = (r: RouteEntry): number => (r.prefix ? r.path.length : Number.MAX_SAFE_INTEGER) * 2 + (r.method === undefined ? 0 : 1);
  for (const r of routes) {
    if (r.method !== undefined && r.method !== method) continue;
    if (r.prefix ? !path.startsWith(r.path) : path !== r.path) continue;
    if (best === undefined || rank(r) > rank(best)) best = r;
  }
  return best;
}

function queryOf(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function checkFault(fault: HttpFault, path: string): void {
  if (!KINDS.has(fault.kind)) throw new TypeError(`${path}.kind: expected one of ${[...KINDS].join(", ")}; got ${describe(fault.kind)}`);
  const nonNegative = (value: unknown, field: string): void => {
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
      throw new TypeError(`${path}.${field}: expected a non-negative number; got ${describe(value)}`);
    }
  };
  switch (fault.kind) {
    case "latency":
      if (fault.ms === undefined) throw new TypeError(`${path}.ms: required for a latency fault; got undefined`);
      nonNegative(fault.ms, "ms");
      break;
    case "status": {
      const list = Array.isArray(fault.status) ? fault.status : [fault.status];
      if (list.length === 0 || !list.every((s) => Number.isInteger(s) && s >= 200 && s <= 999)) {
        throw new TypeError(`${path}.status: expected a status or a non-empty list of statuses in [200, 999]; got ${describe(fault.status)}`);
      }
      break;
    }
    case "reset-mid-body":
      nonNegative(fault.afterBytes, "afterBytes");
      break;
    case "oversized-body":
      nonNegative(fault.bytes, "bytes");
      break;
    default:
      break;
  }
}
