import { ErrorCode, OmniaToolsError, type OmniaToolsErrorOptions } from "../core/index.js";

/**
 * The text of an `isError` result with no leading text content (Omnia's `mcpErrorMessage`).
 * @public
 */
export const MCP_TOOL_ERROR_FALLBACK = "MCP tool returned error";

/**
 * The MCP server answered `tools/call` with a result whose `isError` is true.
 * The message is the text the model sees: the first content item's text when
 * that item is a non-empty text, else `MCP tool returned error`.
 *
 * Not a breaker failure and never retried: the server answered (Omnia wraps
 * it as a client error, `internal/runtime/tools/omnia_executor_mcp.go`).
 * @public
 */
export class McpToolError extends OmniaToolsError {
  static override readonly code: "ERR_OMNIA_MCP_TOOL_ERROR" | "ERR_OMNIA_MCP_RESULT_TOO_LARGE" = ErrorCode.MCP_TOOL_ERROR;
  /** `ERR_OMNIA_MCP_TOOL_ERROR`, or `ERR_OMNIA_MCP_RESULT_TOO_LARGE` for its subclass `McpResultTooLargeError`. */
  declare readonly code: "ERR_OMNIA_MCP_TOOL_ERROR" | "ERR_OMNIA_MCP_RESULT_TOO_LARGE";
  /** The tool that was called. */
  readonly toolName: string;
  constructor(toolName: string, message: string, options?: OmniaToolsErrorOptions) {
    super(message, options);
    this.toolName = toolName;
  }
}

/**
 * The MCP exchange itself failed: the server could not be reached or
 * connected to (refused, reset, DNS, a child process that would not start or
 * exited), the transport answered with an HTTP error, the server answered with
 * a JSON-RPC error (unknown tool, invalid params, internal error), or its
 * result did not parse.
 *
 * A breaker failure, and retryable under `mcpConfig.retryPolicy`
 * (every MCP error but a tool error is). Messages follow Omnia: a call reads
 * `MCP tool call failed: <reason>`; discovery reads
 * `handler "<name>": failed to connect MCP: <reason>` or
 * `handler "<name>": failed to list MCP tools: <reason>`.
 * @public
 */
export class McpTransportError extends OmniaToolsError {
  static override readonly code = ErrorCode.MCP_TRANSPORT;
  declare readonly code: typeof ErrorCode.MCP_TRANSPORT;
  /** The handler whose server failed. */
  readonly handlerName: string;
  /** The JSON-RPC error code when the server answered with one (e.g. `-32602`); `-32000` for a closed connection. */
  readonly rpcCode: number | undefined;
  /**
   * The HTTP status when the MCP endpoint answered a request with a non-2xx
   * status. Deliberately not named `status`: unlike an HTTP tool's 4xx, an MCP
   * endpoint's 4xx is still a breaker failure.
   */
  readonly httpStatus: number | undefined;
  /** The Node or undici error code behind a connection failure, e.g. `ECONNREFUSED`. */
  readonly causeCode: string | undefined;
  /**
   * For a stdio server that exited: its exit code or signal and the last lines
   * of its stderr. Never part of `message` (the model reads that, and a
   * child's stderr may hold paths or secrets); the probe's detail, the CLI and
   * the host's logs show it.
   */
  readonly stdioExit: McpStdioExit | undefined;
  constructor(
    message: string,
    handlerName: string,
    details: {
      readonly rpcCode?: number | undefined;
      readonly httpStatus?: number | undefined;
      readonly causeCode?: string | undefined;
      readonly stdioExit?: McpStdioExit | undefined;
    } = {},
    options?: OmniaToolsErrorOptions,
  ) {
    super(message, options);
    this.handlerName = handlerName;
    this.rpcCode = details.rpcCode;
    this.httpStatus = details.httpStatus;
    this.causeCode = details.causeCode;
    this.stdioExit = details.stdioExit;
  }
}

