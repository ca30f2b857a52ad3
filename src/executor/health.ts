import { toError } from "../core/index.js";
import type { HandlerConfig, HandlerType } from "../manifest/index.js";
import { runAttempt } from "../retry/index.js";
import { describeMcpStdioExit, stdioExitOf } from "../mcp/index.js";
import { resolveAuthHeaders } from "./auth.js";
import type { ExecutorRuntime } from "./runtime.js";

/**
 * The health of one handler, as {@link ToolExecutor.checkHealth} probed it.
 * @public
 */
export interface HandlerHealth {
  /** The handler's name. */
  readonly handler: string;
  /** The handler's type. */
  readonly handlerType: HandlerType;
  /** False when the probe failed: a 5xx, a transport error, a gRPC status other than SERVING, no MCP answer, a credential that could not be resolved, or the probe timeout. */
  readonly healthy: boolean;
  /**
   * What the probe saw: `HTTP 200`, `SERVING`, `ping ok`; for a failure Omnia's
   * texts, such as `health check: HTTP 503` or `health check failed: Head "http://…": dial tcp …: connect: connection refused`.
   * For a stdio MCP server that exited, the failure is followed by how it ended
   * and the end of its stderr: `… (the server exited with code 1; its stderr ended: <line> | <line>)`.
   */
  readonly detail: string;
  /** How long the probe took, in the executor's clock's milliseconds. */
  readonly latencyMs: number;
}

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
