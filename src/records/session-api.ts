import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type * as Undici from "undici";
import type { Dispatcher } from "undici";
import {
  InvalidOptionError,
  goJsonMarshal,
  goJsonString,
  noopLogger,
  raceAbort,
  rejectUnknownOptions,
  systemClock,
  toError,
  type Clock,
  type JsonValue,
  type TimerHandle,
  type Logger,
  type HttpDispatcher,
} from "../core/index.js";
import type { OtelCounter, OtelMeter } from "../telemetry/index.js";
import type { Recorder, ToolCallRecord, ToolCallStart } from "./record.js";
import { SessionApiBreaker } from "./session-api-breaker.js";

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
  /**
   * The dispatcher for the writes (an undici 7 or 8 `Agent`, `Pool` or composed dispatcher). Default: the
   * recorder's own keep-alive undici `Agent`, at most `maxConcurrentWrites` connections to session-api,
   * created on the first write and destroyed by {@link SessionApiRecorder.close}.
   */
  readonly dispatcher?: HttpDispatcher;
  /** `failed to record tool call` (error) goes here. Default: discard. */
  readonly logger?: Logger;
  /**
   * Extra request headers (for example `Authorization: Bearer <service-account token>`),
   * or a function that returns them for each request (so a rotated token is picked up).
   */
  readonly headers?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);
  /**
   * Every timer and age of the recorder runs on it: the retry backoff, the write timeout, the breaker, the
   * replay every 5 s, a buffered row's age and the log's once-a-minute; `startedAt` is read as its milliseconds.
   * Default `systemClock`.
   */
  readonly clock?: Clock;
  /** The row id generator. Default `crypto.randomUUID`. */
  readonly newId?: () => string;
  /**
   * An OpenTelemetry `Meter` (`@opentelemetry/api`'s `Meter` is one): the counts of
   * {@link SessionApiRecorder.stats} are exported as counters on it. Default: none.
   */
  readonly meter?: OtelMeter;
  /**
   * The most bytes of rows (their JSON bodies) the recorder holds at once: waiting for a connection, in flight,
   * or buffered while session-api is down. A row that would take it past this bound is dropped and counted
   * (`buffer-full`). Default 67108864 (64 MiB: Omnia's 1,000 buffered writes at 64 KiB each).
   */
  readonly maxBufferedBytes?: number;
  /** Writes in flight at once (and connections, with the default dispatcher). Default 100, as Omnia's session client. */
  readonly maxConcurrentWrites?: number;
}

/**
 * A {@link Recorder} that writes session-api `tool_calls` rows, with a
 * {@link SessionApiRecorder.flush} to wait for them and a {@link SessionApiRecorder.close}.
 * @public
 */
export interface SessionApiRecorder extends Recorder {
  /** Queues the `pending` row. Resolves when the row is written or dropped; never rejects. */
  start(start: ToolCallStart): Promise<void>;
  /** Queues the terminal row, sent once the same call's `pending` row is written or dropped. Resolves when the row is written or dropped; never rejects. */
  record(record: ToolCallRecord): Promise<void>;
  /**
   * Replays the buffered rows now (when the breaker lets it), then resolves once every row accepted so far is
   * written or dropped, or once `timeoutMs` (on the recorder's clock) has passed, whichever comes first, with
   * `left`: the rows not yet written or dropped. Without `timeoutMs` it waits as long as that takes: a row
   * session-api never takes is dropped after 5 minutes in the buffer. Never rejects.
   */
  flush(options?: { readonly timeoutMs?: number }): Promise<{ readonly left: number }>;
  /**
   * Stops the recorder: a row offered from now on is dropped (`closed`); the rows held get up to `timeoutMs`
   * (default 5000, on the recorder's clock) to be written, as {@link SessionApiRecorder.flush}; then the
   * writes still in flight are aborted, every row left is dropped and counted (`closed`), the replay timer is
   * cleared and the recorder's own dispatcher destroyed. Resolves `{ left }`, the rows dropped that way.
   * Never rejects; later calls return the first call's promise.
   */
  close(options?: { readonly timeoutMs?: number }): Promise<{ readonly left: number }>;
  /** What became of every row so far. */
  stats(): SessionApiRecorderStats;
}

/**
 * The counts of a {@link SessionApiRecorder}, each since the recorder was created.
 * A row offered is, in the end, written, expired or dropped.
 * @public
 */
