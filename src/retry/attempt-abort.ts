import { offSharedAbort, onSharedAbort } from "../core/index.js";

/**
 * What an {@link AbortHook} calls when it aborts: a function, or an object
 * with `handleAbort` (no closure needed).
 * @internal Does not follow semver.
 */
export type AbortListener = ((reason: unknown) => void) | { handleAbort(reason: unknown): void };

/** Calls `listener` with `reason`, whichever form it has. @internal Does not follow semver. */
export function callAbortListener(listener: AbortListener, reason: unknown): void {
  if (typeof listener === "function") listener(reason);
  else listener.handleAbort(reason);
}

/**
 * What a transport needs of an attempt's cancellation: whether it was
 * aborted, why, and one listener to call when it is. An `AbortSignal` offers
 * more; this is the part the HTTP transport uses.
 * @internal Does not follow semver.
 */
export interface AbortHook {
  readonly aborted: boolean;
  readonly reason: unknown;
  /**
   * Sets the one listener (replacing any earlier one; `undefined` removes it).
   * On a hook that has already aborted, the listener is called at once.
   */
  onAbort(listener: AbortListener | undefined): void;
}

/**
 * The cancellation of one attempt, cheap to create: the `AbortController`
 * behind {@link AttemptAbort.signal} is created only when something asks for
 * a real signal (gRPC, MCP, OpenAPI), while the HTTP transport listens
 * through {@link AbortHook.onAbort}.
 *
 * Why: on Node 20, `new AbortController()` (an EventTarget) cost about 1.3 µs
 * of the 8.5 µs the HTTP pipeline spent per call without I/O, and undici's
 * `addEventListener("abort")` on it more again (issue #13's profile).
 * @internal Does not follow semver.
 */
export class AttemptAbort implements AbortHook {
  aborted = false;
  reason: unknown = undefined;
  #listener: AbortListener | undefined = undefined;
  #controller: AbortController | undefined = undefined;

  /** A real `AbortSignal` that follows this attempt (created on first use). */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = this.#controller = new AbortController();
      if (this.aborted) controller.abort(this.reason);
    }
    return controller.signal;
  }

  onAbort(listener: AbortListener | undefined): void {
    if (listener !== undefined && this.aborted) {
      callAbortListener(listener, this.reason);
      return;
    }
    this.#listener = listener;
  }

  /** Aborts once; later calls do nothing. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.#listener;
    this.#listener = undefined;
    this.#controller?.abort(reason);
    if (listener !== undefined) callAbortListener(listener, reason);
  }
}

/**
 * An {@link AbortHook} over a real `AbortSignal` (for callers that hold one).
 * @internal Does not follow semver.
 */
export function abortHookOf(signal: AbortSignal): AbortHook {
  let current: (() => void) | undefined;
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    onAbort(listener) {
      if (current !== undefined) offSharedAbort(signal, current);
      current = undefined;
      if (listener === undefined) return;
      if (signal.aborted) {
        callAbortListener(listener, signal.reason);
        return;
      }
      current = () => callAbortListener(listener, signal.reason);
      onSharedAbort(signal, current);
    },
  };
}
