import { ClosedError, InvalidOptionError, noopLogger, systemClock } from "../core/index.js";
import type { Clock, Logger } from "../core/index.js";
import { resolveBreakerSettings } from "./breaker-settings.js";
import type { BreakerSettings, BreakerThresholds } from "./breaker-settings.js";
import { BreakerEmitter } from "./breaker-events.js";
import type { BreakerEventMap, Disposable } from "./breaker-events.js";
import { Breaker } from "./circuit-breaker.js";
import type { BreakerSnapshot, CircuitBreaker } from "./circuit-breaker.js";
import { isBreakerFailure } from "./is-breaker-failure.js";

/**
 * Options of {@link createCircuitBreakers}: the thresholds (all optional, 1.9.0
 * defaults), plus the clock, the logger and the failure predicate of `execute`.
 * @public
 */
export interface CircuitBreakersOptions extends BreakerThresholds {
  /** The time source. Default {@link systemClock}. The breakers arm no timers. */
  readonly clock?: Clock;
  /** Where a throwing event listener is reported. Default {@link noopLogger}. */
  readonly logger?: Logger;
  /**
   * Decides whether an error thrown by a function run through `breaker.execute()` is
   * a breaker failure. Default {@link isBreakerFailure}: everything except an HTTP 4xx
   * (an error with a `status` or `statusCode` of 400–499 in its `cause` chain).
   * Tickets from `breaker.admit()` are classified by the caller instead.
   */
  readonly isFailure?: (error: unknown) => boolean;
}

/**
 * A set of circuit breakers keyed by name (the tool name; the sandbox claim in a
 * {@link Conversation}). Breakers are created lazily on first use and never evicted.
 * @public
 */
export interface CircuitBreakers {
  /** The thresholds every breaker of the set uses, fully defaulted. */
  readonly settings: BreakerSettings;
  /** How many breakers exist. */
  readonly size: number;
  /**
   * The breaker for `name`, created (closed, empty) on first use.
   * @throws ClosedError (`ERR_OMNIA_CLOSED`) when the set belongs to a disposed conversation
   */
  get(name: string): CircuitBreaker;
  /** Whether a breaker for `name` exists. Never creates one. */
  has(name: string): boolean;
  /** A snapshot of every breaker, in creation order. */
  snapshot(): readonly BreakerSnapshot[];
  /**
   * Subscribes to `break` (a breaker opened), `half-open` (an open breaker admitted
   * its first trial) or `reset` (trials closed it) for every breaker of the set.
   * Events fire synchronously inside the call that causes the transition. A listener
   * that throws is logged and otherwise ignored.
   * @returns a handle whose `dispose()` unsubscribes
   */
  on<E extends keyof BreakerEventMap>(event: E, listener: (event: BreakerEventMap[E]) => void): Disposable;
}

const EXTRA_KEYS = ["clock", "logger", "isFailure"] as const;

/**
 * The set behind {@link createCircuitBreakers} and a conversation's per-claim breakers.
 * @internal Does not follow semver.
 */
export class BreakerSet implements CircuitBreakers {
  readonly settings: BreakerSettings;
  private readonly breakers = new Map<string, Breaker>();
  private readonly clock: Clock;
  private readonly emitter: BreakerEmitter;
  private readonly isFailure: (error: unknown) => boolean;
  private closedBy: string | undefined;

  constructor(
    private readonly where: string,
    options: CircuitBreakersOptions,
    extraKeys: readonly string[] = [],
  ) {
    if (options === null || typeof options !== "object") {
      throw new InvalidOptionError(`${where}: options must be an object; got ${options === null ? "null" : typeof options}`);
    }
    this.settings = resolveBreakerSettings(where, options, [...EXTRA_KEYS, ...extraKeys]);
    const clock = options.clock ?? systemClock;
    if (typeof clock !== "object" || typeof clock.now !== "function") {
      throw new InvalidOptionError(`${where}: clock must be a Clock ({ now(), setTimeout() }); got ${typeof clock}`);
    }
    const isFailure = options.isFailure ?? isBreakerFailure;
    if (typeof isFailure !== "function") {
      throw new InvalidOptionError(`${where}: isFailure must be a function; got ${typeof isFailure}`);
    }
    this.clock = clock;
    this.isFailure = isFailure;
    this.emitter = new BreakerEmitter(where, options.logger ?? noopLogger);
  }

  get size(): number {
    return this.breakers.size;
  }

  get(name: string): CircuitBreaker {
    if (this.closedBy !== undefined) throw new ClosedError(`${this.where}: used after ${this.closedBy}`);
    let breaker = this.breakers.get(name);
    if (breaker === undefined) {
      if (typeof name !== "string") {
        throw new InvalidOptionError(`${this.where}.get: name must be a string; got ${typeof name}`);
      }
      breaker = new Breaker(name, this.settings, this.clock, this.emitter, this.isFailure);
      this.breakers.set(name, breaker);
    }
    return breaker;
  }

  has(name: string): boolean {
    return this.breakers.has(name);
  }

  snapshot(): readonly BreakerSnapshot[] {
    return Object.freeze([...this.breakers.values()].map((b) => b.snapshot()));
  }

  on<E extends keyof BreakerEventMap>(event: E, listener: (event: BreakerEventMap[E]) => void): Disposable {
    return this.emitter.on(event, listener);
  }

  /** Drops every breaker; later `get()` calls throw ClosedError naming `by`. */
  close(by: string): void {
    this.closedBy = by;
    this.breakers.clear();
  }
}

/**
 * Creates the per-tool circuit breaker set (Omnia runtime contract 1.9.0).
 *
 * A breaker opens, checked when a failure is recorded, on 10 consecutive failures
 * inside a rolling 60 s window (60 buckets of 1 s), or when the window holds at least
 * 20 calls of which at least half failed. It stays open 10 s, rejecting every call at
 * once; the next call then enters half-open, which admits 5 trial calls and rejects any
 * other. One trial failure reopens it; 5 trial successes close it with an empty window.
 * Every threshold can be overridden. Memory per breaker is fixed.
 *
 * @example
 * ```ts
 * const breakers = createCircuitBreakers({ clock });
 * breakers.on("break", (e) => logger.warn("breaker opened", { tool: e.name, reason: e.reason }));
 * const breaker = breakers.get("get_weather");
 * const ticket = breaker.admit(); // throws CircuitOpenError while open
 * try {
 *   const res = await callBackend();
 *   res.status >= 500 ? ticket.failure() : ticket.success();
 * } catch (error) {
 *   signal.aborted ? ticket.abandon() : ticket.failure();
 * }
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option or a threshold out of range
 * @public
 */
export function createCircuitBreakers(options: CircuitBreakersOptions = {}): CircuitBreakers {
  return new BreakerSet("createCircuitBreakers", options);
}
