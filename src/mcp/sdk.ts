// The MCP SDK is loaded on the first connect, not at import: importing
// omnia-tools must stay cheap for hosts with no mcp handler (the SDK pulls in
// zod schemas, ajv, express and hono).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResultSchema, ErrorCode, ListToolsResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK classes and schemas the client uses.
 * @internal Does not follow semver.
 */
export interface McpSdk {
  readonly Client: typeof Client;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  readonly StreamableHTTPError: typeof StreamableHTTPError;
  readonly SSEClientTransport: typeof SSEClientTransport;
  readonly SseError: typeof SseError;
  readonly StdioClientTransport: typeof StdioClientTransport;
  /** The variables the SDK adds to every stdio child's environment. */
  readonly DEFAULT_INHERITED_ENV_VARS: readonly string[];
  /** Parses one stdio line into a JSON-RPC message, as the SDK's own read buffer does. */
  readonly deserializeMessage: typeof deserializeMessage;
  readonly McpError: typeof McpError;
  readonly ErrorCode: typeof ErrorCode;
  readonly CallToolResultSchema: typeof CallToolResultSchema;
  readonly ListToolsResultSchema: typeof ListToolsResultSchema;
}

/**
 * Loads the SDK modules (the module cache makes every later call cheap).
 * @internal Does not follow semver.
 */
export async function loadMcpSdk(): Promise<McpSdk> {
  const [client, streamable, sse, stdio, stdioShared, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    StreamableHTTPError: streamable.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StdioClientTransport: stdio.StdioClientTransport,
    DEFAULT_INHERITED_ENV_VARS: stdio.DEFAULT_INHERITED_ENV_VARS,
    deserializeMessage: stdioShared.deserializeMessage,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    CallToolResultSchema: types.CallToolResultSchema,
    ListToolsResultSchema: types.ListToolsResultSchema,
  };
}
