import type { JsonObject } from "../core/index.js";

/**
 * The MCP transports a handler can use (`mcpConfig.transport`).
 * @public
 */
export type McpTransportKind = "sse" | "streamable-http" | "stdio";

/**
 * `mcpConfig.toolFilter`: a non-empty `allowlist` serves exactly those names
 * (the blocklist is then ignored); otherwise every tool not in `blocklist`.
 * Exact, case-sensitive matches.
 * @public
 */
export interface McpToolFilter {
  readonly allowlist?: readonly string[] | undefined;
  readonly blocklist?: readonly string[] | undefined;
}

/**
 * The connection part of a normalised `mcpConfig`. The manifest's `McpConfig`
 * satisfies it.
 * @public
 */
export interface McpConnectionConfig {
  readonly transport: McpTransportKind;
  /** The server URL; required for `sse` and `streamable-http`. */
  readonly endpoint?: string | undefined;
  /** The program to start; required for `stdio`. Looked up on `PATH`. */
  readonly command?: string | undefined;
  /** Arguments of `command`. */
  readonly args?: readonly string[] | undefined;
  /**
   * Environment of the child process, added to the MCP SDK's safe default set
   * (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`); the rest of this
   * process's environment is not inherited.
   */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Working directory of the child process. Default: this process's. */
  readonly workDir?: string | undefined;
  readonly toolFilter?: McpToolFilter | undefined;
}

/**
 * The parts of an `mcp` handler the MCP client needs. The manifest's
 * `McpHandlerConfig` satisfies it.
 * @public
 */
export interface McpHandlerInput {
  /** The handler name, used in error messages and logs. */
  readonly name: string;
  /**
   * The handler's `auth` stanza. Only its presence is read here: auth is not
   * supported on a `stdio` handler. Resolve the credential yourself and pass
   * it through `McpToolClientOptions.headers`.
   */
  readonly auth?: unknown;
  readonly mcpConfig: McpConnectionConfig;
}

/**
 * A tool the MCP server serves (after the tool filter), as `tools/list`
 * described it. The name is the server's own, unprefixed.
 * @public
 */
export interface McpToolDescriptor {
  readonly name: string;
  /** The server's description; `""` when it gave none. */
  readonly description: string;
  /** The server's input JSON Schema, verbatim. */
  readonly inputSchema: JsonObject;
  /** The server's output JSON Schema, when it declares one. */
  readonly outputSchema?: JsonObject;
}

/**
 * Returns the headers to put on an outgoing MCP HTTP request, typically the
 * handler's credential (`{ Authorization: "Bearer …" }`). Called for **every**
 * HTTP request the client makes (the `initialize` handshake, each tool call,
 * the event stream, the session `DELETE`), so a rotated token applies to the
 * next request. May be async. A throw fails the call with an `McpAuthError`.
 * @public
 */
export type McpHeaderProvider = () =>
  | Readonly<Record<string, string>>
  | undefined
  | PromiseLike<Readonly<Record<string, string>> | undefined>;
