import { Code, ConnectError } from "@connectrpc/connect";
import type { Clock } from "../core/index.js";

/**
 * A cancellable scope with an optional deadline, the TS stand-in for Go's
 * `context.WithTimeout`: its signal aborts when the deadline passes (reason: a
 * `DeadlineExceeded` ConnectError `context deadline exceeded`, so an RPC cut by it
 * reports the code and text a Go deadline would), when the parent scope aborts (with the
 * parent's reason), or when it is disposed (`Canceled`, like Go's deferred
 * `cancel()`, which tears down a probe stream that is still open).
 * @internal Does not follow semver.
 */
export interface Scope {
  readonly signal: AbortSignal;
  /** The clock time at which the scope expires; `Infinity` when it has no deadline. */
  readonly deadlineAt: number;
  /**
   * What to pass as connect's `timeoutMs`, so the deadline also goes on the wire
   * as `grpc-timeout`: the time left, or `undefined` without a deadline.
   */
  timeoutMs(): number | undefined;
  /** Clears the timer, detaches from the parent and aborts. Idempotent. */
  dispose(): void;
}

/**
 * Opens a scope that expires `ms` after now (clamped to the parent's deadline;
 * `Infinity` for none), timed on `clock`.
 * @internal Does not follow semver.
 */
export function openScope(clock: Clock, ms: number, parent?: Scope | AbortSignal): Scope {
  const controller = new AbortController();
  const parentSignal = parent === undefined ? undefined : "signal" in parent ? parent.signal : parent;
  const parentDeadline = parent !== undefined && "deadlineAt" in parent ? parent.deadlineAt : Infinity;
  const deadlineAt = Math.min(parentDeadline, clock.now() + ms);
  const onParentAbort = () => controller.abort(parentSignal?.reason);
  const timer = Number.isFinite(ms) ? clock.setTimeout(() => controller.abort(new ConnectError("context deadline exceeded", Code.DeadlineExceeded)), ms) : undefined;
  if (parentSignal?.aborted === true) onParentAbort();
  else parentSignal?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    deadlineAt,
    timeoutMs() {
      if (!Number.isFinite(deadlineAt)) return undefined;
      return Math.max(1, Math.ceil(deadlineAt - clock.now()));
    },
    dispose() {
      timer?.clear();
      parentSignal?.removeEventListener("abort", onParentAbort);
      if (!controller.signal.aborted) controller.abort(new ConnectError("probe finished", Code.Canceled));
    },
  };
}
