// MCP revision 2026-07-28 (no `initialize`; `server/discover` and a `_meta`
// envelope on every request), spoken only to a server that refuses the older
// revisions. Omnia's runtime speaks the older ones: every server that answers
// `initialize` is spoken to exactly as before, and only a server whose answer
// to `initialize` is "unsupported protocol version, supported: [2026-07-28]"
// gets a session on the newer revision, through the SDK's 2.x client, loaded
// then and not before.
import type { Client, SdkError, SdkErrorCode, SdkHttpError, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { McpSdk } from "./sdk.js";
import { McpResultShapeError } from "./error-text.js";

/**
 * The MCP revision the client falls back to for a server that speaks nothing
 * older. Servers that answer `initialize` are spoken to on the revision they
 * negotiate there, as Omnia's runtime does.
 * @public
 */
export const MCP_MODERN_REVISION = "2026-07-28";

/** JSON-RPC's "unsupported protocol version", with `data.supported` and `data.requested`. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** An answer naming the supported revisions is small; a larger 400 body is not parsed. */
const MAX_REFUSAL_BYTES = 64 * 1024;

/**
 * The 2.x client's classes the newer revision uses.
 * @internal Does not follow semver.
 */
export interface ModernMcpSdk {
  readonly Client: typeof Client;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  readonly ProtocolError: typeof ProtocolError;
  readonly SdkError: typeof SdkError;
  readonly SdkHttpError: typeof SdkHttpError;
  readonly SdkErrorCode: typeof SdkErrorCode;
}

/**
 * Loads `@modelcontextprotocol/client` (2.x): only when a server refused the
 * older revisions.
 * @internal Does not follow semver.
 */
export async function loadModernMcpSdk(): Promise<ModernMcpSdk> {
  const m = await import("@modelcontextprotocol/client");
  return {
    Client: m.Client,
    StreamableHTTPClientTransport: m.StreamableHTTPClientTransport,
    ProtocolError: m.ProtocolError,
    SdkError: m.SdkError,
    SdkHttpError: m.SdkHttpError,
    SdkErrorCode: m.SdkErrorCode,
  };
}

/**
 * Whether `initialize` failed because the server speaks only revisions from
 * 2026-07-28 on: it answered JSON-RPC `-32022` (over stdio, or as the body of
 * an HTTP 400) and its `data.supported` names {@link MCP_MODERN_REVISION}.
 * Anything else (another code, another list, a body that is not that answer)
 * is the failure it was.
 */
export function refusesOlderRevisions(error: unknown, sdk: McpSdk): boolean {
  let answer: { code?: unknown; data?: unknown } | undefined;
  if (error instanceof sdk.McpError) {
    answer = { code: error.code, data: error.data };
  } else if (error instanceof sdk.StreamableHTTPError && error.code === 400) {
    // The 1.x transport puts the 400's body in its message: `Streamable HTTP error: Error POSTing to endpoint: <body>`.
    const at = error.message.indexOf("Error POSTing to endpoint: ");
    const body = at < 0 ? "" : error.message.slice(at + "Error POSTing to endpoint: ".length);
    if (body.length === 0 || body.length > MAX_REFUSAL_BYTES) return false;
    try {
      answer = (JSON.parse(body) as { error?: { code?: unknown; data?: unknown } } | null)?.error;
    } catch {
      return false;
    }
  }
  if (typeof answer !== "object" || answer === null || answer.code !== UNSUPPORTED_PROTOCOL_VERSION) return false;
  const supported = (answer.data as { supported?: unknown } | null | undefined)?.supported;
  return Array.isArray(supported) && supported.includes(MCP_MODERN_REVISION);
}

/**
 * A 2.x client's failure in the 1.x shapes the rest of the client reads, so
 * that a failure reads the same on either revision: a JSON-RPC error becomes
 * `MCP error <code>: <message>`, an HTTP error `Streamable HTTP error: <message>`
 * with its status, a closed connection `MCP error -32000: Connection closed`;
 * a result it cannot use (`input_required`, an unknown `resultType`, a bad
 * shape) an error that leaves the session up, as a result that does not parse
 * does on the older revisions. The 2.x error stays the cause. Anything else is
 * returned as it is.
 */
export function asLegacyError(error: unknown, modern: ModernMcpSdk, sdk: McpSdk): unknown {
  if (error instanceof modern.ProtocolError) {
    return Object.assign(new sdk.McpError(error.code, error.message, error.data), { cause: error });
  }
  if (error instanceof modern.SdkHttpError) {
    return Object.assign(new sdk.StreamableHTTPError(error.status, error.message), { cause: error });
  }
  if (error instanceof modern.SdkError && error.code === modern.SdkErrorCode.ConnectionClosed) {
    return Object.assign(new sdk.McpError(sdk.ErrorCode.ConnectionClosed, "Connection closed"), { cause: error });
  }
  if (error instanceof modern.SdkError && error.code === modern.SdkErrorCode.UnsupportedResultType) {
    // `Unsupported result type 'input_required' for tools/call`, without the SDK's advice to its own callers.
    return new McpResultShapeError(error.message.split(": ")[0] ?? error.message);
  }
  if (error instanceof modern.SdkError && error.code === modern.SdkErrorCode.InvalidResult) {
    return new McpResultShapeError(error.message, { cause: error });
  }
  return error;
}
