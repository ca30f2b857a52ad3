/**
 * A handle to a timer armed through a {@link Clock}.
 * @public
 */
export interface TimerHandle {
  /** Cancels the timer. Idempotent. */
  clear(): void;
  /**
   * Optional: keeps the process alive until the timer fires or is cleared
   * (a timer is otherwise unref'd). The package calls it for a retry's backoff
   * sleep, the one wait of a call in flight that no socket holds. A clock that
   * has no such notion leaves it out.
   */
  ref?(): void;
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
 * The longest delay one host timer takes: 2^31 − 1 ms (about 24.8 days). Node
 * fires a longer `setTimeout` after 1 ms, with a `TimeoutOverflowWarning`.
 * @internal Does not follow semver.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The host timer functions a system clock arms (for tests: a fake pair).
 * @internal Does not follow semver.
 */
export interface HostTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  /** Makes a timer hold the event loop. */
  ref?(timer: unknown): void;
}

const NODE_TIMERS: HostTimers = {
  setTimeout: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
  ref: (timer) => void (timer as NodeJS.Timeout).ref(),
};

/**
 * A clock on `Date.now()` and `timers`. A delay longer than {@link MAX_TIMER_MS}
 * is waited as a chain of timers of at most that length, so that every delay
 * a manifest accepts (Go's `time.ParseDuration` goes up to about 2562047h)
 * waits as long as it says. A delay of `Infinity` never fires; `NaN` or a
 * negative delay fires on the next turn.
 * @internal Does not follow semver.
 */
export function createSystemClock(timers: HostTimers = NODE_TIMERS, now: () => number = Date.now): Clock {
  return Object.freeze({
    now: () => now(),
    setTimeout(fn: () => void, ms: number): TimerHandle {
      return new SystemTimer(timers, fn, ms);
    },
  });
}

/**
 * What {@link armTimer} calls when its timer fires: an object with a
 * `handleTimer` method, so that the caller needs no closure per timer.
 * @internal Does not follow semver.
 */
export interface TimerTarget {
  handleTimer(): void;
}

/**
 * One timer of a system clock: the state of a chain of host timers in one
 * object (no closures per timer). On Node's own timers, the host timer gets
 * this object as its argument instead of a bound callback.
 */
class SystemTimer implements TimerHandle {
  #remaining: number;
  #cleared = false;
  #held = false;
  #timer: unknown = undefined;
  readonly #timers: HostTimers;
  readonly #fn: (() => void) | TimerTarget;

  constructor(timers: HostTimers, fn: (() => void) | TimerTarget, ms: number) {
    this.#timers = timers;
    this.#fn = fn;
    this.#remaining = ms > 0 ? ms : 0;
    this.#arm();
  }

  #arm(): void {
    if (this.#remaining === Infinity) return;
    const step = Math.min(this.#remaining, MAX_TIMER_MS);
    this.#remaining -= step;
    const timers = this.#timers;
    if (timers === NODE_TIMERS) {
      const timer = setTimeout(fireSystemTimer, step, this);
      timer.unref();
      this.#timer = timer;
    } else {
      this.#timer = timers.setTimeout(() => this.fired(), step);
    }
    if (this.#held) timers.ref?.(this.#timer);
  }

  /** The current host timer fired: the next one of the chain, or the callback. @internal */
  fired(): void {
    if (this.#cleared) return;
    if (this.#remaining > 0) {
      this.#arm();
      return;
    }
    const fn = this.#fn;
    if (typeof fn === "function") fn();
    else fn.handleTimer();
  }

  clear(): void {
    this.#cleared = true;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
  }

  ref(): void {
    this.#held = true;
    if (this.#timer !== undefined && !this.#cleared) this.#timers.ref?.(this.#timer);
  }
}

function fireSystemTimer(timer: SystemTimer): void {
  timer.fired();
}

/**
 * `clock.setTimeout`, calling `target.handleTimer()` when it fires. On the
 * default {@link systemClock} no closure is created for it; any other clock
 * gets one (a {@link Clock} takes a function).
 * @internal Does not follow semver.
 */
export function armTimer(clock: Clock, target: TimerTarget, ms: number): TimerHandle {
  return clock === systemClock ? new SystemTimer(NODE_TIMERS, target, ms) : clock.setTimeout(() => target.handleTimer(), ms);
}

/**
 * The default clock: `Date.now()` and `setTimeout`. Its timers are `unref()`'d,
 * so a pending timeout never keeps the host process alive by itself. A delay
 * longer than 2^31 − 1 ms (Node's timer limit) is waited in full, as a chain
 * of timers.
 * @public
 */
export const systemClock: Clock = createSystemClock();
