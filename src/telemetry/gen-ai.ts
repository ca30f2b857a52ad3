// OpenTelemetry's GenAI and MCP semantic conventions, as the names of
// semantic-conventions v1.41.1 give them. Every name below is copied from that
// tag's model files (cited beside each group); a convention that is not in
// those files at v1.41.1 is not emitted here.
import { maskValues } from "../core/index.js";

/**
 * The semantic-conventions release the `gen_ai` names are taken from.
 * @internal Does not follow semver.
 */
export const GEN_AI_SEMCONV_VERSION = "1.41.1";

// model/gen-ai/spans.yaml (span.gen_ai.execute_tool.internal) and model/gen-ai/registry.yaml.
/** `gen_ai.operation.name` value of a tool execution span. @internal Does not follow semver. */
export const GEN_AI_EXECUTE_TOOL = "execute_tool";
/** @internal Does not follow semver. */
export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
/** @internal Does not follow semver. */
export const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
/** @internal Does not follow semver. */
export const ATTR_GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
/** @internal Does not follow semver. */
export const ATTR_GEN_AI_TOOL_TYPE = "gen_ai.tool.type";
/** @internal Does not follow semver. */
export const ATTR_GEN_AI_TOOL_DESCRIPTION = "gen_ai.tool.description";
/** Opt-in (`captureContent`). @internal Does not follow semver. */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
/** Opt-in (`captureContent`). @internal Does not follow semver. */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result";
// model/error/registry.yaml.
/** @internal Does not follow semver. */
export const ATTR_ERROR_TYPE = "error.type";
/** `error.type` for an error with no code of its own (`error.type`'s `other` member). @internal Does not follow semver. */
export const ERROR_TYPE_OTHER = "_OTHER";

// model/mcp/registry.yaml, model/mcp/common.yaml, model/mcp/spans.yaml (span.mcp.client),
// model/jsonrpc/registry.yaml, model/network/registry.yaml, model/server/registry.yaml, model/rpc/registry.yaml.
/** @internal Does not follow semver. */
export const ATTR_MCP_METHOD_NAME = "mcp.method.name";
/** @internal Does not follow semver. */
export const ATTR_MCP_SESSION_ID = "mcp.session.id";
/** @internal Does not follow semver. */
export const ATTR_MCP_PROTOCOL_VERSION = "mcp.protocol.version";
/** @internal Does not follow semver. */
export const ATTR_JSONRPC_REQUEST_ID = "jsonrpc.request.id";
/** @internal Does not follow semver. */
export const ATTR_NETWORK_TRANSPORT = "network.transport";
/** @internal Does not follow semver. */
export const ATTR_NETWORK_PROTOCOL_NAME = "network.protocol.name";
/** @internal Does not follow semver. */
export const ATTR_SERVER_ADDRESS = "server.address";
/** @internal Does not follow semver. */
export const ATTR_SERVER_PORT = "server.port";
/** @internal Does not follow semver. */
export const ATTR_RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";
/** `error.type` of a `CallToolResult` with `isError: true` (model/mcp/common.yaml). @internal Does not follow semver. */
export const MCP_TOOL_ERROR = "tool_error";

/**
 * The `OTEL_SEMCONV_STABILITY_OPT_IN` value that turns on the latest
 * experimental GenAI conventions (the variable is a comma-separated list).
 * @internal Does not follow semver.
 */
export const GEN_AI_OPT_IN = "gen_ai_latest_experimental";

/**
 * Bounds on what a tool's own texts (its name and description, which an MCP
 * server or a model chooses) and opted-in contents put on a span, in UTF-16
 * code units; a longer text is cut and ends with `...`.
 * @internal Does not follow semver.
 */
export const GEN_AI_LIMITS = Object.freeze({ toolNameChars: 256, descriptionChars: 1024, contentChars: 16_384 });

/** The `gen_ai.tool.type` of a handler type: `extension` for MCP and platform tools (agent-side), else `function`. */
export function genAiToolType(handlerType: string | undefined): "function" | "extension" {
  return handlerType === "mcp" || handlerType === "platform" ? "extension" : "function";
}

// C0 and C1 controls, DEL, and the line and paragraph separators: none reaches a span name or attribute.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A hostile text made safe for a span: controls replaced by U+FFFD, at most `max` code units (then `...`). */
export function boundedText(text: string, max: number): string {
  // Each control is one code unit and becomes one, so cutting first gives the same text and
  // scans at most `max` code units, not the whole of a hostile megabyte.
  if (text.length <= max) return text.replace(CONTROL, "\uFFFD");
  const clean = text.slice(0, max).replace(CONTROL, "\uFFFD");
  // Never split a surrogate pair.
  let end = max - 3;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${clean.slice(0, end)}...`;
}

/** `error.type`: an `ERR_OMNIA_*` code (a low-cardinality identifier), else `_OTHER`. */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" && code.startsWith("ERR_OMNIA_") ? code : ERROR_TYPE_OTHER;
}

/** Whether `OTEL_SEMCONV_STABILITY_OPT_IN` (a comma-separated list) asks for the GenAI conventions. */
export function envOptsIntoGenAi(env: Readonly<Record<string, string | undefined>> | undefined): boolean {
  const value = env?.["OTEL_SEMCONV_STABILITY_OPT_IN"];
  return value !== undefined && value.split(",").some((v) => v.trim() === GEN_AI_OPT_IN);
}

/**
 * A text with every secret value shown as `***`, as error texts show
 * credentials: each value as it is and as it appears inside a JSON string, and
 * the token of a `Bearer`/`Basic` header value on its own. Longest first, so a
 * secret that contains another is hidden whole.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === "") continue;
    const scheme = /^(?:bearer|basic)\s+(.+)$/i.exec(secret);
    for (const value of scheme === null ? [secret] : [secret, scheme[1] as string]) {
      forms.add(value);
      forms.add(JSON.stringify(value).slice(1, -1));
    }
  }
  return maskValues(text, forms);
}
