import type { OpenApiHandlerConfig } from "../manifest/index.js";
import { buildOpenApiRequest, sendOpenApiRequest } from "../openapi/index.js";
import type { AttemptAbort } from "../retry/index.js";
import { UnknownToolError } from "../core/index.js";
import type { Backend, BackendCall, BackendEnv, PreparedCall } from "./backend.js";
import { credentialHeaderNames, httpAttempt, probeHttp, type HttpExchange } from "./http.js";
import { httpRetrySetup } from "./retry-setup.js";

/**
 * The `openapi` backend: the discovered operation's request, built once per
 * call, sent per attempt over the same HTTP attempt (breaker, timeout,
 * classification) as `http`.
 * @internal Does not follow semver.
 */
export function createOpenApiBackend(env: BackendEnv): Backend {
  return {
    // Omnia probes an openapi handler like an http one: HEAD its endpoint (the spec URL).
    probe: (handler, auth, signal) => probeHttp(env, handler.endpoint, auth, signal),
    prepare(call: BackendCall): PreparedCall {
      const handler = call.handler as OpenApiHandlerConfig;
      const operation = call.operation;
      if (operation === undefined) throw new UnknownToolError(`tool ${JSON.stringify(call.toolName)} not found`);
      const context = { identity: call.identity, agent: env.agent, auth: call.auth, injected: call.injected, delegationToken: call.delegationToken, logger: env.logger };
      // Built once per call: arguments it cannot shape fail the call before any attempt (no breaker event).
      const request = buildOpenApiRequest(operation, call.rawArgs, context);
      if (call.injectTrace !== undefined) call.injectTrace(request.headers as Record<string, string>);
      const sensitiveHeaders = credentialHeaderNames(handler.openAPIConfig.headers, call.auth, call.injected);
      const exchange = async (abort: AttemptAbort): Promise<HttpExchange> => {
        const out = await sendOpenApiRequest(env.dispatcher(), request, sensitiveHeaders === undefined ? { abort } : { abort, sensitiveHeaders });
        const raw = out.response.headers["retry-after"];
        return { status: out.response.status, retryAfter: Array.isArray(raw) ? raw[0] : raw, interpretation: out.interpretation };
      };
      const setup = httpRetrySetup(handler.openAPIConfig.retryPolicy);
      const deps = { breaker: call.breaker!, clock: env.clock, timeoutMs: handler.timeoutMs, rules: setup.rules, logger: env.logger, toolName: call.toolName };
      return { policy: setup.policy, attempt: (signal) => httpAttempt(exchange, deps, signal) };
    },
  };
}
