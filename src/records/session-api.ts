import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type * as Undici from "undici";
import type { Dispatcher } from "undici";
import {
  InvalidOptionError,
  goJsonMarshal,
  goJsonString,
  noopLogger,
  rejectUnknownOptions,
  systemClock,
  toError,
  type Clock,
  type JsonValue,
  type Logger,
  type HttpDispatcher,
} from "../core/index.js";
import type { Recorder, ToolCallRecord, ToolCallStart } from "./record.js";

/** undici, loaded on the first record sent, so that importing the package does not load it (CommonJS: `require` gives the instance `import` would). */
let undiciModule: typeof Undici | undefined;
function undici(): typeof Undici {
  return (undiciModule ??= createRequire(import.meta.url)("undici") as typeof Undici);
}

/**
 * Options of {@link createSessionApiRecorder}.
 * @public
 */
export interface SessionApiRecorderOptions {
  /** session-api's base URL, e.g. `http://omnia-session-api.omnia-system.svc.cluster.local:8081`. Required. */
  readonly url: string;
  /** The dispatcher for the writes (an undici 7 or 8 `Agent`, `Pool` or composed dispatcher). Default: undici's global dispatcher. */
  readonly dispatcher?: HttpDispatcher;
  /** `failed to record tool call` (error) goes here. Default: discard. */
  readonly logger?: Logger;
  /**
   * Extra request headers (for example `Authorization: Bearer <service-account token>`),
   * or a function that returns them for each request (so a rotated token is picked up).
   */
  readonly headers?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);
  /** The retry backoff and the write timeout run on it; `startedAt` is read as its milliseconds. Default `systemClock`. */
  readonly clock?: Clock;
  /** The row id generator. Default `crypto.randomUUID`. */
  readonly newId?: () => string;
}

/**
 * A {@link Recorder} that writes session-api `tool_calls` rows, with a
 * {@link SessionApiRecorder.flush} to wait for the writes in flight.
 * @public
 */
export interface SessionApiRecorder extends Recorder {
  /** Writes the `pending` row. Resolves when the write settled; never rejects. */
  start(start: ToolCallStart): Promise<void>;
  /** Writes the terminal row, after the same call's `pending` row. Resolves when the write settled; never rejects. */
  record(record: ToolCallRecord): Promise<void>;
  /** Resolves when every write started so far has settled (written, or given up and logged). */
  flush(): Promise<void>;
  /** What became of every row so far: a row is written or dropped, each drop counted under its reason. */
  stats(): SessionApiRecorderStats;
}

/**
 * The counts of a {@link SessionApiRecorder}. Reasons of `dropped`:
 * `invalid-session-id` (a session id of `.` or `..`, which would move the write
 * to another session-api path; never sent), `queue-full` (more than 1000 writes
 * waiting), `failed` (every attempt failed, or session-api refused the row).
 * @public
 */
export interface SessionApiRecorderStats {
  /** Rows session-api accepted (any 2xx). */
  readonly written: number;
  /** Rows not written, by reason (a reason appears once it has happened). */
  readonly dropped: Readonly<Record<string, number>>;
}

/** Omnia's session client: three attempts, 100 ms then 200 ms apart (`pkg/session/httpclient/store.go`). */
const MAX_ATTEMPTS = 3;
const RETRY_BASE_WAIT_MS = 100;
/** Omnia's event store bounds each write to 30 s (`internal/runtime/event_store.go` writeTimeout). */
const WRITE_TIMEOUT_MS = 30_000;
/** Omnia's event store runs at most 100 writes at once; more wait their turn. */
const MAX_CONCURRENT_WRITES = 100;
/** Writes waiting for a slot beyond this many are dropped and logged (Omnia's write buffer holds 1000). */
const MAX_QUEUED_WRITES = 1000;
/** The error body read from session-api, at most. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Omnia marks its runtime's session-api writes with `X-Omnia-Source: runtime` (`internal/session/source.go`). */
const SOURCE_HEADER = "x-omnia-source";
const SOURCE_RUNTIME = "runtime";

const KNOWN_OPTIONS = new Set(["url", "dispatcher", "logger", "headers", "clock", "newId"]);

