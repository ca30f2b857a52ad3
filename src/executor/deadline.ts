import { ErrorCode, InvalidOptionError, TimeoutError, type Clock, type OmniaToolsError, type TimerHandle } from "../core/index.js";
import { offSharedAbort, onSharedAbort } from "../retry/index.js";
import type { CallContext, ToolOutcome } from "./outcome.js";

/**
 * The deadline of one call (`ctx.timeoutMs`): one timer on the clock, armed
 * when `execute()` starts, and one signal that aborts at the first of the
 * caller's signal and the deadline. The stages see that signal as
 * `ctx.signal`, so every wait that ends at the caller's abort (the policy
 * decision, each attempt, each backoff sleep) ends at the deadline too.
 *
 * The stages record an abandoned call through `report.fail`; when the deadline
 * fired first, the report records the call's {@link CallDeadline.error}
 * instead (once), keeps the outcome here, and `execute()` resolves it where it
 * would have rethrown the abort.
 * @internal Does not follow semver.
 */
export class CallDeadline {
  /** The caller's context, with the linked signal. */
  readonly ctx: CallContext;
  /** Set when the deadline fired before the caller's signal: the error the call ends with. */
  error: TimeoutError | undefined = undefined;
  /** The outcome recorded for the timed-out call, for `execute()` to resolve. */
  outcome: ToolOutcome | undefined = undefined;
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #timer: TimerHandle | undefined;

  constructor(clock: Clock, ctx: CallContext, timeoutMs: number) {
    this.#caller = ctx.signal;
    this.ctx = { ...ctx, signal: this.#controller.signal };
    if (this.#caller?.aborted === true) {
      this.#controller.abort(this.#caller.reason);
      this.#timer = undefined;
      return;
    }
    if (this.#caller !== undefined) onSharedAbort(this.#caller, this);
    this.#timer = clock.setTimeout(() => this.#expire(timeoutMs), timeoutMs);
  }

  /** What a stage records for an abandoned call: the deadline's error when the deadline ended it. */
  replaces(error: OmniaToolsError): TimeoutError | undefined {
    return this.error !== undefined && error.code === ErrorCode.ABORTED ? this.error : undefined;
  }

  /** The caller's signal aborted first (this is its listener). */
  handleEvent(): void {
    this.#timer?.clear();
    this.#controller.abort(this.#caller?.reason);
  }

  /** The call settled: the timer and the listener go. */
  dispose(): void {
    this.#timer?.clear();
    if (this.#caller !== undefined) offSharedAbort(this.#caller, this);
  }

  #expire(timeoutMs: number): void {
    if (this.#controller.signal.aborted) return;
    const error = new TimeoutError(timeoutMs, { scope: "call" });
    this.error = error;
    this.#controller.abort(error);
  }
}

/**
 * `ctx.timeoutMs`: undefined (no deadline), or a positive finite number of ms.
 * @throws InvalidOptionError for anything else
 * @internal Does not follow semver.
 */
export function checkDeadline(timeoutMs: unknown): number {
  if (typeof timeoutMs === "number" && timeoutMs > 0 && Number.isFinite(timeoutMs)) return timeoutMs;
  throw new InvalidOptionError(`execute: ctx.timeoutMs must be a positive finite number of ms; got ${typeof timeoutMs === "number" || timeoutMs === null ? String(timeoutMs) : typeof timeoutMs === "string" ? JSON.stringify(timeoutMs) : typeof timeoutMs}`);
}
