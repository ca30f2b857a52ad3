import { ErrorCode } from "../core/index.js";
import { parseRetryAfter } from "./retry-after.js";
import { NOT_RETRYABLE, RETRYABLE } from "./retry-classification.js";
import type { RetryClassification } from "./retry-classification.js";

/**
 * The HTTP/OpenAPI part of a `retryPolicy` (`httpConfig.retryPolicy`), already defaulted by the manifest layer.
 * @internal Does not follow semver.
 */
export interface HttpRetryRules {
  /** Statuses that are retried. An empty list disables status-based retry. */
  readonly retryOn: readonly number[];
  /** Whether a network-class transport error (see {@link isNetworkError}) is retried. */
  readonly retryOnNetworkError: boolean;
  /** Whether `Retry-After` sets a minimum delay for a retried status. */
  readonly respectRetryAfter: boolean;
}

/**
 * The operator's defaults: retryOn `[408, 429, 500, 502, 503, 504]` (when absent),
 * network errors and Retry-After honoured.
 * @internal Does not follow semver.
 */
export const DEFAULT_HTTP_RETRY_RULES: HttpRetryRules = Object.freeze({
  retryOn: Object.freeze([408, 429, 500, 502, 503, 504]),
  retryOnNetworkError: true,
  respectRetryAfter: true,
});

/**
 * Classifies an attempt that received a status that is a failure for the caller
 * (any status in `retryOn` is retried, even a 2xx whose responseMapping failed).
 * When the status is retried and `respectRetryAfter` is set, `Retry-After` (seconds
 * or an HTTP-date, for **any** retried status) becomes the minimum delay.
 * @param retryAfter - the `Retry-After` header value(s), if any
 * @param nowMs - the clock's now (Unix-epoch ms), for HTTP-date values
 * @internal Does not follow semver.
 */
export function classifyHttpStatus(
  status: number,
  retryAfter: string | readonly string[] | null | undefined,
  rules: HttpRetryRules,
  nowMs: number,
): RetryClassification {
  if (!rules.retryOn.includes(status)) return NOT_RETRYABLE;
  if (!rules.respectRetryAfter) return RETRYABLE;
  return { retryable: true, retryAfterMs: parseRetryAfter(retryAfter, nowMs) };
}

/**
 * Classifies an attempt that ended with a transport error (no status): retried iff
 * `retryOnNetworkError` and the error is network-class.
 * @internal Does not follow semver.
 */
export function classifyHttpError(error: unknown, rules: HttpRetryRules): RetryClassification {
  return rules.retryOnNetworkError && isNetworkError(error) ? RETRYABLE : NOT_RETRYABLE;
}

/**
 * Error codes that are network-class (Go `net.OpError`, DNS errors, deadline, cancellation;
 * as Omnia's `internal/runtime/tools/retry_classify.go` reads them, mapped to Node's
 * error codes, plus undici's socket and timeout codes). TLS certificate
 * errors, request-build errors and anything else are not.
 */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_ABORTED",
  "ABORT_ERR",
  ErrorCode.TIMEOUT,
  ErrorCode.ABORTED,
]);
const NETWORK_NAMES: ReadonlySet<string> = new Set(["AbortError", "TimeoutError"]);
const MAX_DEPTH = 8;

/**
 * Whether an error is network-class: a connect, read or write failure, a DNS
 * failure, a per-attempt timeout or a cancellation, found by `code` (or the
 * DOMException names `AbortError`/`TimeoutError`) anywhere in its `cause` chain or
 * among an AggregateError's `errors` (Node's happy-eyeballs connect).
 * @internal Does not follow semver.
 */
export function isNetworkError(error: unknown): boolean {
  return visit(error, 0);
}

function visit(value: unknown, depth: number): boolean {
  if (depth >= MAX_DEPTH || value === null || typeof value !== "object") return false;
  const e = value as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && NETWORK_CODES.has(e.code)) return true;
  // An OmniaToolsError's class name is not a network signal; DOMException's names are.
  if (typeof e.name === "string" && NETWORK_NAMES.has(e.name) && typeof e.code !== "string") return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => visit(inner, depth + 1))) return true;
  return visit(e.cause, depth + 1);
}
