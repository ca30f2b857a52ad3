import type { JsonValue, Logger } from "../core/index.js";
import { goJsonMarshal } from "../core/index.js";
import {
  appendQuery,
  goQueryEscape,
  buildOmniaHeaders,
  goFormat,
  isValidHeaderValue,
  mergeHttpToolHeaders,
  type AgentInfo,
  type Identity,
} from "../headers/index.js";
import { evaluateMapping } from "./response.js";
import { HttpRequestError, MappingError } from "./errors.js";
import type { HttpRequestShape } from "./transport.js";

/**
 * The request-shaping fields of a normalised `httpConfig` (http.md §1.3). The
 * `HttpConfig` that `loadToolRegistry` produces satisfies it.
 * @public
 */
export interface HttpRequestShaping {
  readonly endpoint: string;
  /** Default `POST`; upper-cased before use. */
  readonly method?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Default `application/json`; sent only with a body. */
  readonly contentType?: string | undefined;
  readonly queryParams?: readonly string[] | undefined;
  readonly headerParams?: Readonly<Record<string, string>> | undefined;
  readonly staticQuery?: Readonly<Record<string, string>> | undefined;
  readonly staticBody?: JsonValue | undefined;
  readonly bodyMapping?: string | undefined;
  readonly urlTemplate?: string | undefined;
}

/**
 * The parts of an http (or openapi-operation) handler that shape a request.
 * @public
 */
export interface HttpRequestHandler {
  /** The handler name: sent as `x-omnia-tool-registry`. */
  readonly name: string;
  /** The tool name: sent as `x-omnia-tool-name`. */
  readonly tool: { readonly name: string };
  readonly httpConfig: HttpRequestShaping;
}

/**
 * Everything outside the handler that becomes request headers. Credentials are
 * passed in already resolved, so that building stays pure.
 * @public
 */
