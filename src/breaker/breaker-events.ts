import { InvalidOptionError } from "../core/index.js";
import type { Logger } from "../core/index.js";

/**
 * Why a breaker opened.
 * - `consecutive-failures`: the trailing run of failures inside the window reached the threshold (10).
 * - `failure-ratio`: the window held at least `minimumCalls` (20) calls and failures / calls reached `failureRatio` (0.5).
 * - `trial-failure`: a half-open trial call failed.
 * @public
 */
export type BreakReason = "consecutive-failures" | "failure-ratio" | "trial-failure";

/**
 * Emitted when a breaker opens.
 * @public
 */
export interface BreakerBreakEvent {
  /** The breaker's key: the tool name, or the sandbox claim. */
  readonly name: string;
  /** Which rule opened it. */
  readonly reason: BreakReason;
  /** Clock time (ms) at which it opened. */
  readonly at: number;
  /** Calls in the window when it opened (0 for a trial failure). */
  readonly calls: number;
  /** Failures in the window when it opened (0 for a trial failure). */
  readonly failures: number;
}

/**
 * Emitted when an open breaker lets the first call through as a trial (half-open).
 * @public
 */
export interface BreakerHalfOpenEvent {
  /** The breaker's key. */
  readonly name: string;
  /** Clock time (ms) of the transition. */
  readonly at: number;
}

/**
 * Emitted when half-open trials close the breaker again.
 * @public
 */
export interface BreakerResetEvent {
  /** The breaker's key. */
  readonly name: string;
  /** Clock time (ms) of the transition. */
  readonly at: number;
}

/**
 * The breaker events by name.
 * @public
 */
export interface BreakerEventMap {
  break: BreakerBreakEvent;
  "half-open": BreakerHalfOpenEvent;
  reset: BreakerResetEvent;
}

/**
 * A handle that removes what it was returned for (cockatiel's `IDisposable`). Idempotent.
 * @public
 */
export interface Disposable {
  dispose(): void;
}

const EVENT_NAMES: readonly (keyof BreakerEventMap)[] = ["break", "half-open", "reset"];

type AnyListener = (event: never) => void;

/**
 * Listener lists for the three breaker events. A listener that throws is logged
 * at error and never disturbs the breaker or the other listeners.
 * @internal Does not follow semver.
 */
export class BreakerEmitter {
  private readonly listeners: Record<keyof BreakerEventMap, AnyListener[]> = { break: [], "half-open": [], reset: [] };

  constructor(
    private readonly where: string,
    private readonly logger: Logger,
  ) {}

  on<E extends keyof BreakerEventMap>(event: E, listener: (event: BreakerEventMap[E]) => void): Disposable {
    if (!EVENT_NAMES.includes(event)) {
      throw new InvalidOptionError(`${this.where}.on: unknown event ${JSON.stringify(event)}; expected one of ${EVENT_NAMES.join(", ")}`);
    }
    if (typeof listener !== "function") {
      throw new InvalidOptionError(`${this.where}.on: listener must be a function; got ${typeof listener}`);
    }
    // Copy on write, so that a listener disposed or added during an emit does not disturb it.
    const add = listener as AnyListener;
    this.listeners[event] = [...this.listeners[event], add];
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        const list = this.listeners[event];
        const i = list.indexOf(add);
        if (i >= 0) this.listeners[event] = [...list.slice(0, i), ...list.slice(i + 1)];
      },
    };
  }

  emit<E extends keyof BreakerEventMap>(event: E, payload: BreakerEventMap[E]): void {
    const list = this.listeners[event] as ((event: BreakerEventMap[E]) => void)[];
    for (const listener of list) {
      try {
        listener(payload);
      } catch (error) {
        this.logger.error("circuit breaker event listener threw", { event, breaker: payload.name, error });
      }
    }
  }
}
