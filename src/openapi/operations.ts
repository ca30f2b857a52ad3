import { boundPeerText, type JsonObject, type JsonValue, type Logger } from "../core/index.js";
import { OpenApiSpecError } from "./errors.js";
import type { OpenApiHandlerInput, OpenApiMethod, OpenApiOperation, OpenApiParameter, OpenApiParameterLocation } from "./types.js";

/** The operations Omnia serves, in this order within a path. */
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const LOCATIONS: ReadonlySet<string> = new Set(["path", "query", "header", "cookie"]);
/** Swagger 2.0 parameter fields that are JSON Schema keywords. */
const V2_SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "multipleOf",
] as const;
/** Deeper schemas than this are cut (a recursive `$ref` is cut where it recurses). */
const MAX_SCHEMA_DEPTH = 64;
/** Descriptions longer than this many bytes are cut to 197 bytes plus `...`. */
const DESCRIPTION_MAX_BYTES = 200;

/**
 * Options of {@link deriveOpenApiOperations}.
 * @public
 */
export interface DeriveOpenApiOptions {
  /** Where the spec came from: a relative `servers[0].url` is resolved against it. Default `openAPIConfig.specURL`. */
  readonly specURL?: string | undefined;
  /** Receives a debug line per skipped parameter and a warning per dropped operation. Default: discards. */
  readonly logger?: Logger | undefined;
  /**
   * Where no `openAPIConfig.baseURL` is pinned, accept only a `servers[0]` (or
   * Swagger `host`) with the spec URL's own origin: the document then cannot
   * send the handler's calls, and their credentials, to a host of its choosing.
   * Default false (Omnia takes the origin from the spec).
   */
  readonly pinOriginToSpec?: boolean | undefined;
}

interface ParameterInfo extends OpenApiParameter {
  readonly description: string | undefined;
  readonly schema: unknown;
}

/**
 * Turns a **dereferenced** OpenAPI 3.0/3.1 or Swagger 2.0 document into the
 * handler's operations, one tool each (as Omnia's `internal/runtime/tools/openapi_parser.go`
 * discovers them), in document
 * order (paths as written; get, post, put, patch, delete within a path).
 *
 * - Base URL: `openAPIConfig.baseURL`; else `servers[0].url` (its `{variables}`
 *   set to their defaults, resolved against the spec URL when relative); else
 *   Swagger's `<schemes[0] or https>://<host><basePath>`. One trailing `/` is
 *   dropped.
 * - Name: the `operationId`, else `<method>_<path>`; `operationFilter` keeps
 *   exact matches.
 * - Parameters: path-level then operation-level (the operation's wins for the
 *   same name and location); `path`, `query`, `header` and `cookie` ones.
 *   Swagger's `in: body` parameter is the JSON body; `formData` is ignored.
 * - Input schema: see {@link OpenApiOperation.inputSchema}. The JSON body is
 *   the `application/json` (or other JSON) media type of `requestBody`; its
 *   `properties` and `required` (also through `allOf`) are merged in. A
 *   recursive schema is cut to `{}` where it recurses.
 *
 * Pure: no I/O.
 * @throws OpenApiSpecError (`ERR_OMNIA_OPENAPI_SPEC`) for no base URL
 *   (`no base URL configured and none found in spec`), no `paths`
 *   (`failed to parse operations: no paths found in spec`), or two kept
 *   operations with the same tool name (`two operations have the tool name
 *   "<name>": <METHOD> <path> and <METHOD> <path>`, cut at 512 UTF-8 bytes,
 *   then `...`: every word of it is the spec's)
 * @public
 */