/**
 * Creates the recorder that writes what Omnia's runtime writes to session-api for
 * each tool call (`internal/runtime/event_store.go`, `pkg/session/httpclient/store.go`):
 * `POST <url>/api/v1/sessions/{sessionID}/tool-calls` with a session-api `ToolCall`
 * body, once with status `pending` when the call starts ({@link SessionApiRecorder.start})
 * and once with its terminal status when it ends ({@link SessionApiRecorder.record}).
 * Rows are append-only: each has a new `id`, and rows of one call share `callId`.
 *
 * - `pending` row: `id`, `sessionId`, `callId`, `name`, `arguments` (only a non-empty
 *   JSON object), `status`, `labels`, `createdAt` (the start time).
 * - terminal row: no `arguments`; `status` `success` with `result` (the result text,
 *   omitted when empty), or `error` with `errorMessage` (a denial is written as
 *   `error` too: session-api's `ToolCallStatus` has only `pending`, `success` and
 *   `error`); `durationMs` (whole milliseconds, omitted when 0); `createdAt` = start + duration.
 * - `labels` `handler_name`, `handler_type`, `registry_name`, `registry_namespace`
 *   when the tool is served by a handler of a named ToolRegistry; absent otherwise.
 * - Requests carry `Content-Type: application/json`, `X-Omnia-Source: runtime` and
 *   the `headers` option. A call without a session id writes nothing.
 *
 * Errors never reach the tool call: a network error or a 500, 502, 503, 504 or 429
 * is retried (three attempts, 100 ms then 200 ms apart); any 2xx is success; 404 is
 * `session not found`; another status is `HTTP <status>: <error>` from the body's
 * `{"error": …}`. A write that fails is logged at error as `failed to record tool call`
 * (`sessionID`, `toolName`, `error`) and dropped. At most 100 writes run at once,
 * each bounded to 30 s; up to 1000 more wait, and beyond that a write is dropped and logged.
 * Unlike Omnia's client, failed writes are not buffered for a later replay, and
 * there is no circuit breaker.
 *
 * @example
 * ```ts
 * const recorder = createSessionApiRecorder({ url: "http://omnia-session-api.omnia-system:8081" });
 * const executor = createToolExecutor({ registry, recorder });
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option or a `url` that is not http(s)
 * @public
 */
