import type { GrpcHandlerConfig, HttpRetryPolicy } from "../manifest/index.js";
import { createRetryPolicy, type HttpRetryRules, type RetryPolicyOptions } from "../retry/index.js";

/**
 * The policy as `createRetryPolicy` normalises it; options it rejects are
 * returned as they are, so that `runWithRetry` rejects them on the call, as before.
 * @internal Does not follow semver.
 */
export function normalizedPolicy(options: RetryPolicyOptions): RetryPolicyOptions {
  try {
    return createRetryPolicy(options);
  } catch {
    return options;
  }
}

/** One attempt, no retry. @internal Does not follow semver. */
export const SINGLE_ATTEMPT: RetryPolicyOptions = normalizedPolicy({ maxAttempts: 1 });

const NO_RETRY_RULES: HttpRetryRules = Object.freeze({ retryOn: Object.freeze([]), retryOnNetworkError: false, respectRetryAfter: false });
const NO_HTTP_RETRY = Object.freeze({ policy: SINGLE_ATTEMPT, rules: NO_RETRY_RULES });

/**
 * The setup of each (frozen) retry policy of a loaded registry, built on its
 * first call: a policy that `createRetryPolicy` has normalised is taken as is
 * by `runWithRetry`, where a fresh options object was validated on every call.
 */
const httpSetups = new WeakMap<HttpRetryPolicy, { policy: RetryPolicyOptions; rules: HttpRetryRules }>();

/** An http/openapi retry policy and its rules; no `retryPolicy` means one attempt. @internal Does not follow semver. */
export function httpRetrySetup(rp: HttpRetryPolicy | undefined): { policy: RetryPolicyOptions; rules: HttpRetryRules } {
  if (rp === undefined) return NO_HTTP_RETRY;
  let setup = httpSetups.get(rp);
  if (setup === undefined) {
    setup = {
      policy: normalizedPolicy({ maxAttempts: rp.maxAttempts, initialBackoffMs: rp.initialBackoffMs, backoffMultiplier: rp.backoffMultiplier, maxBackoffMs: rp.maxBackoffMs }),
      rules: { retryOn: rp.retryOn, retryOnNetworkError: rp.retryOnNetworkError, respectRetryAfter: rp.respectRetryAfter },
    };
    if (Object.isFrozen(rp)) httpSetups.set(rp, setup);
  }
  return setup;
}

const NO_GRPC_RETRY = Object.freeze({ policy: SINGLE_ATTEMPT, retryable: Object.freeze([]) as readonly string[] });

/** The setup of each (frozen) handler's retry policy, built on its first call (see httpRetrySetup). */
const grpcSetups = new WeakMap<GrpcHandlerConfig, { policy: RetryPolicyOptions; retryable: readonly string[] }>();

/** A grpc handler's retry policy and retryable codes; no `retryPolicy` means one attempt. @internal Does not follow semver. */
export function grpcRetrySetup(handler: GrpcHandlerConfig): { policy: RetryPolicyOptions; retryable: readonly string[] } {
  const rp = handler.grpcConfig.retryPolicy;
  if (rp === undefined) return NO_GRPC_RETRY;
  let setup = grpcSetups.get(handler);
  if (setup === undefined) {
    setup = {
      policy: normalizedPolicy({ maxAttempts: rp.maxAttempts, initialBackoffMs: rp.initialBackoffMs, backoffMultiplier: rp.backoffMultiplier, maxBackoffMs: rp.maxBackoffMs }),
      retryable: rp.retryableStatusCodes,
    };
    if (Object.isFrozen(handler) && Object.isFrozen(handler.grpcConfig) && Object.isFrozen(rp)) grpcSetups.set(handler, setup);
  }
  return setup;
}
