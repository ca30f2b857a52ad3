import { ErrorCode } from "../core/index.js";
import type { RetryClassification } from "../retry/index.js";
import { McpArgumentsError, McpAuthError, McpToolError } from "./errors.js";

/** Errors that say nothing about the server's health: none of them reached it, or it answered. */
const NOT_FAILURE_CODES: ReadonlySet<string> = new Set([
  McpToolError.code,
  McpArgumentsError.code,
  McpAuthError.code,
  ErrorCode.ABORTED,
  ErrorCode.CLOSED,
  ErrorCode.INVALID_OPTION,
  ErrorCode.CIRCUIT_OPEN,
]);

/**
 * Whether an MCP attempt's error counts as a breaker failure:
 * an `isError` result ({@link McpToolError}) does
 * not, since the server answered; neither do errors raised before anything was
 * sent (bad arguments, a failing credential provider), an abandoned or closed
 * call, or a breaker rejection. Everything else does: an
 * `McpTransportError` (transport, HTTP or JSON-RPC error, unparsable result)
 * and a per-attempt `TimeoutError`.
 *
 * The breaker folder's default `isBreakerFailure` only exempts HTTP 4xx, so
 * the executor must use this predicate for MCP attempts.
 * @internal Does not follow semver.
 */
export function isMcpBreakerFailure(error: unknown): boolean {
  if (error === undefined || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return !(typeof code === "string" && NOT_FAILURE_CODES.has(code));
}

/**
 * The retry verdict for a failed MCP attempt (Omnia's `internal/runtime/tools/retry_classify.go`): every
 * error is retryable except an MCP tool error (`isError: true`). Also not
 * retried, because another attempt cannot change them: arguments that are not
 * a JSON object, a failing credential provider, a closed client. (A breaker
 * rejection and the caller's abort never reach the classifier.) MCP has no
 * Retry-After.
 * @internal Does not follow semver.
 */
export function classifyMcpError(error: unknown): RetryClassification {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  const final =
    code === McpToolError.code ||
    code === McpArgumentsError.code ||
    code === McpAuthError.code ||
    code === ErrorCode.CLOSED ||
    code === ErrorCode.INVALID_OPTION;
  return { retryable: !final, retryAfterMs: 0 };
}
