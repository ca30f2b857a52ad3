import { TimeoutError, armTimer, toError, type Clock, type TimerHandle, type TimerTarget } from "../core/index.js";
import type { BreakerTicket, CircuitBreaker } from "../breaker/index.js";
import { abortedError, offSharedAbort, onSharedAbort, type AttemptOutcome, type AttemptSettlement, type AttemptSink } from "../retry/index.js";
import type { BackendSuccess } from "./backend.js";

/**
 * An attempt delivered into a sink, as a promise: what the retry loop's
 * second and later attempts take (`AttemptSource.attempt`).
 * @internal Does not follow semver.
 */
export function attemptPromise(
  source: { attemptInto(signal: AbortSignal | undefined, sink: AttemptSink<BackendSuccess>): void },
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome<BackendSuccess>> {
  return new Promise<AttemptOutcome<BackendSuccess>>((resolve, reject) => source.attemptInto(signal, { attempted: resolve, attemptThrew: reject }));
}

/**
 * The breaker's admission of an attempt: its ticket, or undefined when the
 * breaker refused (its `CircuitOpenError` goes to `sink` as thrown, on a later
 * microtask, which the retry loop reads as a rejection).
 * @internal Does not follow semver.
 */
export function admitAttempt(breaker: CircuitBreaker, sink: AttemptSink<BackendSuccess>): BreakerTicket | undefined {
  try {
    return breaker.admit();
  } catch (e) {
    queueMicrotask(() => sink.attemptThrew(e));
    return undefined;
  }
}

/**
 * One attempt of a backend call that delivers into the retry loop's sink, in
 * one object: the target of its per-attempt timer and the listener on the
 * caller's signal. It settles at the first of: the exchange settling
 * ({@link AttemptRun.succeeded} or {@link AttemptRun.failed}), the timeout
 * (`timed out after <ms>ms`), the caller's abort (abandoned, and also when
 * the exchange settles after the caller aborted); a late settlement is
 * dropped. The timer and the listener go as it settles. The breaker
 * accounting and the classification ({@link AttemptRun.outcomeOf}) run on a
 * later microtask, as a promise step would: never inside a timer's, a
 * listener's or a transport's callback.
 * @internal Does not follow semver.
 */
export abstract class AttemptRun<V> implements TimerTarget {
  #settled = false;
  #timer: TimerHandle | undefined = undefined;
  readonly #timeoutMs: number;
  readonly #ticket: BreakerTicket;
  /** The caller's signal (the conversation's, or the executor's close); not named `signal`, which a subclass's send options may mean otherwise. */
  protected readonly callerSignal: AbortSignal | undefined;
  // Not readonly: dropped on settling (a transport may keep this object a while).
  #sink: AttemptSink<BackendSuccess> | undefined;

  constructor(ticket: BreakerTicket, signal: AbortSignal | undefined, sink: AttemptSink<BackendSuccess>, timeoutMs: number) {
    this.#ticket = ticket;
    this.callerSignal = signal;
    this.#sink = sink;
    this.#timeoutMs = timeoutMs;
  }

  /** Whether the attempt has settled (a late answer is then dropped). */
  protected get settled(): boolean {
    return this.#settled;
  }

  /**
   * Starts watching the caller's signal and the timeout (none for 0, a
   * negative or a non-finite `timeoutMs`). Returns false, having settled the
   * attempt abandoned, when the caller's signal had aborted already: then
   * nothing may be sent.
   */
  protected watch(clock: Clock): boolean {
    const signal = this.callerSignal;
    if (signal?.aborted === true) {
      this.#finish(this.abandoned());
      return false;
    }
    if (signal !== undefined) onSharedAbort(signal, this);
    const timeoutMs = this.#timeoutMs;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) this.#timer = armTimer(clock, this, timeoutMs);
    return true;
  }

  /** Aborts the exchange in flight, with the timeout's error or the caller's reason. */
  protected abstract abortExchange(reason: unknown): void;

  /** The breaker accounting and the retry classification of the settled attempt; what it throws goes to the sink as thrown. */
  protected abstract outcomeOf(settlement: AttemptSettlement<V>, ticket: BreakerTicket): AttemptOutcome<BackendSuccess>;

  /** The exchange's value: a success, or abandoned when the caller's signal has aborted. */
  protected succeeded(value: V): void {
    if (this.#settled) return;
    this.#finish(this.callerSignal?.aborted === true ? this.abandoned() : { kind: "success", value });
  }

  /** The exchange failed: abandoned when the caller's signal has aborted, else an error. */
  failed(error: unknown): void {
    if (this.#settled) return;
    this.#finish(this.callerSignal?.aborted === true ? this.abandoned() : { kind: "error", error: toError(error) });
  }

  /** The per-attempt timeout fired. */
  handleTimer(): void {
    const error = new TimeoutError(this.#timeoutMs);
    this.#finish({ kind: "timeout", error });
    this.abortExchange(error);
  }

  /** The caller's signal aborted (this is its listener). */
  handleEvent(): void {
    this.abortExchange(this.callerSignal?.reason);
    this.#finish(this.abandoned());
  }

  protected abandoned(): AttemptSettlement<V> {
    return { kind: "abandoned", error: abortedError("attempt", this.callerSignal as AbortSignal) };
  }

  #finish(settlement: AttemptSettlement<V>): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#timer?.clear();
    if (this.callerSignal !== undefined) offSharedAbort(this.callerSignal, this);
    const sink = this.#sink!;
    this.#sink = undefined;
    const ticket = this.#ticket;
    queueMicrotask(() => {
      let outcome: AttemptOutcome<BackendSuccess>;
      try {
        outcome = this.outcomeOf(settlement, ticket);
      } catch (error) {
        sink.attemptThrew(error);
        return;
      }
      sink.attempted(outcome);
    });
  }
}
