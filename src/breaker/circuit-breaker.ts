import { AbortedError } from "../core/index.js";
import type { Clock } from "../core/index.js";
import type { BreakerSettings } from "./breaker-settings.js";
import type { BreakerEmitter } from "./breaker-events.js";
import { CircuitOpenError } from "./circuit-open-error.js";
import { RollingWindow } from "./rolling-window.js";

/**
 * The state of a breaker.
 * @public
 */
export type BreakerState = "closed" | "open" | "half-open";

/**
 * The admission of one call (one backend attempt) by a breaker. Report its
 * outcome exactly once; later reports are ignored.
 *
 * Classification (a breaker guards one backend attempt; a failure is the backend misbehaving):
 * - {@link BreakerTicket.failure}: 5xx, 1xx/3xx finals, transport errors, per-attempt
 *   timeouts, gRPC non-OK statuses, MCP transport errors.
 * - {@link BreakerTicket.success}: 2xx, every 4xx (408 and 429 too), gRPC `is_error=true`
 *   responses, MCP `isError` results: the backend answered.
 * - {@link BreakerTicket.abandon}: the caller's own signal fired. Not recorded at all;
 *   a half-open trial slot is freed.
 *
 * A ticket admitted before a state change (the breaker opened, went half-open or
 * closed since) is stale: its report is ignored, as gobreaker ignores results of an
 * older generation.
 * @public
 */
export interface BreakerTicket {
  /** The call got an answer that is not a failure. */
  success(): void;
  /** The call failed in a way that counts against the backend. */
  failure(): void;
  /** The caller gave up on the call; it counts as nothing. */
  abandon(): void;
}

/**
 * A snapshot of one breaker, for metrics.
 * @public
 */
export interface BreakerSnapshot {
  /** The breaker's key: the tool name, or the sandbox claim. */
  readonly name: string;
  /** The state now (an elapsed open period reads as `"half-open"`). */
  readonly state: BreakerState;
  /** Calls recorded in the window (closed state; 0 otherwise). */
  readonly calls: number;
  /** Failures recorded in the window (closed state; 0 otherwise). */
  readonly failures: number;
  /** Failures of the trailing run inside the window, up to the threshold (closed state; 0 otherwise). */
  readonly consecutiveFailures: number;
  /** Clock time (ms) the breaker last opened; `undefined` if it never opened. */
  readonly openedAt: number | undefined;
  /** Half-open trial calls admitted and not abandoned (half-open state; 0 otherwise). */
  readonly trialsAdmitted: number;
  /** Half-open trial calls that succeeded (half-open state; 0 otherwise). */
  readonly trialSuccesses: number;
}

/**
 * One circuit breaker (the Omnia 1.9.0 state machine). It has no timers: open →
 * half-open is computed from `clock.now()` when a call arrives or the state is read.
 * @public
 */
export interface CircuitBreaker {
  /** The breaker's key: the tool name, or the sandbox claim. */
  readonly name: string;
  /** The current state. Reading it may move an elapsed open breaker to half-open. */
  readonly state: BreakerState;
  /**
   * Admits one call. Report its outcome on the returned ticket.
   * @throws CircuitOpenError (`ERR_OMNIA_CIRCUIT_OPEN`) when open, or half-open with every trial slot taken
   */
  admit(): BreakerTicket;
  /**
   * Runs `fn` through the breaker: admits it (rejecting with `CircuitOpenError`
   * without calling `fn`), then records a fulfilled `fn` as a success and a rejected one
   * through the set's `isFailure` predicate. When `signal` has aborted by the time `fn`
   * settles, the call is abandoned (not recorded). The result or error of `fn` passes
   * through unchanged.
   * @throws AbortedError (`ERR_OMNIA_ABORTED`) when `signal` is already aborted; `fn` is not called
   */
  execute<T>(fn: (signal: AbortSignal | undefined) => T | PromiseLike<T>, signal?: AbortSignal): Promise<T>;
  /** The counters now, for metrics. */
  snapshot(): BreakerSnapshot;
}

/** Read through a function: TypeScript would otherwise keep the narrowing from before the await. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal !== undefined && signal.aborted;
}

const CLOSED = 0;
const OPEN = 1;
const HALF_OPEN = 2;
const STATE_NAMES: readonly BreakerState[] = ["closed", "open", "half-open"];

/**
 * A ticket as a small class with prototype methods: one allocation per admitted call.
 * @internal Does not follow semver.
 */
class Ticket implements BreakerTicket {
  private settled = false;
  constructor(
    private readonly breaker: Breaker,
    private readonly generation: number,
  ) {}
  success(): void {
    if (this.settled) return;
    this.settled = true;
    this.breaker.onSuccess(this.generation);
  }
  failure(): void {
    if (this.settled) return;
    this.settled = true;
    this.breaker.onFailure(this.generation);
  }
  abandon(): void {
    if (this.settled) return;
    this.settled = true;
    this.breaker.onAbandon(this.generation);
  }
}

/**
 * The state machine. Created only through a breaker set.
 * @internal Does not follow semver.
 */
