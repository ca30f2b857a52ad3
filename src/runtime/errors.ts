import { OmniaToolsError } from "../core/index.js";

/**
 * An `Emitter` method was called when the turn no longer accepts it: after
 * `done()`, or after the handler's turn ended. Nothing was sent.
 * @public
 */
export class ConverseStateError extends OmniaToolsError {
  static override readonly code: string = "ERR_OMNIA_CONVERSE_STATE";
}
