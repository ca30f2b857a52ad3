import type { Logger } from "../core/index.js";
import type { InvocationEvent, InvocationEvents } from "./types.js";

/** Events a watcher may hold before it is considered behind and drops new ones. */
const MAX_BUFFERED_EVENTS = 1024;
/** How many finished invocation ids are remembered, so a late watcher ends at once instead of waiting forever. */
const FINISHED_MEMORY = 1024;
const INT32_MAX = 2_147_483_647;

/**
 * One `WatchInvocation` stream's view of an invocation: its buffered events,
 * and whether the invocation has finished.
 * @internal Does not follow semver.
 */
export class InvocationWatcher {
  readonly invocationId: string;
  readonly #events: InvocationEvent[] = [];
  #finished = false;
  #dropped = 0;
  #wake: (() => void) | undefined;

  constructor(invocationId: string) {
    this.invocationId = invocationId;
  }

  /** How many events were dropped because this watcher fell behind. */
  get dropped(): number {
    return this.#dropped;
  }

  push(event: InvocationEvent): boolean {
    if (this.#finished) return false;
    if (this.#events.length >= MAX_BUFFERED_EVENTS) {
      this.#dropped++;
      return false;
    }
    this.#events.push(event);
    this.#signal();
    return true;
  }

  finish(): void {
    this.#finished = true;
    this.#signal();
  }

  /** The events in publish order, ending once the invocation finished and all were taken, or `signal` aborted. */
  async *events(signal: AbortSignal): AsyncGenerator<InvocationEvent, void, undefined> {
    const onAbort = (): void => this.#signal();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        if (signal.aborted) return;
        const event = this.#events.shift();
        if (event !== undefined) {
          yield event;
          continue;
        }
        if (this.#finished) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/**
 * Routes invocation progress to `WatchInvocation` watchers by invocation id.
 * Best-effort, as contract 1.8.0 allows: no watcher means the event is
 * dropped; a watcher more than 1024 events behind drops new ones.
 * @internal Does not follow semver.
 */
export class InvocationHub {
  readonly #watchers = new Map<string, Set<InvocationWatcher>>();
  readonly #running = new Map<string, number>();
  readonly #finished = new Set<string>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Registers a watcher. A watcher of an invocation that already finished ends right after `ready`. */
  watch(invocationId: string): InvocationWatcher {
    const watcher = new InvocationWatcher(invocationId);
    if (this.#finished.has(invocationId) && !this.#running.has(invocationId)) watcher.finish();
    let set = this.#watchers.get(invocationId);
    if (set === undefined) this.#watchers.set(invocationId, (set = new Set()));
    set.add(watcher);
    return watcher;
  }

  unwatch(watcher: InvocationWatcher): void {
    const set = this.#watchers.get(watcher.invocationId);
    if (set === undefined) return;
    set.delete(watcher);
    if (set.size === 0) this.#watchers.delete(watcher.invocationId);
    if (watcher.dropped > 0) {
      this.#logger.warn("runtime: a WatchInvocation watcher fell behind and missed events", {
        invocationId: watcher.invocationId,
        dropped: watcher.dropped,
      });
    }
  }

  /** An invocation starts: returns its publisher. Call the returned `finish` when it has ended. */
  start(invocationId: string): { events: InvocationEvents; finish(): void } {
    this.#finished.delete(invocationId);
    this.#running.set(invocationId, (this.#running.get(invocationId) ?? 0) + 1);
    let live = true;
    const publish = (event: InvocationEvent): void => {
      if (!live) return;
      const set = this.#watchers.get(invocationId);
      if (set === undefined) return;
      for (const w of set) w.push(event);
    };
    const events: InvocationEvents = {
      toolCall: (e) => publish({ type: "tool_call", callId: String(e.callId), name: String(e.name) }),
      toolResult: (e) =>
        publish({
          type: "tool_result",
          callId: String(e.callId),
          name: String(e.name),
          ok: e.ok === true,
          durationMs: Number.isFinite(e.durationMs) ? Math.min(INT32_MAX, Math.max(0, Math.round(e.durationMs))) : 0,
        }),
      publish: (e) => (e.type === "tool_call" ? events.toolCall(e) : e.type === "tool_result" ? events.toolResult(e) : undefined),
    };
    const finish = (): void => {
      if (!live) return;
      live = false;
      const left = (this.#running.get(invocationId) ?? 1) - 1;
      if (left > 0) {
        this.#running.set(invocationId, left);
        return;
      }
      this.#running.delete(invocationId);
      this.#finished.add(invocationId);
      if (this.#finished.size > FINISHED_MEMORY) {
        const oldest = this.#finished.values().next();
        if (oldest.done !== true) this.#finished.delete(oldest.value);
      }
      const set = this.#watchers.get(invocationId);
      if (set !== undefined) for (const w of set) w.finish();
    };
    return { events, finish };
  }
}
