// The checks of one handler that a field schema cannot make alone: the controller's
// `validateHandler` rules in their order (`internal/controller/toolregistry_controller.go`),
// the auth CEL rules and the legacy-auth conflict (`api/v1alpha1/toolregistry_types.go`),
// maxBackoff >= initialBackoff (`buildHTTPRetryPolicy`), and warnings for configuration
// that Omnia would silently ignore.
//
// It reads the raw handler defensively: a field of the wrong type has already been
// reported by the schema, so every rule here runs only on what it can interpret.
// That is what lets one load report every problem, not just the first.
import { formatGoDuration, urlTemplateLayout, urlTemplatePlacementProblem } from "../core/index.js";
import {
  BACKOFF_MULTIPLIER_PATTERN,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_MAX_BACKOFF_MS,
  HANDLER_TYPES,
} from "./defaults.js";
import type { IssueSink, PathSegment } from "./issues.js";
import { isPlainObject } from "./json.js";
import { checkEndpoints } from "./endpoint-checks.js";
import type { RetryTransport } from "./schemas.js";
import { schemas } from "./lazy-schemas.js";
import type { HandlerType } from "./types.js";

type ConfigBlock = "httpConfig" | "grpcConfig" | "mcpConfig" | "openAPIConfig" | "clientConfig";

const BLOCK_OF: Readonly<Record<HandlerType, ConfigBlock>> = {
  http: "httpConfig",
  grpc: "grpcConfig",
  mcp: "mcpConfig",
  openapi: "openAPIConfig",
  client: "clientConfig",
};
const BLOCKS: readonly ConfigBlock[] = ["httpConfig", "grpcConfig", "mcpConfig", "openAPIConfig", "clientConfig"];
const RETRY_TRANSPORT: Readonly<Record<string, RetryTransport>> = {
  httpConfig: "http",
  openAPIConfig: "http",
  grpcConfig: "grpc",
  mcpConfig: "mcp",
};
/** An HTTP method must be an RFC 9110 token, or Go refuses to build the request. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const present = (value: unknown): boolean => value !== undefined && value !== null;
const nonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";

/** Validates one raw handler at `path`; every problem goes to `sink`. */
export function validateHandler(raw: unknown, path: readonly PathSegment[], sink: IssueSink): void {
  sink.schema(schemas().handlerSchema.safeParse(raw, { reportInput: true }), path, schemas().handlerSchema);
  if (!isPlainObject(raw)) return;
  const h = raw;
  const at = (...rest: PathSegment[]): PathSegment[] => [...path, ...rest];
  const type = typeof h.type === "string" && (HANDLER_TYPES as readonly string[]).includes(h.type) ? (h.type as HandlerType) : undefined;

  if (type !== undefined) {
    const block = BLOCK_OF[type];
    // In the controller's `validateHandler` order: config block, transport rules, then tool.
    if (type !== "client" && !present(h[block])) sink.error(at(block), `${block} is required for ${type} handlers`);
    if (type === "mcp" && isPlainObject(h.mcpConfig)) checkMcpTransport(h.mcpConfig, at("mcpConfig"), sink);
    const needsTool = type === "http" || type === "grpc" || type === "client";
    if (needsTool && !present(h.tool)) sink.error(at("tool"), `tool definition is required for ${type} handlers`);
    if (!needsTool && present(h.tool)) {
      sink.warning(at("tool"), `tool is ignored for ${type} handlers; their tools are discovered at run time`);
    }
    for (const other of BLOCKS) {
      if (other !== block && present(h[other])) sink.warning(at(other), `${other} is ignored for ${type} handlers`);
    }
  }

  checkAuth(h, type, at, sink);

  for (const block of BLOCKS) {
    const config = h[block];
    const transport = RETRY_TRANSPORT[block];
    if (transport !== undefined && isPlainObject(config) && isPlainObject(config.retryPolicy)) {
      checkBackoffBounds(config.retryPolicy, transport, at(block, "retryPolicy"), sink);
      const multiplier = config.retryPolicy.backoffMultiplier;
      if (typeof multiplier === "number" && Number.isFinite(multiplier) && multiplier >= 1) {
        // tools.yaml writes a number; the CRD's field is a string with a pattern, so the API server refuses a number.
        sink.warning(
          at(block, "retryPolicy", "backoffMultiplier"),
          `expected a string matching ${BACKOFF_MULTIPLIER_PATTERN.source} (the CRD's type); got the number ${multiplier}: write "${String(multiplier)}" for the Kubernetes API server to accept it`,
          true,
        );
      }
    }
  }
  if (type === "http" && isPlainObject(h.httpConfig)) checkHttpConfig(h.httpConfig, at("httpConfig"), sink);
  if (type === "grpc" && isPlainObject(h.grpcConfig)) checkGrpcTls(h.grpcConfig, at("grpcConfig"), sink);
  if (type !== undefined) checkEndpoints(h, type, at, sink);
}

function checkMcpTransport(mcp: Record<string, unknown>, path: PathSegment[], sink: IssueSink): void {
  if (mcp.transport === "sse" && !nonEmptyString(mcp.endpoint)) {
    sink.error([...path, "endpoint"], "endpoint is required for mcp handlers with SSE transport");
  } else if (mcp.transport === "streamable-http" && !nonEmptyString(mcp.endpoint)) {
    sink.error([...path, "endpoint"], "endpoint is required for mcp handlers with streamable-http transport");
  } else if (mcp.transport === "stdio" && !nonEmptyString(mcp.command)) {
    sink.error([...path, "command"], "command is required for mcp handlers with stdio transport");
  }
}

/** The legacy auth block of a handler type: `httpConfig` or `openAPIConfig`. */
function legacyBlockOf(type: HandlerType | undefined): "httpConfig" | "openAPIConfig" | undefined {
  return type === "http" ? "httpConfig" : type === "openapi" ? "openAPIConfig" : undefined;
}

