import { AbortedError, ErrorCode, noopLogger, systemClock, toError } from "../core/index.js";
import type { Clock, Logger } from "../core/index.js";
import { computeBackoffDelay } from "./backoff.js";
import { RetriesExhaustedError } from "./retries-exhausted-error.js";
import { createRetryPolicy } from "./retry-policy.js";
import type { RetryPolicy, RetryPolicyOptions } from "./retry-policy.js";
import { abortedError, sleep } from "./sleep.js";

/**
 * What one attempt reports to the retry loop. The executor classifies; the loop only
 * counts, sleeps and wraps.
 *
 * - `success`: the value of the call.
 * - `failure`: the attempt failed. `retryable` is the transport's verdict:
 *   - HTTP/OpenAPI: `classifyHttpStatus` for a received status (retryOn, Retry-After),
 *     `classifyHttpError` for a transport error or a timeout (retryOnNetworkError);
 *   - gRPC: `classifyGrpcStatus` (canonical names); `is_error` responses and errors
 *     without a status are not retryable;
 *   - MCP: retryable unless it is an MCP tool error (`isError: true`).
 *   `retryAfterMs` is a floor for the next delay (still capped at maxBackoff).
 * - `rejected`: a guard refused the attempt before it reached the backend (a breaker
 *   rejection). Returned at once, unwrapped, even on the last attempt: never retried
 *   (unlike Omnia 1.3.0's runtime, where HTTP and MCP retried against an open breaker).
 * - `abandoned`: the caller's signal aborted during the attempt. The loop rejects.
 *
 * A thrown error is read as `rejected` when its code is `ERR_OMNIA_CIRCUIT_OPEN` (so a
 * `breaker.admit()` may simply throw), as `abandoned` when the caller's signal has
 * aborted, and otherwise as a non-retryable failure. A `failure` whose error has the
 * circuit-open code is also treated as `rejected`.
 * @internal Does not follow semver.
 */
export type AttemptOutcome<T> =
  | { readonly kind: "success"; readonly value: T }
  | { readonly kind: "failure"; readonly error: Error; readonly retryable: boolean; readonly retryAfterMs?: number }
  | { readonly kind: "rejected"; readonly error: Error }
  | { readonly kind: "abandoned"; readonly error?: Error };

/**
 * What the attempt function receives.
 * @internal Does not follow semver.
 */
export interface AttemptContext {
  /** 1-based number of this attempt. */
  readonly attempt: number;
  /** The caller's signal, to pass on to `runAttempt`. */
  readonly signal: AbortSignal | undefined;
}

/**
 * The end of a retried call. A caller abort is not a result: the promise rejects.
 * @internal Does not follow semver.
 */
export type RetryResult<T> =
  | { readonly status: "success"; readonly value: T; readonly attempts: number }
  | { readonly status: "failure"; readonly error: Error; readonly attempts: number };

/**
 * Reported before each backoff sleep (for the `retry.attempt` span event).
 * @internal Does not follow semver.
 */
export interface RetryEvent {
  /** 1-based number of the attempt that failed. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** The sleep before the next attempt, in ms. */
  readonly delayMs: number;
  readonly error: Error;
}

/**
 * Options of {@link runWithRetry}.
 * @internal Does not follow semver.
 */
export interface RetryOptions {
  /** The policy. Default: one attempt (no `retryPolicy`). */
  readonly policy?: RetryPolicy | RetryPolicyOptions;
  /** Where the backoff sleeps run. Default `systemClock`. */
  readonly clock?: Clock;
  /** The jitter source, values in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** The caller's signal: aborting it ends the call at once, even mid-sleep. */
  readonly signal?: AbortSignal | undefined;
  /** `retry attempt` (debug) and `retries exhausted` (info) go here. Default: discarded. */
  readonly logger?: Logger;
  /** Called before each backoff sleep. */
  readonly onRetry?: (event: RetryEvent) => void;
}

