// CRD-shaped handler -> the executable, fully-defaulted form, as Omnia's operator
// builds it (`internal/controller/tools_config.go`). Runs
// only on handlers that passed validation, so it reads the raw values as typed.
import type { JsonObject } from "../core/index.js";
import { parseGoDuration } from "../core/index.js";
import {
  CLIENT_ENDPOINT,
  DEFAULT_BACKOFF_MULTIPLIER,
  DEFAULT_CONTENT_TYPE,
  DEFAULT_GRPC_RETRYABLE_STATUS_CODES,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_HTTP_METHOD,
  DEFAULT_HTTP_RETRY_ON,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_WORKLOAD_IDENTITY_HEADER,
  TOOL_SECRETS_DIR,
  TOOL_SERVICE_ACCOUNT_DIR,
} from "./defaults.js";
import { defineEntry, freezeJson, freezeJsonObject, freezeList, freezeStringMap } from "./json.js";
import type {
  RawAuth,
  RawGrpcRetryPolicy,
  RawHandler,
  RawHttpConfig,
  RawHttpRetryPolicy,
  RawMcpRetryPolicy,
  RawSecretKeyRef,
} from "./schemas.js";
import { schemas } from "./lazy-schemas.js";
import type {
  AuthConfig,
  ClientConfig,
  DelegationConfig,
  GrpcConfig,
  GrpcRetryPolicy,
  HandlerConfig,
  HttpConfig,
  HttpRetryPolicy,
  McpConfig,
  McpRetryPolicy,
  OpenApiConfig,
  SecretKeyRef,
  ToolDefinition,
} from "./types.js";

/** Absent, `null` and `""` all mean "unset" for Omnia's optional strings. */
function optionalString(value: string | null | undefined): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : value;
}

/** Adds `key: value` to `target` unless value is undefined (exactOptionalPropertyTypes-friendly). */
function withOptional<T extends object, K extends string, V>(target: T, key: K, value: V | undefined): T & { [P in K]?: V } {
  if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  return target as T & { [P in K]?: V };
}

function durationMs(value: string | null | undefined, fallback: number): number {
  return value === undefined || value === null ? fallback : parseGoDuration(value);
}

function multiplier(value: string | number | null | undefined, transport: "http" | "grpc" | "mcp"): number {
  if (value === undefined || value === null) return DEFAULT_BACKOFF_MULTIPLIER;
  const result = schemas().checkBackoffMultiplier(value, transport);
  return "value" in result ? result.value : DEFAULT_BACKOFF_MULTIPLIER;
}

function secretRef(ref: RawSecretKeyRef): SecretKeyRef {
  return Object.freeze({ name: ref.name, key: ref.key });
}

/** The operator's `buildHTTPRetryPolicy`: defaults for every field but maxAttempts. */
export function normalizeHttpRetryPolicy(policy: RawHttpRetryPolicy): HttpRetryPolicy {
  return Object.freeze({
    maxAttempts: policy.maxAttempts,
    initialBackoffMs: durationMs(policy.initialBackoff, DEFAULT_INITIAL_BACKOFF_MS),
    backoffMultiplier: multiplier(policy.backoffMultiplier, "http"),
    maxBackoffMs: durationMs(policy.maxBackoff, DEFAULT_MAX_BACKOFF_MS),
    // Only an absent list gets the default; an explicit [] opts out of status retries.
    retryOn: policy.retryOn === undefined || policy.retryOn === null ? DEFAULT_HTTP_RETRY_ON : freezeList(policy.retryOn),
    retryOnNetworkError: policy.retryOnNetworkError ?? true,
    respectRetryAfter: policy.respectRetryAfter ?? true,
  });
}

function normalizeGrpcRetryPolicy(policy: RawGrpcRetryPolicy): GrpcRetryPolicy {
  return Object.freeze({
    maxAttempts: policy.maxAttempts,
    initialBackoffMs: durationMs(policy.initialBackoff, DEFAULT_INITIAL_BACKOFF_MS),
    backoffMultiplier: multiplier(policy.backoffMultiplier, "grpc"),
    maxBackoffMs: durationMs(policy.maxBackoff, DEFAULT_MAX_BACKOFF_MS),
    retryableStatusCodes:
      policy.retryableStatusCodes === undefined || policy.retryableStatusCodes === null
        ? DEFAULT_GRPC_RETRYABLE_STATUS_CODES
        : freezeList(policy.retryableStatusCodes),
  });
}

function normalizeMcpRetryPolicy(policy: RawMcpRetryPolicy): McpRetryPolicy {
  return Object.freeze({
    maxAttempts: policy.maxAttempts,
    initialBackoffMs: durationMs(policy.initialBackoff, DEFAULT_INITIAL_BACKOFF_MS),
    backoffMultiplier: multiplier(policy.backoffMultiplier, "mcp"),
    maxBackoffMs: durationMs(policy.maxBackoff, DEFAULT_MAX_BACKOFF_MS),
  });
}

