/**
 * The canonical gRPC status code names (UPPER_SNAKE).
 * @public
 */
export type GrpcStatusCodeName =
  | "OK"
  | "CANCELLED"
  | "UNKNOWN"
  | "INVALID_ARGUMENT"
  | "DEADLINE_EXCEEDED"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PERMISSION_DENIED"
  | "RESOURCE_EXHAUSTED"
  | "FAILED_PRECONDITION"
  | "ABORTED"
  | "OUT_OF_RANGE"
  | "UNIMPLEMENTED"
  | "INTERNAL"
  | "UNAVAILABLE"
  | "DATA_LOSS"
  | "UNAUTHENTICATED";

/**
 * Every canonical gRPC status code name, indexed by code number.
 * @public
 */
export const GRPC_STATUS_CODE_NAMES: readonly GrpcStatusCodeName[] = Object.freeze([
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
]);

/**
 * `grpcConfig.retryPolicy.retryableStatusCodes` when absent, as Omnia's controller
 * defaults it (`internal/controller/tools_config.go`); an explicit `[]` retries no status.
 * @public
 */
export const DEFAULT_GRPC_RETRYABLE_STATUS_CODES: readonly GrpcStatusCodeName[] = Object.freeze(["UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"]);
