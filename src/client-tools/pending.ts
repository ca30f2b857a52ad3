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

/**
 * The reason recorded for a pending client call whose caller's signal aborted
 * first (in a runtime: the Converse stream that carried the call ended before
 * the client answered).
 * @public
 */
export const CLIENT_NEVER_ANSWERED_REASON = "the client never answered";

interface Entry<T> {
  readonly value: T;
  readonly timer: TimerHandle | undefined;
  /** Removes the abort listener of the call's signal. */
  readonly detach: (() => void) | undefined;
}

/**
 * The client calls handed to the host and not yet completed, each with an
 * optional safety timeout on the clock (off by default, as in Omnia, whose
 * runtime relies on the facade's 5 s ack and 60 s result timeouts).
 * @internal Does not follow semver.
 */
export class PendingClientCalls<T> {
  readonly #entries = new Map<string, Entry<T>>();
  /** One abort listener per signal, however many calls wait on it (a turn's calls share the stream's). */
  readonly #bySignal = new WeakMap<AbortSignal, Set<() => void>>();
  readonly #clock: Clock;
  readonly #timeoutMs: number | undefined;

  constructor(clock: Clock, timeoutMs?: number) {
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Registers a call; `onTimeout` runs if it is still pending when the timeout
   * fires, or when `signal` aborts first (with {@link CLIENT_NEVER_ANSWERED_REASON}).
   */
  add(callId: string, value: T, onTimeout: (value: T, reason: string) => void, signal?: AbortSignal): void {
    const timeoutMs = this.#timeoutMs;
    const expire = (reason: string): void => {
      const entry = this.#entries.get(callId);
      if (entry?.value !== value) return;
      this.#entries.delete(callId);
      entry.timer?.clear();
      entry.detach?.();
      onTimeout(value, reason);
    };
    const timer = timeoutMs === undefined ? undefined : this.#clock.setTimeout(() => expire(clientTimeoutReason(timeoutMs)), timeoutMs);
    let detach: (() => void) | undefined;
    if (signal !== undefined && !signal.aborted) detach = this.#onAbort(signal, () => expire(CLIENT_NEVER_ANSWERED_REASON));
    const previous = this.#entries.get(callId);
    previous?.timer?.clear();
    previous?.detach?.();
    this.#entries.set(callId, { value, timer, detach });
    // Already aborted: expired once the caller has the handed-off outcome (never before its pending record).
    if (signal?.aborted === true) queueMicrotask(() => expire(CLIENT_NEVER_ANSWERED_REASON));
  }

  /** Runs `expire` when `signal` aborts; the returned function withdraws it. */
  #onAbort(signal: AbortSignal, expire: () => void): () => void {
    let waiting = this.#bySignal.get(signal);
    if (waiting === undefined) {
      const calls = new Set<() => void>();
      waiting = calls;
      this.#bySignal.set(signal, calls);
      signal.addEventListener(
        "abort",
        () => {
          this.#bySignal.delete(signal);
          for (const run of [...calls]) run();
        },
        { once: true },
      );
    }
    const calls = waiting;
    calls.add(expire);
    // The signal's one listener stays until it aborts (or is collected with it); with no call left it does nothing.
    return () => void calls.delete(expire);
  }

  /** Removes and returns a pending call. @throws UnknownClientCallError when it is not pending. */
  take(callId: string): T {
    const entry = this.#entries.get(callId);
    if (entry === undefined) throw new UnknownClientCallError(callId);
    this.#entries.delete(callId);
    entry.timer?.clear();
    entry.detach?.();
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
    for (const e of values) {
      e.timer?.clear();
      e.detach?.();
    }
    return values.map((e) => e.value);
  }
}
