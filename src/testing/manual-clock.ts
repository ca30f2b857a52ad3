import type { Clock, TimerHandle } from "../core/index.js";

/**
 * A {@link Clock} whose time moves only when the test says so.
 * @public
 */
export interface ManualClock extends Clock {
  /**
   * Moves time forward by `ms` and fires every timer that falls due, in due-time
   * order (ties in the order they were armed). A timer armed by a firing timer
   * also fires if it falls due within the advance.
   */
  advance(ms: number): void;
  /** Moves time to `ms` (never backwards), as {@link ManualClock.advance} does. */
  advanceTo(ms: number): void;
  /** How many armed timers have neither fired nor been cleared. */
  pendingTimers(): number;
  /**
   * Fires due timers and then lets the microtask queue drain, repeatedly, so
   * that code awaiting a promise resolved by a timer runs before the next one.
   */
  advanceAsync(ms: number): Promise<void>;
}

interface Entry {
  readonly due: number;
  readonly seq: number;
  readonly fn: () => void;
  cleared: boolean;
}

/**
 * Creates a manual clock starting at `startMs` (default 0).
 * @example
 * ```ts
 * const clock = createManualClock();
 * clock.setTimeout(() => console.log("fired"), 100);
 * clock.advance(100); // prints "fired"
 * ```
 * @public
 */
export function createManualClock(startMs = 0): ManualClock {
  let now = startMs;
  let seq = 0;
  const timers: Entry[] = [];

  const nextDue = (limit: number): Entry | undefined => {
    let best: Entry | undefined;
    for (const t of timers) {
      if (t.cleared || t.due > limit) continue;
      if (best === undefined || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  };
  const remove = (entry: Entry): void => {
    const i = timers.indexOf(entry);
    if (i >= 0) timers.splice(i, 1);
  };
  const checkMs = (ms: number): void => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`manual clock: advance needs a finite, non-negative ms; got ${ms}`);
  };

  const clock: ManualClock = {
    now: () => now,
    setTimeout(fn: () => void, ms: number): TimerHandle {
      const entry: Entry = { due: now + Math.max(0, Number.isFinite(ms) ? ms : 0), seq: seq++, fn, cleared: false };
      timers.push(entry);
      return {
        clear() {
          entry.cleared = true;
          remove(entry);
        },
      };
    },
    advance(ms: number) {
      checkMs(ms);
      clock.advanceTo(now + ms);
    },
    advanceTo(target: number) {
      for (let t = nextDue(target); t !== undefined; t = nextDue(target)) {
        remove(t);
        now = Math.max(now, t.due);
        t.fn();
      }
      now = Math.max(now, target);
    },
    pendingTimers: () => timers.filter((t) => !t.cleared).length,
    async advanceAsync(ms: number) {
      checkMs(ms);
      const target = now + ms;
      await drainMicrotasks();
      for (let t = nextDue(target); t !== undefined; t = nextDue(target)) {
        remove(t);
        now = Math.max(now, t.due);
        t.fn();
        await drainMicrotasks();
      }
      now = Math.max(now, target);
      await drainMicrotasks();
    },
  };
  return clock;
}

/** Lets pending promise callbacks run: a macrotask turn drains the whole microtask queue. */
function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
