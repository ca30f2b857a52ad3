import type { Clock } from "../core/index.js";

/**
 * The breaker of Omnia's session-api client (`pkg/session/httpclient/store.go`, a
 * gobreaker): 5 half-open requests, counts cleared every 30 s while closed, 10 s
 * open, and it trips once the counts hold at least 10 requests with 60 % failures.
 */
const SESSION_API_BREAKER = Object.freeze({ halfOpenRequests: 5, intervalMs: 30_000, openMs: 10_000, minRequests: 10, failureRatio: 0.6 });

/** @internal Does not follow semver. */
export type SessionApiBreakerState = "closed" | "open" | "half-open";

/**
 * gobreaker's state machine, on a clock and without timers: open → half-open and
 * the closed state's new count interval are computed when a request arrives or
 * reports. A result of an older generation (admitted before a state change)
 * is ignored, as gobreaker ignores it.
 * @internal Does not follow semver.
 */
export class SessionApiBreaker {
  #state: SessionApiBreakerState = "closed";
  #generation = 0;
  #expiry: number;
  #requests = 0;
  #failures = 0;
  #consecutiveSuccesses = 0;

  constructor(
    private readonly clock: Clock,
    /** Called on every state change (after the change). */
    private readonly onChange: (to: SessionApiBreakerState) => void,
  ) {
    this.#expiry = clock.now() + SESSION_API_BREAKER.intervalMs;
  }

  /** Admits one request: its generation, to report with; `undefined` when open, or half-open with every request slot taken. */
  admit(): number | undefined {
    this.#current(this.clock.now());
    if (this.#state === "open") return undefined;
    if (this.#state === "half-open" && this.#requests >= SESSION_API_BREAKER.halfOpenRequests) return undefined;
    this.#requests++;
    return this.#generation;
  }

  /** Reports an admitted request's outcome. */
  report(generation: number, ok: boolean): void {
    const now = this.clock.now();
    this.#current(now);
    if (generation !== this.#generation) return;
    if (ok) {
      this.#consecutiveSuccesses++;
      if (this.#state === "half-open" && this.#consecutiveSuccesses >= SESSION_API_BREAKER.halfOpenRequests) this.#set("closed", now);
      return;
    }
    this.#consecutiveSuccesses = 0;
    this.#failures++;
    if (this.#state === "half-open") return this.#set("open", now);
    if (this.#requests >= SESSION_API_BREAKER.minRequests && this.#failures / this.#requests >= SESSION_API_BREAKER.failureRatio) this.#set("open", now);
  }

  #current(now: number): void {
    if (this.#state === "closed" && this.#expiry < now) this.#newGeneration(now);
    else if (this.#state === "open" && this.#expiry < now) this.#set("half-open", now);
  }

  #set(to: SessionApiBreakerState, now: number): void {
    this.#state = to;
    this.#newGeneration(now);
    this.onChange(to);
  }

  #newGeneration(now: number): void {
    this.#generation++;
    this.#requests = 0;
    this.#failures = 0;
    this.#consecutiveSuccesses = 0;
    this.#expiry = this.#state === "closed" ? now + SESSION_API_BREAKER.intervalMs : this.#state === "open" ? now + SESSION_API_BREAKER.openMs : Infinity;
  }
}
