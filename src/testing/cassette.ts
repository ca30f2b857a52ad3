// Cassettes (issue #36 part 1): record an executor's tool calls once against
// real backends, then replay them with no socket, so that a turn (or any
// harness) runs the same way every time. The file format is in
// cassette-format.ts (`CassetteEntry`).
import { appendFileSync, writeFileSync } from "node:fs";
import { AbortedError, ClosedError, ErrorCode, InvalidOptionError, OmniaToolsError, rejectUnknownOptions, type HandlerType, type JsonValue } from "../core/index.js";
import {
  answerView,
  cassetteArguments,
  CASSETTE_VERSION,
  describeValue,
  descriptorCopy,
  prettyJson,
  readCassette,
  recordOutcome,
  redactionSet,
  replayOutcome,
  sameClientAnswer,
  type CassetteClientResult,
  type CassetteEntry,
  type CassetteExecutor,
  type CassetteExecutorEvents,
  type CassetteOutcome,
  type CassetteToolCall,
  type CassetteToolDescriptor,
  type ReadEntry,
} from "./cassette-format.js";
import { lineDiff } from "./line-diff.js";

/**
 * Options of {@link recordCassette}.
 * @public
 */
export interface RecordCassetteOptions {
  /** The cassette file: created, or emptied when it exists, by `recordCassette()`. Required. */
  readonly path: string;
  /**
   * Argument keys, at any depth, whose values are written `"***"`, in the
   * line's `arguments` and in its `key` (computed from the redacted
   * arguments), and in a client hand-off's `argumentsJson`. Names match
   * case-insensitively, so a header name (`Authorization`) matches an argument
   * spelled `authorization`. The outcome's text is kept: it is what the model
   * saw (the executor already masks credentials in its error texts). Give a
   * replay the same list. Default: none.
   */
  readonly redact?: readonly string[];
}

/**
 * A call a replay has no recorded outcome for, as {@link ReplayCassetteOptions.onMiss} gets it.
 * @public
 */
export interface CassetteCall {
  /** The call id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The arguments as the call carried them (not redacted). */
  readonly arguments: string | JsonValue;
  /** The canonical JSON of the redacted arguments: what the cassette is searched by, with the name. */
  readonly key: string;
}

/**
 * Options of {@link replayCassette}.
 * @public
 */
export interface ReplayCassetteOptions {
  /**
   * `strict` (default): the calls of one tool with one key (canonical
   * arguments) are answered by that key's recordings in recorded order, each
   * once; a further call of the key is a miss, as is a key never recorded.
   * Calls of different keys may come in any order. `loose`: any order, and a
   * key is answered as often as it is called, cycling through its
   * recordings.
   */
  readonly mode?: "strict" | "loose";
  /**
   * Answers a miss: an outcome to resolve the call with (as given), or
   * undefined to reject it with {@link CassetteMissError}. Asked for
   * `execute()` misses only. Default: every miss rejects.
   */
  readonly onMiss?: (call: CassetteCall) => CassetteOutcome | undefined;
  /** The recording's `redact` list: keys are computed from arguments redacted the same way. Default: none. */
  readonly redact?: readonly string[];
  /**
   * The tools the replay serves. Default: the last `tools` line of the
   * cassette; for a cassette without one, descriptors made from its `call`
   * lines (each tool once, with its `handler` and `handlerType`, `execution`
   * `client` for a client handler, description `""` and input schema
   * `{ "type": "object" }`).
   */
  readonly tools?: readonly CassetteToolDescriptor[];
}

const MISS_BRAND = Symbol.for("omnia-tools.testing.cassette-miss");

/**
 * A replayed call the cassette has no recorded outcome for (and no `onMiss`
 * answered). Its message shows the call (tool, id, canonical arguments) and,
 * when the cassette records calls of the tool, the nearest one (the most
 * similar arguments) with a line diff of the two arguments as pretty JSON,
 * or, in strict mode, that the key's recordings were used up. A client answer
 * that differs from the recorded one is a miss too.
 *
 * It is an {@link InvalidOptionError} (`ERR_OMNIA_INVALID_OPTION`: the cassette
 * given does not fit the run), so a turn rejects its round with it rather
 * than showing it to the model.
 * @public
 */
