/**
 * A handle to a timer armed through a {@link Clock}.
 * @public
 */
export interface TimerHandle {
  /** Cancels the timer. Idempotent. */
  clear(): void;
}

/**
 * The source of time for every timeout, backoff and breaker in this package.
 *
 * Inject a manual clock (`createManualClock` from `omnia-tools/testing`) to
 * drive time in tests. Library code never calls `AbortSignal.timeout()` or
 * `performance.now()`, which tests could not control.
 * @public
 */
export interface Clock {
  /** Milliseconds since an arbitrary, fixed origin (the system clock uses the Unix epoch). */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds. The returned handle cancels it. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

/**
 * The default clock: `Date.now()` and `setTimeout`. Its timers are `unref()`'d,
 * so a pending timeout never keeps the host process alive by itself.
 * @public
 */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref();
    return { clear: () => clearTimeout(timer) };
  },
});
