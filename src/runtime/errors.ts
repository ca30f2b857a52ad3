import { ErrorCode, OmniaToolsError } from "../core/index.js";

/**
 * An `Emitter` method was called when the turn no longer accepts it: after
 * `done()`, or after the handler's turn ended. Nothing was sent.
 * @public
 */
export class ConverseStateError extends OmniaToolsError {
  static override readonly code = ErrorCode.CONVERSE_STATE;
  declare readonly code: typeof ErrorCode.CONVERSE_STATE;
}
