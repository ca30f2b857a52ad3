// The provider stage of one model turn (PromptKit runtime/v1.5.5
// stages_provider.go, as Omnia 1.3.0 runs it): what the model is offered, and
// for each assistant message the identical-call guard → the parallel batch →
// the results in call order → exclusion after repeated failure → the round limit.
import { InvalidOptionError, compareUtf8, goQuote, noopLogger, rejectUnknownOptions, toError, type JsonValue, type Logger } from "../core/index.js";
import type { PromptPack, ToolDescriptor } from "../manifest/index.js";
import type { ClientToolRequest, ClientToolResult } from "../client-tools/index.js";
import { reencodeClientResult } from "./format.js";
import { LoopState, repeatedCallText } from "./guards.js";
import { runBatch } from "./round.js";
import { argumentsText, runCall, type CallDeps, type CallResult } from "./run-call.js";
import { packTool, ToolCatalog } from "./tool-catalog.js";
import { offeredNames, PROMPTKIT_VERSIONS, type PromptKitVersion } from "./offered.js";
import { approvalGate, checkApprovalOption, editedArguments, readSnapshot, takeSnapshot, type HeldCall } from "./approval.js";
import { checkResultBudget, type ResultBudget } from "./result-budget.js";
import { TurnError } from "./turn-error.js";
import type { Turn, TurnApprovalRequest, TurnApproveOptions, TurnCall, TurnCompletion, TurnExecutor, TurnMessage, TurnOptions, TurnRound, TurnRoundSpan, TurnSnapshot, TurnTool } from "./types.js";

/** PromptKit's `defaultMaxParallelToolCalls`. @public */
export const DEFAULT_MAX_PARALLEL_CALLS = 10;
/** PromptKit's `DefaultMaxToolResultSize`, in bytes. @public */
export const DEFAULT_MAX_RESULT_BYTES = 1_048_576;
/** PromptKit's `defaultMaxIdenticalCalls`. @public */
export const DEFAULT_REPEAT_THRESHOLD = 3;
/** PromptKit's `defaultMaxRounds`. @public */
export const DEFAULT_MAX_ROUNDS = 50;

const KNOWN_OPTIONS = new Set(["pack", "prompt", "ctx", "maxParallelCalls", "maxResultBytes", "repeatThreshold", "maxRounds", "logger", "promptkit", "maxToolCalls", "approval", "resume", "resultBudget"]);
const LIMITS = ["maxParallelCalls", "maxResultBytes", "repeatThreshold", "maxRounds", "maxToolCalls"] as const;

/**
 * Starts one model turn over an executor: the PromptKit provider stage that
 * sits in front of Omnia's tools layer, so that the model is offered, and
 * reads, exactly what it would under Omnia's runtime.
 *
 * For each call of a round: the tool is looked up by exact name
 * (`Error: tool not found: <name>`); its arguments are coerced to the schema
 * (the pack's `parameters` for a tool the pack defines, else the registry's
 * `inputSchema`) and validated (`Error: tool <name> validation error
 * (args_invalid): …`; the executor is never called); the executor runs with
 * the coerced arguments (a client tool's request keeps the model's own); a
 * success is checked against the output schema of a registry-only http or
 * grpc tool, formatted (sorted keys, 2-space indent; a string bare; `null` as
 * `<nil>`) and cut at `maxResultBytes`; a failure reads `Tool execution
 * failed: <message>`; a client's refusal `Tool rejected: <reason>`.
 *
 * A round runs at most `maxParallelCalls` calls at once, started in call
 * order, and gives its messages in call order. Client calls are left out of
 * the messages and listed in `pending`; their messages come from
 * `turn.complete()`, and the next round starts a fresh tool loop (every
 * counter below back to zero), as PromptKit's resume does. A tool whose
 * results were errors twice leaves `turn.tools` (it still runs when called).
 * The `repeatThreshold`-th identical call is not executed and gets the
 * `Repeated call ignored: …` text (those texts first, then the round's other
 * results); a second such round fails the turn, and so does finishing round
 * `maxRounds`. A limit of 0 disables it.
 *
 * MCP and OpenAPI tools are known once discovered: call the executor's
 * `listTools()` (or `refresh()`) before the turn.
 *
 * @example
 * ```ts
 * const turn = createTurn(executor, { pack, prompt: "support", ctx: { identity } });
 * const reply = await model.send(messages, turn.tools);
 * const round = await turn.run(reply.toolCalls);
 * messages.push(...round.messages);
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option, a negative or fractional limit, or a prompt the pack lacks
 * @public
 */