/**
 * The retry loop of Omnia's `retryWithBackoff` (`internal/runtime/tools/retry.go`).
 * `maxAttempts` counts every attempt.
 *
 * - With `maxAttempts <= 1`, one attempt; its failure is returned unwrapped.
 * - Otherwise, after a failed attempt that is not the last: a non-retryable failure
 *   is returned at once, unwrapped; a retryable one sleeps
 *   {@link computeBackoffDelay} on the clock (abortable) and tries again.
 * - The last attempt's failure, retryable or not, becomes {@link RetriesExhaustedError}
 *   `<N> attempts exhausted: <last error>`.
 * - A `rejected` attempt (breaker rejection) is returned at once, unwrapped.
 * - The caller's abort (before an attempt, an `abandoned` attempt, a failure reported
 *   after the caller's signal aborted, or during a sleep) rejects the promise at once
 *   with `AbortedError` (`ERR_OMNIA_ABORTED`) and leaves no timer behind.
 *
 * The executor pipeline composes it as policy → retry → [attempt timeout → breaker → backend] → record:
 * @example
 * ```ts
 * const result = await runWithRetry(async ({ signal }) => {
 *   const ticket = breaker.admit(); // a CircuitOpenError thrown here is "rejected"
 *   const settled = await runAttempt((s) => send(s), { clock, timeoutMs, signal });
 *   switch (settled.kind) {
 *     case "abandoned": ticket.abandon(); return { kind: "abandoned", error: settled.error };
 *     case "timeout":
 *     case "error": ticket.failure(); return { kind: "failure", error: settled.error, ...classifyHttpError(settled.error, rules) };
 *     case "success": {
 *       const res = settled.value;
 *       if (res.status >= 200 && res.status < 300) { ticket.success(); return { kind: "success", value: res }; }
 *       res.status >= 400 && res.status < 500 ? ticket.success() : ticket.failure();
 *       return { kind: "failure", error: httpError(res), ...classifyHttpStatus(res.status, res.headers["retry-after"], rules, clock.now()) };
 *     }
 *   }
 * }, { policy, clock, signal, logger });
 * ```
 * @throws AbortedError (`ERR_OMNIA_ABORTED`) when the caller's signal aborts
 * @internal Does not follow semver.
 */
export function runWithRetry<T>(
  attemptFn: (context: AttemptContext) => Promise<AttemptOutcome<T>> | AttemptOutcome<T>,
  options: RetryOptions = {},
): Promise<RetryResult<T>> {
  return startRetry<T, RetryResult<T>>(attemptFn, options, undefined);
}

/**
 * What {@link runRetryLoop} calls each attempt: an object, so that a caller that
 * already holds one (a backend's prepared call) needs no closure for it.
 * @internal Does not follow semver.
 */
export interface AttemptSource<T> {
  attempt(signal: AbortSignal | undefined): Promise<AttemptOutcome<T>> | AttemptOutcome<T>;
  /**
   * Optional: the same attempt, delivered into `sink` instead of a promise
   * (exactly once, never before this returns; a throw is read as `attempt`
   * throwing). {@link runRetryLoop} runs the first attempt through it, so a
   * call that needs one attempt holds no promise of its own for it.
   */
  attemptInto?(signal: AbortSignal | undefined, sink: AttemptSink<T>): void;
}

/**
 * Where {@link AttemptSource.attemptInto} delivers an attempt: its outcome, or
 * what it threw (or rejected with).
 * @internal Does not follow semver.
 */
export interface AttemptSink<T> {
  attempted(outcome: AttemptOutcome<T>): void;
  attemptThrew(error: unknown): void;
}

/**
 * Where {@link runRetryLoop} delivers the end of the call: `settle` with the
 * result, `thrown` with the abort (or anything else the loop threw) instead of
 * a rejection. Whatever either returns fulfils the loop's promise; whatever
 * either throws rejects it.
 * @internal Does not follow semver.
 */
export interface RetryEnd<T, R> {
  settle(result: RetryResult<T>): R;
  thrown(error: unknown): R;
}

/**
 * Options of {@link runRetryLoop}: those of {@link runWithRetry}, plus a
 * counter and an observer given as objects (no closure per call).
 * @internal Does not follow semver.
 */
export interface RetryLoopOptions extends RetryOptions {
  /** Its `attempts` goes up by one for each attempt that returned an outcome (a thrown or rejected attempt does not count). */
  readonly counter?: { attempts: number } | undefined;
  /** Its `retry` is called before each backoff sleep, as `onRetry` is. */
  readonly observer?: { retry(event: RetryEvent): void } | undefined;
}

/**
 * {@link runWithRetry} with the same rules, for a caller that maps the result
 * at once: the attempts come from `source.attempt(signal)`, and the result (or
 * the abort) goes through `end` within the same promise step as the last
 * attempt's outcome, so the call needs no further promise.
 * @internal Does not follow semver.
 */
