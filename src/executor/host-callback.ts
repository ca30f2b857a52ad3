import { AbortedError, ClosedError } from "../core/index.js";
import { offSharedAbort, onSharedAbort } from "../retry/index.js";
import type { CallState } from "./call-state.js";
import type { ExecutorRuntime } from "./runtime.js";

/**
 * The error a call ends with when `close()` ended it in flight: the executor's
 * own closing reason, or a ClosedError with the same text.
 * @internal Does not follow semver.
 */
export function closedWhileInFlight(rt: ExecutorRuntime): ClosedError {
  const reason: unknown = rt.closing.reason;
  return reason instanceof ClosedError ? reason : new ClosedError("execute: the executor closed while the call was in flight");
}

/**
 * How a wait on a host callback ended early: `aborted` (the caller's signal or
 * the call's `timeoutMs` deadline, both seen as `ctx.signal`) or `closed`
 * (`close()` started).
 * @internal Does not follow semver.
 */
export class HostWaitEnded extends Error {
  readonly why: "aborted" | "closed";
  readonly #brand = true;
  constructor(why: "aborted" | "closed") {
    super(why);
    this.why = why;
  }

  /** Whether `value` is one: a private-brand check, which no Proxy trap of a host's thrown value can intercept. */
  static is(value: unknown): value is HostWaitEnded {
    return typeof value === "object" && value !== null && #brand in value;
  }
}

/**
 * Waits for a host callback (a policy decision, a secret, a workload token, a
 * delegation token) for no longer than the call may wait: the returned promise
 * settles as `work` does, or rejects with {@link HostWaitEnded} at the first of
 * the call's signal (the caller's abort or its deadline) and `close()`. A
 * callback that never settles therefore holds nothing: its late answer or
 * rejection is dropped.
 * @internal Does not follow semver.
 */
export function awaitHostCallback<T>(rt: ExecutorRuntime, state: CallState, work: Promise<T>): Promise<T> {
  const signal = state.ctx.signal;
  const closing = rt.closing;
  if (signal?.aborted === true || closing.aborted) {
    work.then(undefined, ignore);
    return Promise.reject(new HostWaitEnded(signal?.aborted === true ? "aborted" : "closed"));
  }
  return new Promise<T>((resolve, reject) => {
    const wait = new HostWait(signal, closing, reject);
    onSharedAbort(closing, wait);
    if (signal !== undefined) onSharedAbort(signal, wait);
    work.then(
      (value) => {
        if (wait.done()) resolve(value);
      },
      (e: unknown) => {
        if (wait.done()) reject(e);
      },
    );
  });
}

/** One wait's listener on both signals; `done()` says whether the work settled first. */
class HostWait {
  readonly #signal: AbortSignal | undefined;
  readonly #closing: AbortSignal;
  readonly #reject: (e: unknown) => void;
  #settled = false;

  constructor(signal: AbortSignal | undefined, closing: AbortSignal, reject: (e: unknown) => void) {
    this.#signal = signal;
    this.#closing = closing;
    this.#reject = reject;
  }

  handleEvent(): void {
    if (!this.done()) return;
    this.#reject(new HostWaitEnded(this.#signal?.aborted === true ? "aborted" : "closed"));
  }

  /** Marks the wait settled and removes the listeners; false when it already was. */
  done(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    offSharedAbort(this.#closing, this);
    if (this.#signal !== undefined) offSharedAbort(this.#signal, this);
    return true;
  }
}

function ignore(): void {}

/**
 * The outcome of a call whose wait on a host callback ended early: `close()`
 * ends it with ERR_OMNIA_CLOSED (an outcome, recorded once); the caller's abort
 * is recorded and thrown as AbortedError (the deadline's TimeoutError is
 * recorded in its place, and `execute()` resolves that outcome).
 * @internal Does not follow semver.
 */
export function endedWait(rt: ExecutorRuntime, state: CallState, ended: HostWaitEnded, during: string): ReturnType<ExecutorRuntime["report"]["fail"]> {
  if (ended.why === "closed" && state.ctx.signal?.aborted !== true) return rt.report.fail(state, closedWhileInFlight(rt));
  const error = new AbortedError(`execute: the caller's signal aborted during ${during}`, { cause: state.ctx.signal?.reason });
  rt.report.fail(state, error);
  throw error;
}
