// The openapi folder's surface for sibling folders (registry) and the package entry.
export { loadOpenApiOperations, DEFAULT_SPEC_FETCH_TIMEOUT_MS } from "./load.js";
export type { LoadOpenApiOptions } from "./load.js";
export { deriveOpenApiOperations } from "./operations.js";
export type { DeriveOpenApiOptions } from "./operations.js";
export { buildOpenApiRequest } from "./request.js";
export { executeOpenApiOperation, sendOpenApiRequest } from "./execute.js";
export type { OpenApiAttempt } from "./execute.js";
export { OpenApiSpecError } from "./errors.js";
export type {
  OpenApiConfigInput,
  OpenApiHandlerInput,
  OpenApiMethod,
  OpenApiParameterLocation,
  OpenApiParameter,
  OpenApiOperation,
} from "./types.js";
