import { ErrorCode, OmniaToolsError } from "../core/index.js";
import type { TurnMessage } from "./types.js";

/**
 * Why a turn failed:
 * - `max-rounds`: the tools of the last allowed round ran (`maxRounds`, default 50);
 * - `tool-loop`: a call reached the identical-call threshold again after the
 *   self-correction nudge;
 * - `round-in-progress`: `run()` was called before the previous round finished;
 * - `max-tool-calls`: with `promptkit: "1.5.11"`, the calls the turn ran reached
 *   `maxToolCalls` (`workflow budget exhausted: max_tool_calls <n> reached limit <max>`);
 * - `approval-unknown`: `approve()` or `deny()` named a call the approval gate
 *   does not hold (never held, or already approved or denied). It does not
 *   fail the turn.
 * @public
 */
export type TurnFailure = "max-rounds" | "tool-loop" | "round-in-progress" | "max-tool-calls" | "approval-unknown";

/**
 * The turn cannot go on, where PromptKit's provider stage fails the turn:
 * `provider stage: max rounds (50) exceeded`, or
 * `provider stage: tool loop persisted after a self-correction nudge: "<name>" called with identical arguments`
 * (`stages_provider.go`). A tool's own failure never raises it: that becomes
 * the call's message. Every later `run()` of the same turn rejects with the
 * same error.
 * @public
 */
export class TurnError extends OmniaToolsError {
  static override readonly code = ErrorCode.TURN;
  declare readonly code: typeof ErrorCode.TURN;
  /** Which limit ended the turn. */
  readonly reason: TurnFailure;
  /** For `tool-loop`: the first tool of the round that repeated itself. */
  readonly toolName: string | undefined;
  /**
   * For `max-rounds` and `max-tool-calls`: the messages of the round whose
   * tools ran before the limit ended the turn (PromptKit appends them to the
   * conversation before failing). Empty otherwise.
   */
  readonly messages: readonly TurnMessage[];

  constructor(reason: TurnFailure, message: string, details: { readonly toolName?: string; readonly messages?: readonly TurnMessage[] } = {}) {
    super(message);
    this.reason = reason;
    this.toolName = details.toolName;
    this.messages = details.messages ?? [];
  }
}
