// The retry folder's surface for sibling folders (http, grpc, mcp, openapi, registry) and the package entry.
export { runWithRetry, runRetryLoop } from "./run-with-retry.js";
export type { AttemptOutcome, AttemptContext, AttemptSource, AttemptSink, RetryEnd, RetryLoopOptions, RetryResult, RetryEvent, RetryOptions } from "./run-with-retry.js";
export { runAttempt, runAbortableAttempt } from "./attempt-timeout.js";
export { AttemptAbort, abortHookOf, callAbortListener } from "./attempt-abort.js";
export type { AbortHook, AbortListener } from "./attempt-abort.js";
export type { AttemptSettlement, AttemptOptions } from "./attempt-timeout.js";
export { sleep, abortedError } from "./sleep.js";
export {
  createRetryPolicy,
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_BACKOFF_MULTIPLIER,
  DEFAULT_MAX_BACKOFF_MS,
} from "./retry-policy.js";
export type { RetryPolicy, RetryPolicyOptions } from "./retry-policy.js";
export { computeBackoffDelay } from "./backoff.js";
export { parseRetryAfter } from "./retry-after.js";
export type { RetryClassification } from "./retry-classification.js";
export { classifyHttpStatus, classifyHttpError, isNetworkError, DEFAULT_HTTP_RETRY_RULES } from "./http-classify.js";
export type { HttpRetryRules } from "./http-classify.js";
export {
  classifyGrpcStatus,
  grpcStatusName,
  GRPC_STATUS_NAMES,
  DEFAULT_GRPC_RETRYABLE_STATUS_CODES,
} from "./grpc-status.js";
export type { GrpcStatusName } from "./grpc-status.js";
export { RetriesExhaustedError } from "./retries-exhausted-error.js";
export { onSharedAbort, offSharedAbort } from "../core/index.js";
export type { SharedAbortListener } from "../core/index.js";