/**
 * The handler's auth in runtime form (Omnia's `api/v1alpha1/toolauth_normalize.go`). The legacy
 * `authType`/`authSecretRef` become `{type: authType ?? "bearer", secretRef}`;
 * `auth.type: none` becomes `undefined`.
 */
function normalizeAuth(handlerName: string, auth: RawAuth | null | undefined, legacy: RawHttpConfig | null | undefined): AuthConfig | undefined {
  const tokenPath = `${TOOL_SECRETS_DIR}/${handlerName}`;
  if ((auth === undefined || auth === null) && legacy != null && (legacy.authType != null || legacy.authSecretRef != null)) {
    const type = (legacy.authType ?? "bearer").toLowerCase() === "basic" ? "basic" : "bearer";
    const ref = secretRef(legacy.authSecretRef as RawSecretKeyRef);
    return Object.freeze(type === "basic" ? { type, secretRef: ref, authType: type, tokenPath } : { type, secretRef: ref, authType: type, tokenPath });
  }
  if (auth === undefined || auth === null) return undefined;
  switch (auth.type ?? "none") {
    case "bearer":
      return Object.freeze({ type: "bearer", secretRef: secretRef(auth.secretRef as RawSecretKeyRef), authType: "bearer", tokenPath });
    case "basic":
      return Object.freeze({ type: "basic", secretRef: secretRef(auth.secretRef as RawSecretKeyRef), authType: "basic", tokenPath });
    case "serviceAccount":
      return Object.freeze({
        type: "serviceAccount",
        serviceAccount: Object.freeze({ audience: auth.serviceAccount?.audience as string }),
        authType: "bearer",
        tokenPath: `${TOOL_SERVICE_ACCOUNT_DIR}/${handlerName}/token`,
      });
    case "workloadIdentity": {
      const wi = auth.workloadIdentity as NonNullable<RawAuth["workloadIdentity"]>;
      return Object.freeze({
        type: "workloadIdentity",
        workloadIdentity: Object.freeze({
          cloud: wi.cloud,
          audience: wi.audience,
          header: optionalString(wi.header) ?? DEFAULT_WORKLOAD_IDENTITY_HEADER,
        }),
        authType: "workloadIdentity",
      });
    }
    default:
      return undefined;
  }
}

function normalizeTool(tool: NonNullable<RawHandler["tool"]>): ToolDefinition {
  const out = { name: tool.name, description: tool.description, inputSchema: freezeJsonObject(tool.inputSchema) };
  return Object.freeze(withOptional(out, "outputSchema", tool.outputSchema == null ? undefined : freezeJsonObject(tool.outputSchema)));
}

function normalizeHttpConfig(http: RawHttpConfig): HttpConfig {
  const headersFromSecret: Record<string, SecretKeyRef> = {};
  for (const [name, ref] of Object.entries(http.headersFromSecret ?? {})) defineEntry(headersFromSecret, name, secretRef(ref));
  const out = {
    endpoint: http.endpoint,
    method: optionalString(http.method)?.toUpperCase() ?? DEFAULT_HTTP_METHOD,
    headers: freezeStringMap(http.headers),
    contentType: optionalString(http.contentType) ?? DEFAULT_CONTENT_TYPE,
    headersFromSecret: Object.freeze(headersFromSecret),
    queryParams: freezeList(http.queryParams),
    headerParams: freezeStringMap(http.headerParams),
    staticQuery: freezeStringMap(http.staticQuery),
    redact: freezeList(http.redact),
  };
  withOptional(out, "staticBody", http.staticBody === undefined || http.staticBody === null ? undefined : freezeJson(http.staticBody));
  withOptional(out, "bodyMapping", optionalString(http.bodyMapping));
  withOptional(out, "responseMapping", optionalString(http.responseMapping));
  withOptional(out, "urlTemplate", optionalString(http.urlTemplate));
  withOptional(out, "retryPolicy", http.retryPolicy == null ? undefined : normalizeHttpRetryPolicy(http.retryPolicy));
  return Object.freeze(out);
}

function normalizeGrpcConfig(grpc: NonNullable<RawHandler["grpcConfig"]>): GrpcConfig {
  const out = { endpoint: grpc.endpoint, tls: grpc.tls ?? false, tlsInsecureSkipVerify: grpc.tlsInsecureSkipVerify ?? false };
  withOptional(out, "tlsCertPath", optionalString(grpc.tlsCertPath));
  withOptional(out, "tlsKeyPath", optionalString(grpc.tlsKeyPath));
  withOptional(out, "tlsCAPath", optionalString(grpc.tlsCAPath));
  withOptional(out, "retryPolicy", grpc.retryPolicy == null ? undefined : normalizeGrpcRetryPolicy(grpc.retryPolicy));
  return Object.freeze(out);
}

