import { ClosedError } from "../../core/index.js";
import { logExecuteEnter } from "../../telemetry/index.js";
import { CallState } from "../call-state.js";
import { CallDeadline, checkDeadline } from "../deadline.js";
import type { CallContext, ToolCall, ToolOutcome } from "../outcome.js";
import type { ExecutorRuntime } from "../runtime.js";
import type { ToolCallHooks } from "../types.js";
import { runAttempts } from "./attempts.js";
import { handOffClientCall } from "./client-handoff.js";
import { resolveCredentials } from "./credentials.js";
import { checkArguments } from "./parse-arguments.js";
import { decidePolicy } from "./policy.js";
import { resolveTool } from "./resolve-tool.js";

/** The hooks of a refused call: its record says so. */
const REFUSED_HOOKS: ToolCallHooks = Object.freeze({ approval: "denied" as const });

/** What a stage returns: an outcome ends the call, undefined goes on. */
type Step = ToolOutcome | undefined | Promise<ToolOutcome | undefined>;

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | undefined)?.then === "function";
}

/** `next(state)` when `step` goes on (at once, or once its promise does), else the outcome `step` ended with. */
function thenStage(step: Step, state: CallState, next: (state: CallState) => ToolOutcome | Promise<ToolOutcome>): ToolOutcome | Promise<ToolOutcome> {
  if (step === undefined) return next(state);
  if (!isPromise(step)) return step;
  return step.then((s) => (s !== undefined ? s : next(state)));
}

/**
 * The executor's `execute`: Omnia's stages in order over `rt`. `isClosed`
 * says whether `close()` has run (a call then throws ClosedError).
 * @internal Does not follow semver.
 */
export function createStageChain(
  rt: ExecutorRuntime,
  isClosed: () => boolean,
  maxArgumentBytes: number,
): { execute: (call: ToolCall, ctx?: CallContext, hooks?: ToolCallHooks) => Promise<ToolOutcome>; refuse: (call: ToolCall, ctx: CallContext | undefined, reason: string) => Promise<ToolOutcome> } {
  const { clock, logger } = rt;
  /**
   * Omnia's order of stages. Each returns an outcome to end the call or
   * undefined to go on; a stage with nothing to wait for returns synchronously,
   * and only a promise is awaited (each await costs the call a microtask).
   */
  function execute(call: ToolCall, ctx: CallContext = {}, hooks?: ToolCallHooks): Promise<ToolOutcome> {
    return ctx?.timeoutMs === undefined ? runStages(call, ctx, hooks, undefined) : executeWithin(call, ctx, hooks);
  }

  /** A call a person refused: resolved and recorded `denied`, never handed to a client, a policy broker or a backend. */
  function refuse(call: ToolCall, ctx: CallContext | undefined, reason: string): Promise<ToolOutcome> {
    return runStages(call, ctx ?? {}, REFUSED_HOOKS, undefined, reason);
  }

  /**
   * A call with a deadline: the stages see the deadline's signal; an abandonment it caused resolves its outcome.
   * A `then`, not an async function: a suspended async frame stays on the heap while the call is in flight.
   */
  function executeWithin(call: ToolCall, ctx: CallContext, hooks: ToolCallHooks | undefined): Promise<ToolOutcome> {
    let deadline: CallDeadline;
    try {
      if (isClosed()) throw new ClosedError("execute: the executor is closed");
      deadline = new CallDeadline(clock, ctx, checkDeadline(ctx.timeoutMs));
    } catch (e) {
      return Promise.reject(e);
    }
    return runStages(call, deadline.ctx, hooks, deadline).then(
      (outcome) => {
        deadline.dispose();
        return outcome;
      },
      (e: unknown) => {
        const outcome = deadline.outcome;
        deadline.dispose();
        if (outcome !== undefined) return outcome;
        throw e;
      },
    );
  }

  /**
   * The stages in order, as a chain of `then`s rather than an async function: a call waiting on its
   * attempts holds no suspended frame. A stage that throws rejects the returned promise.
   */
  function runStages(call: ToolCall, ctx: CallContext, hooks: ToolCallHooks | undefined, deadline: CallDeadline | undefined, refusal?: string): Promise<ToolOutcome> {
    let out: ToolOutcome | Promise<ToolOutcome>;
    try {
      if (isClosed()) throw new ClosedError("execute: the executor is closed");
      logExecuteEnter(logger, call.name);
      const state = new CallState(call, ctx, clock.now(), maxArgumentBytes);
      if (hooks !== undefined) state.hooks = hooks;
      if (deadline !== undefined) state.deadline = deadline;
      if (refusal !== undefined) state.refusal = refusal;
      rt.report.started(state);
      out = thenStage(resolveTool(rt, state), state, afterResolve);
    } catch (e) {
      return Promise.reject(e);
    }
    return isPromise(out) ? out : Promise.resolve(out);
  }

  /** Stages 2 to 4 (arguments, client hand-off, policy), then the rest. */
  function afterResolve(state: CallState): ToolOutcome | Promise<ToolOutcome> {
    const refusal = state.refusal;
    if (refusal !== undefined) return rt.report.finish(state, { status: "denied", message: `Tool call rejected: ${refusal}`, reason: refusal }, refusal);
    let step: ToolOutcome | undefined;
    if ((step = checkArguments(rt.report, state)) !== undefined) return step;
    if ((step = handOffClientCall(rt, state)) !== undefined) return step;
    return thenStage(decidePolicy(rt, state), state, afterPolicy);
  }

  /** Stage 5 (credentials), then the attempts. */
  function afterPolicy(state: CallState): ToolOutcome | Promise<ToolOutcome> {
    return thenStage(resolveCredentials(rt, state), state, attempts);
  }

  function attempts(state: CallState): Promise<ToolOutcome> {
    return runAttempts(rt, state);
  }

  return { execute, refuse };
}
