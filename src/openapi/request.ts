import type { JsonValue } from "../core/index.js";
import { appendQuery, buildOmniaHeaders, goFormat, isValidHeaderValue, mergeHttpToolHeaders } from "../headers/index.js";
import { goJsonMarshal, InvalidArgumentsError, jsonDepthMessage, jsonTextTooDeep, jsonValueTooDeep, pathTemplateLayout } from "../core/index.js";
import { argumentsPresent, expandUrlTemplate, fixedQueryKeys, HttpRequestError, type HttpHeaderContext, type HttpRequestShape } from "../http/index.js";
import type { OpenApiOperation } from "./types.js";

const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);

/**
 * Builds the request for one OpenAPI operation, in the shape
 * `buildHttpRequest` returns, from the operation, the tool-call arguments (a
 * JSON object, as text or parsed) and the header context. Pure: no I/O.
 *
 * Each argument goes by its parameter's `in` (Omnia's `categorizeArgs`):
 * - `path`: every `{name}` in the path template is replaced, in one pass, by
 *   the value's Go `%v` text, **percent-encoded as a path segment** (Go
 *   `url.PathEscape`, as for `urlTemplate`; Omnia substitutes raw text); a value
 *   that would make a dot segment (`.`, `..`, `%2e`, …) is refused;
 * - `query`: added to the query, Go `%v` text, keys sorted (`url.Values.Encode`);
 * - `header`: sent as that header (Go `%v` text); a value that is not a valid
 *   header value is skipped and logged;
 * - `cookie`: not sent;
 * - any argument that is not a declared parameter goes into the JSON body
 *   (Go `json.Marshal`: keys sorted, `<>&` escaped), sent only for POST, PUT
 *   and PATCH and only when there is at least one such argument, with
 *   `Content-Type: application/json`.
 *
 * The URL is `baseURL + path (+ ?query)`. Headers merge case-insensitively
 * as for an http handler: Content-Type < `openAPIConfig.headers` < auth <
 * headersFromSecret < Omnia headers (`x-omnia-tool-name` = the operation's tool
 * name, `x-omnia-tool-registry` = the handler name, identity,
 * `x-omnia-param-*`) < broker-injected < header parameters.
 *
 * @throws HttpRequestError (`ERR_OMNIA_HTTP_REQUEST`) when the arguments are
 *   not a JSON object or a path value would be a dot segment (nothing is
 *   sent); InvalidArgumentsError (`ERR_OMNIA_INVALID_ARGUMENTS`) when they are
 *   nested deeper than 1000 levels
 * @public
 */
export function buildOpenApiRequest(operation: OpenApiOperation, args: string | JsonValue | undefined, context: HttpHeaderContext = {}): HttpRequestShape {
  if (typeof args === "string" ? jsonTextTooDeep(args) : jsonValueTooDeep(args)) {
    throw new InvalidArgumentsError(`building OpenAPI request: invalid arguments: JSON ${jsonDepthMessage()}`);
  }
  const values = objectArgs(args);
  const pathValues = new Map<string, string>();
  const query: Record<string, JsonValue> = {};
  const paramHeaders: Record<string, string> = {};
  const declared = new Set<string>();
  for (const parameter of operation.parameters) {
    declared.add(parameter.name);
    if (!Object.prototype.hasOwnProperty.call(values, parameter.name)) continue;
    const value = values[parameter.name] as JsonValue;
    switch (parameter.in) {
      case "path":
        pathValues.set(parameter.name, goFormat(value));
        break;
      case "query":
        query[parameter.name] = value;
        break;
      case "header": {
        const text = goFormat(value);
        if (isValidHeaderValue(text)) paramHeaders[parameter.name] = text;
        else context.logger?.warn("skipping an OpenAPI header parameter with an invalid value", { header: parameter.name, tool: operation.name });
        break;
      }
      case "cookie":
        break;
    }
  }
  const rest: Record<string, JsonValue> = {};
  let hasRest = false;
  for (const key of Object.keys(values)) {
    if (declared.has(key)) continue;
    Object.defineProperty(rest, key, { value: values[key], enumerable: true, writable: true, configurable: true });
    hasRest = true;
  }
  const body = hasRest && BODY_METHODS.has(operation.method) ? goJsonMarshal(rest) : undefined;
  let path = operation.path;
  if (pathValues.size > 0) {
    const expansion = expandUrlTemplate(path, pathTemplateLayout(path), (name) => pathValues.get(name), (name) => `path parameter ${JSON.stringify(name)}`);
    if (!expansion.ok) throw new HttpRequestError(`building OpenAPI request: ${expansion.message}`);
    path = expansion.url;
  }
  const base = `${operation.baseURL}${path}`;
  const fixed = fixedQueryKeys(operation.baseURL, {});
  const url = appendQuery(base, query);
  const headers = mergeHttpToolHeaders({
    contentType: body === undefined ? undefined : "application/json",
    headers: operation.headers,
    auth: context.auth,
    headersFromSecret: context.headersFromSecret,
    omnia: buildOmniaHeaders({
      identity: context.identity,
      agent: context.agent,
      toolName: operation.name,
      handlerName: operation.handlerName,
      sessionId: context.sessionId,
      delegationToken: context.delegationToken,
      args,
      logger: context.logger,
    }),
    injected: context.injected,
    headerParams: paramHeaders,
  });
  const shape: { method: string; url: string; headers: Readonly<Record<string, string>>; body?: string; redactQuery?: readonly string[] } = { method: operation.method, url, headers };
  if (body !== undefined) shape.body = body;
  if (fixed.size > 0) shape.redactQuery = [...fixed.keys()];
  return shape;
}

function objectArgs(args: string | JsonValue | undefined): Record<string, JsonValue> {
  if (!argumentsPresent(args)) return {};
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch (e) {
      throw new HttpRequestError(`building OpenAPI request: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    const kind = Array.isArray(value) ? "array" : typeof value === "boolean" ? "bool" : typeof value;
    throw new HttpRequestError(`building OpenAPI request: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  return value as Record<string, JsonValue>;
}