export class Breaker implements CircuitBreaker {
  private stateCode = CLOSED;
  /** Bumped on every state change; tickets of an older generation are ignored. */
  private generation = 0;
  private openedAt: number | undefined = undefined;
  private trialsAdmitted = 0;
  private trialSuccesses = 0;
  private readonly window: RollingWindow;

  constructor(
    readonly name: string,
    private readonly settings: BreakerSettings,
    private readonly clock: Clock,
    private readonly emitter: BreakerEmitter,
    private readonly isFailure: (error: unknown) => boolean,
  ) {
    this.window = new RollingWindow(settings);
  }

  get state(): BreakerState {
    if (this.stateCode === OPEN) this.maybeHalfOpen();
    return STATE_NAMES[this.stateCode] as BreakerState;
  }

  admit(): BreakerTicket {
    const code = this.stateCode;
    if (code === CLOSED) return new Ticket(this, this.generation);
    if (code === OPEN && !this.maybeHalfOpen()) throw new CircuitOpenError(this.name, "open");
    if (this.trialsAdmitted >= this.settings.halfOpenTrials) throw new CircuitOpenError(this.name, "half-open");
    this.trialsAdmitted++;
    return new Ticket(this, this.generation);
  }

  async execute<T>(fn: (signal: AbortSignal | undefined) => T | PromiseLike<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted === true) {
      throw new AbortedError(`circuit breaker [${this.name}]: the caller's signal is aborted`, { cause: signal.reason });
    }
    const ticket = this.admit();
    let value: T;
    try {
      value = await fn(signal);
    } catch (error) {
      if (isAborted(signal)) ticket.abandon();
      else if (this.isFailure(error)) ticket.failure();
      else ticket.success();
      throw error;
    }
    if (isAborted(signal)) ticket.abandon();
    else ticket.success();
    return value;
  }

  snapshot(): BreakerSnapshot {
    const state = this.state;
    const closed = this.stateCode === CLOSED;
    if (closed) this.window.advance(this.clock.now());
    const halfOpen = this.stateCode === HALF_OPEN;
    return Object.freeze({
      name: this.name,
      state,
      calls: closed ? this.window.calls : 0,
      failures: closed ? this.window.failures : 0,
      consecutiveFailures: closed ? this.window.consecutiveInWindow() : 0,
      openedAt: this.openedAt,
      trialsAdmitted: halfOpen ? this.trialsAdmitted : 0,
      trialSuccesses: halfOpen ? this.trialSuccesses : 0,
    });
  }

  /** @internal */
  onSuccess(generation: number): void {
    if (generation !== this.generation) return;
    if (this.stateCode === CLOSED) {
      this.window.record(this.clock.now(), false);
      return;
    }
    // Half-open (an open breaker admits nothing, so a current ticket is closed or half-open).
    this.trialSuccesses++;
    if (this.trialSuccesses >= this.settings.halfOpenTrials) this.toClosed();
  }

  /** @internal */
  onFailure(generation: number): void {
    if (generation !== this.generation) return;
    const now = this.clock.now();
    if (this.stateCode === HALF_OPEN) {
      this.toOpen(now, "trial-failure", 0, 0);
      return;
    }
    const window = this.window;
    window.record(now, true);
    // The trip rules are evaluated only when a failure is recorded, never on a success
    // (a window at 20 calls and >= 50 % failures stays closed until the next failure).
    if (window.consecutiveTripped()) {
      this.toOpen(now, "consecutive-failures", window.calls, window.failures);
    } else if (window.calls >= this.settings.minimumCalls && window.failures / window.calls >= this.settings.failureRatio) {
      this.toOpen(now, "failure-ratio", window.calls, window.failures);
    }
  }

  /** @internal */
  onAbandon(generation: number): void {
    // An abandoned call (the caller's signal fired) is not recorded at all; it frees its trial slot.
    if (generation !== this.generation) return;
    if (this.stateCode === HALF_OPEN) this.trialsAdmitted--;
  }

  /** Moves an open breaker whose open period has elapsed to half-open. Returns whether it did. */
  private maybeHalfOpen(): boolean {
    const now = this.clock.now();
    // gobreaker compares strictly: openedAt + open duration must be before now.
    if (!(now - (this.openedAt as number) > this.settings.openDurationMs)) return false;
    this.stateCode = HALF_OPEN;
    this.generation++;
    this.trialsAdmitted = 0;
    this.trialSuccesses = 0;
    this.emitter.emit("half-open", { name: this.name, at: now });
    return true;
  }

  private toOpen(now: number, reason: "consecutive-failures" | "failure-ratio" | "trial-failure", calls: number, failures: number): void {
    this.stateCode = OPEN;
    this.generation++;
    this.openedAt = now;
    this.trialsAdmitted = 0;
    this.trialSuccesses = 0;
    this.window.reset();
    this.emitter.emit("break", { name: this.name, reason, at: now, calls, failures });
  }

  private toClosed(): void {
    const now = this.clock.now();
    this.stateCode = CLOSED;
    this.generation++;
    this.trialsAdmitted = 0;
    this.trialSuccesses = 0;
    this.window.reset();
    this.emitter.emit("reset", { name: this.name, at: now });
  }
}
