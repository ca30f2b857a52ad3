import { toError } from "../core/index.js";
import type { HandlerConfig } from "../manifest/index.js";
import { runAttempt } from "../retry/index.js";
import { describeMcpStdioExit, stdioExitOf } from "../mcp/index.js";
import { resolveAuthHeaders } from "./auth.js";
import type { ExecutorRuntime } from "./runtime.js";
import type { HandlerHealth } from "./types.js";


/**
 * Probes one handler under the registry's `spec.probe.timeoutMs` (default 5 s),
 * with its own credentials and the executor's dispatcher. Never a breaker
 * event. Client handlers are not probed (their tools run in the client).
 * @internal Does not follow semver.
 */
export async function probeHandler(rt: ExecutorRuntime, handler: HandlerConfig): Promise<HandlerHealth> {
  const startedAt = rt.clock.now();
  const done = (healthy: boolean, detail: string): HandlerHealth => ({ handler: handler.name, handlerType: handler.type, healthy, detail, latencyMs: rt.clock.now() - startedAt });
  if (handler.type === "client") return done(true, "not probed: client tools run in the client");
  const probe = rt.backends[handler.type].probe;
  if (probe === undefined) return done(true, "not probed");
  let auth: Record<string, string>;
  try {
    auth = handler.auth === undefined ? {} : await resolveAuthHeaders(handler, rt.credentials, rt.workloadCache);
  } catch (e) {
    return done(false, toError(e).message);
  }
  const timeoutMs = rt.registry.probe.timeoutMs;
  const settled = await runAttempt((signal) => probe(handler, auth, signal), { clock: rt.clock, timeoutMs });
  switch (settled.kind) {
    case "success":
      return done(true, settled.value);
    case "timeout":
      return done(false, `health check failed: ${settled.error.message}`);
    default: {
      // A stdio MCP server that exited: how, and the end of its stderr (a wrong script path says so there).
      const exit = stdioExitOf(settled.error);
      return done(false, exit === undefined ? settled.error.message : `${settled.error.message} (${describeMcpStdioExit(exit)})`);
    }
  }
}
