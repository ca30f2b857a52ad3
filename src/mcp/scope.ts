import { offSharedAbort, onSharedAbort, TimeoutError, type Clock, type TimerHandle } from "../core/index.js";

/** A per-operation abort scope: the caller's signal, a deadline, or both. */
export interface Scope {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * A signal that aborts with the parent's reason, or with a TimeoutError after `timeoutMs` on `clock`. The parent
 * is listened to through the shared abort fan, so any number of scopes on one long-lived signal (a caller's, the
 * SDK transport's) add one listener to it. `dispose()` clears the deadline and leaves the fan; call it when the
 * operation settles (more than once does nothing).
 */
export function createScope(parent: AbortSignal | undefined, timeoutMs: number | undefined, clock: Clock): Scope {
  return new LinkedScope(parent, timeoutMs, clock);
}

/** The state of one {@link createScope}; also its listener on the parent's fan. */
class LinkedScope implements Scope {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal | undefined;
  #timer: TimerHandle | undefined = undefined;
  /** On the parent's fan: until the parent aborts or the scope is disposed. */
  #linked = false;

  constructor(parent: AbortSignal | undefined, timeoutMs: number | undefined, clock: Clock) {
    this.#parent = parent;
    if (parent !== undefined) {
      if (parent.aborted) this.#controller.abort(parent.reason);
      else {
        onSharedAbort(parent, this);
        this.#linked = true;
      }
    }
    if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs) && !this.#controller.signal.aborted) {
      this.#timer = clock.setTimeout(() => this.#controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The parent aborted (the fan has let go of this listener). */
  handleEvent(): void {
    this.#linked = false;
    this.#controller.abort(this.#parent?.reason);
  }

  dispose(): void {
    this.#timer?.clear();
    this.#timer = undefined;
    if (!this.#linked) return;
    this.#linked = false;
    offSharedAbort(this.#parent as AbortSignal, this);
  }
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
