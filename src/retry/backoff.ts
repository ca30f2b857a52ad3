import type { RetryPolicy } from "./retry-policy.js";

/**
 * The delay before the attempt after the failed attempt with 0-based index `k`
 * (Omnia's `backoffDelay`, `internal/runtime/tools/retry.go`), in whole milliseconds:
 *
 * 1. `base = min(initialBackoff × multiplier^k, maxBackoff)`
 * 2. `d = round(base × J)`, with `J = 0.9 + 0.2 × random` uniform in [0.9, 1.1)
 * 3. `d = max(d, retryAfter)`: Retry-After is a floor
 * 4. `d = min(d, maxBackoff)`: nothing, not even Retry-After, exceeds maxBackoff
 *
 * Rounding to whole ms (Go keeps nanoseconds) is deliberate: clock timers have
 * millisecond resolution, and it makes the sequence exact for a fixed random source.
 *
 * @param random - a value in [0, 1), e.g. `Math.random()`
 * @param retryAfterMs - the Retry-After floor; 0 or negative has no effect
 * @internal Does not follow semver.
 */
export function computeBackoffDelay(policy: RetryPolicy, k: number, random: number, retryAfterMs = 0): number {
  const growth = policy.backoffMultiplier ** k;
  // 0 × Infinity would be NaN: a zero initial backoff stays 0 however large k is.
  const base = policy.initialBackoffMs === 0 ? 0 : Math.min(policy.initialBackoffMs * growth, policy.maxBackoffMs);
  const jittered = Math.round(base * (0.9 + 0.2 * random));
  return Math.min(Math.max(jittered, retryAfterMs), policy.maxBackoffMs);
}