export function deriveOpenApiOperations(handler: OpenApiHandlerInput, document: unknown, options: DeriveOpenApiOptions = {}): readonly OpenApiOperation[] {
  const handlerName = handler.name;
  const config = handler.openAPIConfig;
  if (!isObject(document)) throw new OpenApiSpecError(handlerName, "failed to parse operations: the spec is not a JSON object");
  const specURL = options.specURL ?? config.specURL;
  const pinned = config.baseURL !== undefined && config.baseURL !== "";
  const baseURL = resolveBaseURL(config.baseURL, document, specURL);
  if (baseURL === "") throw new OpenApiSpecError(handlerName, "no base URL configured and none found in spec");
  const base = parseBase(handlerName, baseURL);
  if (!pinned && options.pinOriginToSpec === true) pinToSpec(handlerName, base, specURL);
  const paths = document["paths"];
  if (!isObject(paths)) throw new OpenApiSpecError(handlerName, "failed to parse operations: no paths found in spec");
  const filter = config.operationFilter ?? [];
  const headers = Object.freeze({ ...(config.headers ?? {}) });
  const seen = new Map<string, string>();
  const out: OpenApiOperation[] = [];
  for (const path of Object.keys(paths)) {
    const item = paths[path];
    if (!isObject(item)) continue;
    // The path key is the spec's text: one that is no absolute path, or that leaves the base URL, is never sent.
    const problem = pathKeyProblem(path) ?? leavesBase(base, baseURL, path);
    if (problem !== undefined) {
      options.logger?.warn("OpenAPI operations dropped: their path is not within the base URL", { handler: handlerName, path: printablePath(path), reason: problem });
      continue;
    }
    for (const lower of METHODS) {
      const op = item[lower];
      if (!isObject(op)) continue;
      const method = lower.toUpperCase() as OpenApiMethod;
      const operationId = typeof op["operationId"] === "string" && op["operationId"] !== "" ? op["operationId"] : undefined;
      const name = operationId ?? generatedName(lower, path);
      if (filter.length > 0 && !filter.includes(name)) continue;
      const where = `${method} ${path}`;
      const prior = seen.get(name);
      // Every word after the handler's name is the spec's: cut at 512 UTF-8 bytes, as every peer text the model reads (issue #31).
      if (prior !== undefined) throw new OpenApiSpecError(handlerName, boundPeerText(`two operations have the tool name ${JSON.stringify(name)}: ${prior} and ${where}`));
      seen.set(name, where);
      const { parameters, bodySchema } = collectParameters(item, op, options.logger, where);
      out.push(
        Object.freeze({
          handlerName,
          name,
          operationId,
          method,
          path,
          baseURL,
          headers,
          parameters: Object.freeze(parameters.map((p) => Object.freeze({ name: p.name, in: p.in, required: p.required }))),
          description: describeOperation(op, method, path),
          inputSchema: inputSchema(parameters, bodySchema ?? jsonBodySchema(op)),
        }),
      );
    }
  }
  return Object.freeze(out);
}

/** `GET /users/{id}/posts` → `get_users_id_posts` (Omnia's `generateOperationID`). */
function generatedName(method: string, path: string): string {
  const cleaned = path.replaceAll("/", "_").replaceAll("{", "").replaceAll("}", "").replace(/^_+|_+$/g, "");
  return `${method}_${cleaned}`;
}

function resolveBaseURL(override: string | undefined, document: Record<string, unknown>, specURL: string | undefined): string {
  if (override !== undefined && override !== "") return trimSlash(override);
  const servers = document["servers"];
  if (Array.isArray(servers) && isObject(servers[0]) && typeof servers[0]["url"] === "string") {
    const server = servers[0];
    let url = String(server["url"]).replace(/\{([^}]*)\}/g, (whole, name: string) => {
      const variable = isObject(server["variables"]) ? server["variables"][name] : undefined;
      return isObject(variable) && typeof variable["default"] === "string" ? variable["default"] : whole;
    });
    if (!/^[a-z][a-z0-9+.-]*:/i.test(url) && url !== "" && specURL !== undefined) {
      try {
        url = new URL(url, specURL).href;
      } catch {
        // A spec URL that is not absolute: keep the server URL as written.
      }
    }
    return trimSlash(url);
  }
  const host = document["host"];
  if (typeof host === "string" && host !== "") {
    const schemes = document["schemes"];
    const scheme = Array.isArray(schemes) && typeof schemes[0] === "string" ? schemes[0] : "https";
    const basePath = typeof document["basePath"] === "string" ? document["basePath"] : "";
    return trimSlash(`${scheme}://${host}${basePath}`);
  }
  return "";
}