export class CassetteMissError extends InvalidOptionError {
  /** The tool name of the call. */
  readonly toolName: string;
  /** The id of the call. */
  readonly callId: string;
  /** The canonical JSON of the call's redacted arguments. */
  readonly key: string;
  /** The cassette line of the nearest recorded call (or of the recorded client answer); undefined when there is none. */
  readonly nearestLine: number | undefined;

  constructor(message: string, fields: { readonly toolName: string; readonly callId: string; readonly key: string; readonly nearestLine?: number | undefined }) {
    super(message);
    this.toolName = fields.toolName;
    this.callId = fields.callId;
    this.key = fields.key;
    this.nearestLine = fields.nearestLine;
    Object.defineProperty(this, MISS_BRAND, { value: true });
  }

  /** Its own brand: an InvalidOptionError that is not a miss is not a CassetteMissError. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
    try {
      return (value as Record<symbol, unknown>)[MISS_BRAND] === true;
    } catch {
      return false;
    }
  }
}

const RECORD = "recordCassette";
const REPLAY = "replayCassette";

/**
 * Wraps an executor so that every call it completes is appended to a cassette
 * file (see {@link CassetteEntry}): `execute()` runs the call for real, then
 * writes its `call` line; `completeClientCall()` writes a `client-result`
 * line; the tools it serves are written as a `tools` line before the first
 * call and again when they change. Lines are written synchronously, so they
 * land in completion order and none is pending at `close()`. A call that
 * rejects (`AbortedError`, `ClosedError`) writes nothing and rejects as the
 * executor did; hooks pass through unchanged. Every other member delegates to
 * `executor` (`refuse()` writes nothing: a replay answers a refusal itself);
 * `close()` closes it and never rejects. The outbound requests (URLs,
 * headers, bodies) are not recorded.
 *
 * @example
 * ```ts
 * const executor = recordCassette(createToolExecutor({ registry }), { path: "weather.cassette.jsonl", redact: ["password"] });
 * const turn = createTurn(executor, { ctx });
 * await turn.run(calls); // real backends; one line per call
 * await executor.close();
 * ```
 * @throws InvalidOptionError for a bad option, or a path that cannot be written; from a call, when its line cannot be appended
 * @public
 */
export function recordCassette(executor: CassetteExecutor, options: RecordCassetteOptions): CassetteExecutor {
  if (executor === null || typeof executor !== "object" || typeof executor.execute !== "function" || typeof executor.completeClientCall !== "function") {
    throw new InvalidOptionError(`${RECORD}: executor must be a tool executor (createToolExecutor()); got ${describeValue(executor)}`);
  }
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`${RECORD}: options must be an object; got ${describeValue(options)}`);
  rejectUnknownOptions(RECORD, options, ["path", "redact"]);
  const path = options.path;
  if (typeof path !== "string" || path === "") throw new InvalidOptionError(`${RECORD}: path must be a non-empty string; got ${describeValue(path)}`);
  const redact = redactionSet(RECORD, options.redact);
  try {
    writeFileSync(path, "");
  } catch (e) {
    throw new InvalidOptionError(`${RECORD}: cannot write the cassette ${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return new CassetteRecorder(executor, path, redact).surface();
}

/** The recording side: the wrapped executor, the file, and what was last written of the tools. */
class CassetteRecorder {
  #lastTools: readonly CassetteToolDescriptor[] | undefined;
  #lastToolsText = "";
  #byName = new Map<string, CassetteToolDescriptor>();
  #closing: Promise<void> | undefined;

  constructor(
    private readonly executor: CassetteExecutor,
    private readonly path: string,
    private readonly redact: ReadonlySet<string>,
  ) {}

  surface(): CassetteExecutor {
    const executor = this.executor;
    const surface: CassetteExecutor = {
      execute: async (call, ctx, hooks) => {
        this.noteTools();
        const outcome = await executor.execute(call, ctx, hooks);
        this.noteTools();
        this.writeCall(call, outcome);
        return outcome;
      },
      completeClientCall: (result) => {
        const outcome = executor.completeClientCall(result);
        this.writeClientResult(result, outcome);
        return outcome;
      },
      refuse: (call, ctx, reason) => executor.refuse(call, ctx, reason),
      get tools() {
        return executor.tools;
      },
      refresh: async () => {
        await executor.refresh();
        this.noteTools();
      },
      listTools: async () => {
        const tools = await executor.listTools();
        this.noteTools();
        return tools;
      },
      checkHealth: (handlerName) => (handlerName === undefined ? executor.checkHealth() : executor.checkHealth(handlerName)),
      on: (event, listener) => executor.on(event, listener),
      // Lines are written synchronously: nothing is pending, so closing is the executor's close, which must not reject here.
      close: () =>
        (this.#closing ??= Promise.resolve()
          .then(() => executor.close())
          .then(
            () => undefined,
            () => undefined,
          )),
    };
    // A turn's round span (its calls' parent) exists as it would without the cassette.
    if (typeof executor.startRound === "function") surface.startRound = (calls) => executor.startRound!(calls);
    return surface;
  }

  /** Writes a `tools` line when the executor's list changed since the last one. */
  noteTools(): void {
    const tools = this.executor.tools;
    if (tools === this.#lastTools) return;
    this.#lastTools = tools;
    const copies = tools.map(descriptorCopy);
    const text = JSON.stringify(copies);
    this.#byName = new Map();
    for (const d of copies) if (!this.#byName.has(d.name)) this.#byName.set(d.name, d);
    if (text === this.#lastToolsText) return;
    this.#lastToolsText = text;
    this.append({ v: CASSETTE_VERSION, kind: "tools", tools: copies });
  }

  writeCall(call: CassetteToolCall, outcome: CassetteOutcome): void {
    const args = cassetteArguments(call.arguments, this.redact);
    const descriptor = this.#byName.get(outcome.toolName) ?? this.#byName.get(call.name);
    this.append({
      v: CASSETTE_VERSION,
      kind: "call",
      tool: call.name,
      callId: outcome.callId,
      handler: descriptor?.handlerName ?? "",
      handlerType: outcome.handlerType,
      key: args.key,
      arguments: args.value,
      outcome: recordOutcome(outcome, args),
      durationMs: outcome.durationMs,
    });
  }

  writeClientResult(result: CassetteClientResult, outcome: CassetteOutcome): void {
    const recorded = recordOutcome(outcome, undefined);
    if (recorded.status === "client") return;
    this.append({ v: CASSETTE_VERSION, kind: "client-result", tool: outcome.toolName, callId: result.callId, result: { ...result }, outcome: recorded, durationMs: outcome.durationMs });
  }

  append(entry: CassetteEntry): void {
    try {
      appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
    } catch (e) {
      throw new InvalidOptionError(`${RECORD}: cannot append to the cassette ${this.path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
}

/** A recorded call of the cassette. */
type CallEntry = Extract<ReadEntry, { kind: "call" }>;
type ClientResultEntry = Extract<ReadEntry, { kind: "client-result" }>;

/**
 * An executor that answers calls from a cassette file (see
 * {@link CassetteEntry}) and opens no socket. `execute(call)` computes the
 * call's key (its canonical arguments, redacted with `options.redact`) and
 * resolves the recorded outcome of that tool and key, with this call's id and
 * tool name (and, for a client hand-off, this call's id and arguments in
 * `request`); `durationMs` and `handlerType` are the recorded ones, and an
 * error is an `OmniaToolsError` with the recorded name, code, message and
 * typed fields (`instanceof` its class holds, through the code's brand). See
 * {@link ReplayCassetteOptions.mode} for which recording answers; a call
 * without one goes to `onMiss`, else rejects with {@link CassetteMissError}.
 *
 * The other members:
 * - `completeClientCall(result)`: answers with the `client-result` recorded
 *   for the hand-off the pending call was replayed from (the first
 *   `client-result` line after it with its call id, so ids may repeat across
 *   turns), when the client's answer is the recorded one (its call id aside);
 *   another answer, or none recorded, throws CassetteMissError; a call id
 *   that is not pending throws as the executor does
 *   (`ERR_OMNIA_UNKNOWN_CLIENT_CALL`).
 * - `tools` (see {@link ReplayCassetteOptions.tools}); `listTools()` resolves
 *   them and `refresh()` resolves.
 * - `checkHealth()`: every handler of `tools` healthy, detail `replayed`,
 *   latency 0 (platform tools have no handler to probe).
 * - `refuse(call, ctx, reason)`: denied, `Tool call rejected: <reason>`,
 *   without looking at the cassette (a refusal never reaches a backend).
 * - `on()`: `tool_call` when a call starts and `tool_result` when it resolves
 *   (not for a hand-off; for its completion), as the executor emits them.
 * - `close()`: later calls throw `ClosedError`, pending hand-offs are dropped.
 *
 * `ctx` is not read, except its `signal`: an aborted one rejects the call
 * with `AbortedError`. Hooks are ignored (there is no record to shape).
 *
 * @example
 * ```ts
 * const executor = replayCassette("weather.cassette.jsonl", { redact: ["password"] });
 * const turn = createTurn(executor, { ctx });
 * const round = await turn.run(calls); // the recorded messages, byte for byte
 * ```
 * @throws InvalidOptionError for a bad option, a file that cannot be read, or a line that is not a version 1 entry (naming the line)
 * @public
 */
export function replayCassette(path: string, options: ReplayCassetteOptions = {}): CassetteExecutor {
  if (typeof path !== "string" || path === "") throw new InvalidOptionError(`${REPLAY}: path must be a non-empty string; got ${describeValue(path)}`);
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`${REPLAY}: options must be an object; got ${describeValue(options)}`);
  rejectUnknownOptions(REPLAY, options, ["mode", "onMiss", "redact", "tools"]);
  const mode = options.mode ?? "strict";
  if (mode !== "strict" && mode !== "loose") throw new InvalidOptionError(`${REPLAY}: mode must be "strict" or "loose"; got ${describeValue(mode)}`);
  if (options.onMiss !== undefined && typeof options.onMiss !== "function") throw new InvalidOptionError(`${REPLAY}: onMiss must be a function; got ${describeValue(options.onMiss)}`);
  if (options.tools !== undefined && !Array.isArray(options.tools)) throw new InvalidOptionError(`${REPLAY}: tools must be an array of tool descriptors; got ${describeValue(options.tools)}`);
  const redact = redactionSet(REPLAY, options.redact);
  const entries = readCassette(REPLAY, path);
  const tools = Object.freeze((options.tools ?? toolsOf(entries)).map(descriptorCopy));
  return new CassettePlayer(path, entries, tools, mode, redact, options.onMiss).surface();
}

/** The tools a cassette served: its last `tools` line, or the tools its calls name. */
function toolsOf(entries: readonly ReadEntry[]): readonly CassetteToolDescriptor[] {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === "tools") return e.tools;
  }
  const byName = new Map<string, CassetteToolDescriptor>();
  for (const e of entries) {
    if (e.kind !== "call" || e.handlerType === "" || byName.has(e.tool)) continue;
    byName.set(e.tool, {
      name: e.tool,
      description: "",
      inputSchema: { type: "object" },
      handlerName: e.handler,
      handlerType: e.handlerType,
      execution: e.handlerType === "client" ? "client" : "server",
    });
  }
  return [...byName.values()];
}

