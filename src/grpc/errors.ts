// No connect import here: the root entry exports these classes without loading connect.
import { ErrorCode, GRPC_STATUS_CODE_NAMES, OmniaToolsError, formatGrpcGoError, type GrpcStatusCodeName, type OmniaToolsErrorOptions } from "../core/index.js";

export type { GrpcStatusCodeName } from "../core/index.js";

/**
 * The backend's `ToolResponse` had `is_error = true`. The message is the text
 * the model sees, `tool error: <error_message>`, exactly as Omnia's
 * `marshalGRPCResponse` builds it.
 *
 * Not a breaker failure and never retried: the RPC itself succeeded (the
 * backend answered), and the error carries no gRPC status.
 * @public
 */
export class ToolError extends OmniaToolsError {
  static override readonly code = ErrorCode.TOOL_ERROR;
  declare readonly code: typeof ErrorCode.TOOL_ERROR;
  /** The backend's `error_message`, verbatim (may be empty). */
  readonly errorMessage: string;
  constructor(errorMessage: string, options?: OmniaToolsErrorOptions) {
    super(`tool error: ${errorMessage}`, options);
    this.errorMessage = errorMessage;
  }
}

/**
 * The call ended with a non-OK gRPC status: sent by the backend, or raised on
 * our side of the wire (connection refused, TLS failure, the `grpc-timeout`
 * deadline, a protocol error).
 *
 * The message is grpc-go's `status.Error` text, which is what Omnia's runtime
 * puts in front of the model: `rpc error: code = <Name> desc = <message>`,
 * with `<Name>` as grpc-go prints it (`Unavailable`, `DeadlineExceeded`,
 * `Canceled`). A connection-level failure is reported as `Unavailable`, as
 * grpc-go does. Any non-OK status is a breaker failure; `grpcCode` is what
 * `retryableStatusCodes` is matched against.
 * @public
 */
export class GrpcStatusError extends OmniaToolsError {
  static override readonly code = ErrorCode.GRPC_STATUS;
  declare readonly code: typeof ErrorCode.GRPC_STATUS;
  /** The canonical UPPER_SNAKE code name, e.g. `UNAVAILABLE`. */
  readonly grpcCode: GrpcStatusCodeName;
  /** The numeric gRPC code, e.g. `14`. */
  readonly grpcCodeNumber: number;
  /** The status message (the `desc` part of the message). */
  readonly statusMessage: string;
  /**
   * @param options.prefix - text before grpc-go's form, as Omnia's executor wraps
   *   a failed call (`gRPC tool execution failed: `)
   */
  constructor(code: GrpcStatusCodeName | number, statusMessage: string, options?: OmniaToolsErrorOptions & { readonly prefix?: string }) {
    const given = typeof code === "number" ? code : GRPC_STATUS_CODE_NAMES.indexOf(code);
    // A number outside 0-16 (or an unknown name) is UNKNOWN.
    const index = GRPC_STATUS_CODE_NAMES[given] === undefined ? 2 : given;
    super(`${options?.prefix ?? ""}${formatGrpcGoError(index, statusMessage)}`, options);
    this.grpcCode = GRPC_STATUS_CODE_NAMES[index] as GrpcStatusCodeName;
    this.grpcCodeNumber = index;
    this.statusMessage = statusMessage;
  }
}

/**
 * The canonical name of a numeric gRPC code (`14` → `UNAVAILABLE`), or
 * `undefined` for a number outside 0–16.
 * @internal Does not follow semver.
 */
export function grpcCodeName(code: number): GrpcStatusCodeName | undefined {
  return GRPC_STATUS_CODE_NAMES[code];
}