export function createSessionApiRecorder(options: SessionApiRecorderOptions): SessionApiRecorder {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`createSessionApiRecorder: options must be an object; got ${String(options)}`);
  rejectUnknownOptions("createSessionApiRecorder", options, KNOWN_OPTIONS);
  const base = parseBaseUrl(options.url);
  const logger = options.logger ?? noopLogger;
  const clock = options.clock ?? systemClock;
  const newId = options.newId ?? randomUUID;
  const headersOption = options.headers;
  const dispatcher = options.dispatcher;

  let running = 0;
  const queue: (() => void)[] = [];
  const inFlight = new Set<Promise<void>>();
  /** The pending row's write, per call, while it is in flight: the terminal row waits for it. */
  const pendingWrites = new Map<string, Promise<void>>();

  function acquire(): Promise<boolean> {
    if (running < MAX_CONCURRENT_WRITES) {
      running++;
      return Promise.resolve(true);
    }
    if (queue.length >= MAX_QUEUED_WRITES) return Promise.resolve(false);
    return new Promise((resolve) => queue.push(() => resolve(true)));
  }

  function release(): void {
    const next = queue.shift();
    if (next === undefined) running--;
    else next();
  }

  let written = 0;
  const dropped: Record<string, number> = {};

  function fail(sessionID: string, toolName: string, error: string, reason = "failed"): void {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
    logger.error("failed to record tool call", { sessionID, toolName, error });
  }

  /**
   * A session id that is a dot segment would move the write, with the recorder's headers, to another session-api
   * path once the URL is resolved (`encodeURIComponent` leaves `.`): the row is dropped, never sent.
   */
  function refused(sessionID: string, toolName: string): boolean {
    if (sessionID !== "." && sessionID !== "..") return false;
    fail(sessionID, toolName, `invalid session id ${JSON.stringify(sessionID)}: a dot segment; the row was not sent`, "invalid-session-id");
    return true;
  }

  async function headersFor(): Promise<Record<string, string>> {
    const extra = typeof headersOption === "function" ? await headersOption() : headersOption;
    const out: Record<string, string> = { "content-type": "application/json", [SOURCE_HEADER]: SOURCE_RUNTIME };
    if (extra !== undefined) for (const [k, v] of Object.entries(extra)) out[k.toLowerCase()] = v;
    return out;
  }

  /** One row: bounded retries, then a logged failure. Never rejects. */
  async function write(sessionID: string, toolName: string, body: string, after: Promise<void> | undefined): Promise<void> {
    if (after !== undefined) await after;
    if (!(await acquire())) return fail(sessionID, toolName, "too many session-api writes waiting; dropped", "queue-full");
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(new Error(`session-api write timed out after ${WRITE_TIMEOUT_MS / 1000}s`)), WRITE_TIMEOUT_MS);
    try {
      const error = await send(sessionID, body, controller.signal);
      if (error !== undefined) fail(sessionID, toolName, error);
      else written++;
    } catch (e) {
      fail(sessionID, toolName, toError(e).message);
    } finally {
      timer.clear();
      release();
    }
  }

  /** Returns undefined when written, else the error text. */
  async function send(sessionID: string, body: string, signal: AbortSignal): Promise<string | undefined> {
    const url = `${base}/api/v1/sessions/${encodeURIComponent(sessionID)}/tool-calls`;
    let last = "";
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        await sleep(clock, RETRY_BASE_WAIT_MS << (attempt - 1), signal);
        if (signal.aborted) return toError(signal.reason).message;
      }
      let res: Dispatcher.ResponseData;
      try {
        res = await undici().request(url, { method: "POST", headers: await headersFor(), body, signal, ...(dispatcher === undefined ? {} : { dispatcher: dispatcher as Dispatcher }) });
      } catch (e) {
        if (signal.aborted) return toError(signal.reason).message;
        last = toError(e).message;
        continue;
      }
      const status = res.statusCode;
      if (isRetryableStatus(status)) {
        await drain(res);
        last = `HTTP ${status}`;
        continue;
      }
      if (status >= 200 && status < 300) {
        await drain(res);
        return undefined;
      }
      if (status === 404) {
        await drain(res);
        return "session not found";
      }
      return readError(res);
    }
    return last;
  }

  function track(p: Promise<void>): Promise<void> {
    inFlight.add(p);
    void p.then(() => inFlight.delete(p));
    return p;
  }

  return {
    start(s: ToolCallStart): Promise<void> {
      if (s.sessionId === undefined || s.sessionId === "" || refused(s.sessionId, s.toolName)) return Promise.resolve();
      const body = pendingRow(newId(), s);
      const key = callKey(s.sessionId, s.callId);
      const p = track(write(s.sessionId, s.toolName, body, undefined));
      pendingWrites.set(key, p);
      void p.then(() => {
        if (pendingWrites.get(key) === p) pendingWrites.delete(key);
      });
      return p;
    },
    record(r: ToolCallRecord): Promise<void> {
      if (r.sessionId === undefined || r.sessionId === "" || refused(r.sessionId, r.toolName)) return Promise.resolve();
      const body = terminalRow(newId(), r);
      return track(write(r.sessionId, r.toolName, body, pendingWrites.get(callKey(r.sessionId, r.callId))));
    },
    async flush(): Promise<void> {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    stats(): SessionApiRecorderStats {
      return { written, dropped: { ...dropped } };
    },
  };
}