export function createTurn<Context = unknown>(executor: TurnExecutor<Context>, options: TurnOptions<Context> = {}): Turn {
  validate(executor, options);
  return new TurnState(executor, options);
}

/**
 * One turn's state. `run` and `complete` are own functions, so that they work
 * unbound (`const { run } = turn`); everything else is on the prototype.
 */
class TurnState<Context> implements Turn {
  readonly #executor: TurnExecutor<Context>;
  readonly #pack: PromptPack | undefined;
  readonly #prompt: string | undefined;
  readonly #logger: Logger;
  readonly #maxParallelCalls: number;
  readonly #repeatThreshold: number;
  readonly #maxRounds: number;
  readonly #promptkit: PromptKitVersion;
  readonly #maxToolCalls: number;
  /** Calls executed in this turn, as PromptKit 1.5.11's `ToolCallRecorder` counts them; never reset by a resume. */
  #toolCalls = 0;
  /** The calls the approval gate holds, by call id, in the order they were held. */
  readonly #held = new Map<string, HeldCall>();
  /** Held calls whose approve() or deny() is in flight: their ids stay taken until it settles. */
  readonly #deciding = new Set<string>();
  readonly #gated: boolean;
  readonly #catalog: ToolCatalog;
  readonly #deps: CallDeps<Context>;
  #loop = new LoopState();
  #suspended = false;
  #running = false;
  #failed: TurnError | undefined;
  #pendingNames: Map<string, string> | undefined;
  #offered: { source: readonly ToolDescriptor[]; excluded: number; tools: readonly TurnTool[] } | undefined;

