import { TimeoutError, type Clock, type TimerHandle } from "../core/index.js";

/** A per-operation abort scope: the caller's signal, a deadline, or both. */
export interface Scope {
  readonly signal: AbortSignal;
  dispose(): void;
}

/** A signal that aborts with the parent's reason, or with a TimeoutError after `timeoutMs` on `clock`. */
export function createScope(parent: AbortSignal | undefined, timeoutMs: number | undefined, clock: Clock): Scope {
  const controller = new AbortController();
  let timer: TimerHandle | undefined;
  const onAbort = (): void => controller.abort(parent?.reason);
  if (parent !== undefined) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener("abort", onAbort, { once: true });
  }
  if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs) && !controller.signal.aborted) {
    timer = clock.setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
  }
  return {
    signal: controller.signal,
    dispose() {
      timer?.clear();
      parent?.removeEventListener("abort", onAbort);
    },
  };
}

/** Settles with `promise`, or resolves after `ms` on `clock`, whichever is first. */
export function withDeadline(promise: Promise<void>, ms: number, clock: Clock): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = clock.setTimeout(resolve, ms);
    promise.then(
      () => {
        timer.clear();
        resolve();
      },
      (error: unknown) => {
        timer.clear();
        reject(error as Error);
      },
    );
  });
}
