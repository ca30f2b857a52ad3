/**
 * How an executor classified one failed attempt for the retry loop.
 * @internal Does not follow semver.
 */
export interface RetryClassification {
  /** Whether another attempt may follow (subject to maxAttempts). */
  readonly retryable: boolean;
  /** Minimum delay before the next attempt (Retry-After), in ms; 0 for none. */
  readonly retryAfterMs: number;
}

/** @internal Does not follow semver. */
export const NOT_RETRYABLE: RetryClassification = Object.freeze({ retryable: false, retryAfterMs: 0 });
/** @internal Does not follow semver. */
export const RETRYABLE: RetryClassification = Object.freeze({ retryable: true, retryAfterMs: 0 });