  constructor(executor: TurnExecutor<Context>, options: TurnOptions<Context>) {
    const pack = options.pack;
    this.#executor = executor;
    this.#pack = pack;
    this.#prompt = options.prompt ?? (pack === undefined ? undefined : Object.keys(pack.prompts)[0]);
    this.#logger = options.logger ?? noopLogger;
    this.#maxParallelCalls = options.maxParallelCalls ?? DEFAULT_MAX_PARALLEL_CALLS;
    this.#repeatThreshold = options.repeatThreshold ?? DEFAULT_REPEAT_THRESHOLD;
    this.#maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    this.#promptkit = options.promptkit ?? "1.5.5";
    this.#maxToolCalls = options.maxToolCalls ?? 0;
    this.#catalog = new ToolCatalog(pack);
    const approval = approvalGate(options.approval, this.#logger);
    this.#gated = approval !== undefined;
    this.#deps = { executor, ctx: options.ctx, catalog: this.#catalog, maxResultBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES, logger: this.#logger, approval, budget: budgets(options.resultBudget) };
    if (options.resume !== undefined) {
      const resumed = readSnapshot(options.resume, this.#promptkit);
      this.#toolCalls = resumed.toolCalls;
      for (const h of resumed.held) this.#held.set(h.request.callId, h);
    }
  }

  get tools(): readonly TurnTool[] {
    const executor = this.#executor;
    const pack = this.#pack;
    const prompt = this.#prompt;
    const catalog = this.#catalog;
    const loop = this.#loop;
    const source = executor.tools;
    const offered = this.#offered;
    if (offered !== undefined && offered.source === source && offered.excluded === loop.excluded.size) return offered.tools;
    catalog.sync(source);
    const names = pack === undefined ? source.map((d) => d.name) : offeredNames(prompt === undefined ? undefined : pack.prompts[prompt]?.tools, source, catalog, this.#promptkit, this.#logger);
    const seen = new Set<string>();
    const tools: TurnTool[] = [];
    for (const name of names) {
      if (seen.has(name) || loop.excluded.has(name)) continue;
      seen.add(name);
      const descriptor = catalog.served(name);
      if (descriptor === undefined) continue;
      const defined = packTool(pack, name);
      tools.push(
        Object.freeze(
          defined === undefined
            ? { name, description: descriptor.description, inputSchema: descriptor.inputSchema }
            : { name, description: defined.description ?? "", inputSchema: (defined.parameters ?? {}) as JsonValue },
        ),
      );
    }
    // Byte order of the names, as Go's sort of the descriptors.
    tools.sort((a, b) => compareUtf8(a.name, b.name));
    const frozen = Object.freeze(tools);
    this.#offered = { source, excluded: loop.excluded.size, tools: frozen };
    return frozen;
  }

  readonly run = async (calls: readonly TurnCall[]): Promise<TurnRound> => {
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#running) throw new TurnError("round-in-progress", "turn.run: the previous round has not finished; run one round at a time");
    if (!Array.isArray(calls)) throw new InvalidOptionError(`turn.run: calls must be an array of { id, name, arguments }; got ${calls === null ? "null" : typeof calls}`);
    calls.forEach((c, i) => {
      if (c === null || typeof c !== "object" || typeof c.id !== "string" || typeof c.name !== "string") {
        throw new InvalidOptionError(`turn.run: calls[${i}] must be { id: string, name: string, arguments }; got ${c === null ? "null" : typeof c !== "object" ? typeof c : `id: ${typeof c.id}, name: ${typeof c.name}`}`);
      }
    });
    if (calls.length === 0) return this.#gated ? { messages: [], pending: [], approvals: [] } : { messages: [], pending: [] };
    this.#running = true;
    const round = this.#startRound(calls.length);
    this.#deps.round = round;
    try {
      return await this.#runRound(calls);
    } finally {
      this.#deps.round = undefined;
      round?.end();
      this.#running = false;
    }
  };

  /** The round's span, when the executor opens one; an executor whose startRound throws only loses the span. */
  #startRound(calls: number): TurnRoundSpan | undefined {
    const executor = this.#executor;
    if (typeof executor.startRound !== "function") return undefined;
    try {
      return executor.startRound(calls);
    } catch (e) {
      this.#logger.error("turn: the executor's startRound threw; the round has no span", { error: toError(e).message });
      return undefined;
    }
  }

  async #runRound(calls: readonly TurnCall[]): Promise<TurnRound> {
    const deps = this.#deps;
    const logger = this.#logger;
    const maxRounds = this.#maxRounds;
    const repeatThreshold = this.#repeatThreshold;
    const maxParallelCalls = this.#maxParallelCalls;
    // A round after a client hand-off is PromptKit's resume: a new tool loop.
    if (this.#suspended) {
      this.#loop = new LoopState();
      this.#suspended = false;
    }
    // Calls that ran after the last check (a round that handed calls off) may have spent the budget.
    if (this.#toolCallsSpent()) throw this.#fail(this.#maxToolCallsError([]));
    const loop = this.#loop;
    loop.rounds++;
    if (maxRounds > 0 && loop.rounds > maxRounds) throw this.#fail(this.#maxRoundsError([]));
    this.#catalog.sync(this.#executor.tools);
    const items = calls.map((c) => ({ id: c.id, name: c.name, text: argumentsText(c.arguments) }));

    const repeated = loop.repeatedCalls(items, repeatThreshold);
    if (repeated !== undefined) {
      if (loop.nudged) {
        throw this.#fail(new TurnError("tool-loop", `provider stage: tool loop persisted after a self-correction nudge: ${goQuote(repeated.first)} called with identical arguments`, { toolName: repeated.first }));
      }
      loop.nudged = true;
      logger.warn("identical tool-call loop detected; feeding it back to the model for one self-correction attempt", { tool: repeated.first });
      // The repeated calls' notices first, then the other calls' results; client calls of
      // this round are dropped, failures are not counted, and the round limit is not checked.
      const messages: TurnMessage[] = [];
      const rest: typeof items = [];
      for (const item of items) {
        if (repeated.ids.has(item.id)) messages.push({ callId: item.id, name: item.name, content: repeatedCallText(item.name, repeatThreshold), isError: false });
        else rest.push(item);
      }
      const results = await runBatch(rest, maxParallelCalls, (item) => runCall(item, deps, true));
      rethrow(results);
      // Only what ran counts: the ignored repeats and the dropped client calls do not. A held call stays held
      // (PromptKit's gate has already put it in its pending store when the nudge path drops its result).
      const approvals: TurnApprovalRequest[] = [];
      const notices = messages.length;
      for (const r of results) {
        if (r.kind === "approval") this.#hold(r, messages, approvals);
        else if (r.kind === "message") messages.push(r.message);
      }
      this.#toolCalls += messages.length - notices;
      if (this.#toolCallsSpent()) throw this.#fail(this.#maxToolCallsError(messages));
      return this.#gated ? { messages, pending: [], approvals } : { messages, pending: [] };
    }

    const results = await runBatch(items, maxParallelCalls, (item) => runCall(item, deps, false));
    rethrow(results);
    const messages: TurnMessage[] = [];
    const pending: ClientToolRequest[] = [];
    const approvals: TurnApprovalRequest[] = [];
    for (const r of results) {
      if (r.kind === "message") messages.push(r.message);
      else if (r.kind === "pending") {
        pending.push(r.request);
        (this.#pendingNames ??= new Map()).set(r.request.callId, r.request.name);
      } else if (r.kind === "approval") {
        this.#hold(r, messages, approvals);
      }
    }
    // PromptKit 1.5.11's ToolCallRecorder: every call that ran (errors and policy denials too), not the pending ones.
    // A reused id's refusal (below) ran nothing, but it is a result like an unknown tool's: it counts as one.
    this.#toolCalls += messages.length;
    const round: TurnRound = this.#gated ? { messages, pending, approvals } : { messages, pending };
    if (pending.length > 0 || approvals.length > 0) {
      // The turn suspends until the client or the person answers: no exclusion count, no round limit.
      this.#suspended = true;
      return round;
    }
    loop.countFailures(messages, logger);
    if (maxRounds > 0 && loop.rounds === maxRounds) throw this.#fail(this.#maxRoundsError(messages));
    if (this.#toolCallsSpent()) throw this.#fail(this.#maxToolCallsError(messages));
    return round;
  }

  /**
   * Holds a call the gate stopped, once per id: an id already held, or whose decision is in flight, must never
   * replace (and so lose) that call; the new call gets an error message instead.
   */
  #hold(r: { readonly request: TurnApprovalRequest; readonly text: string }, messages: TurnMessage[], approvals: TurnApprovalRequest[]): void {
    const id = r.request.callId;
    if (this.#held.has(id) || this.#deciding.has(id)) {
      messages.push({ callId: id, name: r.request.name, content: `Tool execution failed: tool call id ${JSON.stringify(id)} is already awaiting approval`, isError: true });
      return;
    }
    this.#held.set(id, { request: r.request, text: r.text });
    approvals.push(r.request);
  }

  /** Whether `maxToolCalls` is set and the turn's executed calls reached it (PromptKit's `>=`). */
  #toolCallsSpent(): boolean {
    return this.#maxToolCalls > 0 && this.#toolCalls >= this.#maxToolCalls;
  }

  /** PromptKit's `BudgetExhaustedError` text for `max_tool_calls`. */
  #maxToolCallsError(messages: readonly TurnMessage[]): TurnError {
    return new TurnError("max-tool-calls", `workflow budget exhausted: max_tool_calls ${this.#toolCalls} reached limit ${this.#maxToolCalls}`, { messages });
  }

  #maxRoundsError(messages: readonly TurnMessage[]): TurnError {
    return new TurnError("max-rounds", `provider stage: max rounds (${this.#maxRounds}) exceeded`, { messages });
  }

  #fail(error: TurnError): TurnError {
    this.#failed = error;
    return error;
  }

