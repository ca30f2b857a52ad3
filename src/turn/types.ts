import type { JsonValue, Logger } from "../core/index.js";
import type { PromptPack, ToolDescriptor } from "../manifest/index.js";
import type { ClientToolRequest, ClientToolResult } from "../client-tools/index.js";
import type { PromptKitVersion } from "./offered.js";
import type { ResultBudget } from "./result-budget.js";

/**
 * One tool call of an assistant message, as the model produced it.
 * @public
 */
export interface TurnCall {
  /** The provider-assigned call id. */
  readonly id: string;
  /** The tool name, matched exactly. */
  readonly name: string;
  /**
   * The arguments: the model's JSON text, or an already parsed value (an
   * Anthropic `input` object), which is taken as the text `JSON.stringify` gives.
   */
  readonly arguments: string | JsonValue;
}

/**
 * The call a turn hands to its executor: the arguments are always text,
 * coerced for a server tool and as the model sent them for a client tool.
 * @public
 */
export interface TurnToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/**
 * What a turn needs of an executor's outcome; every `ToolOutcome` fits.
 * @public
 */
export type TurnOutcome =
  | { readonly status: "success"; readonly resultJson: string }
  | { readonly status: "error"; readonly message: string }
  | { readonly status: "denied"; readonly message: string; readonly reason: string }
  | { readonly status: "client"; readonly request: ClientToolRequest };

/**
 * The optional third argument a turn passes to `execute()`.
 * @public
 */
export interface TurnExecuteHooks {
  /**
   * Maps a successful result's JSON text to what the call's ToolCallRecord
   * should hold as `result`: the text the model is shown (formatted, cut at
   * the size limit, or the output-schema failure text), as Omnia's session
   * row holds it. An executor that does not know this hook ignores it.
   */
  readonly recordResult: (resultJson: string) => JsonValue;
  /**
   * Set on a call a person approved (`approved`), or approved with changed
   * arguments (`edited`): the executor's record says so. An executor that
   * does not know this field ignores it.
   */
  readonly approval?: "approved" | "edited";
  /**
   * The round the call runs in, as {@link TurnExecutor.startRound} opened it:
   * the executor makes it the parent of the call's spans. An executor that
   * does not know this field ignores it.
   */
  readonly round?: TurnRoundSpan | undefined;
}

/**
 * The span of one round of a turn, from {@link TurnExecutor.startRound}.
 * @public
 */
export interface TurnRoundSpan {
  /** Ends the span; the turn calls it once, when the round's calls have settled. */
  end(): void;
}

/**
 * The part of a tool executor a turn uses: `createToolExecutor()`'s result
 * fits. `Context` is the executor's per-call context type (`CallContext`).
 * @public
 */
export interface TurnExecutor<Context = unknown> {
  /** Runs one call; resolves to an outcome for every tool fault. */
  execute(call: TurnToolCall, ctx?: Context, hooks?: TurnExecuteHooks): Promise<TurnOutcome>;
  /** Completes a pending client call with the client's answer. */
  completeClientCall(result: ClientToolResult): TurnOutcome;
  /** Every tool the executor serves. */
  readonly tools: readonly ToolDescriptor[];
  /**
   * Records a call a person refused (`turn.deny()`) without running it.
   * Optional: without it a denied call is not recorded.
   */
  refuse?(call: TurnToolCall, ctx: Context | undefined, reason: string): Promise<TurnOutcome>;
  /**
   * Opens the span of a round of `calls` tool calls, or returns `undefined`
   * for none (`createToolExecutor()`'s opens one only with the `gen_ai`
   * conventions on and no span active). Optional: without it rounds have no span.
   */
  startRound?(calls: number): TurnRoundSpan | undefined;
}

/**
 * Options of `createTurn()`. Each limit takes PromptKit's default; 0
 * disables it.
 * @public
 */
