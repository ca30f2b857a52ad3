// grpc-go's `status.Error(...).Error()` text, for code that reports a gRPC
// status the way Omnia's Go components print it.

/** grpc-go's `codes.Code.String()`, indexed by code number. */
const GO_CODE_NAMES: readonly string[] = [
  "OK",
  "Canceled",
  "Unknown",
  "InvalidArgument",
  "DeadlineExceeded",
  "NotFound",
  "AlreadyExists",
  "PermissionDenied",
  "ResourceExhausted",
  "FailedPrecondition",
  "Aborted",
  "OutOfRange",
  "Unimplemented",
  "Internal",
  "Unavailable",
  "DataLoss",
  "Unauthenticated",
];

/** connect's text for a deadline that fired, and grpc-go's (the context error) for the same event. */
const CONNECT_DEADLINE_TEXT = "the operation timed out";
const GO_DEADLINE_TEXT = "context deadline exceeded";

/**
 * `rpc error: code = <Name> desc = <message>`, as grpc-go's `status.Error`
 * prints a status: `<Name>` is grpc-go's spelling of the code (`Unimplemented`,
 * `DeadlineExceeded`, `Canceled`), `Code(<n>)` for a number outside 0–16. A
 * deadline that connect reports as `the operation timed out` reads as
 * grpc-go's `context deadline exceeded`.
 * @internal Does not follow semver.
 */
export function formatGrpcGoError(code: number, message: string): string {
  const name = GO_CODE_NAMES[code] ?? `Code(${code})`;
  return `rpc error: code = ${name} desc = ${grpcGoStatusMessage(code, message)}`;
}

/**
 * A status message as grpc-go would have it: connect's deadline text `the
 * operation timed out` on `DeadlineExceeded` (4) is grpc-go's `context deadline
 * exceeded`; any other message is unchanged.
 * @internal Does not follow semver.
 */
export function grpcGoStatusMessage(code: number, message: string): string {
  return code === 4 && message === CONNECT_DEADLINE_TEXT ? GO_DEADLINE_TEXT : message;
}
