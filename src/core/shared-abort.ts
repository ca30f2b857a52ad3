/**
 * What {@link onSharedAbort} calls: a function, or an object with `handleEvent` (no closure needed).
 * @internal Does not follow semver.
 */
export type SharedAbortListener = (() => void) | { handleEvent(): void };

/**
 * The listeners of one signal, behind the one `abort` listener this package
 * adds to it. Removed from the signal as soon as its last listener leaves.
 */
class Fan {
  readonly listeners = new Set<SharedAbortListener>();
  readonly #signal: AbortSignal;
  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }
  handleEvent(): void {
    FANS.delete(this.#signal);
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) {
      if (typeof listener === "function") listener();
      else listener.handleEvent();
    }
  }
}

/**
 * Fans keyed by the caller's signal. A WeakMap of the caller's own objects:
 * it holds no signal alive, and an entry lives only while a listener does.
 */
const FANS = new WeakMap<AbortSignal, Fan>();

/**
 * Calls `listener` once when `signal` aborts. Every listener of one signal
 * shares a single `abort` listener on it, so that any number of concurrent
 * calls on one conversation signal adds one listener to it (Node warns with
 * `MaxListenersExceededWarning` past 10). Remove it with {@link offSharedAbort}
 * once the work it guards has settled. The signal must not have aborted yet.
 * @internal Does not follow semver.
 */
export function onSharedAbort(signal: AbortSignal, listener: SharedAbortListener): void {
  let fan = FANS.get(signal);
  if (fan === undefined) {
    fan = new Fan(signal);
    FANS.set(signal, fan);
    signal.addEventListener("abort", fan, { once: true });
  }
  fan.listeners.add(listener);
}

/**
 * Removes a listener added by {@link onSharedAbort} (nothing when it is not
 * there); the last one removes the shared listener from the signal.
 * @internal Does not follow semver.
 */
export function offSharedAbort(signal: AbortSignal, listener: SharedAbortListener): void {
  const fan = FANS.get(signal);
  if (fan === undefined || !fan.listeners.delete(listener)) return;
  if (fan.listeners.size === 0) {
    FANS.delete(signal);
    signal.removeEventListener("abort", fan);
  }
}