export interface TurnOptions<Context = unknown> {
  /**
   * The PromptPack (`loadPromptPack`). With it, the model is offered the
   * prompt's tools that the executor serves (plus the served tools of the
   * `memory`, `skill`, `a2a`, `workflow`, `mcp`, `image` and `video`
   * namespaces, as PromptKit 1.5.5's provider stage offers them), and a tool
   * the pack defines in `tools` is validated against the pack's `parameters`.
   * Without it, every served tool is offered with the registry's schema.
   * A `tools` entry is a tool's exact name; see `promptkit` for wildcards.
   */
  readonly pack?: PromptPack;
  /** The prompt key whose `tools` list applies. Default: the pack's first prompt. */
  readonly prompt?: string;
  /** The context passed to every `execute()` (identity, signal, conversation). */
  readonly ctx?: Context;
  /** Calls of one round in flight at once. Default 10. */
  readonly maxParallelCalls?: number;
  /** The size limit of a formatted success, in UTF-8 bytes. Default 1,048,576. */
  readonly maxResultBytes?: number;
  /** Identical calls (same name, same arguments) in one turn before the guard steps in. Default 3. */
  readonly repeatThreshold?: number;
  /** Rounds in one turn. Default 50. */
  readonly maxRounds?: number;
  /** Receives the stage's warnings. Default: discard. */
  readonly logger?: Logger;
  /**
   * The PromptKit release whose provider stage the turn reproduces. Default
   * `"1.5.5"`, the release Omnia 1.9.0 runs: a prompt's `tools` entries are
   * exact names (an entry such as `get_*` is looked up literally; a name
   * neither served nor defined by the pack is logged `Tool not found in
   * registry`), and served `mcp__` tools are offered without an entry.
   * `"1.5.11"`: an entry ending in `*` offers every served tool whose name
   * starts with the text before it (`mcp__github__*`), `mcp__` tools are
   * offered only through an entry, and `maxToolCalls` may be set.
   */
  readonly promptkit?: PromptKitVersion;
  /**
   * With `promptkit: "1.5.11"`: the tool calls one turn may run, counted as
   * PromptKit's `ToolCallRecorder` counts them (every call that got a result
   * in a round: successes, failures, validation errors and policy denials; not
   * the calls handed to the client, nor the ignored repeats of the
   * identical-call guard). The round that reaches it fails the turn with
   * `TurnError` `max-tool-calls`, `workflow budget exhausted: max_tool_calls
   * <n> reached limit <max>`, carrying that round's messages; so does the next
   * `run()` when calls that ran later (a resumed round) reached it. Default 0:
   * no limit.
   */
  readonly maxToolCalls?: number;
  /**
   * Which server tool calls wait for a person before they run (PromptKit
   * 1.5.6's approval gate; beyond 1.5.5, so off by default): a list of tool
   * names, or a function of the call that returns `true` (hold, with the
   * reason `requires_approval`), a hold (`{ reason?, message? }`) with a non-empty
   * `reason` or `message` (hold, with those), or `false`/`undefined`/an empty
   * hold (run). A function that throws or returns anything else holds the
   * call (and logs why): a broken gate never lets a call through. Client tools
   * are never held (the client decides), nor are names the executor does not
   * serve (they fail as before). The gate is asked before the arguments are
   * coerced and validated, as PromptKit asks it before the registry runs the
   * call; they are validated when the call is approved.
   */
  readonly approval?: readonly string[] | ((call: TurnApprovalCall) => boolean | TurnApprovalHold | undefined);
  /**
   * A `turn.snapshot()` to continue: its held calls can be approved or
   * denied, and its count of calls that ran goes on. The other options are
   * this turn's own; `promptkit` must match the snapshot's.
   */
  readonly resume?: TurnSnapshot;
  /**
   * A limit on what the model reads of each successful result (beyond
   * PromptKit, off by default): the turn's budget, and per tool name in
   * `tools` (a tool listed there takes its own, the others the turn's). It
   * applies after `maxResultBytes`, to the text the model would read; the
   * call's record keeps that whole text. A cut result ends with a notice of
   * how many bytes were left out (`head`, `head+tail`), or stays valid JSON
   * with shortened arrays and strings that say what they lost
   * (`json-aware`); the warning `Tool result cut to the result budget`
   * (`tool`, `size`, `cut`) is logged.
   */
  readonly resultBudget?: TurnResultBudget;
}

/**
 * The `resultBudget` option: the turn's budget (optional), and budgets per
 * tool name.
 * @public
 */
export interface TurnResultBudget extends ResultBudget {
  /** Budgets by tool name; each replaces the turn's for that tool. */
  readonly tools?: Readonly<Record<string, ResultBudget>>;
}

/**
 * A server tool call the approval gate is asked about.
 * @public
 */
export interface TurnApprovalCall {
  readonly id: string;
  readonly name: string;
  /** The model's arguments text, as it sent them. */
  readonly arguments: string;
}

/**
 * Why a call waits (PromptKit's `PendingResult`). A hold whose `reason` and
 * `message` are both empty lets the call run.
 * @public
 */
export interface TurnApprovalHold {
  /** A machine-readable code (`high_value`). Default `requires_approval`. */
  readonly reason?: string;
  /** Text for the person who decides. Default `Tool <name> is awaiting approval`. */
  readonly message?: string;
}

/**
 * A call the approval gate holds: resolve it with `turn.approve()` or
 * `turn.deny()`.
 * @public
 */
export interface TurnApprovalRequest {
  readonly callId: string;
  readonly name: string;
  /** The model's arguments, Go-encoded (sorted keys, compact) as Omnia carries a ToolCall's; `null` for none. */
  readonly argumentsJson: string;
  /** The hold's reason, or `requires_approval`. */
  readonly reason: string;
  /** The hold's message, or PromptKit's `Tool <name> is awaiting approval`. */
  readonly message: string;
}

/**
 * Options of {@link Turn.approve}.
 * @public
 */
export interface TurnApproveOptions {
  /**
   * The person's changes (approve-with-edits, PromptKit's
   * `ResolveToolWithArgs`): shallow-merged over the model's arguments (a key
   * here replaces the model's, other keys stay). The merged arguments are
   * coerced and validated against the tool's schema again before they run.
   */
  readonly arguments?: Readonly<Record<string, JsonValue>>;
}

