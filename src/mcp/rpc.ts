// The requests a session sends, on either revision: the 1.x SDK client for
// every server that answers `initialize` (the same JSON-RPC messages as
// Omnia's runtime), the 2.x client pinned to 2026-07-28 for a server that
// answers nothing older. Failures of the 2.x client reach the caller in the
// 1.x shapes (see `asLegacyError`), so texts and classification are one.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import type { McpCallToolResultFields } from "./result.js";
import type { McpSdk } from "./sdk.js";
import { asLegacyError, MCP_MODERN_REVISION, type ModernMcpSdk } from "./modern.js";

/**
 * How the client introduces itself (in `initialize`, and in the `_meta`
 * envelope of revision 2026-07-28), as Omnia's runtime does.
 * @public
 */
export const MCP_CLIENT_INFO = Object.freeze({ name: "omnia-runtime", version: "v1.0.0" });

/**
 * The SDK arms its own 60 s request timer unless given one (a hidden fixed
 * timeout callers cannot see): the largest delay `setTimeout` accepts disables
 * it, and our timeouts run on the injected clock instead.
 */
export const NO_SDK_TIMEOUT_MS = 2_147_483_647;

const ACCEPT_ALL_VALIDATOR = {
  // Omnia's Go client does not validate structured content against a tool's
  // outputSchema; neither do we (and no ajv instance is built per session).
  getValidator: () => (input: unknown) => ({ valid: true as const, data: input as never, errorMessage: undefined }),
};

/** One page of `tools/list`, as the server sent it. */
export interface ToolPage {
  readonly tools: readonly { readonly name: string; readonly description?: string | undefined; readonly inputSchema: unknown; readonly outputSchema?: unknown }[];
  readonly nextCursor?: string | undefined;
}

/** What a session's transport reports: it closed, or it failed. */
export interface RpcEvents {
  onclose(): void;
  onerror(error: Error): void;
}

/** The requests of one session. */
export interface SessionRpc {
  /** `legacy`: opened with `initialize`; `2026-07-28`: opened with `server/discover`. */
  readonly revision: "legacy" | typeof MCP_MODERN_REVISION;
  connect(signal: AbortSignal): Promise<void>;
  listTools(cursor: string | undefined, signal: AbortSignal): Promise<ToolPage>;
  callTool(params: { readonly name: string; readonly arguments: Record<string, unknown> }, signal: AbortSignal): Promise<McpCallToolResultFields>;
  /** `ping` on the older revisions; `server/discover` on 2026-07-28, which has no `ping`. */
  ping(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** A session on the revision `initialize` negotiates, through the 1.x SDK client. */
export function legacyRpc(sdk: McpSdk, transport: Transport, events: RpcEvents): SessionRpc {
  const client = new sdk.Client({ ...MCP_CLIENT_INFO }, { capabilities: {}, jsonSchemaValidator: ACCEPT_ALL_VALIDATOR });
  client.onclose = () => events.onclose();
  client.onerror = (error) => events.onerror(error);
  return {
    revision: "legacy",
    connect: (signal) => client.connect(transport, { signal, timeout: NO_SDK_TIMEOUT_MS }),
    listTools: (cursor, signal) =>
      client.request({ method: "tools/list", ...(cursor === undefined ? {} : { params: { cursor } }) }, sdk.ListToolsResultSchema, { signal, timeout: NO_SDK_TIMEOUT_MS }),
    callTool: (params, signal) => client.request({ method: "tools/call", params }, sdk.CallToolResultSchema, { signal, timeout: NO_SDK_TIMEOUT_MS }),
    ping: async (signal) => {
      await client.ping({ signal, timeout: NO_SDK_TIMEOUT_MS });
    },
    close: () => client.close(),
  };
}

/**
 * A session on revision 2026-07-28, through the 2.x SDK client pinned to it:
 * `server/discover` opens it, and the client puts the `_meta` envelope on every
 * request. A result that asks for input (`input_required`) is a failure: the
 * runtime has nobody to ask.
 */
export function modernRpc(sdk: McpSdk, modern: ModernMcpSdk, transport: Transport, events: RpcEvents): SessionRpc {
  const client: ModernClient = new modern.Client(
    { ...MCP_CLIENT_INFO },
    {
      capabilities: {},
      jsonSchemaValidator: ACCEPT_ALL_VALIDATOR,
      versionNegotiation: { mode: { pin: MCP_MODERN_REVISION } },
      inputRequired: { autoFulfill: false },
    },
  );
  client.onclose = () => events.onclose();
  client.onerror = (error) => events.onerror(error);
  const legacyShaped = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw asLegacyError(error, modern, sdk);
    }
  };
  const options = (signal: AbortSignal) => ({ signal, timeout: NO_SDK_TIMEOUT_MS });
  return {
    revision: MCP_MODERN_REVISION,
    // The 1.x transports (stdio) and the 2.x one (HTTP) have the same shape.
    connect: (signal) => legacyShaped(() => client.connect(transport as unknown as Parameters<ModernClient["connect"]>[0], options(signal))),
    listTools: (cursor, signal) => legacyShaped(() => client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, options(signal))),
    callTool: (params, signal) => legacyShaped(() => client.request({ method: "tools/call", params: { ...params } }, options(signal))),
    ping: (signal) =>
      legacyShaped(async () => {
        await client.discover(options(signal));
      }),
    // Until server/discover is answered the 2.x client does not own the transport: its close() would not reach
    // a stdio child or a POST still waiting, so the transport is closed here too.
    close: () =>
      legacyShaped(async () => {
        try {
          await client.close();
        } finally {
          await transport.close();
        }
      }),
  };
}