/**
 * How a stdio MCP server ended: its exit code (`null` when a signal ended it),
 * the signal, and the last lines it wrote to stderr (at most 20 lines of its
 * last 4 KiB, trailing blank lines dropped; empty when it wrote nothing).
 * @public
 */
export interface McpStdioExit {
  /** The child's exit code; `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended the child (`SIGKILL`), or `null`. */
  readonly signal: string | null;
  /** The last lines the child wrote to stderr, joined by `\n`; empty when it wrote none. */
  readonly stderr: string;
}

/**
 * How the stdio server behind `error` ended: the `stdioExit` of the first
 * {@link McpTransportError} in its `cause` chain (or among an
 * `AggregateError`'s errors) that has one.
 * @internal Does not follow semver.
 */
export function stdioExitOf(error: unknown): McpStdioExit | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 32) {
    const e = queue.shift();
    if (e === null || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    if (e instanceof McpTransportError && e.stdioExit !== undefined) return e.stdioExit;
    if (e instanceof AggregateError) queue.push(...(e.errors as unknown[]));
    queue.push((e as { cause?: unknown }).cause);
  }
  return undefined;
}

/**
 * One line describing how a stdio server ended, for a probe's detail or a log:
 * `the server exited with code 1; its stderr ended: <line> | <line>`
 * (`was killed by SIGKILL` for a signal; `and wrote nothing to stderr` when it
 * wrote nothing).
 * @public
 */
export function describeMcpStdioExit(exit: McpStdioExit): string {
  const how = stdioExitHow(exit);
  return exit.stderr === "" ? `the server ${how} and wrote nothing to stderr` : `the server ${how}; its stderr ended: ${exit.stderr.split("\n").join(" | ")}`;
}

/**
 * The tool-call arguments are not a JSON object (or not JSON). Nothing was
 * sent. The message is Omnia's: `failed to parse MCP args: <reason>`.
 *
 * Not a breaker failure (the server was never asked) and not retried (it
 * cannot succeed on a second attempt). Omnia retries it; see the README.
 * @public
 */
export class McpArgumentsError extends OmniaToolsError {
  static override readonly code = ErrorCode.MCP_ARGUMENTS;
  declare readonly code: typeof ErrorCode.MCP_ARGUMENTS;
}

/**
 * The host's header provider (the handler's credential) threw or returned
 * something that is not a header map. Nothing was sent. The message is
 * `handler "<name>" auth: <reason>`, as for an HTTP handler.
 *
 * Not a breaker failure and not retried: auth resolution happens before the
 * backend is reached.
 * @public
 */
export class McpAuthError extends OmniaToolsError {
  static override readonly code = ErrorCode.MCP_AUTH;
  declare readonly code: typeof ErrorCode.MCP_AUTH;
  /** The handler whose credential could not be resolved. */
  readonly handlerName: string;
  constructor(handlerName: string, reason: string, options?: OmniaToolsErrorOptions) {
    const prefix = `handler ${JSON.stringify(handlerName)} auth: `;
    // A reason that already says it (the executor's own AuthError) is not said twice.
    super(reason.startsWith(prefix) ? reason : `${prefix}${reason}`, options);
    this.handlerName = handlerName;
  }
}

/**
 * An MCP tool's result is larger than the cap (10 MiB, as an HTTP tool's
 * response): `MCP tool result of <n> bytes exceeds the 10485760-byte cap`. The
 * server answered, so it is not a breaker failure, and it is not retried; the
 * session stays usable.
 * @public
 */
export class McpResultTooLargeError extends McpToolError {
  static override readonly code = ErrorCode.MCP_RESULT_TOO_LARGE;
  declare readonly code: typeof ErrorCode.MCP_RESULT_TOO_LARGE;
}

/**
 * How a stdio server ended, as the verb phrase of a sentence about it:
 * `exited with code 1`, or `was killed by SIGKILL`.
 * @internal Does not follow semver.
 */
export function stdioExitHow(exit: McpStdioExit): string {
  return exit.exitCode === null ? `was killed by ${exit.signal ?? "a signal"}` : `exited with code ${exit.exitCode}`;
}
