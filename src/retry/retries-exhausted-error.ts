import { ErrorCode, OmniaToolsError } from "../core/index.js";

/**
 * Every attempt of a call with a retry policy failed. The message is Omnia's
 * `<N> attempts exhausted: <last error>`; the last attempt's error is kept as
 * `cause` (and `lastError`) for inspection.
 * @public
 */
export class RetriesExhaustedError extends OmniaToolsError {
  static override readonly code = ErrorCode.RETRIES_EXHAUSTED;
  declare readonly code: typeof ErrorCode.RETRIES_EXHAUSTED;
  /** How many attempts were made (the policy's `maxAttempts`). */
  readonly attempts: number;
  /** The error of the last attempt (also `cause`). */
  readonly lastError: Error;

  constructor(attempts: number, lastError: Error) {
    super(`${attempts} attempts exhausted: ${lastError.message}`, { cause: lastError });
    this.attempts = attempts;
    this.lastError = lastError;
  }
}
