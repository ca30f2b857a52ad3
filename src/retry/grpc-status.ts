import { DEFAULT_GRPC_RETRYABLE_STATUS_CODES, GRPC_STATUS_CODE_NAMES, type GrpcStatusCodeName } from "../core/index.js";
import { NOT_RETRYABLE, RETRYABLE } from "./retry-classification.js";
import type { RetryClassification } from "./retry-classification.js";

/**
 * The canonical gRPC status code names, indexed by code number (core's list).
 * @internal Does not follow semver.
 */
export const GRPC_STATUS_NAMES = GRPC_STATUS_CODE_NAMES;

/**
 * A canonical gRPC status code name, e.g. `DEADLINE_EXCEEDED`.
 * @internal Does not follow semver.
 */
export type GrpcStatusName = GrpcStatusCodeName;

export { DEFAULT_GRPC_RETRYABLE_STATUS_CODES };

const ALIASES = new Map<string, GrpcStatusName>();
for (const name of GRPC_STATUS_NAMES) {
  ALIASES.set(name, name);
  ALIASES.set(name.toLowerCase(), name); // connect's wire form: "deadline_exceeded"
  ALIASES.set(name.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase()), name); // "DeadlineExceeded"
}
// connect-es spells code 1 the American way.
ALIASES.set("Canceled", "CANCELLED");
ALIASES.set("canceled", "CANCELLED");

/**
 * The canonical UPPER_SNAKE name of a gRPC status: from its number (connect's
 * `Code` enum value), its canonical name, connect's enum key (`DeadlineExceeded`,
 * `Canceled`) or its wire string (`deadline_exceeded`). `undefined` if unknown.
 *
 * Why: Omnia 1.3.0 upper-cases grpc-go's CamelCase (`DeadlineExceeded` →
 * `DEADLINEEXCEEDED`), so DEADLINE_EXCEEDED and RESOURCE_EXHAUSTED never match
 * (`internal/runtime/tools/retry_classify.go`). Compare canonical names instead.
 * @internal Does not follow semver.
 */
export function grpcStatusName(code: number | string): GrpcStatusName | undefined {
  if (typeof code === "number") return Number.isInteger(code) ? GRPC_STATUS_NAMES[code] : undefined;
  return ALIASES.get(code);
}

/**
 * Classifies a failed gRPC attempt: retried iff it carries a status whose canonical
 * name is in `retryableStatusCodes`. An error without a status (`undefined`: a breaker
 * rejection, `tool error: …` from `is_error`, an auth error) is never retried.
 * @internal Does not follow semver.
 */
export function classifyGrpcStatus(
  code: number | string | undefined,
  retryableStatusCodes: readonly string[],
): RetryClassification {
  if (code === undefined) return NOT_RETRYABLE;
  const name = grpcStatusName(code);
  return name !== undefined && retryableStatusCodes.includes(name) ? RETRYABLE : NOT_RETRYABLE;
}