/** The replay side: the recorded calls by (tool, key), the pending hand-offs and the listeners. */
class CassettePlayer {
  readonly #byKey = new Map<string, { readonly entries: CallEntry[]; next: number }>();
  readonly #byTool = new Map<string, CallEntry[]>();
  /** The recorded client answer of each recorded hand-off. */
  readonly #answers = new Map<CallEntry, ClientResultEntry>();
  /** Replayed hand-offs waiting for the client, by this run's call id. */
  readonly #pending = new Map<string, CallEntry>();
  readonly #listeners = { tool_call: new Set<(p: CassetteExecutorEvents["tool_call"]) => void>(), tool_result: new Set<(p: CassetteExecutorEvents["tool_result"]) => void>() };
  #closed = false;

  constructor(
    private readonly path: string,
    entries: readonly ReadEntry[],
    private readonly tools: readonly CassetteToolDescriptor[],
    private readonly mode: "strict" | "loose",
    private readonly redact: ReadonlySet<string>,
    private readonly onMiss: ((call: CassetteCall) => CassetteOutcome | undefined) | undefined,
  ) {
    // A client answer belongs to the earliest hand-off before it with its call id that has none yet (ids may repeat across turns).
    const unanswered = new Map<string, CallEntry[]>();
    for (const e of entries) {
      if (e.kind === "call") {
        if (e.outcome.status === "client") {
          const waiting = unanswered.get(e.callId) ?? [];
          waiting.push(e);
          unanswered.set(e.callId, waiting);
        }
        const k = `${e.tool}\u0000${e.key}`;
        const slot = this.#byKey.get(k) ?? { entries: [], next: 0 };
        slot.entries.push(e);
        this.#byKey.set(k, slot);
        const list = this.#byTool.get(e.tool) ?? [];
        list.push(e);
        this.#byTool.set(e.tool, list);
      } else if (e.kind === "client-result") {
        const handOff = unanswered.get(e.callId)?.shift();
        if (handOff !== undefined) this.#answers.set(handOff, e);
      }
    }
  }