function parseBaseUrl(url: unknown): string {
  if (typeof url !== "string") throw new InvalidOptionError(`createSessionApiRecorder: url must be session-api's http(s) base URL; got ${typeof url}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidOptionError(`createSessionApiRecorder: url must be session-api's http(s) base URL; got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new InvalidOptionError(`createSessionApiRecorder: url must be session-api's http(s) base URL; got ${JSON.stringify(url)}`);
  }
  return url.replace(/\/+$/, "");
}

function callKey(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`;
}

/** session-api treats 500 as transient too (database restarts), as Omnia's client does. */
function isRetryableStatus(status: number): boolean {
  return status === 500 || status === 502 || status === 503 || status === 504 || status === 429;
}

async function drain(res: Dispatcher.ResponseData): Promise<void> {
  try {
    await res.body.dump();
  } catch {
    // The body is discarded either way.
  }
}

/** `HTTP <status>: <error>` from session-api's `{"error": …}` body, else `HTTP <status>`. */
async function readError(res: Dispatcher.ResponseData): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ERROR_BODY_BYTES) break;
      chunks.push(chunk);
    }
  } catch {
    // An unreadable body reads as no body.
  }
  if (size > MAX_ERROR_BODY_BYTES) {
    res.body.destroy();
    return `HTTP ${res.statusCode}`;
  }
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { error?: unknown } | null;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      return `HTTP ${res.statusCode}: ${typeof parsed.error === "string" ? parsed.error : ""}`;
    }
  } catch {
    // Not JSON.
  }
  return `HTTP ${res.statusCode}`;
}

function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = (): void => {
      timer.clear();
      resolve();
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function labels(handlerName: string, handlerType: string, registryName: string | undefined, registryNamespace: string | undefined): string {
  if (handlerName === "" || registryName === undefined || registryName === "") return "";
  return `,"labels":{"handler_name":${goJsonString(handlerName)},"handler_type":${goJsonString(handlerType)},"registry_name":${goJsonString(registryName)},"registry_namespace":${goJsonString(registryNamespace ?? "")}}`;
}

function argumentsField(args: JsonValue | string): string {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return "";
  for (const key in args) {
    if (Object.prototype.hasOwnProperty.call(args, key)) {
      try {
        return `,"arguments":${goJsonMarshal(args)}`;
      } catch {
        // Too deeply nested to encode: the row goes without its arguments.
        return "";
      }
    }
  }
  return "";
}

function pendingRow(id: string, s: ToolCallStart): string {
  return (
    `{"id":${goJsonString(id)},"sessionId":${goJsonString(s.sessionId ?? "")},"callId":${goJsonString(s.callId)},"name":${goJsonString(s.toolName)}` +
    argumentsField(s.arguments) +
    `,"status":"pending"` +
    labels(s.handlerName, s.handlerType, s.registryName, s.registryNamespace) +
    `,"createdAt":${goJsonString(goTime(s.startedAt))}}`
  );
}

function terminalRow(id: string, r: ToolCallRecord): string {
  let out = `{"id":${goJsonString(id)},"sessionId":${goJsonString(r.sessionId ?? "")},"callId":${goJsonString(r.callId)},"name":${goJsonString(r.toolName)}`;
  if (r.status === "success") {
    const text = resultText(r);
    if (text !== "") out += `,"result":${goJsonString(text)}`;
    out += `,"status":"success"`;
  } else {
    out += `,"status":"error"`;
  }
  const durationMs = Math.max(0, Math.floor(r.durationMs));
  if (durationMs !== 0) out += `,"durationMs":${durationMs}`;
  if (r.status !== "success") out += `,"errorMessage":${goJsonString(r.errorMessage === undefined || r.errorMessage === "" ? "unknown error" : r.errorMessage)}`;
  out += labels(r.handlerName, r.handlerType, r.registryName, r.registryNamespace);
  return `${out},"createdAt":${goJsonString(goTime(r.startedAt + r.durationMs))}}`;
}

function resultText(r: ToolCallRecord): string {
  if (r.resultJson !== undefined) return r.resultJson;
  if (r.result === undefined) return "";
  if (typeof r.result === "string") return r.result;
  try {
    return JSON.stringify(r.result);
  } catch {
    return "";
  }
}

/** Go's `time.Time` JSON form in UTC: RFC 3339 with the fraction's trailing zeros cut. */
function goTime(ms: number): string {
  let date = new Date(Number.isFinite(ms) ? Math.floor(ms) : 0);
  if (Number.isNaN(date.getTime())) date = new Date(0);
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const fraction = iso.slice(20, 23).replace(/0+$/, "");
  return `${iso.slice(0, 19)}${fraction === "" ? "" : `.${fraction}`}Z`;
}
