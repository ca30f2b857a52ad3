import type { JsonObject } from "../core/index.js";

/**
 * The parts of a normalised `openAPIConfig` that shape discovery and requests.
 * The manifest's `OpenApiConfig` satisfies it.
 * @public
 */
export interface OpenApiConfigInput {
  /** Where the spec is fetched from (JSON, OpenAPI 3.0/3.1 or Swagger 2.0). */
  readonly specURL: string;
  /** Overrides the spec's server URL; a trailing `/` is dropped. */
  readonly baseURL?: string | undefined;
  /** Keep only the operations with these tool names (exact matches); empty keeps all. */
  readonly operationFilter?: readonly string[] | undefined;
  /** Static headers on every operation request (lowest precedence). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * The parts of an `openapi` handler discovery needs. The manifest's
 * `OpenApiHandlerConfig` satisfies it.
 * @public
 */
export interface OpenApiHandlerInput {
  /** The handler name: sent as `x-omnia-tool-registry`, used in error messages. */
  readonly name: string;
  /** The handler's per-attempt timeout, also the spec fetch's timeout (0 or absent: 30 s). */
  readonly timeoutMs?: number | undefined;
  readonly openAPIConfig: OpenApiConfigInput;
}

/**
 * The HTTP methods an operation can have: Omnia serves get, post, put, patch
 * and delete operations only.
 * @public
 */
export type OpenApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Where a parameter goes. `cookie` parameters are listed (so their arguments
 * never land in the body) but not sent, as in Omnia.
 * @public
 */
export type OpenApiParameterLocation = "path" | "query" | "header" | "cookie";

/**
 * One parameter of an operation, after path- and operation-level parameters
 * were merged (the operation's wins for the same name and location).
 * @public
 */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: OpenApiParameterLocation;
  readonly required: boolean;
}

/**
 * One operation of an `openapi` handler, served as one tool. Everything
 * {@link buildOpenApiRequest} needs is here, so building a request is pure.
 * @public
 */
export interface OpenApiOperation {
  /** The handler that serves it (`x-omnia-tool-registry`). */
  readonly handlerName: string;
  /**
   * The tool name the model calls (`x-omnia-tool-name`, the breaker key): the
   * `operationId`, or `<method>_<path>` with `/` as `_`, braces removed and
   * outer `_` trimmed (`GET /users/{id}/posts` → `get_users_id_posts`).
   */
  readonly name: string;
  /** The spec's `operationId`, when it has one. */
  readonly operationId: string | undefined;
  readonly method: OpenApiMethod;
  /** The path template as written in the spec, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** Scheme, host and base path, without a trailing `/`. */
  readonly baseURL: string;
  /** `openAPIConfig.headers`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly parameters: readonly OpenApiParameter[];
  /** `summary`; else `description` (cut to 197 bytes + `...` when over 200); else `<METHOD> <path>`. */
  readonly description: string;
  /**
   * `{ type: "object", properties, required? }`: each parameter under its own
   * name (its schema, plus its description), then each property of the JSON
   * request body merged in at the top level, not under a `body` key (a body
   * property with a parameter's name replaces it here). `required` lists the
   * required parameters, then the body's required properties; it is omitted
   * when empty.
   */
  readonly inputSchema: JsonObject;
}
