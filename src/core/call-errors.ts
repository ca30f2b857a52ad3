import { ErrorCode, OmniaToolsError } from "./errors.js";

/**
 * The model called a tool the registry does not serve: `tool "<name>" not found`.
 * @public
 */
export class UnknownToolError extends OmniaToolsError {
  static override readonly code = ErrorCode.UNKNOWN_TOOL;
  declare readonly code: typeof ErrorCode.UNKNOWN_TOOL;
}

/**
 * The tool-call arguments are not valid JSON. The backend is never called.
 * @public
 */
export class InvalidArgumentsError extends OmniaToolsError {
  static override readonly code = ErrorCode.INVALID_ARGUMENTS;
  declare readonly code: typeof ErrorCode.INVALID_ARGUMENTS;
}

/**
 * A handler's credentials could not be resolved: `handler "<h>" auth: <why>`.
 * Happens before any request and never counts as a breaker failure.
 * @public
 */
export class AuthError extends OmniaToolsError {
  static override readonly code = ErrorCode.AUTH;
  declare readonly code: typeof ErrorCode.AUTH;
}

/**
 * The client's tool failed: a rejection without `isDenied`. The model sees
 * `Tool rejected: <reason>`.
 * @public
 */
export class ClientToolError extends OmniaToolsError {
  static override readonly code = ErrorCode.CLIENT_TOOL;
  declare readonly code: typeof ErrorCode.CLIENT_TOOL;
}

/**
 * A backend failed in a way no more specific error describes (an error thrown
 * by a host-supplied resolver, for instance). The cause is kept.
 * @public
 */
export class BackendError extends OmniaToolsError {
  static override readonly code = ErrorCode.BACKEND;
  declare readonly code: typeof ErrorCode.BACKEND;
}

/**
 * A client tool call reused the id of a client call still pending: the second
 * call is refused (`tool call id "<id>" is already pending a client result`),
 * recorded once as its own call; the pending one is unaffected.
 * @public
 */
export class DuplicateCallIdError extends OmniaToolsError {
  static override readonly code = ErrorCode.DUPLICATE_CALL_ID;
  declare readonly code: typeof ErrorCode.DUPLICATE_CALL_ID;
}
