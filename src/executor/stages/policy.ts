import { AbortedError } from "../../core/index.js";
import { decide, PolicyDeniedError } from "../../policy/index.js";
import { logPolicyCall, logPolicyDecision, logPolicyDenied } from "../../telemetry/index.js";
import type { CallState } from "../call-state.js";
import { buildDecisionRequest } from "../decision-request.js";
import type { ToolOutcome } from "../outcome.js";
import type { ExecutorRuntime } from "../runtime.js";

/**
 * Stage 4, the policy decision: once per server call, before any backend call
 * and outside the retry loop. A denial ends the call `denied`
 * (`tool call denied by policy: <reason>`); an allow may inject headers and, in
 * audit mode, leaves the broker's would-deny on the record. A caller abort
 * during the decision abandons the call: recorded, then thrown as
 * `AbortedError`, never a denial.
 * @internal Does not follow semver.
 */
export function decidePolicy(rt: ExecutorRuntime, state: CallState): undefined | Promise<ToolOutcome | undefined> {
  const policy = rt.policy;
  if (policy === undefined) return undefined;
  const { ctx } = state;
  logPolicyCall(rt.logger, state.toolName, rt.registry.name ?? state.resolvedHandler.name, true);
  const request = buildDecisionRequest({ toolName: state.toolName, handler: state.resolvedHandler, registry: rt.registry, identity: ctx.identity, agent: rt.agent, args: state.args, logger: rt.logger });
  return decide(policy, request, ctx.signal, rt.logger).then((decision) => {
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
  });
}
