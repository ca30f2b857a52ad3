import { NO_CLIENT_REASON, type ClientToolRequest } from "../../client-tools/index.js";
import { DuplicateCallIdError } from "../../core/index.js";
import type { CallState } from "../call-state.js";
import type { ToolOutcome } from "../outcome.js";
import type { ExecutorRuntime } from "../runtime.js";

/**
 * Stage 3, hand a client tool off: without a client that can answer
 * (`ctx.clientToolsAvailable` not true), it is denied at once; otherwise it
 * becomes pending and the host gets the request to forward; if the call's
 * signal aborts before the client answers, it is recorded denied (`the client
 * never answered`). Client tools pass
 * no policy decision and no backend: the client executes them.
 * @internal Does not follow semver.
 */
export function handOffClientCall(rt: ExecutorRuntime, state: CallState): ToolOutcome | undefined {
  const handler = state.resolvedHandler;
  if (handler.type !== "client") return undefined;
  if (state.ctx.clientToolsAvailable !== true) {
    return rt.report.finish(state, { status: "denied", message: `Tool rejected: ${NO_CLIENT_REASON}`, reason: NO_CLIENT_REASON }, NO_CLIENT_REASON);
  }
  const { callId, rawArgs } = state;
  // One record per call: a reused id is refused, never allowed to replace (and so lose) the pending call.
  if (rt.pending.has(callId)) return rt.report.fail(state, new DuplicateCallIdError(`tool call id ${JSON.stringify(callId)} is already pending a client result`));
  const request: ClientToolRequest = {
    callId,
    name: state.toolName,
    argumentsJson: typeof rawArgs === "string" && rawArgs !== "" ? rawArgs : JSON.stringify(state.args ?? null),
    ...(handler.clientConfig.consentMessage === undefined ? {} : { consentMessage: handler.clientConfig.consentMessage }),
    ...(handler.clientConfig.categories.length === 0 ? {} : { categories: handler.clientConfig.categories }),
  };
  // The caller's signal ending before the client answered (a runtime's Converse stream closed) is a refusal:
  // recorded denied at once, as the safety timeout's expiry is.
  rt.pending.add(
    callId,
    state,
    (pendingState, reason) => {
      rt.report.finish(pendingState, { status: "denied", message: `Tool rejected: ${reason}`, reason }, reason);
    },
    state.ctx.signal,
  );
  return rt.report.handedOff(state, request);
}
