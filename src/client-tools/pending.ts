import { ErrorCode, OmniaToolsError, formatGoDuration, type Clock, type TimerHandle } from "../core/index.js";

/**
 * `completeClientCall()` named a call id that is not pending: unknown, or
 * already completed (or timed out).
 * @public
 */
export class UnknownClientCallError extends OmniaToolsError {
  static override readonly code = ErrorCode.UNKNOWN_CLIENT_CALL;
  declare readonly code: typeof ErrorCode.UNKNOWN_CLIENT_CALL;
  readonly callId: string;
  constructor(callId: string) {
    super(`completeClientCall: no pending client tool call with id ${JSON.stringify(callId)}; it is unknown or already completed`);
    this.callId = callId;
  }
}

/** The reason recorded for a pending client call whose safety timeout fired. @internal Does not follow semver. */
export function clientTimeoutReason(timeoutMs: number): string {
  return `client tool timeout (${formatGoDuration(timeoutMs)})`;
}

interface Entry<T> {
  readonly value: T;
  readonly timer: TimerHandle | undefined;
}

/**
 * The client calls handed to the host and not yet completed, each with an
 * optional safety timeout on the clock (off by default, as in Omnia, whose
 * runtime relies on the facade's 5 s ack and 60 s result timeouts).
 * @internal Does not follow semver.
 */
export class PendingClientCalls<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #clock: Clock;
  readonly #timeoutMs: number | undefined;

  constructor(clock: Clock, timeoutMs?: number) {
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  /** Registers a call; `onTimeout` runs if it is still pending when the timeout fires. */
  add(callId: string, value: T, onTimeout: (value: T, reason: string) => void): void {
    const timeoutMs = this.#timeoutMs;
    const timer =
      timeoutMs === undefined
        ? undefined
        : this.#clock.setTimeout(() => {
            if (this.#entries.get(callId)?.value !== value) return;
            this.#entries.delete(callId);
            onTimeout(value, clientTimeoutReason(timeoutMs));
          }, timeoutMs);
    this.#entries.get(callId)?.timer?.clear();
    this.#entries.set(callId, { value, timer });
  }

  /** Removes and returns a pending call. @throws UnknownClientCallError when it is not pending. */
  take(callId: string): T {
    const entry = this.#entries.get(callId);
    if (entry === undefined) throw new UnknownClientCallError(callId);
    this.#entries.delete(callId);
    entry.timer?.clear();
    return entry.value;
  }

  /** Whether a call with this id is pending. */
  has(callId: string): boolean {
    return this.#entries.has(callId);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops every pending call and its timer; returns them. */
  clear(): T[] {
    const values = [...this.#entries.values()];
    this.#entries.clear();
    for (const e of values) e.timer?.clear();
    return values.map((e) => e.value);
  }
}
