import type { CallState } from "../call-state.js";
import { resolveAuthHeaders, resolveSecretHeaders } from "../auth.js";
import type { ToolOutcome } from "../outcome.js";
import { asOmniaError } from "../report.js";
import type { ExecutorRuntime } from "../runtime.js";
import { awaitHostCallback, endedWait, HostWaitEnded } from "../host-callback.js";

/**
 * Stage 5, credentials and delegation: once per call, before the breaker, in
 * this order: the handler's own auth header, the delegation token, an http
 * handler's `headersFromSecret`. Each is re-resolved on every call, so a
 * rotated secret applies at once. A failure here fails the call with no
 * attempt and is never a breaker event. Nothing is awaited for a handler that
 * has none of them (most have none). A resolver that never settles is
 * bounded like every other wait: the caller's abort and the `timeoutMs`
 * deadline end the call as in the policy stage, `close()` ends it
 * `ERR_OMNIA_CLOSED`.
 * @internal Does not follow semver.
 */
export function resolveCredentials(rt: ExecutorRuntime, state: CallState): undefined | Promise<ToolOutcome | undefined> {
  const handler = state.resolvedHandler;
  if (handler.type === "platform") return undefined;
  const needsAuth = handler.auth !== undefined;
  const delegates = handler.delegation?.enabled === true && rt.delegation !== undefined;
  const refs = handler.type === "http" ? handler.httpConfig.headersFromSecret : undefined;
  const needsSecrets = refs !== undefined && hasKeys(refs);
  if (!needsAuth && !delegates && !needsSecrets) return undefined;
  // Each step stops once the call is over, so a late answer starts no further callback.
  const over = (): boolean => rt.closing.aborted || state.ctx.signal?.aborted === true;
  const work = (async () => {
    if (needsAuth) state.auth = await resolveAuthHeaders(handler, rt.credentials, rt.workloadCache);
    if (delegates && !over()) {
      const token: unknown = await rt.delegation!({ toolName: state.toolName, handlerName: handler.name, identity: state.identity });
      if (typeof token !== "string") throw new TypeError(`the delegation source returned ${token === null ? "null" : typeof token}, not a string`);
      state.delegationToken = token;
    }
    if (needsSecrets && !over()) state.secretHeaders = await resolveSecretHeaders(handler.name, refs, rt.credentials.secrets);
  })();
  // A resolver that never settles holds the call no longer than its signal, its deadline or close().
  return awaitHostCallback(rt, state, work).then(
    () => undefined,
    (e: unknown) => (HostWaitEnded.is(e) ? endedWait(rt, state, e, "credential resolution") : rt.report.fail(state, asOmniaError(e))),
  );
}

function hasKeys(object: object): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
  return false;
}
