const MAX_CAUSE_DEPTH = 8;

/**
 * The default failure predicate of `breaker.execute()`: every error is a breaker
 * failure except an HTTP client error, i.e. an error whose `cause` chain holds a
 * numeric `status` or `statusCode` in 400–499 ("the backend answered; the request
 * was wrong", Omnia `circuit_breaker.go` IsSuccessful). 408 and 429 included.
 * `null` and `undefined` (no error) are not failures either.
 * @public
 */
export function isBreakerFailure(error: unknown): boolean {
  // Go's IsSuccessful(nil) is true: no error is no failure.
  if (error === undefined || error === null) return false;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== null && typeof current === "object"; depth++) {
    const record = current as { status?: unknown; statusCode?: unknown; cause?: unknown };
    const status = typeof record.status === "number" ? record.status : record.statusCode;
    if (typeof status === "number" && status >= 400 && status <= 499) return false;
    current = record.cause;
  }
  return true;
}
