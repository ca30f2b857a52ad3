import { systemClock, type Clock, type TimerHandle } from "../core/index.js";

/**
 * Timers of a test backend: added latency runs on `clock` (the real clock by
 * default), and `close()` clears every pending one so that no handle is left.
 */
export class BackendTimers {
  private readonly pending = new Set<{ handle: TimerHandle; resolve: (elapsed: boolean) => void }>();
  constructor(private readonly clock: Clock = systemClock) {}

  /** Resolves `true` after `ms`, or `false` at once when `signal` aborts or the backend closes. */
  wait(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(signal?.aborted !== true);
    if (signal?.aborted === true) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const entry = {
        handle: undefined as unknown as TimerHandle,
        resolve: (elapsed: boolean) => {
          this.pending.delete(entry);
          entry.handle.clear();
          signal?.removeEventListener("abort", onAbort);
          resolve(elapsed);
        },
      };
      const onAbort = (): void => entry.resolve(false);
      entry.handle = this.clock.setTimeout(() => entry.resolve(true), ms);
      this.pending.add(entry);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Ends every wait (they resolve `false`). */
  clear(): void {
    for (const entry of [...this.pending]) entry.resolve(false);
  }
}