export interface SessionApiRecorderStats {
  /** Rows session-api accepted (any 2xx). */
  readonly written: number;
  /** Attempts that were retries (a network error, a write timeout, or HTTP 500, 502, 503, 504 or 429 before them). */
  readonly retried: number;
  /** Rows that went to the buffer because their write failed after its retries, or the breaker was open. */
  readonly buffered: number;
  /** Buffered rows dropped because session-api had not taken them within 5 minutes. */
  readonly expired: number;
  /**
   * Rows dropped, by reason (a reason appears once it has happened): `rejected` (session-api answered 404 or
   * another status that is not retried: it would refuse the row again), `buffer-full` (the row would take the
   * recorder past `maxBufferedBytes`), `closed` (offered after `close()`, or still held when its time ran
   * out), `invalid-session-id` (a session id of `.` or `..`, which would move the write to another
   * session-api path; never sent).
   */
  readonly dropped: Readonly<Record<string, number>>;
}

/** Omnia's session client: three attempts, 100 ms then 200 ms apart (`pkg/session/httpclient/store.go`). */
const MAX_ATTEMPTS = 3;
const RETRY_BASE_WAIT_MS = 100;
/** Omnia's session client bounds each write to 30 s (its http.Client timeout). */
const WRITE_TIMEOUT_MS = 30_000;
/** Omnia's session client: at most 100 connections to session-api. */
const DEFAULT_MAX_CONCURRENT_WRITES = 100;
/** Omnia's write buffer holds 1,000 writes; at 64 KiB a row that is 64 MiB. */
const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** Omnia's write buffer: replayed every 5 s, an item dropped after 5 minutes. */
const FLUSH_INTERVAL_MS = 5_000;
const BUFFER_MAX_AGE_MS = 5 * 60_000;
/** The close grace when `close()` is given none. */
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
/** After the first `failed to record tool call` line, at most one more per minute. */
const LOG_INTERVAL_MS = 60_000;
/** Omnia's session client keeps an idle connection 90 s. */
const KEEP_ALIVE_MS = 90_000;
/** The error body read from session-api, at most. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Omnia marks its runtime's session-api writes with `X-Omnia-Source: runtime` (`internal/session/source.go`). */
const SOURCE_HEADER = "x-omnia-source";
const SOURCE_RUNTIME = "runtime";

const KNOWN_OPTIONS = new Set(["url", "dispatcher", "logger", "headers", "clock", "newId", "meter", "maxBufferedBytes", "maxConcurrentWrites"]);

/** The counters exported on `meter`. @internal Does not follow semver. */
export const SESSION_API_METRICS = Object.freeze({
  written: "omnia_tools_session_api_rows_written_total",
  retried: "omnia_tools_session_api_retries_total",
  buffered: "omnia_tools_session_api_rows_buffered_total",
  expired: "omnia_tools_session_api_rows_expired_total",
  dropped: "omnia_tools_session_api_rows_dropped_total",
});

/** One row held by the recorder. */
interface Row {
  readonly seq: number;
  readonly sessionID: string;
  readonly toolName: string;
  readonly url: string;
  readonly body: Buffer;
  /** When it first went to the buffer (its age starts there). */
  bufferedAt: number | undefined;
  settle(): void;
}