function normalizeMcpConfig(mcp: NonNullable<RawHandler["mcpConfig"]>): McpConfig {
  const out = {
    transport: mcp.transport,
    args: freezeList(mcp.args),
    env: freezeStringMap(mcp.env),
    toolFilter: Object.freeze({ allowlist: freezeList(mcp.toolFilter?.allowlist), blocklist: freezeList(mcp.toolFilter?.blocklist) }),
  };
  withOptional(out, "endpoint", optionalString(mcp.endpoint));
  withOptional(out, "command", optionalString(mcp.command));
  withOptional(out, "workDir", optionalString(mcp.workDir));
  withOptional(out, "retryPolicy", mcp.retryPolicy == null ? undefined : normalizeMcpRetryPolicy(mcp.retryPolicy));
  return Object.freeze(out);
}

function normalizeOpenApiConfig(openapi: NonNullable<RawHandler["openAPIConfig"]>): OpenApiConfig {
  const out = {
    specURL: openapi.specURL,
    operationFilter: freezeList(openapi.operationFilter),
    headers: freezeStringMap(openapi.headers),
  };
  withOptional(out, "baseURL", optionalString(openapi.baseURL));
  withOptional(out, "retryPolicy", openapi.retryPolicy == null ? undefined : normalizeHttpRetryPolicy(openapi.retryPolicy));
  return Object.freeze(out);
}

function normalizeClientConfig(client: RawHandler["clientConfig"]): ClientConfig {
  const out = { categories: freezeList(client?.categories) };
  return Object.freeze(withOptional(out, "consentMessage", optionalString(client?.consentMessage)));
}

function normalizeDelegation(delegation: NonNullable<RawHandler["delegation"]>): DelegationConfig {
  const copy = freezeJsonObject(delegation as Record<string, unknown>);
  return Object.freeze({ ...copy, enabled: delegation.enabled ?? false });
}

/** The resolved endpoint of a handler, as the ToolRegistry controller's `resolveEndpoint` reports it. */
function endpointOf(handler: RawHandler): string {
  switch (handler.type) {
    case "http":
      return handler.httpConfig?.endpoint ?? "";
    case "grpc":
      return handler.grpcConfig?.endpoint ?? "";
    case "mcp":
      return optionalString(handler.mcpConfig?.endpoint) ?? `stdio://${handler.mcpConfig?.command ?? ""}`;
    case "openapi":
      return handler.openAPIConfig?.specURL ?? "";
    case "client":
      return CLIENT_ENDPOINT;
  }
}

/** Normalises one validated handler. */
export function normalizeHandler(handler: RawHandler): HandlerConfig {
  const base = {
    name: handler.name,
    type: handler.type,
    endpoint: endpointOf(handler),
    timeoutMs: durationMs(handler.timeout, DEFAULT_HANDLER_TIMEOUT_MS),
  };
  const legacy = handler.type === "http" ? handler.httpConfig : handler.type === "openapi" ? handler.openAPIConfig : undefined;
  withOptional(base, "auth", normalizeAuth(handler.name, handler.auth, legacy as RawHttpConfig | null | undefined));
  withOptional(base, "delegation", handler.delegation == null ? undefined : normalizeDelegation(handler.delegation));
  withOptional(base, "sandbox", handler.sandbox == null ? undefined : (freezeJsonObject(handler.sandbox) as JsonObject));
  const tool = handler.tool == null ? undefined : normalizeTool(handler.tool);
  switch (handler.type) {
    case "http":
      return Object.freeze({ ...base, type: "http", tool: tool as ToolDefinition, httpConfig: normalizeHttpConfig(handler.httpConfig as RawHttpConfig) });
    case "grpc":
      return Object.freeze({ ...base, type: "grpc", tool: tool as ToolDefinition, grpcConfig: normalizeGrpcConfig(handler.grpcConfig as NonNullable<RawHandler["grpcConfig"]>) });
    case "mcp":
      return Object.freeze(withOptional({ ...base, type: "mcp" as const, mcpConfig: normalizeMcpConfig(handler.mcpConfig as NonNullable<RawHandler["mcpConfig"]>) }, "tool", tool));
    case "openapi":
      return Object.freeze(
        withOptional({ ...base, type: "openapi" as const, openAPIConfig: normalizeOpenApiConfig(handler.openAPIConfig as NonNullable<RawHandler["openAPIConfig"]>) }, "tool", tool),
      );
    case "client":
      return Object.freeze({ ...base, type: "client", tool: tool as ToolDefinition, clientConfig: normalizeClientConfig(handler.clientConfig) });
  }
}
