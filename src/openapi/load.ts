import { createRequire } from "node:module";
import type * as Undici from "undici";
import type * as Yaml from "yaml";
import {
  AbortedError,
  boundPeerText,
  InvalidOptionError,
  OmniaToolsError,
  TimeoutError,
  systemClock,
  type Clock,
  type JsonObject,
  type Logger,
  type TimerHandle,
} from "../core/index.js";
import { errorBodyText, MAX_RESPONSE_BYTES, fixedQueryKeys, sendHttpRequest, sensitiveHeaderNames, type HttpDispatcher, type HttpWireResponse } from "../http/index.js";
import { aliasExpansionProblem } from "../yaml-limits/index.js";
import { OpenApiSpecError } from "./errors.js";
import { deriveOpenApiOperations } from "./operations.js";
import type { OpenApiHandlerInput, OpenApiOperation } from "./types.js";

/** undici and yaml, loaded on the first spec fetched or parsed, so that importing the package does not load them (both CommonJS: `require` gives the instance `import` would). */
let undiciModule: typeof Undici | undefined;
function undici(): typeof Undici {
  return (undiciModule ??= createRequire(import.meta.url)("undici") as typeof Undici);
}

/** yaml: see undici above. */
let yamlModule: typeof Yaml | undefined;
function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof Yaml);
}

/**
 * The spec fetch's timeout in ms when the handler has none: Omnia's OpenAPI
 * adapter client default.
 * @public
 */
export const DEFAULT_SPEC_FETCH_TIMEOUT_MS = 30_000;

/**
 * Options of {@link loadOpenApiOperations}.
 * @public
 */
export interface LoadOpenApiOptions {
  /**
   * The spec itself, as JSON or YAML text or a parsed object: nothing is
   * fetched. Use it for a spec that is not served over HTTP.
   */
  readonly spec?: string | JsonObject | undefined;
  /** The undici dispatcher for the fetch. Default: a private `Agent`, closed when the fetch ends. */
  readonly dispatcher?: HttpDispatcher | undefined;
  /**
   * Headers for the spec fetch, typically the handler's credential (Omnia authenticates the fetch too). Each is
   * treated as a credential: none of them follows a redirect to another origin (scheme, host or port).
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Abandons the load: it rejects with an `AbortedError`. */
  readonly signal?: AbortSignal | undefined;
  /** Where the fetch timeout runs. Default `systemClock`. */
  readonly clock?: Clock | undefined;
  /** Receives debug lines about skipped parameters and a warning per dropped operation. Default: discards. */
  readonly logger?: Logger | undefined;
  /**
   * Where no `openAPIConfig.baseURL` is pinned, accept only a spec whose
   * `servers[0]` (or Swagger `host`) has the spec URL's own origin. Default false.
   */
  readonly pinOriginToSpec?: boolean | undefined;
}

/**
 * Discovers an `openapi` handler's tools: fetches `specURL` (or takes
 * `options.spec`), parses it as JSON or, when it is not JSON, as YAML (one
 * document, YAML 1.2 core schema, aliases bounded as for manifests), resolves every internal `$ref` with
 * `@readme/openapi-parser` (external references are left as they are, and
 * nothing but `specURL` is fetched), and derives one operation per tool with
 * {@link deriveOpenApiOperations}. Call it again to re-discover.
 *
 * The fetch is a GET through undici that follows redirects like Go's client,
 * must answer exactly 200, reads at most 10 MiB, and is bounded by the
 * handler's `timeoutMs` (default 30 s) on the injected clock.
 *
 * @throws OpenApiSpecError (`ERR_OMNIA_OPENAPI_SPEC`), with Omnia's texts:
 *   `handler "<name>": failed to fetch OpenAPI spec: HTTP <status>: <body>`,
 *   `… failed to fetch OpenAPI spec: <transport error>`,
 *   `… failed to fetch OpenAPI spec: failed to parse spec as JSON: <reason>` (neither JSON
 *   nor a YAML mapping: the reason is JSON's, as Omnia reports it),
 *   `… failed to fetch OpenAPI spec: failed to parse spec as YAML: <reason>` (a YAML spec
 *   whose aliases expand past the bound),
 *   `… failed to resolve the OpenAPI spec: <reason>` (a `$ref` pointing nowhere; the reason
 *   quotes the spec, and is cut at 512 UTF-8 bytes, then `...`),
 *   and those of {@link deriveOpenApiOperations}
 * @throws AbortedError when `options.signal` aborts; InvalidOptionError for a bad handler or option
 * @example
 * ```ts
 * const operations = await loadOpenApiOperations({
 *   name: "pets",
 *   openAPIConfig: { specURL: "https://pets.example/openapi.json", operationFilter: ["getPetById"] },
 * });
 * const request = buildOpenApiRequest(operations[0], '{"petId":7}', { identity });
 * // { method: "GET", url: "https://pets.example/v1/pets/7", headers: { ... } }
 * ```
 * @public
 */