export interface HttpHeaderContext {
  readonly identity?: Identity | undefined;
  readonly agent?: AgentInfo | undefined;
  /** `x-omnia-session-id`; when given (even empty) it replaces `identity.sessionId`. */
  readonly sessionId?: string | undefined;
  /** `x-omnia-delegation`, when the handler enables delegation and a token was minted. */
  readonly delegationToken?: string | undefined;
  /** The handler's auth header(s), e.g. `{ Authorization: "Bearer …" }`. */
  readonly auth?: Readonly<Record<string, string>> | undefined;
  /** Resolved `headersFromSecret` values. */
  readonly headersFromSecret?: Readonly<Record<string, string>> | undefined;
  /** Headers a policy broker injected. */
  readonly injected?: Readonly<Record<string, string>> | undefined;
  /** Receives a line per skipped header (names only). */
  readonly logger?: Logger | undefined;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Builds the request exactly as Omnia's runtime sends it for an `http` handler
 * (http.md §2), from the handler, the tool-call arguments and the header
 * context. Pure: no I/O.
 *
 * - Method: upper-cased, default POST. POST, PUT and PATCH carry a body; every
 *   other method sends the arguments as query parameters, Go `%v`-formatted.
 * - Empty arguments (`""`, `null`, `{}` as exact text, or `null`/`undefined`/an
 *   object with no keys as a value) send no body, except a `staticBody`.
 * - Advanced path (any of urlTemplate, headerParams, queryParams, staticBody,
 *   bodyMapping, with non-empty arguments): the arguments must be an object;
 *   placeholders `{arg}` are replaced by the value's `%v` text **percent-encoded
 *   as a path segment** (API.md decision 6, unlike 1.3.0's raw text), and args
 *   used by the template or headerParams are consumed.
 * - Simple path: a body method sends the argument text verbatim; a parsed value
 *   is sent as `JSON.stringify` gives it.
 * - Headers merge case-insensitively: Content-Type < httpConfig.headers < auth
 *   < headersFromSecret < Omnia headers < injected < headerParams. The caller's
 *   Authorization is never among them.
 *
 * @throws HttpRequestError (`ERR_OMNIA_HTTP_REQUEST`) for arguments of the wrong
 * shape or an invalid method; MappingError (`ERR_OMNIA_MAPPING`) for a failing bodyMapping
 * @public
 */
export function buildHttpRequest(handler: HttpRequestHandler, args: string | JsonValue | undefined, context: HttpHeaderContext = {}): HttpRequestShape {
  return buildParsedHttpRequest(handler, args, undefined, context);
}

/**
 * {@link buildHttpRequest} for arguments the caller has already parsed:
 * `parsed` is `JSON.parse(args)` for non-blank JSON text (or the value itself),
 * `undefined` when not parsed. The text is then not parsed again for the
 * `x-omnia-param-*` headers or the advanced path; the result is the same.
 * @internal Does not follow semver.
 */
export function buildParsedHttpRequest(
  handler: HttpRequestHandler,
  args: string | JsonValue | undefined,
  parsed: JsonValue | undefined,
  context: HttpHeaderContext = {},
): HttpRequestShape {
  const argValue = parsed === undefined ? args : parsed;
  const config = handler.httpConfig;
  const method = (config.method ?? "").toUpperCase() || "POST";
  if (!TOKEN.test(method)) throw new HttpRequestError(`creating HTTP request: net/http: invalid method ${JSON.stringify(config.method ?? "")}`);
  const bodyMethod = BODY_METHODS.has(method);
  const hasArgs = argumentsPresent(args);
  const headerParams = config.headerParams ?? {};
  const queryParams = config.queryParams ?? [];
  const staticQuery = config.staticQuery ?? {};
  const advanced =
    hasArgs &&
    (config.urlTemplate !== undefined ||
      Object.keys(headerParams).length > 0 ||
      queryParams.length > 0 ||
      config.staticBody !== undefined ||
      config.bodyMapping !== undefined);

  let url = config.urlTemplate ?? config.endpoint;
  let body: string | undefined;
  const paramHeaders: Record<string, string> = {};

  if (advanced) {
    const remaining = { ...objectArgs(argValue, "unmarshalling args for advanced config") };
    if (config.urlTemplate !== undefined) {
      for (const key of Object.keys(remaining)) {
        const placeholder = `{${key}}`;
        if (!url.includes(placeholder)) continue;
        url = substitute(url, placeholder, key, goFormat(remaining[key]));
        delete remaining[key];
      }
    }
    for (const [argName, headerName] of Object.entries(headerParams)) {
      if (!Object.prototype.hasOwnProperty.call(remaining, argName)) continue;
      const value = goFormat(remaining[argName]);
      delete remaining[argName];
      if (isValidHeaderValue(value)) paramHeaders[headerName] = value;
      else context.logger?.warn("skipping a headerParams header with an invalid value", { header: headerName, tool: handler.tool.name });
    }
    if (Object.keys(staticQuery).length > 0) url = appendQuery(url, staticQuery);
    if (bodyMethod) {
      if (queryParams.length > 0) {
        const moved = pick(remaining, queryParams);
        for (const key of Object.keys(moved)) delete remaining[key];
        url = appendQuery(url, moved);
      }
      const base = isPlainObject(config.staticBody) ? config.staticBody : {};
      body = goJsonMarshal({ ...base, ...(remaining as Record<string, JsonValue>) });
    } else {
      const query = queryParams.length > 0 ? pick(remaining, queryParams) : remaining;
      url = appendQuery(url, query);
    }
  } else {
    if (Object.keys(staticQuery).length > 0) url = appendQuery(url, staticQuery);
    if (hasArgs) {
      if (bodyMethod) body = typeof args === "string" ? args : JSON.stringify(args);
      else url = appendQuery(url, objectArgs(argValue, "building query params: unmarshalling query args"));
    } else if (bodyMethod && config.staticBody !== undefined) {
      body = goJsonMarshal(config.staticBody);
    }
  }

  if (body !== undefined && config.bodyMapping !== undefined) body = mapBody(config.bodyMapping, body);

  const headers = mergeHttpToolHeaders({
    contentType: body === undefined ? undefined : (config.contentType ?? "application/json"),
    headers: config.headers,
    auth: context.auth,
    headersFromSecret: context.headersFromSecret,
    omnia: buildOmniaHeaders({
      identity: context.identity,
      agent: context.agent,
      toolName: handler.tool.name,
      handlerName: handler.name,
      sessionId: context.sessionId,
      delegationToken: context.delegationToken,
      args: argValue,
      logger: context.logger,
    }),
    injected: context.injected,
    headerParams: paramHeaders,
  });
  return body === undefined ? { method, url, headers } : { method, url, headers, body };
}

/**
 * Go's rule on the raw argument text: empty when the text is zero-length or
 * exactly `null` or `{}`. A parsed value is empty when it is `undefined`,
 * `null` or an object with no own keys.
 * @internal Does not follow semver.
 */
export function argumentsPresent(args: string | JsonValue | undefined): boolean {
  if (args === undefined || args === null) return false;
  if (typeof args === "string") return !(args === "" || args === "null" || args === "{}");
  if (isPlainObject(args)) return Object.keys(args).length > 0;
  return true;
}

function objectArgs(args: string | JsonValue | undefined, where: string): Record<string, JsonValue> {
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch (e) {
      throw new HttpRequestError(`${where}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  if (!isPlainObject(value)) {
    throw new HttpRequestError(`${where}: json: cannot unmarshal ${goKind(value)} into Go value of type map[string]interface {}`);
  }
  return value;
}

function goKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

function mapBody(expression: string, body: string): string {
  let data: JsonValue;
  try {
    data = JSON.parse(body) as JsonValue;
  } catch {
    return body; // a body that is not JSON passes through unchanged
  }
  const mapped = evaluateMapping(expression, data, (detail) => `body mapping: JMESPath expression ${JSON.stringify(expression)}: ${detail}`);
  if (mapped instanceof MappingError) throw mapped;
  return goJsonMarshal(mapped);
}

function pick(from: Record<string, JsonValue>, names: readonly string[]): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const name of names) if (Object.prototype.hasOwnProperty.call(from, name)) out[name] = from[name] as JsonValue;
  return out;
}

function isPlainObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Replaces every occurrence of `placeholder` with `value`, escaped for where
 * it stands (decision 6): as a path segment (Go `url.PathEscape`) before the
 * template's `?`, as a query component (Go `url.QueryEscape`) after it, so an
 * argument can change neither the host, the path depth, the query's keys nor
 * the fragment. A value that is exactly `.` or `..` would be resolved as a
 * dot segment by the URL parser and climb out of the template's path: it is
 * refused before anything is sent.
 */
function substitute(template: string, placeholder: string, key: string, value: string): string {
  const queryStart = template.indexOf("?");
  let out = "";
  let from = 0;
  for (let at = template.indexOf(placeholder); at >= 0; at = template.indexOf(placeholder, from)) {
    const inQuery = queryStart >= 0 && at > queryStart;
    if (!inQuery && (value === "." || value === "..")) {
      throw new HttpRequestError(`urlTemplate: argument ${JSON.stringify(key)} would be a dot path segment; got ${JSON.stringify(value)}`);
    }
    out += template.slice(from, at) + (inQuery ? goQueryEscape(value) : pathEscape(value));
    from = at + placeholder.length;
  }
  return out + template.slice(from);
}

const PATH_SEGMENT_SAFE = /[A-Za-z0-9\-_.~$&+,:;=@]/;

/**
 * Go's `url.PathEscape`: percent-encodes everything a path segment cannot hold
 * literally (`/`, `?`, `#`, `%`, space, non-ASCII as UTF-8 bytes), upper-case hex.
 * @internal Does not follow semver.
 */
export function pathEscape(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && PATH_SEGMENT_SAFE.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
