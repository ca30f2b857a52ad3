/**
 * The typed, normalised shape of a loaded ToolRegistry.
 *
 * A manifest is the CRD-shaped YAML that Omnia users already write. Loading it
 * applies the defaults the way Omnia's CRD schema and operator do,
 * so the executors consume one fully-defaulted, frozen object and never look at
 * the raw YAML again:
 *
 * - every duration is a number of **milliseconds** (`timeoutMs`, `initialBackoffMs`);
 *   the field name carries the unit, everything else keeps its YAML name;
 * - `retryPolicy` is present only when the manifest sets one (absent = one attempt),
 *   with the operator's defaults filled in (`buildHTTPRetryPolicy`);
 * - `auth` is the handler-level stanza, with the legacy `authType`/`authSecretRef`
 *   of `httpConfig`/`openAPIConfig` folded into it; absent = no auth;
 * - optional strings that Omnia treats as unset when empty (`bodyMapping: ""`) are absent;
 * - lists and maps default to empty, never `undefined`.
 */
import type { ConfigIssue, GrpcStatusCodeName, HandlerType, JsonObject, JsonValue, ToolHandlerType } from "../core/index.js";

export type { GrpcStatusCodeName, HandlerType } from "../core/index.js";

/**
 * Where a tool runs: in this process (`server`) or in the user's browser (`client`).
 * @public
 */
export type ToolExecution = "server" | "client";

/**
 * A tool the model can call, as the registry serves it.
 * @public
 */
export interface ToolDescriptor {
  /** The name the model calls (`tool.name`), unique across the registry. */
  readonly name: string;
  /** Shown to the model. */
  readonly description: string;
  /** JSON Schema of the arguments. Omnia does not validate arguments against it. */
  readonly inputSchema: JsonObject;
  /** JSON Schema of the result, when the manifest gives one. Not used by execution. */
  readonly outputSchema?: JsonObject;
  /** The handler that executes it (`spec.handlers[].name`). */
  readonly handlerName: string;
  /** The type of that handler; `platform` for a tool the host runs in its own process (an executor's `platformTools`). */
  readonly handlerType: ToolHandlerType;
  /** `client` for a `type: client` handler, `server` for every other type. */
  readonly execution: ToolExecution;
}

/**
 * The `tool` block of a handler (Omnia's ToolDefinition).
 * @public
 */
