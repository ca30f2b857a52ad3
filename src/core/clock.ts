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
 * `performance.now()`, which tests could not control (the system clock's own
 * timer queues read `performance.now()`, Node's timers' monotonic time).
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
 * default {@link systemClock} no closure is created for it, and a delay of
 * 1 ms to {@link MAX_TIMER_MS} waits in the {@link TimerQueue} of its
 * duration: one host timer for all the pending timers of that duration. Any
 * other clock gets a closure (a {@link Clock} takes a function). The handle
 * has no `ref()`: these timers never hold the process.
 * @internal Does not follow semver.
 */
export function armTimer(clock: Clock, target: TimerTarget, ms: number): TimerHandle {
  if (clock !== systemClock) return clock.setTimeout(() => target.handleTimer(), ms);
  return ms >= 1 && ms <= MAX_TIMER_MS ? timerQueue(ms).add(target) : new SystemTimer(NODE_TIMERS, target, ms);
}

/**
 * One pending timer of a {@link TimerQueue}: a link of its list. 64 bytes,
 * where a host timer per attempt timeout (Node's `Timeout`, its arguments
 * array and async ids, and the handle around it) held about 260 for as long
 * as its call was in flight.
 */
class QueuedTimer implements TimerHandle {
  /** When it is due, on the queue's monotonic milliseconds (an integer: no boxed number). */
  readonly due: number;
  readonly target: TimerTarget;
  prev: QueuedTimer | undefined = undefined;
  next: QueuedTimer | undefined = undefined;
  /** The queue it waits in; undefined once it fired or was cleared. */
  queue: TimerQueue | undefined;

  constructor(queue: TimerQueue, target: TimerTarget, due: number) {
    this.queue = queue;
    this.target = target;
    this.due = due;
  }

  clear(): void {
    this.queue?.remove(this);
  }
}

/**
 * The pending timers of one duration, in the order they were armed, which is
 * the order they are due in (the time is monotonic), behind one unref'd host
 * timer armed for the first of them. Clearing unlinks a timer; the last one
 * out clears the host timer, so an idle queue holds nothing. When the host
 * timer fires, the time is the due time of the timer it was armed for (cleared
 * or not): the timers due by then fire, and the host timer is armed again for
 * the next one, by the difference of their due times. The time is never read
 * as the host timer fires, so the queue keeps the host timers' own time
 * (mocked host timers included), as a timer of its own would.
 */
class TimerQueue {
  readonly ms: number;
  #head: QueuedTimer | undefined = undefined;
  #tail: QueuedTimer | undefined = undefined;
  #host: NodeJS.Timeout | undefined = undefined;
  /** The due time the host timer is armed for. */
  #hostDue = 0;

  constructor(ms: number) {
    this.ms = ms;
  }

  get empty(): boolean {
    return this.#head === undefined;
  }

  add(target: TimerTarget): QueuedTimer {
    const timer = new QueuedTimer(this, target, Math.ceil(performance.now() + this.ms));
    const tail = this.#tail;
    if (tail === undefined) {
      this.#head = this.#tail = timer;
      if (this.#host === undefined) this.#arm(this.ms, timer.due);
    } else {
      tail.next = timer;
      timer.prev = tail;
      this.#tail = timer;
    }
    return timer;
  }

  remove(timer: QueuedTimer): void {
    const { prev, next } = timer;
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    timer.prev = timer.next = timer.queue = undefined;
    if (this.#head === undefined && this.#host !== undefined) {
      clearTimeout(this.#host);
      this.#host = undefined;
    }
  }

  /** The host timer fired: every timer due by the time it was armed for, in order, then the host timer again for the next one. */
  fired(): void {
    this.#host = undefined;
    const now = this.#hostDue;
    try {
      // The timers due now, as queued before any fires (a timer firing rarely: a list is cheap here).
      // One that a target arms waits its whole delay; one that a target clears does not fire.
      const due: QueuedTimer[] = [];
      for (let timer = this.#head; timer !== undefined && timer.due <= now; timer = timer.next) due.push(timer);
      for (const timer of due) {
        if (timer.queue !== this) continue;
        this.remove(timer);
        timer.target.handleTimer();
      }
    } finally {
      // A target that threw is the host's uncaught exception, as from a host timer of its own; the rest still fire.
      const head = this.#head;
      if (head !== undefined && this.#host === undefined) this.#arm(Math.max(1, head.due - now), head.due);
    }
  }

  #arm(ms: number, due: number): void {
    const host = setTimeout(fireTimerQueue, ms, this);
    host.unref();
    this.#host = host;
    this.#hostDue = due;
  }
}

function fireTimerQueue(queue: TimerQueue): void {
  queue.fired();
}

/**
 * The system clock's timer queues by duration: each holds only the timers
 * pending in it (nothing once they are cleared or fired), and the idle ones
 * are dropped once there are {@link TIMER_QUEUE_LIMIT}. State of the system
 * clock, shared as Node's own timer lists are.
 */
const TIMER_QUEUES = new Map<number, TimerQueue>();
const TIMER_QUEUE_LIMIT = 64;

function timerQueue(ms: number): TimerQueue {
  let queue = TIMER_QUEUES.get(ms);
  if (queue === undefined) {
    if (TIMER_QUEUES.size >= TIMER_QUEUE_LIMIT) for (const [key, idle] of TIMER_QUEUES) if (idle.empty) TIMER_QUEUES.delete(key);
    queue = new TimerQueue(ms);
    TIMER_QUEUES.set(ms, queue);
  }
  return queue;
}

/**
 * The default clock: `Date.now()` and `setTimeout`. Its timers are `unref()`'d,
 * so a pending timeout never keeps the host process alive by itself. A delay
 * longer than 2^31 − 1 ms (Node's timer limit) is waited in full, as a chain
 * of timers.
 * @public
 */
export const systemClock: Clock = createSystemClock();