export function runRetryLoop<T, R>(source: AttemptSource<T>, options: RetryLoopOptions, end: RetryEnd<T, R>): Promise<R> {
  if (source.attemptInto === undefined || options.signal?.aborted === true) return startRetry<T, R>(source, options, end);
  let policy: ReturnType<typeof createRetryPolicy>;
  try {
    policy = createRetryPolicy(options.policy);
  } catch (e) {
    return Promise.reject(e).then(undefined, (thrown: unknown) => end.thrown(thrown));
  }
  return new Promise<R>((resolve, reject) => {
    const run = new FirstAttemptRun<T, R>(source, policy, options, end, resolve, reject);
    try {
      source.attemptInto!(options.signal, run);
    } catch (thrown) {
      // As a rejected attempt promise: read on a later microtask.
      queueMicrotask(() => run.attemptThrew(thrown));
    }
  });
}

function startRetry<T, R>(
  source: ((context: AttemptContext) => Promise<AttemptOutcome<T>> | AttemptOutcome<T>) | AttemptSource<T>,
  options: RetryLoopOptions,
  end: RetryEnd<T, R> | undefined,
): Promise<R> {
  // Promise chains, not an async loop: a call in flight holds no suspended frame (its generator
  // object, register file and context) while its attempt runs; only the chain's closures.
  let run: RetryRun<T, R>;
  try {
    const policy = createRetryPolicy(options.policy);
    run = new RetryRun<T, R>(source, policy, options, end);
  } catch (e) {
    if (end === undefined) return Promise.reject(e);
    return Promise.reject(e).then(undefined, (thrown: unknown) => end.thrown(thrown));
  }
  return attemptAt(run, 1);
}

/** One retried call: what every attempt needs, in one object. */
class RetryRun<T, R> {
  readonly source: ((context: AttemptContext) => Promise<AttemptOutcome<T>> | AttemptOutcome<T>) | AttemptSource<T>;
  readonly policy: ReturnType<typeof createRetryPolicy>;
  readonly max: number;
  readonly clock: NonNullable<RetryOptions["clock"]>;
  readonly random: () => number;
  readonly logger: NonNullable<RetryOptions["logger"]>;
  readonly signal: AbortSignal | undefined;
  readonly onRetry: RetryOptions["onRetry"];
  readonly observer: RetryLoopOptions["observer"];
  readonly counter: RetryLoopOptions["counter"];
  /** Undefined: the result itself, a thrown abort as a rejection (runWithRetry). */
  readonly end: RetryEnd<T, R> | undefined;

  constructor(source: RetryRun<T, R>["source"], policy: ReturnType<typeof createRetryPolicy>, options: RetryLoopOptions, end: RetryEnd<T, R> | undefined) {
    this.source = source;
    this.policy = policy;
    this.max = policy.maxAttempts;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? noopLogger;
    this.signal = options.signal;
    this.onRetry = options.onRetry;
    this.observer = options.observer;
    this.counter = options.counter;
    this.end = end;
  }
}

/**
 * A run whose first attempt is delivered into it ({@link AttemptSource.attemptInto}):
 * it settles the loop's one promise; any later attempt goes through {@link attemptAt}.
 */
class FirstAttemptRun<T, R> extends RetryRun<T, R> implements AttemptSink<T> {
  readonly #resolve: (value: R | Promise<R>) => void;
  readonly #reject: (error: unknown) => void;

  constructor(
    source: AttemptSource<T>,
    policy: ReturnType<typeof createRetryPolicy>,
    options: RetryLoopOptions,
    end: RetryEnd<T, R>,
    resolve: (value: R | Promise<R>) => void,
    reject: (error: unknown) => void,
  ) {
    super(source, policy, options, end);
    this.#resolve = resolve;
    this.#reject = reject;
  }

  attempted(outcome: AttemptOutcome<T>): void {
    if (this.counter !== undefined) this.counter.attempts++;
    this.#settle(outcome);
  }

  attemptThrew(error: unknown): void {
    this.#settle(fromThrown<T>(error, this.signal));
  }

  #settle(outcome: AttemptOutcome<T>): void {
    let out: R | Promise<R>;
    try {
      out = step(this, 1, outcome);
    } catch (e) {
      this.#reject(e);
      return;
    }
    this.#resolve(out);
  }
}

