import { AbortedError } from "../../core/index.js";
import { decide, PolicyDeniedError } from "../../policy/index.js";
import { logPolicyCall, logPolicyDecision, logPolicyDenied } from "../../telemetry/index.js";
import type { CallState } from "../call-state.js";
import { buildDecisionRequest } from "../decision-request.js";
import type { ToolOutcome } from "../outcome.js";
import type { ExecutorRuntime } from "../runtime.js";
import { awaitHostCallback, endedWait, HostWaitEnded } from "../host-callback.js";

/**
 * Stage 4, the policy decision: once per server call, before any backend call
 * and outside the retry loop. A denial ends the call `denied`
 * (`tool call denied by policy: <reason>`); an allow may inject headers and, in
 * audit mode, leaves the broker's would-deny on the record. A caller abort
 * during the decision abandons the call: recorded, then thrown as
 * `AbortedError`, never a denial; so does the call's `timeoutMs` deadline
 * (recorded as its TimeoutError), and `close()` ends it `ERR_OMNIA_CLOSED`,
 * even when the policy function never settles.
 * @internal Does not follow semver.
 */
export function decidePolicy(rt: ExecutorRuntime, state: CallState): undefined | Promise<ToolOutcome | undefined> {
  const policy = rt.policy;
  if (policy === undefined) return undefined;
  const { ctx } = state;
  logPolicyCall(rt.logger, state.toolName, rt.registry.name ?? state.resolvedHandler.name, true);
  const request = buildDecisionRequest({ toolName: state.toolName, handler: state.resolvedHandler, registry: rt.registry, identity: ctx.identity, agent: rt.agent, args: state.args, logger: rt.logger });
  // A policy that never settles holds the call no longer than its signal, its deadline or close().
  return awaitHostCallback(rt, state, decide(policy, request, ctx.signal, rt.logger)).then((decision) => {
    if (ctx.signal?.aborted === true) {
      const error = new AbortedError("execute: the caller's signal aborted during the policy decision", { cause: ctx.signal.reason });
      rt.report.fail(state, error);
      throw error;
    }
    logPolicyDecision(rt.logger, state.toolName, decision.allow, decision.allow && decision.audit !== undefined, decision.allow ? (decision.audit?.deniedBy ?? "") : "");
    if (!decision.allow) {
      const error = new PolicyDeniedError(decision.reason);
      logPolicyDenied(rt.logger, state.toolName, error.message);
      return rt.report.finish(state, { status: "denied", message: error.message, reason: decision.reason }, undefined, error);
    }
    state.injected = decision.headers;
    state.audit = decision.audit;
    return undefined;
  }, (e: unknown) => {
    if (HostWaitEnded.is(e)) return endedWait(rt, state, e, "the policy decision");
    throw e;
  });
}
