import { offSharedAbort, onSharedAbort, runRetryLoop, type RetryEnd, type RetryResult } from "../../retry/index.js";
import type { BackendCall, BackendSuccess, PreparedCall } from "../../backends/index.js";
import { logDispatchEnter } from "../../telemetry/index.js";
import type { CallState } from "../call-state.js";
import type { ToolOutcome } from "../outcome.js";
import { asOmniaError } from "../report.js";
import type { ExecutorRuntime } from "../runtime.js";
import { closedWhileInFlight } from "../host-callback.js";
import { dialOnce, SandboxUnreachableError, SANDBOX_DIAL_TIMEOUT_MS, sandboxTarget } from "../sandbox.js";

/**
 * Stage 6, the attempts: the handler type's backend prepares the call, then
 * the retry loop runs attempts of (attempt timeout → breaker → backend
 * attempt); the backend's interpretation of each decides success, failure
 * and whether to retry. A breaker rejection is not counted as an attempt.
 *
 * A handler with a `sandbox` block reaches a different sandbox in each
 * conversation: its breaker and reachability are the conversation's, keyed by
 * the handler name. A sandbox already proven reachable in the conversation is
 * dialled once before the call; a dead one fails the call at once, with no
 * retry and no breaker event. Without a conversation, the tool's breaker applies.
 *
 * A caller abort abandons the call: recorded, then thrown to the host.
 *
 * A chain of `then`s, not an async function: a suspended async frame stays on the heap for as long
 * as the call is in flight. Whatever a step throws rejects the returned promise.
 * @internal Does not follow semver.
 */
export function runAttempts(rt: ExecutorRuntime, state: CallState): Promise<ToolOutcome> {
  try {
    const handler = state.resolvedHandler;
    const { ctx } = state;
    if (handler.type === "client") throw new TypeError("runAttempts: client calls are handed off");
    const claim = handler.type !== "platform" && handler.sandbox !== undefined && ctx.conversation !== undefined ? handler.name : undefined;
    // Platform tools run in this process: no breaker.
    state.breaker = handler.type === "platform" ? undefined : claim === undefined ? rt.breakers.get(state.toolName) : ctx.conversation!.breakers.get(claim);

    let prepared: PreparedCall;
    try {
      // The state is the backend's view of the call: its handler is set (resolved above).
      prepared = rt.backends[handler.type].prepare(state as BackendCall);
    } catch (e) {
      return Promise.resolve(rt.report.fail(state, asOmniaError(e)));
    }

    if (claim !== undefined && ctx.conversation!.reachability.isProven(claim)) {
      const target = handler.type === "platform" ? undefined : sandboxTarget(handler);
      if (target !== undefined) {
        return dialOnce(target, rt.clock, SANDBOX_DIAL_TIMEOUT_MS, ctx.signal).then((reason) =>
          reason !== undefined ? rt.report.fail(state, new SandboxUnreachableError(claim, reason)) : dispatch(rt, state, prepared, claim),
        );
      }
    }
    return dispatch(rt, state, prepared, claim);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The retry loop over the attempts of `prepared`, and the outcome it ends with. */
function dispatch(rt: ExecutorRuntime, state: CallState, prepared: PreparedCall, claim: string | undefined): Promise<ToolOutcome> {
  const { ctx } = state;
  logDispatchEnter(rt.logger, state.toolName, state.resolvedHandler.type);
  // The attempts and backoff sleeps end at the caller's abort or at close(), whichever comes first.
  const link = ctx.signal === undefined ? undefined : linkSignals(ctx.signal, rt.closing);
  const signal = link?.signal ?? rt.closing;
  // One object is the loop's end (settle, thrown), and the call state counts the attempts that got past the breaker
  // (a rejection throws before the count): no closures per call.
  const end = new DispatchEnd(rt, state, claim, link);
  try {
    const span = state.span;
    return span === undefined
      ? runRetryLoop<BackendSuccess, ToolOutcome>(prepared, { policy: prepared.policy, clock: rt.clock, random: rt.random, logger: rt.logger, signal, counter: state }, end)
      : // The attempts run with the tool span active, so a host's HTTP or gRPC instrumentation nests under it.
        span.run(() =>
          runRetryLoop<BackendSuccess, ToolOutcome>(prepared, { policy: prepared.policy, clock: rt.clock, random: rt.random, logger: rt.logger, signal, counter: state, observer: span }, end),
        );
  } catch (e) {
    try {
      return Promise.resolve(end.thrown(e));
    } catch (rethrown) {
      return Promise.reject(rethrown);
    }
  }
}

/** How the retry loop's end becomes the call's outcome. */
class DispatchEnd implements RetryEnd<BackendSuccess, ToolOutcome> {
  readonly #rt: ExecutorRuntime;
  readonly #state: CallState;
  readonly #claim: string | undefined;
  readonly #link: { dispose(): void } | undefined;

  constructor(rt: ExecutorRuntime, state: CallState, claim: string | undefined, link: { dispose(): void } | undefined) {
    this.#rt = rt;
    this.#state = state;
    this.#claim = claim;
    this.#link = link;
  }

  settle(result: RetryResult<BackendSuccess>): ToolOutcome {
    const rt = this.#rt;
    const state = this.#state;
    const ctx = state.ctx;
    this.#link?.dispose();
    // An attempt that saw its client or agent close under it: the same ERR_OMNIA_CLOSED outcome.
    if (result.status !== "success" && rt.closing.aborted && ctx.signal?.aborted !== true) return rt.report.fail(state, closedWhileInFlight(rt));
    if (result.status === "success") {
      if (this.#claim !== undefined) ctx.conversation!.reachability.markProven(this.#claim);
      return rt.report.finish(state, { status: "success", ...result.value });
    }
    return rt.report.fail(state, asOmniaError(result.error));
  }

  thrown(e: unknown): ToolOutcome {
    const rt = this.#rt;
    const state = this.#state;
    this.#link?.dispose();
    // close() ended the call: an outcome (ERR_OMNIA_CLOSED), recorded once; only the caller's own abort throws.
    if (rt.closing.aborted && state.ctx.signal?.aborted !== true) return rt.report.fail(state, closedWhileInFlight(rt));
    rt.report.fail(state, asOmniaError(e));
    throw e;
  }
}


/** A signal that aborts with the first of `a` and `b`; `dispose()` removes its listeners (call it when the call settles). */
function linkSignals(a: AbortSignal, b: AbortSignal): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (a.aborted) controller.abort(a.reason);
  else if (b.aborted) controller.abort(b.reason);
  const onA = (): void => controller.abort(a.reason);
  const onB = (): void => controller.abort(b.reason);
  onSharedAbort(a, onA);
  onSharedAbort(b, onB);
  return {
    signal: controller.signal,
    dispose() {
      offSharedAbort(a, onA);
      offSharedAbort(b, onB);
    },
  };
}
