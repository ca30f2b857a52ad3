import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../core/index.js";
import type { McpSdk } from "./sdk.js";
import type { ValidHandler } from "./session.js";

/**
 * The SDK transport of a handler: a child process for stdio (its stderr
 * logged at debug), or an HTTP transport (sse, streamable-http) whose every
 * request goes through `fetch`.
 */
export function createMcpTransport(sdk: McpSdk, handler: ValidHandler, fetch: FetchLike, logger: Logger): Transport {
  const config = handler.config;
  if (handler.kind === "stdio") {
    const env = config.env === undefined ? undefined : { ...config.env };
    const transport = new sdk.StdioClientTransport({
      command: config.command as string,
      args: [...(config.args ?? [])],
      ...(env === undefined ? {} : { env }),
      ...(config.workDir === undefined || config.workDir === "" ? {} : { cwd: config.workDir }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      logger.debug("mcp: stdio server stderr", { handler: handler.name, text: chunk.toString("utf8") });
    });
    return transport;
  }
  const url = handler.url as URL;
  if (handler.kind === "sse") {
    return new sdk.SSEClientTransport(url, { fetch, eventSourceInit: { fetch } });
  }
  // No background reconnection of the event stream: it would run on the SDK's
  // own timers. A broken session is replaced on the next call instead.
  return new sdk.StreamableHTTPClientTransport(url, {
    fetch,
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5 },
  });
}
