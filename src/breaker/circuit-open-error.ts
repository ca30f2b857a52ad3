import { ErrorCode, OmniaToolsError } from "../core/index.js";
import type { OmniaToolsErrorOptions } from "../core/index.js";

/**
 * The state a breaker was in when it rejected a call: `"open"` (the open period
 * has not elapsed) or `"half-open"` (every trial slot is taken).
 * @public
 */
export type CircuitRejectionState = "open" | "half-open";

/**
 * A circuit breaker rejected the call without invoking the backend. It is never
 * retried and never counted by the breaker.
 *
 * The message keeps the Go runtime's text: `circuit breaker [<tool>]: circuit breaker is open`
 * while open, `circuit breaker [<tool>]: too many requests` when half-open has no free trial slot.
 * @public
 */
export class CircuitOpenError extends OmniaToolsError {
  static override readonly code = ErrorCode.CIRCUIT_OPEN;
  declare readonly code: typeof ErrorCode.CIRCUIT_OPEN;
  /** The breaker's key: the tool name, or the sandbox claim for a per-claim breaker. */
  readonly toolName: string;
  /** Why the call was rejected: the breaker is open, or half-open with every trial slot taken. */
  readonly state: CircuitRejectionState;

  constructor(toolName: string, state: CircuitRejectionState, options?: OmniaToolsErrorOptions) {
    super(`circuit breaker [${toolName}]: ${state === "open" ? "circuit breaker is open" : "too many requests"}`, options);
    this.toolName = toolName;
    this.state = state;
  }
}