/** Attempt number `attempt`, then what its outcome decides. */
function attemptAt<T, R>(run: RetryRun<T, R>, attempt: number): Promise<R> {
  const { signal, source } = run;
  if (signal?.aborted === true) {
    const aborted = Promise.reject(abortedError("retry", signal));
    const end = run.end;
    return end === undefined ? aborted : aborted.then(undefined, (thrown: unknown) => end.thrown(thrown));
  }
  let pending: Promise<AttemptOutcome<T>>;
  try {
    pending = Promise.resolve(typeof source === "function" ? source({ attempt, signal }) : source.attempt(signal));
  } catch (thrown) {
    pending = Promise.resolve(fromThrown<T>(thrown, signal));
    return pending.then((outcome) => step(run, attempt, outcome));
  }
  return pending.then(
    (outcome) => {
      if (run.counter !== undefined) run.counter.attempts++;
      return step(run, attempt, outcome);
    },
    (thrown: unknown) => step(run, attempt, fromThrown<T>(thrown, signal)),
  );
}

/** What an attempt's outcome decides, delivered through the run's end. */
function step<T, R>(run: RetryRun<T, R>, attempt: number, outcome: AttemptOutcome<T>): R | Promise<R> {
  const end = run.end;
  if (end === undefined) return decide(run, attempt, outcome) as R | Promise<R>;
  let decided: RetryResult<T> | Promise<R>;
  try {
    decided = decide(run, attempt, outcome);
  } catch (e) {
    return end.thrown(e);
  }
  return decided instanceof Promise ? decided : end.settle(decided);
}

/** The result of an attempt's outcome, or the next attempt after the backoff sleep; throws when the call is abandoned. */
function decide<T, R>(run: RetryRun<T, R>, attempt: number, outcome: AttemptOutcome<T>): RetryResult<T> | Promise<R> {
  const { signal, max, logger, onRetry, observer } = run;
  switch (outcome.kind) {
    case "success":
      return { status: "success", value: outcome.value, attempts: attempt };
    case "abandoned":
      throw outcome.error ?? (signal === undefined ? new AbortedError("retry: the attempt was abandoned") : abortedError("retry", signal));
    case "rejected":
      return { status: "failure", error: outcome.error, attempts: attempt };
    case "failure": {
      const error = outcome.error;
      // Abandoned is decided from the caller's signal, never from how the attempt reported it.
      if (signal !== undefined && isAborted(signal)) throw abortedError("retry", signal);
      // A breaker rejection is never retried and never wrapped : while open, calls fail at once.
      if (max <= 1 || isCircuitOpen(error)) return { status: "failure", error, attempts: attempt };
      if (attempt >= max) {
        logger.info("retries exhausted", { attempts: max, error: error.message });
        return { status: "failure", error: new RetriesExhaustedError(max, error), attempts: attempt };
      }
      if (!outcome.retryable) return { status: "failure", error, attempts: attempt };
      const delayMs = computeBackoffDelay(run.policy, attempt - 1, run.random(), outcome.retryAfterMs ?? 0);
      logger.debug("retry attempt", { attempt, maxAttempts: max, delay: delayMs, error: error.message });
      if (onRetry !== undefined || observer !== undefined) {
        const event: RetryEvent = { attempt, maxAttempts: max, delayMs, error };
        try {
          if (onRetry !== undefined) onRetry(event);
          else observer!.retry(event);
        } catch (hookError) {
          logger.error("retry: onRetry threw", { error: hookError });
        }
      }
      const slept = sleep(run.clock, delayMs, signal);
      const end = run.end;
      return end === undefined
        ? slept.then(() => attemptAt(run, attempt + 1))
        : slept.then(
            () => attemptAt(run, attempt + 1),
            (thrown: unknown) => end.thrown(thrown),
          );
    }
  }
}

/** Read through a function: TypeScript would otherwise keep the narrowing from before the await. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function isCircuitOpen(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === ErrorCode.CIRCUIT_OPEN;
}

function fromThrown<T>(thrown: unknown, signal: AbortSignal | undefined): AttemptOutcome<T> {
  const error = toError(thrown);
  if (isCircuitOpen(error)) return { kind: "rejected", error };
  if (signal?.aborted === true) return { kind: "abandoned" };
  return { kind: "failure", error, retryable: false };
}