function checkAuth(
  h: Record<string, unknown>,
  type: HandlerType | undefined,
  at: (...rest: PathSegment[]) => PathSegment[],
  sink: IssueSink,
): void {
  const legacyBlock = legacyBlockOf(type);
  const legacyConfig = legacyBlock === undefined ? undefined : h[legacyBlock];
  const legacy = isPlainObject(legacyConfig) && (present(legacyConfig.authType) || present(legacyConfig.authSecretRef));
  const auth = h.auth;
  if (legacy && present(auth)) {
    // The CRD's CEL rule, verbatim (`api/v1alpha1/toolregistry_types.go`).
    sink.error(at("auth"), "set either the handler-level auth stanza or the legacy httpConfig/openAPIConfig authType/authSecretRef, not both");
    return;
  }
  if (legacy && legacyBlock !== undefined && isPlainObject(legacyConfig)) {
    // Normalised to {type: authType ?? "bearer", secretRef: authSecretRef}, then the CEL rule applies.
    if (!present(legacyConfig.authSecretRef)) sink.error(at(legacyBlock, "authSecretRef"), "auth.type bearer/basic requires secretRef");
    return;
  }
  if (!isPlainObject(auth)) return;
  const authType = auth.type === undefined || auth.type === null ? "none" : auth.type;
  if (typeof authType !== "string") return;
  const unused = (field: string): void => {
    if (present(auth[field])) sink.warning(at("auth", field), `${field} is ignored for auth.type ${authType}`);
  };
  switch (authType) {
    case "bearer":
    case "basic":
      if (!present(auth.secretRef)) sink.error(at("auth"), "auth.type bearer/basic requires secretRef");
      unused("serviceAccount");
      unused("workloadIdentity");
      break;
    case "serviceAccount":
      if (!present(auth.serviceAccount)) sink.error(at("auth"), "auth.type serviceAccount requires the serviceAccount block");
      unused("secretRef");
      unused("workloadIdentity");
      break;
    case "workloadIdentity": {
      const wi = auth.workloadIdentity;
      // A cloud other than azure is refused by the schema (the CRD's enum).
      if (!present(wi)) sink.error(at("auth"), "auth.type workloadIdentity requires the workloadIdentity block");
      unused("secretRef");
      unused("serviceAccount");
      break;
    }
    case "none":
      unused("secretRef");
      unused("serviceAccount");
      unused("workloadIdentity");
      return;
    default:
      return; // an unknown type was reported by the schema
  }
  if (type === "client") sink.error(at("auth"), "auth is not supported for client handlers");
  if (type === "mcp" && isPlainObject(h.mcpConfig) && h.mcpConfig.transport === "stdio") {
    sink.error(at("auth"), "auth is not supported for mcp handlers with stdio transport");
  }
}

/** The operator's `maxBackoff (<max>) must be >= initialBackoff (<init>)`, after defaults. */
function checkBackoffBounds(policy: Record<string, unknown>, transport: RetryTransport, path: PathSegment[], sink: IssueSink): void {
  const { checkGoDuration } = schemas();
  const initial = present(policy.initialBackoff) ? checkGoDuration(policy.initialBackoff) : { ms: DEFAULT_INITIAL_BACKOFF_MS };
  const max = present(policy.maxBackoff) ? checkGoDuration(policy.maxBackoff) : { ms: DEFAULT_MAX_BACKOFF_MS };
  if (!("ms" in initial) || !("ms" in max)) return; // reported by the schema
  if (max.ms < initial.ms) {
    sink.error(
      [...path, "maxBackoff"],
      `${transport} retry policy: maxBackoff (${formatGoDuration(max.ms)}) must be >= initialBackoff (${formatGoDuration(initial.ms)})`,
    );
  }
}

function checkHttpConfig(http: Record<string, unknown>, path: PathSegment[], sink: IssueSink): void {
  if (typeof http.method === "string" && http.method !== "" && !HTTP_TOKEN.test(http.method)) {
    // Omnia admits any method and every call then fails with `net/http: invalid method`.
    sink.warning([...path, "method"], `${JSON.stringify(http.method)} is not a valid HTTP method token; every call will fail`);
  }
  if (http.endpoint === "" && !nonEmptyString(http.urlTemplate)) {
    sink.warning([...path, "endpoint"], "endpoint is empty and there is no urlTemplate; every call will fail");
  }
  if (typeof http.urlTemplate === "string") {
    // A value in the scheme, userinfo, host or port could send the request, and its credentials, elsewhere.
    const problem = urlTemplatePlacementProblem(urlTemplateLayout(http.urlTemplate));
    if (problem !== undefined) sink.error([...path, "urlTemplate"], problem);
  }
}

function checkGrpcTls(grpc: Record<string, unknown>, path: PathSegment[], sink: IssueSink): void {
  const tls = grpc.tls === true;
  for (const field of ["tlsCertPath", "tlsKeyPath", "tlsCAPath", "tlsInsecureSkipVerify"] as const) {
    const value = grpc[field];
    if (!tls && (nonEmptyString(value) || value === true)) {
      sink.warning([...path, field], `${field} is ignored because tls is not true (the connection is plaintext)`);
    }
  }
  if (tls && nonEmptyString(grpc.tlsCertPath) !== nonEmptyString(grpc.tlsKeyPath)) {
    const [set, missing] = nonEmptyString(grpc.tlsCertPath) ? ["tlsCertPath", "tlsKeyPath"] : ["tlsKeyPath", "tlsCertPath"];
    sink.warning([...path, set], `${set} is ignored without ${missing}: a client certificate needs both`);
  }
}