/**
 * A turn's state at a hand-off, as JSON, for `createTurn`'s `resume` option: the
 * calls the approval gate holds and the count of calls that ran. Client calls
 * are not in it (the executor holds those, and they end with its process), nor
 * the tool loop's counters: a resumed turn starts a fresh tool loop, as any
 * round after a hand-off does.
 * @public
 */
export interface TurnSnapshot {
  readonly format: "omnia-tools.turn";
  readonly version: 1;
  readonly promptkit: PromptKitVersion;
  /** Calls that ran in the turn so far (for `maxToolCalls`). */
  readonly toolCalls: number;
  /** The held calls, in the order they were held, with the model's own arguments text. */
  readonly approvals: readonly (TurnApprovalRequest & { readonly arguments: string })[];
}

/**
 * A tool as it is offered to the model: name, description and input schema
 * (the pack's for a tool the pack defines, else the registry's). The output
 * schema is never offered.
 * @public
 */
export interface TurnTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonValue;
}

/**
 * One tool-result message for the model.
 * @public
 */
export interface TurnMessage {
  readonly callId: string;
  readonly name: string;
  /** The exact text the model sees. */
  readonly content: string;
  /**
   * PromptKit marks the result as an error (the call failed before or inside
   * the executor). Such results count toward the tool's exclusion. A client's
   * rejection, a repeated-call notice and a success are not errors.
   */
  readonly isError: boolean;
}

/**
 * What one round gives back.
 * @public
 */
export interface TurnRound {
  /** The tool-result messages to append, in PromptKit's order. */
  readonly messages: readonly TurnMessage[];
  /**
   * The client tool calls to forward to the client (as ToolCalls with
   * execution CLIENT), in call order. `argumentsJson` is the model's original
   * (not coerced) arguments, Go-encoded as Omnia's ToolCall carries them;
   * `consentMessage` is the handler's, or `Client tool "<name>" awaiting
   * caller fulfillment`. Their messages come from {@link Turn.complete}.
   */
  readonly pending: readonly ClientToolRequest[];
  /**
   * With the `approval` option: the server tool calls this round holds for a
   * person, in call order. They have no message yet: {@link Turn.approve} or
   * {@link Turn.deny} gives it. Absent without the option.
   */
  readonly approvals?: readonly TurnApprovalRequest[];
}

/**
 * The tool-result message of a client's answer.
 * @public
 */
export interface TurnCompletion {
  readonly callId: string;
  readonly name: string;
  /** The exact text the model sees. */
  readonly content: string;
}

/**
 * One model turn: the tools to offer, and each round of tool calls.
 * @public
 */
export interface Turn {
  /**
   * The tools to offer in the next round, sorted by name: the pack's prompt
   * tools that are served, plus the served tools of the implicit namespaces,
   * minus the tools excluded in this turn after their second failure.
   */
  readonly tools: readonly TurnTool[];
  /**
   * Runs the tool calls of one assistant message. Resolves for every tool
   * fault (each becomes its call's message).
   * @throws TurnError (`ERR_OMNIA_TURN`) where PromptKit fails the turn (max rounds, a persisting loop)
   * @throws the executor's own error (`AbortedError`, `ClosedError`) after every call of the round settled
   */
  run(calls: readonly TurnCall[]): Promise<TurnRound>;
  /**
   * The tool-result message of a client's answer to a pending call.
   * @throws UnknownClientCallError when the call is not pending
   */
  complete(result: ClientToolResult): TurnCompletion;
  /** The calls the approval gate holds now, in the order they were held. */
  readonly approvals: readonly TurnApprovalRequest[];
  /**
   * Approves a held call and runs it (with the person's changes, if any): the
   * arguments are coerced and validated, then executed as any call is, and
   * the call's record says `approval: "approved"` or `"edited"`. Resolves
   * with its message, the text the model would have read had it run in its
   * round. Single-winner: the call stops being held at once.
   * @throws TurnError (`approval-unknown`) when the call is not held (never held, or already approved or denied)
   * @throws InvalidOptionError for `arguments` that are not a plain object of JSON values
   * @throws the executor's own error (`ClosedError`, `AbortedError`); the call is held again
   */
  approve(callId: string, options?: TurnApproveOptions): Promise<TurnMessage>;
  /**
   * Refuses a held call: it never runs. Its message is PromptKit's
   * `Tool call rejected: <reason>` (an error result); the executor records it
   * `denied` (`executor.refuse`). Single-winner, as {@link Turn.approve}.
   * @throws TurnError (`approval-unknown`) when the call is not held
   */
  deny(callId: string, reason: string): Promise<TurnMessage>;
  /**
   * The turn's state as JSON (`JSON.stringify` it), to continue on another
   * process with `createTurn(executor, { resume })`.
   * @throws TurnError when the turn has failed (the failure itself), or a round is running (`round-in-progress`)
   */
  snapshot(): TurnSnapshot;
}
