import { ErrorCode, OmniaToolsError, type OmniaToolsErrorOptions } from "../core/index.js";

/**
 * An `openapi` handler's spec could not be turned into tools: the fetch
 * failed or did not answer 200, the body is not a JSON object, a `$ref` points
 * nowhere, there is no base URL or no `paths`, or two operations share a tool
 * name. Omnia makes this fatal for initialisation. Messages start with
 * `handler "<name>": `, e.g. `handler "pets": failed to fetch OpenAPI spec: HTTP 404: not found`.
 * @public
 */
export class OpenApiSpecError extends OmniaToolsError {
  static override readonly code = ErrorCode.OPENAPI_SPEC;
  declare readonly code: typeof ErrorCode.OPENAPI_SPEC;
  /** The handler whose spec failed. */
  readonly handlerName: string;
  constructor(handlerName: string, message: string, options?: OmniaToolsErrorOptions) {
    super(`handler ${JSON.stringify(handlerName)}: ${message}`, options);
    this.handlerName = handlerName;
  }
}