  surface(): CassetteExecutor {
    const tools = this.tools;
    return {
      execute: (call, ctx) => {
        try {
          return Promise.resolve(this.execute(call, ctx));
        } catch (e) {
          return Promise.reject(e);
        }
      },
      completeClientCall: (result) => this.complete(result),
      refuse: (call, _ctx, reason) => {
        if (this.#closed) return Promise.reject(new ClosedError("execute: the executor is closed"));
        const handlerType = tools.find((d) => d.name === call.name)?.handlerType ?? "";
        return Promise.resolve({ status: "denied", message: `Tool call rejected: ${reason}`, reason, toolName: call.name, callId: call.id, handlerType, durationMs: 0 });
      },
      tools,
      refresh: () => (this.#closed ? Promise.reject(new ClosedError("refresh: the executor is closed")) : Promise.resolve()),
      listTools: () => (this.#closed ? Promise.reject(new ClosedError("listTools: the executor is closed")) : Promise.resolve(tools)),
      checkHealth: (handlerName) => {
        try {
          return Promise.resolve(this.health(handlerName));
        } catch (e) {
          return Promise.reject(e);
        }
      },
      on: (event, listener) => {
        const set = this.#listeners[event] as Set<typeof listener>;
        set.add(listener);
        return { dispose: () => void set.delete(listener) };
      },
      close: () => {
        this.#closed = true;
        this.#pending.clear();
        return Promise.resolve();
      },
    };
  }

  execute(call: CassetteToolCall, ctx: unknown): CassetteOutcome {
    if (this.#closed) throw new ClosedError("execute: the executor is closed");
    const signal = (ctx as { signal?: unknown } | undefined)?.signal;
    if (signal instanceof AbortSignal && signal.aborted) throw new AbortedError("execute: the caller's signal aborted", { cause: signal.reason });
    if (call === null || typeof call !== "object" || typeof call.id !== "string" || typeof call.name !== "string") {
      throw new InvalidOptionError(`${REPLAY}: execute: call must be { id, name, arguments } with string id and name; got ${describeValue(call)}`);
    }
    const args = cassetteArguments(call.arguments, this.redact);
    this.emit("tool_call", { callId: call.id, name: call.name });
    const entry = this.take(call.name, args.key);
    let outcome: CassetteOutcome;
    if (entry !== undefined) {
      outcome = replayOutcome(entry.outcome, call, entry.handlerType, entry.durationMs);
      if (outcome.status === "client") this.#pending.set(call.id, entry);
    } else {
      const answer = this.onMiss?.({ id: call.id, name: call.name, arguments: call.arguments, key: args.key });
      if (answer === undefined) throw this.miss(call, args.key, args.value);
      outcome = answer;
    }
    if (outcome.status !== "client") this.emit("tool_result", { callId: outcome.callId, name: outcome.toolName, ok: outcome.status === "success", durationMs: outcome.durationMs });
    return outcome;
  }

  /** The recording that answers a call of this tool and key, or undefined for a miss. */
  take(tool: string, key: string): CallEntry | undefined {
    const slot = this.#byKey.get(`${tool}\u0000${key}`);
    if (slot === undefined) return undefined;
    if (slot.next >= slot.entries.length) {
      if (this.mode === "strict") return undefined;
      slot.next = 0;
    }
    return slot.entries[slot.next++];
  }

  miss(call: CassetteToolCall, key: string, value: JsonValue): CassetteMissError {
    const head = `${REPLAY}: ${this.path}: call ${JSON.stringify(call.name)} (id ${JSON.stringify(call.id)})`;
    const shown = `arguments: ${key === "" ? "(none)" : key}`;
    const used = this.#byKey.get(`${call.name}\u0000${key}`);
    if (used !== undefined) {
      const n = used.entries.length;
      return new CassetteMissError(
        `${head} has no recorded outcome left: the cassette records ${n} call${n === 1 ? "" : "s"} of ${JSON.stringify(call.name)} with these arguments, and strict mode answers each once\n${shown}`,
        { toolName: call.name, callId: call.id, key, nearestLine: used.entries[0]!.line },
      );
    }
    const same = this.#byTool.get(call.name);
    if (same === undefined) {
      const names = [...this.#byTool.keys()].sort();
      const recorded = names.length === 0 ? "it records no call" : `it records calls of ${names.map((n) => JSON.stringify(n)).join(", ")}`;
      return new CassetteMissError(`${head} is not in the cassette: no call of ${JSON.stringify(call.name)} was recorded (${recorded})\n${shown}`, { toolName: call.name, callId: call.id, key });
    }
    // The nearest: the recording sharing the most leaf values (path and value) with these arguments, then the
    // one whose key is the fewest character edits away, then the first in the file.
    const mine = leafSet(value);
    let best: { entry: CallEntry; shared: number; distance: number } | undefined;
    for (const entry of same) {
      let shared = 0;
      for (const leaf of leafSet(entry.arguments)) if (mine.has(leaf)) shared++;
      if (best !== undefined && shared < best.shared) continue;
      const distance = editDistance(entry.key, key);
      if (best === undefined || shared > best.shared || distance < best.distance) best = { entry, shared, distance };
    }
    const nearest = best!;
    return new CassetteMissError(
      `${head} is not in the cassette: no recorded call of ${JSON.stringify(call.name)} has these arguments\n` +
        `${shown}\n` +
        `nearest recorded call: line ${nearest.entry.line} (id ${JSON.stringify(nearest.entry.callId)}), arguments: ${nearest.entry.key === "" ? "(none)" : nearest.entry.key}\n` +
        `arguments diff (- recorded, + this call):\n${lineDiff(prettyJson(nearest.entry.arguments), prettyJson(value))}`,
      { toolName: call.name, callId: call.id, key, nearestLine: nearest.entry.line },
    );
  }

  complete(result: CassetteClientResult): CassetteOutcome {
    const callId = (result as { callId?: unknown } | null)?.callId;
    const entry = typeof callId === "string" ? this.#pending.get(callId) : undefined;
    if (entry === undefined) {
      const error = new OmniaToolsError(`completeClientCall: no pending client tool call with id ${JSON.stringify(callId)}; it is unknown or already completed`, { code: ErrorCode.UNKNOWN_CLIENT_CALL });
      error.name = "UnknownClientCallError";
      Object.defineProperty(error, "callId", { value: callId, enumerable: true });
      throw error;
    }
    const id = callId as string;
    const head = `${REPLAY}: ${this.path}: the client's answer to call ${JSON.stringify(entry.tool)} (id ${JSON.stringify(id)})`;
    const recorded = this.#answers.get(entry);
    if (recorded === undefined) {
      throw new CassetteMissError(`${head} is not in the cassette: the hand-off replayed from line ${entry.line} has no recorded answer`, { toolName: entry.tool, callId: id, key: entry.key, nearestLine: entry.line });
    }
    if (!sameClientAnswer(recorded.result, result)) {
      throw new CassetteMissError(
        `${head} is not in the cassette: it differs from the answer recorded at line ${recorded.line}\n` +
          `answer diff (- recorded, + this answer):\n${lineDiff(prettyJson(answerView(recorded.result)), prettyJson(answerView(result)))}`,
        { toolName: entry.tool, callId: id, key: entry.key, nearestLine: recorded.line },
      );
    }
    this.#pending.delete(id);
    const outcome = replayOutcome(recorded.outcome, { id, name: entry.tool }, entry.handlerType, recorded.durationMs);
    this.emit("tool_result", { callId: id, name: entry.tool, ok: outcome.status === "success", durationMs: outcome.durationMs });
    return outcome;
  }

  health(handlerName: string | undefined): { handler: string; handlerType: HandlerType; healthy: boolean; detail: string; latencyMs: number }[] {
    if (this.#closed) throw new ClosedError("checkHealth: the executor is closed");
    const handlers = new Map<string, HandlerType>();
    for (const d of this.tools) if (d.handlerType !== "platform" && d.handlerName !== "" && !handlers.has(d.handlerName)) handlers.set(d.handlerName, d.handlerType);
    if (handlerName !== undefined && !handlers.has(handlerName)) {
      throw new InvalidOptionError(`checkHealth: no handler named ${JSON.stringify(handlerName)}; expected one of ${[...handlers.keys()].map((h) => JSON.stringify(h)).join(", ")}`);
    }
    const out = [];
    for (const [handler, handlerType] of handlers) {
      if (handlerName === undefined || handler === handlerName) out.push({ handler, handlerType, healthy: true, detail: "replayed", latencyMs: 0 });
    }
    return out;
  }

  emit<E extends keyof CassetteExecutorEvents>(event: E, payload: CassetteExecutorEvents[E]): void {
    for (const listener of this.#listeners[event] as Set<(p: CassetteExecutorEvents[E]) => void>) {
      try {
        listener(payload);
      } catch {
        // As the executor: a listener that throws does not affect the call.
      }
    }
  }
}

/** Every leaf of a JSON value as `<path>=<value>` (an empty object or array is a leaf too). */
function leafSet(value: JsonValue): Set<string> {
  const out = new Set<string>();
  const walk = (v: JsonValue, path: string): void => {
    if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length === 0) out.add(`${path}=${Array.isArray(v) ? "[]" : "{}"}`);
      for (const k of keys) walk((v as Record<string, JsonValue>)[k] as JsonValue, `${path}/${JSON.stringify(k)}`);
      return;
    }
    out.add(`${path}=${JSON.stringify(v)}`);
  };
  walk(value, "");
  return out;
}

/** The longest texts compared character by character; longer ones by their length difference only. */
const EDIT_DISTANCE_MAX_CELLS = 4_000_000;

/** Levenshtein distance of two texts (by UTF-16 unit). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length * b.length > EDIT_DISTANCE_MAX_CELLS) return Math.abs(a.length - b.length);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
