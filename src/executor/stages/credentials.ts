import type { CallState } from "../call-state.js";
import { resolveAuthHeaders, resolveSecretHeaders } from "../auth.js";
import type { ToolOutcome } from "../outcome.js";
import { asOmniaError } from "../report.js";
import type { ExecutorRuntime } from "../runtime.js";

/**
 * Stage 5, credentials and delegation: once per call, before the breaker, in
 * this order: the handler's own auth header, the delegation token, an http
 * handler's `headersFromSecret`. Each is re-resolved on every call, so a
 * rotated secret applies at once. A failure here fails the call with no
 * attempt and is never a breaker event. Nothing is awaited for a handler that
 * has none of them (most have none).
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
  return (async () => {
    try {
      if (needsAuth) state.auth = await resolveAuthHeaders(handler, rt.credentials, rt.workloadCache);
      if (delegates) state.delegationToken = await rt.delegation!({ toolName: state.toolName, handlerName: handler.name, identity: state.identity });
      if (needsSecrets) state.secretHeaders = await resolveSecretHeaders(handler.name, refs, rt.credentials.secrets);
    } catch (e) {
      return rt.report.fail(state, asOmniaError(e));
    }
    return undefined;
  })();
}

function hasKeys(object: object): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
  return false;
}
