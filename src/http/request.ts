import type { JsonValue, Logger, UrlTemplateLayout } from "../core/index.js";
import { goJsonMarshal, InvalidArgumentsError, jsonDepthMessage, jsonTextTooDeep, jsonValueTooDeep, urlTemplateLayout, urlTemplatePlacementProblem } from "../core/index.js";
import {
  appendQuery,
  buildHttpToolHeaders,
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
import { expandUrlTemplate } from "./url-template.js";
import { redactUrl } from "./redact-url.js";
import { fixedQueryKeys } from "./fixed-query.js";

export { pathEscape } from "../core/index.js";

/**
 * The request-shaping fields of a normalised `httpConfig`. The
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
 * (`internal/runtime/tools/http_client.go`), from the handler, the tool-call arguments and the header
 * context. Pure: no I/O.
 *
 * - Method: upper-cased, default POST. POST, PUT and PATCH carry a body; every
 *   other method sends the arguments as query parameters, Go `%v`-formatted.
 * - Empty arguments (`""`, `null`, `{}` as exact text, or `null`/`undefined`/an
 *   object with no keys as a value) send no body, except a `staticBody`.
 * - Advanced path (any of urlTemplate, headerParams, queryParams, staticBody,
 *   bodyMapping, with non-empty arguments): the arguments must be an object;
 *   each placeholder `{name}` the template declares is replaced, in one pass,
 *   by that argument's `%v` text **percent-encoded** (as a path segment in the
 *   path, as a query component in the query; Omnia 1.3.0 substitutes raw
 *   text), and args used by the template or headerParams are consumed. A
 *   placeholder in the scheme, userinfo, host or port is refused, and so is a
 *   URL whose origin is not the template's, or a path segment that a value
 *   makes a dot segment (`.`, `..`, `%2e`, …).
 * - Fixed values stay fixed: an argument named like a key of the endpoint's
 *   (or template's) own query, of `staticQuery` or of `staticBody` is dropped
 *   where it would replace that value, and a warning is logged once per
 *   handler (Omnia 1.3.0 lets the argument win).
 * - Arguments nested deeper than 1000 levels are refused.
 * - Simple path: a body method sends the argument text verbatim; a parsed value
 *   is sent as `JSON.stringify` gives it.
 * - Headers merge case-insensitively: Content-Type < httpConfig.headers < auth
 *   < headersFromSecret < Omnia headers < injected < headerParams. The caller's
 *   Authorization is never among them.
 *
 * @throws InvalidArgumentsError (`ERR_OMNIA_INVALID_ARGUMENTS`) for arguments
 * nested deeper than 1000 levels; HttpRequestError (`ERR_OMNIA_HTTP_REQUEST`)
 * for arguments of the wrong shape, an invalid method, a urlTemplate placeholder outside
 * the path and query, or a URL that would leave the template's origin or path
 * (nothing is sent); MappingError (`ERR_OMNIA_MAPPING`) for a failing bodyMapping
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
  // The text, when there is one, is what `parsed` came from: scanning it is cheaper (and free below 1000 characters).
  if (typeof args === "string" ? jsonTextTooDeep(args) : jsonValueTooDeep(argValue)) {
    throw new InvalidArgumentsError(`invalid arguments: JSON ${jsonDepthMessage()}`);
  }
  if (jsonValueTooDeep(config.staticBody)) throw new HttpRequestError(`staticBody: JSON ${jsonDepthMessage()}`);
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

  const template = config.urlTemplate ?? config.endpoint;
  const layout = config.urlTemplate === undefined ? undefined : layoutOf(config.urlTemplate);
  if (layout !== undefined) {
    const problem = urlTemplatePlacementProblem(layout);
    if (problem !== undefined) throw new HttpRequestError(`urlTemplate: ${problem}`);
  }
  let url = template;
  let body: string | undefined;
  const paramHeaders: Record<string, string> = {};
  // The manifest's own query keys and staticQuery keys: no argument replaces them.
  const fixed = fixedQueryKeys(template, staticQuery);

  if (advanced) {
    const remaining = { ...objectArgs(argValue, "unmarshalling args for advanced config") };
    if (layout !== undefined && config.urlTemplate !== undefined) {
      const formatted = new Map<string, string>();
      const expansion = expandUrlTemplate(
        config.urlTemplate,
        layout,
        (name) => {
          if (!Object.prototype.hasOwnProperty.call(remaining, name)) return undefined;
          let text = formatted.get(name);
          if (text === undefined) formatted.set(name, (text = goFormat(remaining[name])));
          return text;
        },
        (name) => `argument ${JSON.stringify(name)}`,
      );
      if (!expansion.ok) throw new HttpRequestError(`urlTemplate: ${expansion.message}`);
      url = expansion.url;
      for (const name of expansion.used) delete remaining[name];
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
        url = appendQuery(url, withoutFixed(moved, fixed, handler, context.logger));
      }
      const base = isPlainObject(config.staticBody) ? config.staticBody : {};
      for (const key of Object.keys(remaining)) {
        if (Object.prototype.hasOwnProperty.call(base, key)) {
          delete remaining[key];
          warnFixedOnce(handler, context.logger, key, "staticBody");
        }
      }
      body = goJsonMarshal({ ...base, ...(remaining as Record<string, JsonValue>) });
    } else {
      const query = queryParams.length > 0 ? pick(remaining, queryParams) : remaining;
      url = appendQuery(url, withoutFixed(query, fixed, handler, context.logger));
    }
  } else {
    if (Object.keys(staticQuery).length > 0) url = appendQuery(url, staticQuery);
    if (hasArgs) {
      if (bodyMethod) body = typeof args === "string" ? args : JSON.stringify(args);
      else url = appendQuery(url, withoutFixed(objectArgs(argValue, "building query params: unmarshalling query args"), fixed, handler, context.logger));
    } else if (bodyMethod && config.staticBody !== undefined) {
      body = goJsonMarshal(config.staticBody);
    }
  }

  if (body !== undefined && config.bodyMapping !== undefined) body = mapBody(config.bodyMapping, body);

  const contentType = body === undefined ? undefined : (config.contentType ?? "application/json");
  const omnia = {
    identity: context.identity,
    agent: context.agent,
    toolName: handler.tool.name,
    handlerName: handler.name,
    sessionId: context.sessionId,
    delegationToken: context.delegationToken,
    args: argValue,
    logger: context.logger,
  };
  // No layer but the Omnia one (the common case): one record, with what the merge would give.
  const headers =
    noEntries(config.headers) && noEntries(context.auth) && noEntries(context.headersFromSecret) && noEntries(context.injected) && noEntries(paramHeaders)
      ? buildHttpToolHeaders(contentType, omnia)
      : mergeHttpToolHeaders({
          contentType,
          headers: config.headers,
          auth: context.auth,
          headersFromSecret: context.headersFromSecret,
          omnia: buildOmniaHeaders(omnia),
          injected: context.injected,
          headerParams: paramHeaders,
        });
  if (layout !== undefined) checkOrigin(template, layout.pathStart, url);
  if (fixed.size > 0) {
    const redactQuery = [...fixed.keys()];
    return body === undefined ? { method, url, headers, redactQuery } : { method, url, headers, body, redactQuery };
  }
  return body === undefined ? { method, url, headers } : { method, url, headers, body };
}

/**
 * The URL built from a template has the template's origin (scheme, userinfo,
 * host, port), or nothing is sent. With placeholders only in the path and the
 * query, and every value escaped, this cannot fail; it is checked anyway,
 * before sending, so that no future change can move a request. The URL parser
 * reads the origin from the text before the path alone (the authority ends at
 * the first `/`, `\`, `?` or `#`), so the built URL has the template's origin
 * exactly when it starts with the template's text before the path, followed by
 * one of those characters or nothing.
 */
function checkOrigin(template: string, pathStart: number, url: string): void {
  const next = url.charAt(pathStart);
  if (url.startsWith(template.slice(0, pathStart)) && (next === "" || next === "/" || next === "\\" || next === "?" || next === "#")) return;
  throw new HttpRequestError(`urlTemplate: the arguments would send the request to another origin than ${JSON.stringify(redactUrl(template.slice(0, pathStart)))}`);
}

/** Template layouts by template text: a bounded memo of a pure function (emptied when full). */
const LAYOUTS = new Map<string, UrlTemplateLayout>();
const LAYOUT_LIMIT = 256;

function layoutOf(template: string): UrlTemplateLayout {
  let layout = LAYOUTS.get(template);
  if (layout === undefined) {
    layout = urlTemplateLayout(template);
    if (LAYOUTS.size >= LAYOUT_LIMIT) LAYOUTS.clear();
    LAYOUTS.set(template, layout);
  }
  return layout;
}

/** Handlers whose dropped-argument warning was logged (once per handler config, held weakly). */
const WARNED_FIXED = new WeakSet<object>();

function warnFixedOnce(handler: HttpRequestHandler, logger: Logger | undefined, argument: string, where: string): void {
  if (logger === undefined || WARNED_FIXED.has(handler.httpConfig)) return;
  WARNED_FIXED.add(handler.httpConfig);
  logger.warn("an argument named like a fixed value of the handler was dropped; the fixed value is sent (logged once per handler)", {
    tool: handler.tool.name,
    handler: handler.name,
    argument,
    fixed: where,
  });
}

/** `params` without the keys in `fixed`, each dropped one reported. */
function withoutFixed(params: Record<string, JsonValue>, fixed: ReadonlyMap<string, string>, handler: HttpRequestHandler, logger: Logger | undefined): Record<string, JsonValue> {
  if (fixed.size === 0) return params;
  let out: Record<string, JsonValue> | undefined;
  for (const key of Object.keys(params)) {
    if (!fixed.has(key)) continue;
    out ??= { ...params };
    delete out[key];
    warnFixedOnce(handler, logger, key, fixed.get(key) as string);
  }
  return out ?? params;
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

/** A header layer that adds nothing to a merge: none, or no own enumerable key. */
function noEntries(layer: Readonly<Record<string, string>> | undefined): boolean {
  if (layer === undefined || layer === null) return true;
  for (const key in layer) if (Object.prototype.hasOwnProperty.call(layer, key)) return false;
  return true;
}