/** How one write ended. */
type WriteResult = { readonly kind: "written" } | { readonly kind: "rejected" | "transient" | "aborted"; readonly error: string };

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
 * - `sequenceNum`, on both rows of a call, when the call has a record position
 *   (`ctx.recordSequence`): the name session-api uses for message positions.
 * - Requests carry `Content-Type: application/json`, `X-Omnia-Source: runtime` and
 *   the `headers` option. A call without a session id writes nothing.
 *
 * Delivery, as Omnia's session client: a network error, a write timeout (30 s) or HTTP 500, 502, 503, 504
 * or 429 is retried (three attempts, 100 ms then 200 ms apart); any 2xx is written; 404 (`session not
 * found`) and any other status (`HTTP <status>: <error>` from the body's `{"error": …}`) drop the row as
 * `rejected`. A write that fails after its retries goes to the buffer, as does every row while the breaker
 * is open (it opens once 30 s of counts hold at least 10 writes with 60 % failures, stays open 10 s, then
 * lets 5 writes through, which close it). The buffer is replayed in order (a call's `pending` row always
 * before its terminal row) every 5 s and as soon as the breaker lets writes through; a row that has waited
 * 5 minutes is dropped as expired. Unlike Omnia's client, which replays one write at a time, the replay
 * runs up to `maxConcurrentWrites` writes at once, and the bound is in bytes (`maxBufferedBytes`) rather
 * than 1,000 items; past it the new row is dropped (Omnia drops the oldest).
 *
 * Nothing here waits on a tool call, and a tool call never waits on it. Each row lost is counted in
 * {@link SessionApiRecorder.stats} (and on `meter`); the first is logged at error as `failed to record
 * tool call` (`sessionID`, `toolName`, `reason`, `error`, `count`), then at most one line a minute, whose
 * `count` is the rows lost since the previous line.
 *
 * @example
 * ```ts
 * const recorder = createSessionApiRecorder({ url: "http://omnia-session-api.omnia-system:8081" });
 * const executor = createToolExecutor({ registry, recorder });
 * // at shutdown, after the executor:
 * const { left } = await recorder.close({ timeoutMs: 5_000 });
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option, a `url` that is not http(s), or a bound that is not a whole number (`maxBufferedBytes` >= 0, `maxConcurrentWrites` >= 1)
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
  const maxBytes = wholeNumber("maxBufferedBytes", options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES, 0);
  const limit = wholeNumber("maxConcurrentWrites", options.maxConcurrentWrites, DEFAULT_MAX_CONCURRENT_WRITES, 1);
  const meter = options.meter;
  const counters =
    meter === undefined
      ? undefined
      : safeCounters({
          written: meter.createCounter(SESSION_API_METRICS.written, { description: "Tool-call rows session-api accepted" }),
          retried: meter.createCounter(SESSION_API_METRICS.retried, { description: "session-api write attempts that were retries" }),
          buffered: meter.createCounter(SESSION_API_METRICS.buffered, { description: "Tool-call rows buffered for a later replay" }),
          expired: meter.createCounter(SESSION_API_METRICS.expired, { description: "Buffered tool-call rows dropped after 5 minutes" }),
          dropped: meter.createCounter(SESSION_API_METRICS.dropped, { description: "Tool-call rows dropped, by reason" }),
        });
  let ownDispatcher: Undici.Agent | undefined;
  function dispatcher(): Dispatcher {
    if (options.dispatcher !== undefined) return options.dispatcher as Dispatcher;
    return (ownDispatcher ??= new (undici().Agent)({ connections: limit, keepAliveTimeout: KEEP_ALIVE_MS }));
  }

  const counts = { written: 0, retried: 0, buffered: 0, expired: 0 };
  /** One more of `kind`, in `stats()` and on `meter`. */
  function count(kind: keyof typeof counts): void {
    counts[kind]++;
    counters?.[kind].add(1, {});
  }
  const dropped: Record<string, number> = {};
  let seq = 0;
  /** Rows accepted and not yet written or dropped, and their bytes. */
  let held = 0;
  let heldBytes = 0;
  /** Rows never sent yet, in order. */
  const fresh = new RowQueue();
  /** Rows whose write failed (or that the breaker refused), in order. */
  const buffer = new RowQueue();
  let running = 0;
  /** The buffer is being replayed. */
  let draining = false;
  let flushTimer: TimerHandle | undefined;
  /** Writes in flight, to abort at close. */
  const inFlight = new Set<AbortController>();
  /** Called when `held` drops to 0. */
  const idle = new Set<() => void>();
  /** `close()` was called: rows offered now are dropped. */
  let closing = false;
  /** `close()`'s grace has ended: every row left is dropped. */
  let closed = false;
  let closePromise: Promise<{ readonly left: number }> | undefined;
  /** The pending row of a call, while held: its terminal row waits for it. */
  const pendingRows = new Map<string, Promise<void>>();

  const breaker = new SessionApiBreaker(clock, (to) => {
    // As Omnia's flush loop, woken when the breaker lets writes through again.
    if ((to === "closed" || to === "half-open") && buffer.size > 0) draining = true;
  });

  // The loss log: the first line at once, then at most one a minute with the count since the previous one.
  let lastLogAt: number | undefined;
  let unlogged = 0;
  let lastLoss: { sessionID: string; toolName: string; reason: string; error: string } | undefined;
  /** One row lost: counted under `expired` for that reason, else under `dropped[reason]`; logged as the loss log allows. */
  function lose(reason: string, sessionID: string, toolName: string, error: string): void {
    if (reason === "expired") {
      count("expired");
    } else {
      dropped[reason] = (dropped[reason] ?? 0) + 1;
      counters?.dropped.add(1, { reason });
    }
    unlogged++;
    lastLoss = { sessionID, toolName, reason, error };
    const now = clock.now();
    if (lastLogAt !== undefined && now - lastLogAt < LOG_INTERVAL_MS) return;
    logLoss(now);
  }
  function logLoss(now: number): void {
    if (lastLoss === undefined || unlogged === 0) return;
    lastLogAt = now;
    const fields = { ...lastLoss, count: unlogged };
    unlogged = 0;
    try {
      logger.error("failed to record tool call", fields);
    } catch {
      // The host's logger failing must not stop the recorder's own bookkeeping.
    }
  }

  function finish(row: Row): void {
    held--;
    heldBytes -= row.body.length;
    row.settle();
    if (held === 0) for (const notify of [...idle]) notify();
  }

  function drop(row: Row, reason: string, error: string): void {
    lose(reason, row.sessionID, row.toolName, error);
    finish(row);
  }

  /** Takes a row in (or drops it when the recorder is closing or full); resolves when it is written or dropped. */
  function accept(sessionID: string, toolName: string, text: string, after: Promise<void> | undefined): Promise<void> {
    if (closing) {
      lose("closed", sessionID, toolName, "the recorder is closed");
      return Promise.resolve();
    }
    const body = Buffer.from(text, "utf8");
    if (heldBytes + body.length > maxBytes) {
      lose("buffer-full", sessionID, toolName, `the recorder holds ${heldBytes} bytes of rows; this ${body.length}-byte row would pass maxBufferedBytes (${maxBytes})`);
      return Promise.resolve();
    }
    held++;
    heldBytes += body.length;
    const url = `${base}/api/v1/sessions/${encodeURIComponent(sessionID)}/tool-calls`;
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const row: Row = { seq: seq++, sessionID, toolName, url, body, bufferedAt: undefined, settle };
    if (after === undefined) enqueue(row);
    else void after.then(() => enqueue(row));
    return done;
  }

  function enqueue(row: Row): void {
    if (closed) return drop(row, "closed", "the recorder is closed");
    fresh.push(row);
    pump();
  }

  function toBuffer(row: Row): void {
    if (row.bufferedAt === undefined) {
      row.bufferedAt = clock.now();
      count("buffered");
    }
    buffer.insert(row);
    armFlush();
  }

  function armFlush(): void {
    if (flushTimer === undefined && !closed) flushTimer = clock.setTimeout(onFlushTick, FLUSH_INTERVAL_MS);
  }

  /** Every 5 s while rows are buffered: drop the expired ones, replay the rest. */
  function onFlushTick(): void {
    flushTimer = undefined;
    expireOld();
    if (buffer.size === 0) return;
    draining = true;
    pump();
    if (buffer.size > 0) armFlush();
  }

  function expireOld(): void {
    const now = clock.now();
    for (const row of buffer.removeWhere((r) => now - (r.bufferedAt ?? now) > BUFFER_MAX_AGE_MS)) {
      drop(row, "expired", `not written within ${BUFFER_MAX_AGE_MS / 60_000} minutes`);
    }
  }

  /** Starts writes while there are slots: buffered rows first while replaying, then new rows. */
  function pump(): void {
    while (running < limit && !closed) {
      const fromBuffer = draining && buffer.size > 0;
      const row = fromBuffer ? buffer.peek() : fresh.peek();
      if (row === undefined) break;
      const generation = breaker.admit();
      if (generation === undefined) {
        if (fromBuffer) {
          draining = false;
          armFlush();
          break;
        }
        fresh.shift();
        toBuffer(row);
        continue;
      }
      (fromBuffer ? buffer : fresh).shift();
      running++;
      void write(row, generation);
    }
    if (draining && buffer.size === 0) draining = false;
  }

  async function write(row: Row, generation: number): Promise<void> {
    const controller = new AbortController();
    inFlight.add(controller);
    const timer = clock.setTimeout(() => controller.abort(new Error(`session-api write timed out after ${WRITE_TIMEOUT_MS / 1000}s`)), WRITE_TIMEOUT_MS);
    let result: WriteResult;
    try {
      result = await send(row, controller.signal);
    } catch (e) {
      result = { kind: "transient", error: toError(e).message };
    } finally {
      timer.clear();
      inFlight.delete(controller);
      running--;
    }
    if (result.kind === "aborted" || closed) {
      drop(row, "closed", "the recorder closed before session-api answered");
    } else {
      // A refusal is an answer: only a write that never got one counts against session-api.
      breaker.report(generation, result.kind !== "transient");
      if (result.kind === "written") {
        count("written");
        finish(row);
      } else if (result.kind === "rejected") {
        drop(row, "rejected", result.error);
      } else {
        draining = false;
        toBuffer(row);
      }
    }
    pump();
  }

  async function headersFor(signal: AbortSignal): Promise<Record<string, string>> {
    const extra = typeof headersOption === "function" ? await raceAbort(Promise.resolve(headersOption()), signal) : headersOption;
    const out: Record<string, string> = { "content-type": "application/json", [SOURCE_HEADER]: SOURCE_RUNTIME };
    if (extra !== undefined) for (const [k, v] of Object.entries(extra)) out[k.toLowerCase()] = v;
    return out;
  }

  /** One row, with its retries. Never rejects. */
  async function send(row: Row, signal: AbortSignal): Promise<WriteResult> {
    let last = "";
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        count("retried");
        await sleep(clock, RETRY_BASE_WAIT_MS << (attempt - 1), signal);
      }
      if (signal.aborted) return abortedResult(signal);
      let res: Dispatcher.ResponseData;
      try {
        res = await undici().request(row.url, { method: "POST", headers: await headersFor(signal), body: row.body, signal, dispatcher: dispatcher() });
      } catch (e) {
        if (signal.aborted) return abortedResult(signal);
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
        return { kind: "written" };
      }
      if (status === 404) {
        await drain(res);
        return { kind: "rejected", error: "session not found" };
      }
      return { kind: "rejected", error: await readError(res) };
    }
    return { kind: "transient", error: last };
  }

  /** A write timeout is transient (retried later from the buffer); an abort by `close()` is not. */
  function abortedResult(signal: AbortSignal): WriteResult {
    return { kind: closed ? "aborted" : "transient", error: toError(signal.reason).message };
  }

  function rowRefused(sessionId: string | undefined, toolName: string): boolean {
    if (sessionId === undefined || sessionId === "") return true;
    if (sessionId !== "." && sessionId !== "..") return false;
    // A dot segment would move the write, with the recorder's headers, to another session-api path once the
    // URL is resolved (`encodeURIComponent` leaves `.`): the row is dropped, never sent.
    lose("invalid-session-id", sessionId, toolName, `invalid session id ${JSON.stringify(sessionId)}: a dot segment; the row was not sent`);
    return true;
  }

  function whenIdle(timeoutMs: number | undefined): Promise<{ readonly left: number }> {
    if (held === 0 || timeoutMs === 0) return Promise.resolve({ left: held });
    return new Promise((resolve) => {
      let timer: TimerHandle | undefined;
      const done = (): void => {
        idle.delete(done);
        timer?.clear();
        resolve({ left: held });
      };
      idle.add(done);
      if (timeoutMs !== undefined) timer = clock.setTimeout(done, timeoutMs);
    });
  }

  function flush(flushOptions?: { readonly timeoutMs?: number }): Promise<{ readonly left: number }> {
    const timeoutMs = flushOptions?.timeoutMs;
    // No time given: nothing to replay in it.
    if (buffer.size > 0 && !closed && timeoutMs !== 0) {
      draining = true;
      pump();
    }
    return whenIdle(timeoutMs !== undefined && Number.isFinite(timeoutMs) ? Math.max(0, timeoutMs) : undefined);
  }

  async function shutDown(timeoutMs: number): Promise<{ readonly left: number }> {
    closing = true;
    const { left } = await flush({ timeoutMs });
    closed = true;
    flushTimer?.clear();
    flushTimer = undefined;
    draining = false;
    for (const row of buffer.removeWhere(() => true)) drop(row, "closed", "the recorder closed before session-api took the row");
    for (const row of fresh.removeWhere(() => true)) drop(row, "closed", "the recorder closed before session-api took the row");
    for (const controller of inFlight) controller.abort(new Error("the recorder closed"));
    // Aborted writes and terminal rows waiting for their pending row settle on the next turns.
    await whenIdle(undefined);
    logLoss(clock.now());
    const own = ownDispatcher;
    ownDispatcher = undefined;
    if (own !== undefined) await own.destroy().catch(() => undefined);
    return { left };
  }

  return {
    start(s: ToolCallStart): Promise<void> {
      if (rowRefused(s.sessionId, s.toolName)) return Promise.resolve();
      const sessionId = s.sessionId!;
      const key = callKey(sessionId, s.callId);
      const p = accept(sessionId, s.toolName, pendingRow(newId(), s), undefined);
      pendingRows.set(key, p);
      void p.then(() => {
        if (pendingRows.get(key) === p) pendingRows.delete(key);
      });
      return p;
    },
    record(r: ToolCallRecord): Promise<void> {
      if (rowRefused(r.sessionId, r.toolName)) return Promise.resolve();
      const sessionId = r.sessionId!;
      return accept(sessionId, r.toolName, terminalRow(newId(), r), pendingRows.get(callKey(sessionId, r.callId)));
    },
    flush,
    close(closeOptions?: { readonly timeoutMs?: number }): Promise<{ readonly left: number }> {
      const timeoutMs = closeOptions?.timeoutMs;
      return (closePromise ??= shutDown(typeof timeoutMs === "number" && timeoutMs >= 0 ? timeoutMs : DEFAULT_CLOSE_TIMEOUT_MS).catch(() => ({ left: held })));
    },
    stats(): SessionApiRecorderStats {
      return { ...counts, dropped: { ...dropped } };
    },
  };
}

/**
 * Rows in order of `seq`: appended at the end, or inserted at their place (a failed write going back to the
 * buffer), taken from the front. Amortised O(1) at both ends.
 */
class RowQueue {
  #items: Row[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  peek(): Row | undefined {
    return this.#items[this.#head];
  }

  shift(): Row | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const row = this.#items[this.#head];
    this.#items[this.#head++] = undefined as unknown as Row;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return row;
  }

  push(row: Row): void {
    this.#items.push(row);
  }

  /** Inserts at its place by `seq` (failed writes come back roughly in order, so this is nearly always an append). */
  insert(row: Row): void {
    const items = this.#items;
    let i = items.length;
    while (i > this.#head && items[i - 1]!.seq > row.seq) i--;
    if (i === items.length) items.push(row);
    else items.splice(i, 0, row);
  }

  /** Removes and returns every row matching, keeping the others in order. */
  removeWhere(match: (row: Row) => boolean): Row[] {
    const kept: Row[] = [];
    const removed: Row[] = [];
    for (let i = this.#head; i < this.#items.length; i++) {
      const row = this.#items[i]!;
      (match(row) ? removed : kept).push(row);
    }
    if (removed.length > 0) {
      this.#items = kept;
      this.#head = 0;
    }
    return removed;
  }
}

/** Counters whose `add` never throws into the recorder (a host's meter is a callback like any other). */
function safeCounters<K extends string>(counters: Record<K, OtelCounter>): Record<K, OtelCounter> {
  const out = {} as Record<K, OtelCounter>;
  for (const key of Object.keys(counters) as K[]) {
    const counter = counters[key];
    out[key] = {
      add(value, attributes) {
        try {
          counter.add(value, attributes);
        } catch {
          // A failing meter loses a data point, never a row.
        }
      },
    };
  }
  return out;
}

function wholeNumber(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionError(`createSessionApiRecorder: ${name} must be a whole number >= ${min}; got ${typeof value === "number" ? String(value) : JSON.stringify(value) ?? typeof value}`);
  }
  return value;
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
    sequenceField(s) +
    `,"createdAt":${goJsonString(goTime(s.startedAt))}}`
  );
}

/** `,"sequenceNum":<n>` when the call has a record position (a field Omnia's 1.3.0 session-api ignores). */
function sequenceField(s: ToolCallStart): string {
  return s.sequenceNum === undefined ? "" : `,"sequenceNum":${s.sequenceNum}`;
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
  out += sequenceField(r);
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