/** The base URL, parsed; only http and https can carry a call. */
function parseBase(handlerName: string, baseURL: string): URL {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new OpenApiSpecError(handlerName, `the base URL ${JSON.stringify(printablePath(baseURL))} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OpenApiSpecError(handlerName, `unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))} in the base URL: expected http or https`);
  }
  return url;
}

/** `pinOriginToSpec`: the spec's servers must have the spec URL's origin. */
function pinToSpec(handlerName: string, base: URL, specURL: string | undefined): void {
  let origin: string | undefined;
  try {
    origin = specURL === undefined ? undefined : new URL(specURL).origin;
  } catch {
    origin = undefined;
  }
  if (origin !== base.origin) {
    throw new OpenApiSpecError(handlerName, `the spec's server origin ${JSON.stringify(base.origin)} is not the spec URL's origin ${JSON.stringify(origin ?? "")}, to which the origin is pinned`);
  }
}

/**
 * Why a `paths` key is not an absolute path template, or undefined when it is:
 * a leading `/` and not `//` (no authority), no `?` or `#`, no backslash, no
 * control character or space (a URL parser drops or rewrites them), no
 * encoded `/` or `\`, and no `.` or `..` segment in any spelling (`%2e`, any
 * case, with a `;` parameter as some servers read it).
 * @internal Does not follow semver.
 */
export function pathKeyProblem(path: string): string | undefined {
  if (!path.startsWith("/") || path.startsWith("//")) return "a path key must start with a single /";
  // eslint-disable-next-line no-control-regex
  if (/[?#\\\u0000-\u0020\u007f]/.test(path)) return "a path key must not contain ?, #, \\, spaces or control characters";
  if (/%(?:2f|5c)/i.test(path)) return "a path key must not contain an encoded / or \\";
  for (const segment of path.split("/")) {
    if (/^(?:\.|%2e){1,2}(?:;.*)?$/i.test(segment)) return "a path key must not contain a . or .. segment";
  }
  return undefined;
}

/**
 * Why the URL an operation builds leaves the base URL's origin or path prefix
 * (compared segment by segment: `/api` does not contain `/apinolead`), or
 * undefined when it stays within.
 */
function leavesBase(base: URL, baseURL: string, path: string): string | undefined {
  let built: URL;
  try {
    built = new URL(`${baseURL}${path}`);
  } catch {
    return "the base URL and the path key make no URL";
  }
  if (built.origin !== base.origin) return `the URL leaves the base URL's origin ${base.origin}`;
  const prefix = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
  if (built.pathname !== base.pathname && !built.pathname.startsWith(prefix)) return `the URL leaves the base URL's path ${base.pathname}`;
  return undefined;
}

/** A path key as a log line quotes it: at most 200 characters, control characters escaped. */
function printablePath(path: string): string {
  const cut = path.length <= 200 ? path : `${path.slice(0, 200)}...`;
  // eslint-disable-next-line no-control-regex
  return cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function trimSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}

function collectParameters(
  item: Record<string, unknown>,
  op: Record<string, unknown>,
  logger: Logger | undefined,
  where: string,
): { parameters: ParameterInfo[]; bodySchema: unknown } {
  const byKey = new Map<string, ParameterInfo>();
  let bodySchema: unknown;
  for (const source of [item["parameters"], op["parameters"]]) {
    if (!Array.isArray(source)) continue;
    for (const raw of source) {
      if (!isObject(raw) || typeof raw["name"] !== "string" || raw["name"] === "") continue;
      const location = raw["in"];
      if (location === "body") {
        bodySchema = raw["schema"];
        continue;
      }
      if (typeof location !== "string" || !LOCATIONS.has(location)) {
        logger?.debug("openapi: parameter skipped (only path, query, header and cookie parameters are supported)", { operation: where, parameter: raw["name"], in: location });
        continue;
      }
      const description = typeof raw["description"] === "string" && raw["description"] !== "" ? raw["description"] : undefined;
      byKey.set(`${location}\u0000${raw["name"]}`, {
        name: raw["name"],
        in: location as OpenApiParameterLocation,
        required: raw["required"] === true,
        description,
        schema: parameterSchema(raw),
      });
    }
  }
  return { parameters: [...byKey.values()], bodySchema };
}

