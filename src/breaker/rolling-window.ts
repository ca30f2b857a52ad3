import type { BreakerSettings } from "./breaker-settings.js";

/**
 * The closed-state counters of one breaker: a ring of fixed-length time buckets
 * (calls and failures per bucket) and a ring of the last `consecutiveFailures`
 * failure times. Memory is fixed at construction, whatever the call rate.
 *
 * Why a ring of failure times: the rule is "consecutive failures = the
 * trailing run of failures (no non-failure between them) whose timestamps are
 * inside the window". With K = the threshold, the run
 * reaches K inside the window exactly when the K-th most recent failure of the
 * run is still inside it, so the last K times are enough.
 *
 * Every out-of-window bucket is expired on each update, not one per update as
 * gobreaker (which Omnia's `internal/runtime/tools/circuit_breaker.go` uses) does.
 * @internal Does not follow semver.
 */
export class RollingWindow {
  /** Calls recorded in the window. */
  calls = 0;
  /** Failures recorded in the window. */
  failures = 0;

  private readonly bucketMs: number;
  private readonly bucketCount: number;
  private readonly bucketCalls: Float64Array;
  private readonly bucketFailures: Float64Array;
  /** Absolute index (floor(time / bucketMs)) of the newest bucket; -Infinity when empty. */
  private head = Number.NEGATIVE_INFINITY;

  private readonly runCapacity: number;
  private readonly runTimes: Float64Array;
  /** Slot the next failure time is written to; once the ring is full it holds the oldest time. */
  private runNext = 0;
  /** Length of the trailing failure run, capped at runCapacity. */
  private runLength = 0;

  constructor(settings: BreakerSettings) {
    this.bucketMs = settings.bucketMs;
    this.bucketCount = settings.windowMs / settings.bucketMs;
    this.bucketCalls = new Float64Array(this.bucketCount);
    this.bucketFailures = new Float64Array(this.bucketCount);
    this.runCapacity = settings.consecutiveFailures;
    this.runTimes = new Float64Array(this.runCapacity);
  }

  /** Expires the buckets that fell out of the window at `now`. Time that goes backwards stays in the newest bucket. */
  advance(now: number): void {
    const bucket = Math.floor(now / this.bucketMs);
    const head = this.head;
    if (bucket <= head) return;
    if (bucket - head >= this.bucketCount) {
      if (this.calls !== 0) {
        this.bucketCalls.fill(0);
        this.bucketFailures.fill(0);
        this.calls = 0;
        this.failures = 0;
      }
    } else {
      const n = this.bucketCount;
      for (let b = head + 1; b <= bucket; b++) {
        const i = ((b % n) + n) % n;
        this.calls -= this.bucketCalls[i] as number;
        this.failures -= this.bucketFailures[i] as number;
        this.bucketCalls[i] = 0;
        this.bucketFailures[i] = 0;
      }
    }
    this.head = bucket;
  }

  /** Records one outcome at `now` (after {@link RollingWindow.advance}). */
  record(now: number, failed: boolean): void {
    this.advance(now);
    const n = this.bucketCount;
    const i = ((this.head % n) + n) % n;
    this.bucketCalls[i] = (this.bucketCalls[i] as number) + 1;
    this.calls++;
    if (failed) {
      this.bucketFailures[i] = (this.bucketFailures[i] as number) + 1;
      this.failures++;
      this.runTimes[this.runNext] = now;
      this.runNext = this.runNext + 1 === this.runCapacity ? 0 : this.runNext + 1;
      if (this.runLength < this.runCapacity) this.runLength++;
    } else {
      this.runLength = 0;
    }
  }

  /** Whether a time falls inside the window whose newest bucket is the current head. */
  private inWindow(time: number): boolean {
    return Math.floor(time / this.bucketMs) > this.head - this.bucketCount;
  }

  /** Failures of the trailing run inside the window, capped at the consecutive-failure threshold. */
  consecutiveInWindow(): number {
    let count = 0;
    for (let k = 1; k <= this.runLength; k++) {
      const slot = (this.runNext - k + this.runCapacity) % this.runCapacity;
      if (!this.inWindow(this.runTimes[slot] as number)) break;
      count++;
    }
    return count;
  }

  /** Whether the trailing run holds `consecutiveFailures` failures inside the window. */
  consecutiveTripped(): boolean {
    // Full ring: runNext points at the K-th most recent failure of the run.
    return this.runLength === this.runCapacity && this.inWindow(this.runTimes[this.runNext] as number);
  }

  /** Empties the window and the failure run. */
  reset(): void {
    if (this.calls !== 0) {
      this.bucketCalls.fill(0);
      this.bucketFailures.fill(0);
    }
    this.calls = 0;
    this.failures = 0;
    this.runLength = 0;
    this.runNext = 0;
    this.head = Number.NEGATIVE_INFINITY;
  }
}