export async function loadOpenApiOperations(handler: OpenApiHandlerInput, options: LoadOpenApiOptions = {}): Promise<readonly OpenApiOperation[]> {
  if (typeof handler !== "object" || handler === null || typeof handler.name !== "string" || handler.name === "") {
    throw new InvalidOptionError(`loadOpenApiOperations: handler must have a non-empty name; got ${describeValue(handler)}`);
  }
  const config = handler.openAPIConfig;
  if (typeof config !== "object" || config === null) {
    throw new InvalidOptionError(`loadOpenApiOperations: handler ${JSON.stringify(handler.name)} has no openAPIConfig`);
  }
  if (options.spec === undefined && (typeof config.specURL !== "string" || config.specURL === "")) {
    throw new InvalidOptionError(`loadOpenApiOperations: handler ${JSON.stringify(handler.name)}: openAPIConfig.specURL must be a non-empty string; got ${describeValue(config.specURL)}`);
  }
  let document: unknown;
  if (options.spec !== undefined && typeof options.spec !== "string") {
    if (typeof options.spec !== "object" || options.spec === null || Array.isArray(options.spec)) {
      throw new InvalidOptionError(`loadOpenApiOperations: spec must be JSON text or an object; got ${describeValue(options.spec)}`);
    }
    document = structuredClone(options.spec);
  } else {
    const text = typeof options.spec === "string" ? options.spec : await fetchSpec(handler, options);
    document = parseSpec(handler.name, text);
  }
  const { dereference } = await import("@readme/openapi-parser");
  let resolved: unknown;
  try {
    // The parser mutates its input; `document` is already our own copy. Cycles
    // stay as object cycles; the input schemas cut them.
    resolved = await dereference(document as Parameters<typeof dereference>[0], { resolve: { external: false }, dereference: { circular: true } });
  } catch (error) {
    // The parser's text quotes the spec's `$ref`: cut at 512 UTF-8 bytes, as every peer text the model reads (issue #31).
    throw new OpenApiSpecError(handler.name, `failed to resolve the OpenAPI spec: ${boundPeerText(messageOf(error))}`, { cause: error });
  }
  return deriveOpenApiOperations(handler, resolved, { specURL: config.specURL, logger: options.logger, pinOriginToSpec: options.pinOriginToSpec });
}

async function fetchSpec(handler: OpenApiHandlerInput, options: LoadOpenApiOptions): Promise<string> {
  const url = handler.openAPIConfig.specURL;
  const clock = options.clock ?? systemClock;
  const timeoutMs = handler.timeoutMs !== undefined && handler.timeoutMs > 0 ? handler.timeoutMs : DEFAULT_SPEC_FETCH_TIMEOUT_MS;
  const controller = new AbortController();
  const parent = options.signal;
  const onAbort = (): void => controller.abort(parent?.reason);
  if (parent?.aborted === true) controller.abort(parent.reason);
  else parent?.addEventListener("abort", onAbort, { once: true });
  let timer: TimerHandle | undefined;
  if (Number.isFinite(timeoutMs)) timer = clock.setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
  const own = options.dispatcher === undefined ? new (undici().Agent)() : undefined;
  let response: HttpWireResponse;
  try {
    // The fetch's headers are the handler's credentials: none of them follows a redirect to another origin (the same
    // rule as a tool call's, whatever a header is called: `auth.workloadIdentity.header: X-Api-Token`, say).
    const headers = { ...(options.headers ?? {}) };
    response = await sendHttpRequest(own ?? (options.dispatcher as HttpDispatcher), { method: "GET", url, headers, redactQuery: [...fixedQueryKeys(url, {}).keys()] }, { signal: controller.signal, sensitiveHeaders: sensitiveHeaderNames(headers) });
  } catch (error) {
    if (parent?.aborted === true) {
      throw new AbortedError(`loadOpenApiOperations: handler ${JSON.stringify(handler.name)}: the caller's signal aborted`, { cause: parent.reason });
    }
    const reason = controller.signal.aborted ? controller.signal.reason : error;
    throw new OpenApiSpecError(handler.name, `failed to fetch OpenAPI spec: ${messageOf(reason)}`, { cause: reason });
  } finally {
    timer?.clear();
    parent?.removeEventListener("abort", onAbort);
    await own?.destroy();
  }
  if (response.status !== 200) {
    throw new OpenApiSpecError(handler.name, `failed to fetch OpenAPI spec: HTTP ${response.status}: ${errorBodyText(response.body)}`);
  }
  if (response.truncated) {
    throw new OpenApiSpecError(handler.name, `failed to fetch OpenAPI spec: the spec is larger than ${MAX_RESPONSE_BYTES} bytes`);
  }
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(response.body);
}

/**
 * Go's `json.Unmarshal` into `map[string]any`, with Omnia's wording; text that
 * is not JSON is read as YAML (the CRD documents `specURL` as "JSON or YAML").
 */
function parseSpec(handlerName: string, text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const yaml = parseYamlSpec(handlerName, text);
    if (yaml !== undefined) return yaml;
    throw new OpenApiSpecError(handlerName, `failed to fetch OpenAPI spec: failed to parse spec as JSON: ${messageOf(error)}`, { cause: error });
  }
  // `null` decodes into a nil map in Go: no base URL, no paths.
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    const kind = Array.isArray(value) ? "array" : typeof value === "boolean" ? "bool" : typeof value;
    throw new OpenApiSpecError(handlerName, `failed to fetch OpenAPI spec: failed to parse spec as JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  return value as JsonObject;
}

/**
 * The spec as one YAML document whose root is a mapping, or `undefined` when
 * the text is not that (a syntax error, several documents, a scalar such as an
 * HTML page): the caller then reports the JSON error.
 */
function parseYamlSpec(handlerName: string, text: string): JsonObject | undefined {
  const doc = yaml().parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) return undefined;
  const tooBig = aliasExpansionProblem(doc);
  if (tooBig !== undefined) throw new OpenApiSpecError(handlerName, `failed to fetch OpenAPI spec: failed to parse spec as YAML: ${tooBig.message}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    throw new OpenApiSpecError(handlerName, `failed to fetch OpenAPI spec: failed to parse spec as YAML: ${messageOf(error)}`, { cause: error });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return value as JsonObject;
}

function messageOf(error: unknown): string {
  if (error instanceof OmniaToolsError || error instanceof Error) return error.message;
  return String(error);
}

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