export interface ToolDefinition {
  /** `^[a-z][a-z0-9_]*$`, at most 64 characters. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
}

/**
 * A reference to one key of a Kubernetes Secret.
 * @public
 */
export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

/**
 * `auth.type: bearer`: `Authorization: Bearer <token>`, the token read from `secretRef`.
 * @public
 */
export interface BearerAuthConfig {
  readonly type: "bearer";
  readonly secretRef: SecretKeyRef;
  /** The runtime form (the operator's `authType`): how the header is built. */
  readonly authType: "bearer";
  /** Where Omnia's operator mounts the token: `/etc/omnia/tool-secrets/<handler>`. */
  readonly tokenPath: string;
}

/**
 * `auth.type: basic`: the secret holds `username:password`;
 * `Authorization: Basic <base64>`.
 * @public
 */
export interface BasicAuthConfig {
  readonly type: "basic";
  readonly secretRef: SecretKeyRef;
  readonly authType: "basic";
  /** Where Omnia's operator mounts the credentials: `/etc/omnia/tool-secrets/<handler>`. */
  readonly tokenPath: string;
}

/**
 * `auth.type: serviceAccount`: a projected, audience-bound service-account token
 * sent as `Authorization: Bearer <token>`.
 * @public
 */
export interface ServiceAccountAuthConfig {
  readonly type: "serviceAccount";
  readonly serviceAccount: { readonly audience: string };
  readonly authType: "bearer";
  /** Where Omnia's operator projects the token: `/var/run/secrets/omnia/tool-sa/<handler>/token`. */
  readonly tokenPath: string;
}

/**
 * `auth.type: workloadIdentity`: a cloud token for `audience`, sent as
 * `<header>: Bearer <token>`. `cloud` is `azure`, the only value of the CRD's
 * enum: the loader refuses any other, as the API server does.
 * @public
 */
export interface WorkloadIdentityAuthConfig {
  readonly type: "workloadIdentity";
  readonly workloadIdentity: {
    readonly cloud: "azure";
    readonly audience: string;
    /** Default `Authorization`. */
    readonly header: string;
  };
  readonly authType: "workloadIdentity";
}

/**
 * A handler's normalised authentication. `auth.type: none` (the default) is
 * represented by the absence of `auth` on the handler.
 * @public
 */
export type AuthConfig = BearerAuthConfig | BasicAuthConfig | ServiceAccountAuthConfig | WorkloadIdentityAuthConfig;

/**
 * `retryPolicy` of an `http` or `openapi` handler, with the operator's defaults
 * applied (Omnia's `buildHTTPRetryPolicy`, `internal/controller/tools_config.go`).
 * @public
 */
export interface HttpRetryPolicy {
  /** Every attempt, the first included: 1..10. 1 means no retries. */
  readonly maxAttempts: number;
  /** Default 100 ms. */
  readonly initialBackoffMs: number;
  /** Default 2. Always >= 1. */
  readonly backoffMultiplier: number;
  /** Default 30 000 ms. Always >= `initialBackoffMs`. */
  readonly maxBackoffMs: number;
  /** Default `[408, 429, 500, 502, 503, 504]` when absent; `[]` (explicit) retries no status. */
  readonly retryOn: readonly number[];
  /** Default true. */
  readonly retryOnNetworkError: boolean;
  /** Default true. */
  readonly respectRetryAfter: boolean;
}

/**
 * `grpcConfig.retryPolicy`, with the controller's defaults applied.
 * @public
 */
export interface GrpcRetryPolicy {
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly backoffMultiplier: number;
  readonly maxBackoffMs: number;
  /** Default `["UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"]` when absent; `[]` retries no status. */
  readonly retryableStatusCodes: readonly GrpcStatusCodeName[];
}

/**
 * `mcpConfig.retryPolicy`, with defaults applied. Every MCP error except an
 * `isError` tool result is retryable.
 * @public
 */
export interface McpRetryPolicy {
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly backoffMultiplier: number;
  readonly maxBackoffMs: number;
}

/**
 * `httpConfig`, normalised (the CRD's defaults applied).
 * @public
 */
export interface HttpConfig {
  /** The request URL when `urlTemplate` is unset. Not format-validated (a bad URL fails at send time). */
  readonly endpoint: string;
  /** Upper-cased; default `POST`. Any token is kept (Omnia does not enum-validate it). */
  readonly method: string;
  /** Static headers, lowest precedence. */
  readonly headers: Readonly<Record<string, string>>;
  /** Default `application/json`; sent only with a body. */
  readonly contentType: string;
  /** Header name -> Secret key whose value becomes the header (contract 1.9.0). */
  readonly headersFromSecret: Readonly<Record<string, SecretKeyRef>>;
  /** Argument names sent as query parameters. */
  readonly queryParams: readonly string[];
  /** Argument name -> header name. */
  readonly headerParams: Readonly<Record<string, string>>;
  /** Fixed query parameters. */
  readonly staticQuery: Readonly<Record<string, string>>;
  /** Fixed body fields; absent when unset or `null`. */
  readonly staticBody?: JsonValue;
  /** JMESPath, verbatim; absent when unset or empty. */
  readonly bodyMapping?: string;
  /** JMESPath, verbatim; absent when unset or empty. */
  readonly responseMapping?: string;
  /** Top-level response keys replaced by `"[REDACTED]"`. */
  readonly redact: readonly string[];
  /** A full URL with `{arg}` placeholders; absent when unset or empty. */
  readonly urlTemplate?: string;
  /** Absent: one attempt, no retries. */
  readonly retryPolicy?: HttpRetryPolicy;
}

/**
 * `grpcConfig`, normalised. TLS is off unless `tls: true`; `tlsCertPath` takes
 * effect only together with `tlsKeyPath`.
 * @public
 */
export interface GrpcConfig {
  /** `host:port`. */
  readonly endpoint: string;
  /** Default false (plaintext). */
  readonly tls: boolean;
  readonly tlsCertPath?: string;
  readonly tlsKeyPath?: string;
  readonly tlsCAPath?: string;
  /** Default false. */
  readonly tlsInsecureSkipVerify: boolean;
  readonly retryPolicy?: GrpcRetryPolicy;
}

/**
 * The MCP transports.
 * @public
 */
export type McpTransport = "sse" | "streamable-http" | "stdio";

/**
 * `mcpConfig`, normalised. The tools are discovered when the server is connected.
 * @public
 */
export interface McpConfig {
  readonly transport: McpTransport;
  /** Required for `sse` and `streamable-http`. */
  readonly endpoint?: string;
  /** Required for `stdio`. */
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly workDir?: string;
  /** A non-empty allowlist means exactly those names; else anything not in the blocklist. */
  readonly toolFilter: { readonly allowlist: readonly string[]; readonly blocklist: readonly string[] };
  readonly retryPolicy?: McpRetryPolicy;
}

/**
 * `openAPIConfig`, normalised. The tools are the spec's operations, discovered
 * when the spec is fetched.
 * @public
 */
export interface OpenApiConfig {
  readonly specURL: string;
  readonly baseURL?: string;
  /** Keep only these operationIds (exact); empty keeps every operation. */
  readonly operationFilter: readonly string[];
  /** Static headers on every operation call. */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP retry shape, with the operator's defaults applied. */
  readonly retryPolicy?: HttpRetryPolicy;
}

/**
 * `clientConfig` of a client handler: the consent prompt the browser shows.
 * @public
 */
export interface ClientConfig {
  /** Absent (or empty in the manifest): no consent prompt. */
  readonly consentMessage?: string;
  /** Consent categories such as `location` or `camera`. */
  readonly categories: readonly string[];
}

/**
 * `delegation` (contract 1.9.0). Only `enabled` is interpreted; the other fields
 * are kept verbatim because their shape is not published yet.
 * @public
 */
export interface DelegationConfig {
  /** Default false. */
  readonly enabled: boolean;
  readonly [field: string]: JsonValue;
}

/**
 * `spec.probe`: a TCP reachability probe.
 * @public
 */
export interface ProbeConfig {
  /** Default false. */
  readonly enabled: boolean;
  /** Default 60 000 ms. */
  readonly intervalMs: number;
  /** Default 5 000 ms. */
  readonly timeoutMs: number;
}

/**
 * The fields every handler has after normalisation.
 * @public
 */
export interface HandlerConfigBase {
  /** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, at most 63 characters, unique in the registry. */
  readonly name: string;
  readonly type: HandlerType;
  /**
   * The resolved endpoint (as the ToolRegistry controller reports it): http `httpConfig.endpoint`,
   * grpc `grpcConfig.endpoint`, mcp `mcpConfig.endpoint` or `stdio://<command>`,
   * openapi `openAPIConfig.specURL`, client `client://browser`.
   */
  readonly endpoint: string;
  /** Per attempt; default 30 000 ms. 0 (written `"0"`, `"0s"` or `""`) means no per-attempt deadline. */
  readonly timeoutMs: number;
  /** Absent means no auth (`auth.type: none`). */
  readonly auth?: AuthConfig;
  readonly delegation?: DelegationConfig;
  /** Present when the handler reaches a per-conversation sandbox; its fields are kept verbatim. */
  readonly sandbox?: JsonObject;
}

/**
 * An `http` handler: one tool, `tool.name`.
 * @public
 */
export interface HttpHandlerConfig extends HandlerConfigBase {
  readonly type: "http";
  readonly tool: ToolDefinition;
  readonly httpConfig: HttpConfig;
}

/**
 * A `grpc` handler: one tool, `tool.name`, executed through ToolService/Execute.
 * @public
 */
export interface GrpcHandlerConfig extends HandlerConfigBase {
  readonly type: "grpc";
  readonly tool: ToolDefinition;
  readonly grpcConfig: GrpcConfig;
}

/**
 * An `mcp` handler. Its tools are the server's own names, discovered at run
 * time; an inline `tool` is kept but ignored, as Omnia ignores it.
 * @public
 */
export interface McpHandlerConfig extends HandlerConfigBase {
  readonly type: "mcp";
  readonly tool?: ToolDefinition;
  readonly mcpConfig: McpConfig;
}

/**
 * An `openapi` handler. Its tools are the spec's operations, discovered at run
 * time; an inline `tool` is kept but ignored, as Omnia ignores it.
 * @public
 */
export interface OpenApiHandlerConfig extends HandlerConfigBase {
  readonly type: "openapi";
  readonly tool?: ToolDefinition;
  readonly openAPIConfig: OpenApiConfig;
}

/**
 * A `client` handler: one tool executed by the browser. `endpoint` is
 * `client://browser`.
 * @public
 */
export interface ClientHandlerConfig extends HandlerConfigBase {
  readonly type: "client";
  readonly tool: ToolDefinition;
  readonly clientConfig: ClientConfig;
}

/**
 * One normalised handler; discriminated on `type` (the YAML field).
 * @public
 */
export type HandlerConfig = HttpHandlerConfig | GrpcHandlerConfig | McpHandlerConfig | OpenApiHandlerConfig | ClientHandlerConfig;

/**
 * A loaded, validated and frozen ToolRegistry.
 *
 * `tools` holds the tools known at load time: one per `http`, `grpc` and
 * `client` handler. `mcp` and `openapi` handlers serve tools that are only
 * discovered at run time (the MCP server's list, the OpenAPI operations), so
 * they contribute **no** entry to `tools`; find them in `handlers` (or
 * `discoveredHandlers`).
 * @public
 */
export interface ToolRegistry {
  /** `metadata.name` of the (first) ToolRegistry resource; absent for a bare `handlers:` list. */
  readonly name?: string;
  /** `metadata.namespace`, when given. */
  readonly namespace?: string;
  /** The statically known tools, in manifest order. */
  readonly tools: readonly ToolDescriptor[];
  /** Every handler, normalised, in manifest order. */
  readonly handlers: readonly HandlerConfig[];
  /** The `mcp` and `openapi` handlers, whose tools are discovered at run time. */
  readonly discoveredHandlers: readonly (McpHandlerConfig | OpenApiHandlerConfig)[];
  /** `spec.probe`, defaulted. */
  readonly probe: ProbeConfig;
  /** Everything that was reported as a warning (unknown fields, ignored blocks), also sent to the logger. */
  readonly warnings: readonly ManifestIssue[];
  /** The descriptor of a statically known tool. */
  getTool(name: string): ToolDescriptor | undefined;
  /** A handler by its name. */
  getHandler(name: string): HandlerConfig | undefined;
}

/**
 * A problem (error or warning) in a manifest. `line` is the 1-based line in the
 * YAML/JSON text when the input was text.
 * @public
 */
export interface ManifestIssue extends ConfigIssue {
  readonly line?: number;
  /** Set on duplicate-tool issues: `ERR_OMNIA_DUPLICATE_TOOL`. */
  readonly code?: string;
}
