import { AbortedError, offSharedAbort, onSharedAbort, type Clock } from "../core/index.js";

/**
 * Waits `ms` on the clock. Rejects at once with {@link AbortedError} (cause: the
 * signal's reason) when `signal` aborts, clearing the timer. A delay of 0 or less
 * arms no timer.
 * @param where - prefix of the abort message
 * @internal Does not follow semver.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal, where = "retry"): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(abortedError(where, signal));
  if (!(ms > 0)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      timer.clear();
      reject(abortedError(where, signal as AbortSignal));
    };
    const timer = clock.setTimeout(() => {
      if (signal !== undefined) offSharedAbort(signal, onAbort);
      resolve();
    }, ms);
    // A call sleeping before its next attempt is still in flight: it holds the process (no socket does now).
    timer.ref?.();
    if (signal !== undefined) onSharedAbort(signal, onAbort);
  });
}

/**
 * The error of a call abandoned because the caller's signal aborted.
 * @internal Does not follow semver.
 */
export function abortedError(where: string, signal: AbortSignal): AbortedError {
  return new AbortedError(`${where}: the caller's signal aborted`, { cause: signal.reason });
}
