import { TimeoutError, armTimer, offSharedAbort, onSharedAbort, systemClock, toError } from "../core/index.js";
import type { AbortedError, Clock, TimerHandle } from "../core/index.js";
import { abortedError } from "./sleep.js";
import { AttemptAbort } from "./attempt-abort.js";

/**
 * How one attempt settled.
 * - `success`: `fn` fulfilled (and the caller had not aborted).
 * - `error`: `fn` rejected on its own. Classify `error` (transport error, build error, …).
 * - `timeout`: the per-attempt timeout fired first. A breaker **failure**; retried as a
 *   network-class error. `error.message` is `timed out after <ms>ms`.
 * - `abandoned`: the caller's signal aborted (before, during, or as `fn` settled).
 *   **Not** a breaker event: call `ticket.abandon()`.
 * @internal Does not follow semver.
 */
export type AttemptSettlement<T> =
  | { readonly kind: "success"; readonly value: T }
  | { readonly kind: "error"; readonly error: Error }
  | { readonly kind: "timeout"; readonly error: TimeoutError }
  | { readonly kind: "abandoned"; readonly error: AbortedError };

/**
 * Options of {@link runAttempt}.
 * @internal Does not follow semver.
 */
export interface AttemptOptions {
  /** Where the timeout timer is armed. Default `systemClock`. */
  readonly clock?: Clock;
  /** The per-attempt timeout in ms; 0, negative, `Infinity` or absent means none (Go: a zero timeout has no deadline). */
  readonly timeoutMs?: number;
  /** The caller's signal (the conversation's). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs one attempt under its own timeout. `fn` receives a signal that aborts when
 * the timeout fires (reason: the {@link TimeoutError}) or the caller's signal aborts
 * (reason: the caller's reason). The result settles at the first of: `fn` settling,
 * the timeout, the caller's abort, so an `fn` that ignores its signal cannot hold the
 * call; its late result is dropped. The timer and the listener on the caller's signal
 * are removed as soon as the attempt settles.
 *
 * Timeout versus abandon is decided by who fired first, and a rejection of `fn` is
 * `abandoned` whenever the caller's signal has aborted, never judged by the error
 * type: a library's derived signals (cockatiel's, for one) abort without the
 * caller's reason, so the error cannot tell a timeout from an abandon.
 * @internal Does not follow semver.
 */
export function runAttempt<T>(fn: (signal: AbortSignal) => T | PromiseLike<T>, options: AttemptOptions = {}): Promise<AttemptSettlement<T>> {
  return runAbortableAttempt((abort) => fn(abort.signal), options);
}

/**
 * {@link runAttempt}, where `fn` receives the attempt's {@link AttemptAbort}
 * instead of an `AbortSignal`: the same settlement rules, and no
 * `AbortController` unless `fn` reads `abort.signal`. The HTTP path uses it.
 * @internal Does not follow semver.
 */
export function runAbortableAttempt<T>(fn: (abort: AttemptAbort) => T | PromiseLike<T>, options: AttemptOptions = {}): Promise<AttemptSettlement<T>> {
  const { clock = systemClock, timeoutMs, signal } = options;
  if (signal?.aborted === true) return Promise.resolve({ kind: "abandoned", error: abortedError("attempt", signal) });
  return new Promise<AttemptSettlement<T>>((resolve) => {
    // One object holds the attempt's state and is the caller-signal listener
    // (handleEvent): no named closures per attempt.
    const attempt = new Attempt<T>(resolve, signal);
    if (signal !== undefined) onSharedAbort(signal, attempt);
    if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      attempt.timeoutMs = timeoutMs;
      attempt.timer = armTimer(clock, attempt, timeoutMs);
    }
    let pending: PromiseLike<T> | T;
    try {
      pending = fn(attempt.abort);
    } catch (error) {
      attempt.failed(error);
      return;
    }
    Promise.resolve(pending).then(
      (value) => attempt.finish(signal?.aborted === true ? attempt.abandoned() : { kind: "success", value }),
      (error: unknown) => attempt.failed(error),
    );
  });
}

/** The state of one {@link runAttempt}; also the listener on the caller's signal, and the target of its timer. */
class Attempt<T> {
  readonly abort = new AttemptAbort();
  timer: TimerHandle | undefined = undefined;
  timeoutMs = 0;
  #settled = false;
  readonly #resolve: (settlement: AttemptSettlement<T>) => void;
  readonly #signal: AbortSignal | undefined;

  constructor(resolve: (settlement: AttemptSettlement<T>) => void, signal: AbortSignal | undefined) {
    this.#resolve = resolve;
    this.#signal = signal;
  }

  finish(settlement: AttemptSettlement<T>): void {
    if (this.#settled) return;
    this.#settled = true;
    this.timer?.clear();
    if (this.#signal !== undefined) offSharedAbort(this.#signal, this);
    this.#resolve(settlement);
  }

  abandoned(): AttemptSettlement<T> {
    return { kind: "abandoned", error: abortedError("attempt", this.#signal as AbortSignal) };
  }

  /** `fn` threw or rejected: abandoned when the caller's signal has aborted, else an error. */
  failed(error: unknown): void {
    this.finish(this.#signal?.aborted === true ? this.abandoned() : { kind: "error", error: toError(error) });
  }

  /** The per-attempt timeout fired. */
  handleTimer(): void {
    const error = new TimeoutError(this.timeoutMs);
    this.finish({ kind: "timeout", error });
    this.abort.abort(error);
  }

  /** The caller's signal aborted (the attempt is its listener). */
  handleEvent(): void {
    this.abort.abort(this.#signal?.reason);
    this.finish(this.abandoned());
  }
}
