import { connect } from "node:net";
import { ErrorCode, OmniaToolsError, type Clock } from "../core/index.js";
import type { HandlerConfig } from "../manifest/index.js";

/** How long the reachability dial may take, in ms. */
export const SANDBOX_DIAL_TIMEOUT_MS = 2_000;

/**
 * A sandbox claim already proven reachable in the conversation did not answer
 * the dial before a call: `sandbox <claim> unreachable: <reason>`. The call
 * fails at once, without retries (the reachability check of Omnia's "Tool backend protocol" docs page).
 * @public
 */
export class SandboxUnreachableError extends OmniaToolsError {
  static override readonly code = ErrorCode.SANDBOX_UNREACHABLE;
  declare readonly code: typeof ErrorCode.SANDBOX_UNREACHABLE;
  readonly claim: string;
  constructor(claim: string, reason: string) {
    super(`sandbox ${claim} unreachable: ${reason}`);
    this.claim = claim;
  }
}

/**
 * The host and port a sandbox handler's calls go to, for the reachability dial.
 * @internal Does not follow semver.
 */
export function sandboxTarget(handler: HandlerConfig): { host: string; port: number } | undefined {
  let text: string | undefined;
  switch (handler.type) {
    case "http":
      text = handler.httpConfig.urlTemplate ?? handler.httpConfig.endpoint;
      break;
    case "grpc":
      text = handler.grpcConfig.endpoint.includes("://") ? handler.grpcConfig.endpoint : `http://${handler.grpcConfig.endpoint}`;
      break;
    case "mcp":
      text = handler.mcpConfig.endpoint;
      break;
    case "openapi":
      text = handler.openAPIConfig.baseURL ?? handler.openAPIConfig.specURL;
      break;
    default:
      return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const url = new URL(text.replace(/\{[^}]*\}/g, "x"));
    const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return { host: url.hostname.replace(/^\[|\]$/g, ""), port };
  } catch {
    return undefined;
  }
}

/**
 * Dials `host:port` once over TCP, bounded by `timeoutMs` on the clock; the
 * socket is closed as soon as it connects. Resolves `undefined` when it
 * connected, else the reason.
 * @internal Does not follow semver.
 */
export function dialOnce(target: { host: string; port: number }, clock: Clock, timeoutMs = SANDBOX_DIAL_TIMEOUT_MS, signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: target.host, port: target.port });
    let done = false;
    const finish = (reason: string | undefined): void => {
      if (done) return;
      done = true;
      timer.clear();
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(reason);
    };
    const onAbort = (): void => finish("the caller's signal aborted");
    const timer = clock.setTimeout(() => finish(`dial tcp ${target.host}:${target.port}: i/o timeout`), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => finish(undefined));
    socket.once("error", (e: NodeJS.ErrnoException) =>
      finish(e.code === "ECONNREFUSED" ? `dial tcp ${target.host}:${target.port}: connect: connection refused` : `dial tcp ${target.host}:${target.port}: ${e.message}`),
    );
  });
}