  get approvals(): readonly TurnApprovalRequest[] {
    return Array.from(this.#held.values(), (h) => h.request);
  }

  /** A held call, still held. */
  #peek(method: string, callId: unknown): HeldCall {
    const held = typeof callId === "string" ? this.#held.get(callId) : undefined;
    if (held === undefined) throw new TurnError("approval-unknown", `turn.${method}: no call ${typeof callId === "string" ? JSON.stringify(callId) : `id (${typeof callId})`} is awaiting approval (never held, or already approved or denied)`);
    return held;
  }

  readonly approve = async (callId: string, options?: TurnApproveOptions): Promise<TurnMessage> => {
    if (options !== undefined && (options === null || typeof options !== "object")) throw new InvalidOptionError(`turn.approve: options must be an object; got ${options === null ? "null" : typeof options}`);
    const held = this.#peek("approve", callId);
    // A turn that failed, or whose maxToolCalls is spent, runs nothing more: the call stays held (deny() still works).
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#toolCallsSpent()) throw this.#fail(this.#maxToolCallsError([]));
    // Approvals in flight will count once they ran: together they may not pass the limit either.
    if (this.#maxToolCalls > 0 && this.#toolCalls + this.#deciding.size >= this.#maxToolCalls) {
      throw new TurnError("max-tool-calls", `workflow budget exhausted: max_tool_calls ${this.#toolCalls + this.#deciding.size} reached limit ${this.#maxToolCalls} (counting the approvals in flight)`);
    }
    // The edits are checked before the call is taken, so a bad edit leaves it held.
    // What runs is what the person was shown: the canonical arguments (a repeated key cannot mean two things).
    const { text, edited } = editedArguments(held.request.argumentsJson === "" ? held.text : held.request.argumentsJson, options?.arguments);
    const { name } = held.request;
    this.#catalog.sync(this.#executor.tools);
    if (this.#catalog.lookup(name)?.client === true) {
      throw new TurnError("approval-unknown", `turn.approve: ${JSON.stringify(name)} is a client tool for this executor; its call can only be denied`);
    }
    // Single-winner: taken before the first await, so a second approve() or deny() finds nothing.
    const id = held.request.callId;
    this.#held.delete(id);
    this.#deciding.add(id);
    let result: CallResult;
    try {
      result = await runCall({ id, name, text }, this.#deps, false, edited ? "edited" : "approved");
    } finally {
      this.#deciding.delete(id);
    }
    if (result.kind === "message") {
      this.#toolCalls++;
      return result.message;
    }
    // The executor's own error (closed, aborted): the call stays held, for this turn or a snapshot's.
    this.#held.set(id, held);
    if (result.kind === "thrown") throw result.error;
    throw new TurnError("approval-unknown", `turn.approve: ${JSON.stringify(name)} did not run`);
  };

  readonly deny = async (callId: string, reason: string): Promise<TurnMessage> => {
    if (typeof reason !== "string") throw new InvalidOptionError(`turn.deny: reason must be a string; got ${reason === null ? "null" : typeof reason}`);
    const held = this.#peek("deny", callId);
    const id = held.request.callId;
    this.#held.delete(id);
    const { name } = held.request;
    const executor = this.#executor;
    if (typeof executor.refuse === "function") {
      this.#deciding.add(id);
      try {
        await executor.refuse({ id, name, arguments: held.text }, this.#deps.ctx, reason);
      } catch (e) {
        // Not recorded (the executor closed): the call stays held, so the denial can be made again.
        this.#held.set(id, held);
        throw e;
      } finally {
        this.#deciding.delete(id);
      }
    }
    return { callId: id, name, content: `Tool call rejected: ${reason}`, isError: true };
  };

  snapshot(): TurnSnapshot {
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#running) throw new TurnError("round-in-progress", "turn.snapshot: a round is running; take the snapshot once it has finished");
    // A decision in flight may yet run its call, or fail and hold it again: either snapshot could be wrong.
    if (this.#deciding.size > 0) throw new TurnError("round-in-progress", "turn.snapshot: an approve() or deny() is in flight; take the snapshot once it has settled");
    return takeSnapshot(this.#promptkit, this.#toolCalls, this.#held.values());
  }

  readonly complete = (result: ClientToolResult): TurnCompletion => {
    const outcome = this.#executor.completeClientCall(result);
    const name = this.#pendingNames?.get(result.callId) ?? (outcome as { toolName?: unknown }).toolName;
    this.#pendingNames?.delete(result.callId);
    // The client's own text, re-encoded as Go does (`plain` → `"plain"`); a refusal is `Tool rejected: <reason>`.
    const content = outcome.status === "success" ? reencodeClientResult(result.resultJson ?? "") : outcome.status === "client" ? "" : outcome.message;
    return { callId: result.callId, name: typeof name === "string" ? name : "", content };
  }
}

/**
 * The `resultBudget` option as a lookup by tool name (a copy: the host's
 * object is read once, at creation), or undefined when it sets no budget.
 * @throws InvalidOptionError naming the first bad field
 */
function budgets(option: unknown): ((name: string) => ResultBudget | undefined) | undefined {
  try {
    return readBudgets(option);
  } catch (e) {
    if (e instanceof InvalidOptionError) throw e;
    // A getter or a Proxy trap of the host's object threw.
    throw new InvalidOptionError(`createTurn: resultBudget could not be read: ${toError(e).message}`);
  }
}

function readBudgets(option: unknown): ((name: string) => ResultBudget | undefined) | undefined {
  if (option === undefined) return undefined;
  if (option === null || typeof option !== "object" || Array.isArray(option)) {
    throw new InvalidOptionError(`createTurn: resultBudget must be an object { maxBytes | maxTokens, cut?, tools? }; got ${option === null ? "null" : Array.isArray(option) ? "an array" : typeof option}`);
  }
  const { tools, ...own } = option as { tools?: unknown };
  let turnBudget: ResultBudget | undefined;
  if (Object.values(own).some((v) => v !== undefined)) {
    const bad = checkResultBudget(own, "createTurn: resultBudget");
    if (bad !== undefined) throw new InvalidOptionError(bad);
    turnBudget = Object.freeze({ ...own }) as ResultBudget;
  }
  const byTool = new Map<string, ResultBudget>();
  if (tools !== undefined) {
    if (tools === null || typeof tools !== "object" || Array.isArray(tools)) throw new InvalidOptionError(`createTurn: resultBudget.tools must be an object of budgets by tool name; got ${tools === null ? "null" : Array.isArray(tools) ? "an array" : typeof tools}`);
    for (const [name, budget] of Object.entries(tools)) {
      const bad = checkResultBudget(budget, `createTurn: resultBudget.tools[${JSON.stringify(name)}]`);
      if (bad !== undefined) throw new InvalidOptionError(bad);
      byTool.set(name, Object.freeze({ ...(budget as ResultBudget) }));
    }
  }
  if (turnBudget === undefined && byTool.size === 0) return undefined;
  return (name) => byTool.get(name) ?? turnBudget;
}

/** The first executor error of the round (in call order), after every call settled. */
function rethrow(results: readonly CallResult[]): void {
  for (const r of results) if (r.kind === "thrown") throw r.error;
}

function validate<Context>(executor: TurnExecutor<Context>, options: TurnOptions<Context>): void {
  const e = executor as Partial<TurnExecutor<Context>> | null | undefined;
  if (e === null || typeof e !== "object" || typeof e.execute !== "function" || typeof e.completeClientCall !== "function" || !Array.isArray(e.tools)) {
    throw new InvalidOptionError(`createTurn: executor must be a tool executor (createToolExecutor()) with execute, completeClientCall and tools; got ${e === null ? "null" : typeof e}`);
  }
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`createTurn: options must be an object; got ${options === null ? "null" : typeof options}`);
  rejectUnknownOptions("createTurn", options, KNOWN_OPTIONS);
  for (const key of LIMITS) {
    const value = options[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new InvalidOptionError(`createTurn: ${key} must be a non-negative integer (0 disables the limit); got ${String(value)}`);
    }
  }
  if (options.promptkit !== undefined && !PROMPTKIT_VERSIONS.includes(options.promptkit)) {
    throw new InvalidOptionError(`createTurn: promptkit must be one of ${PROMPTKIT_VERSIONS.map((v) => JSON.stringify(v)).join(", ")}; got ${typeof options.promptkit === "string" ? JSON.stringify(options.promptkit) : String(options.promptkit)}`);
  }
  if (options.maxToolCalls !== undefined && options.maxToolCalls !== 0 && options.promptkit !== "1.5.11") {
    throw new InvalidOptionError('createTurn: maxToolCalls needs promptkit: "1.5.11" (PromptKit 1.5.5 does not count tool calls)');
  }
  checkApprovalOption(options.approval);
  const pack = options.pack as { prompts?: unknown } | undefined;
  if (pack !== undefined && (pack === null || typeof pack !== "object" || pack.prompts === null || typeof pack.prompts !== "object")) {
    throw new InvalidOptionError("createTurn: pack must be a PromptPack (loadPromptPack()) with a prompts object");
  }
  if (options.prompt !== undefined) {
    if (options.pack === undefined) throw new InvalidOptionError(`createTurn: prompt ${JSON.stringify(options.prompt)} needs a pack`);
    if (!Object.prototype.hasOwnProperty.call(options.pack.prompts, options.prompt)) {
      throw new InvalidOptionError(`createTurn: the pack has no prompt ${JSON.stringify(options.prompt)}; expected one of ${Object.keys(options.pack.prompts).join(", ")}`);
    }
  }
  if (options.logger !== undefined && (options.logger === null || typeof options.logger.warn !== "function")) {
    throw new InvalidOptionError("createTurn: logger must be a Logger with debug, info, warn and error");
  }
}