/** OpenAPI 3: `schema`, else the first `content` entry's schema; Swagger 2: the parameter's own keywords; else a string. */
function parameterSchema(parameter: Record<string, unknown>): unknown {
  if (isObject(parameter["schema"])) return parameter["schema"];
  const content = parameter["content"];
  if (isObject(content)) {
    const first = Object.values(content)[0];
    if (isObject(first) && isObject(first["schema"])) return first["schema"];
  }
  const v2: Record<string, unknown> = {};
  for (const key of V2_SCHEMA_KEYS) if (parameter[key] !== undefined) v2[key] = parameter[key];
  return Object.keys(v2).length > 0 ? v2 : { type: "string" };
}

/** The schema of the JSON media type of `requestBody`: `application/json` first, else the first `*\/json` or `*+json`. */
function jsonBodySchema(op: Record<string, unknown>): unknown {
  const body = op["requestBody"];
  if (!isObject(body) || !isObject(body["content"])) return undefined;
  const content = body["content"];
  const exact = content["application/json"];
  if (isObject(exact)) return exact["schema"];
  for (const [type, media] of Object.entries(content)) {
    const essence = type.split(";")[0]?.trim().toLowerCase() ?? "";
    if ((essence.endsWith("/json") || essence.endsWith("+json")) && isObject(media)) return media["schema"];
  }
  return undefined;
}

/** A body schema's top-level properties and required names, `allOf` members included. */
function objectShape(schema: unknown, depth = 0): { properties: [string, unknown][]; required: string[] } {
  const properties: [string, unknown][] = [];
  const required: string[] = [];
  if (!isObject(schema) || depth > 8) return { properties, required };
  if (isObject(schema["properties"])) for (const [name, value] of Object.entries(schema["properties"])) properties.push([name, value]);
  if (Array.isArray(schema["required"])) for (const name of schema["required"]) if (typeof name === "string") required.push(name);
  if (Array.isArray(schema["allOf"])) {
    for (const member of schema["allOf"]) {
      const inner = objectShape(member, depth + 1);
      properties.push(...inner.properties);
      required.push(...inner.required);
    }
  }
  return { properties, required };
}

function inputSchema(parameters: readonly ParameterInfo[], bodySchema: unknown): JsonObject {
  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  for (const p of parameters) {
    const schema = toJson(p.schema, new Set(), 0);
    setOwn(properties, p.name, p.description !== undefined && isObject(schema) ? withOwn(schema as Record<string, JsonValue>, "description", p.description) : schema);
    if (p.required) required.push(p.name);
  }
  const body = objectShape(bodySchema);
  for (const [name, schema] of body.properties) setOwn(properties, name, toJson(schema, new Set(), 0));
  required.push(...body.required);
  const unique = [...new Set(required)];
  const out: JsonObject = { type: "object", properties };
  if (unique.length > 0) out["required"] = unique;
  return out;
}

/** A JSON copy of a (dereferenced, possibly cyclic) schema: a cycle or excess depth becomes `{}` (any value). */
function toJson(value: unknown, ancestors: Set<object>, depth: number): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "object") return null;
  if (ancestors.has(value) || depth >= MAX_SCHEMA_DEPTH) return {};
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => toJson(v, ancestors, depth + 1));
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) setOwn(out, k, toJson(v, ancestors, depth + 1));
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * `summary`; else `description`, cut as Go slices bytes (`[:197] + "..."`
 * when over 200 bytes, a split character showing as U+FFFD per dangling byte,
 * as Go's JSON encoder writes it); else `<METHOD> <path>`.
 */
function describeOperation(op: Record<string, unknown>, method: string, path: string): string {
  const summary = op["summary"];
  if (typeof summary === "string" && summary !== "") return summary;
  const description = op["description"];
  if (typeof description === "string" && description !== "") {
    const bytes = Buffer.from(description, "utf8");
    if (bytes.byteLength <= DESCRIPTION_MAX_BYTES) return description;
    const cut = DESCRIPTION_MAX_BYTES - 3;
    let start = cut;
    while (start > 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
    return `${bytes.subarray(0, start).toString("utf8")}${"\uFFFD".repeat(cut - start)}...`;
  }
  return `${method} ${path}`;
}

function withOwn(object: Record<string, JsonValue>, key: string, value: JsonValue): Record<string, JsonValue> {
  const out = { ...object };
  setOwn(out, key, value);
  return out;
}

/** Sets an own enumerable property, even one named `__proto__`. */
function setOwn(object: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
