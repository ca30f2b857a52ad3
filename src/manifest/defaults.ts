// Defaults and patterns of the ToolRegistry CRD and operator (Omnia's `api/v1alpha1/toolregistry_types.go`
// and `internal/controller/tools_config.go`).

/**
 * `apiVersion` of the ToolRegistry CRD.
 * @public
 */
export const TOOL_REGISTRY_API_VERSION = "omnia.altairalabs.ai/v1alpha1";
/**
 * Handler `timeout` when absent: the CRD default, per attempt.
 * @public
 */
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;
/**
 * `retryPolicy.initialBackoff` when absent (operator `buildHTTPRetryPolicy`).
 * @public
 */
export const DEFAULT_INITIAL_BACKOFF_MS = 100;
/**
 * `retryPolicy.backoffMultiplier` when absent (`"2.0"`).
 * @public
 */
export const DEFAULT_BACKOFF_MULTIPLIER = 2;
/**
 * `retryPolicy.maxBackoff` when absent.
 * @public
 */
export const DEFAULT_MAX_BACKOFF_MS = 30_000;
/**
 * `retryPolicy.retryOn` when absent (an explicit `[]` stays empty).
 * @public
 */
export const DEFAULT_HTTP_RETRY_ON: readonly number[] = Object.freeze([408, 429, 500, 502, 503, 504]);
export { DEFAULT_GRPC_RETRYABLE_STATUS_CODES, GRPC_STATUS_CODE_NAMES } from "../core/index.js";
/** `httpConfig.method` when absent or empty. */
export const DEFAULT_HTTP_METHOD = "POST";
/** `httpConfig.contentType` when absent or empty. */
export const DEFAULT_CONTENT_TYPE = "application/json";
/**
 * The resolved endpoint of every client handler.
 * @public
 */
export const CLIENT_ENDPOINT = "client://browser";
/** `workloadIdentity.header` when absent or empty. */
export const DEFAULT_WORKLOAD_IDENTITY_HEADER = "Authorization";
/** `spec.probe.interval` when absent. */
export const DEFAULT_PROBE_INTERVAL_MS = 60_000;
/** `spec.probe.timeout` when absent. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
/** Where Omnia's operator mounts a handler's bearer/basic secret: `<dir>/<handler>`. */
export const TOOL_SECRETS_DIR = "/etc/omnia/tool-secrets";
/** Where Omnia's operator projects a handler's service-account token: `<dir>/<handler>/token`. */
export const TOOL_SERVICE_ACCOUNT_DIR = "/var/run/secrets/omnia/tool-sa";

/** `spec.handlers[].name`: a DNS label. */
export const HANDLER_NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const HANDLER_NAME_MAX_LENGTH = 63;
/** `tool.name`: the name the model calls. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
export const TOOL_NAME_MAX_LENGTH = 64;
/** `retryPolicy.backoffMultiplier` in the CRD: a decimal string. */
export const BACKOFF_MULTIPLIER_PATTERN = /^[0-9]+(\.[0-9]+)?$/;

export const HANDLER_TYPES = ["http", "grpc", "mcp", "openapi", "client"] as const;
export const AUTH_TYPES = ["none", "bearer", "basic", "serviceAccount", "workloadIdentity"] as const;
export const MCP_TRANSPORTS = ["sse", "streamable-http", "stdio"] as const;
