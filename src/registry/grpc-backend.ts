import { ErrorCode, systemClock, type Clock, type Logger } from "../core/index.js";
import type { GrpcHandlerConfig } from "../manifest/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import { GrpcStatusError, interpretToolResponse, type ToolServiceCallOptions, type ToolServiceClient } from "../grpc/index.js";
import { classifyGrpcStatus, runAbortableAttempt, type AttemptOutcome, type RetryPolicyOptions } from "../retry/index.js";
import { normalizedPolicy, type BackendSuccess } from "./http-backend.js";

/** What one gRPC call needs before its first attempt. @internal Does not follow semver. */
export interface PreparedGrpcCall {
  readonly handler: GrpcHandlerConfig;
  readonly client: ToolServiceClient;
  /** The arguments as the opaque JSON string sent in `arguments_json`. */
  readonly argumentsJson: string;
  /** Lowercase metadata: identity, tool keys, the handler's authorization, broker-injected entries. */
  readonly metadata: Readonly<Record<string, string>>;
}

const NO_RETRY_SETUP = Object.freeze({ policy: normalizedPolicy({ maxAttempts: 1 }), retryable: Object.freeze([]) as readonly string[] });

/** The setup of each (frozen) handler's retry policy, built on its first call (see httpRetrySetup). */
const setups = new WeakMap<GrpcHandlerConfig, { policy: RetryPolicyOptions; retryable: readonly string[] }>();

/** The handler's retry policy and retryable codes; no `retryPolicy` means one attempt. @internal Does not follow semver. */
export function grpcRetrySetup(handler: GrpcHandlerConfig): { policy: RetryPolicyOptions; retryable: readonly string[] } {
  const rp = handler.grpcConfig.retryPolicy;
  if (rp === undefined) return NO_RETRY_SETUP;
  let setup = setups.get(handler);
  if (setup === undefined) {
    setup = {
      policy: normalizedPolicy({ maxAttempts: rp.maxAttempts, initialBackoffMs: rp.initialBackoffMs, backoffMultiplier: rp.backoffMultiplier, maxBackoffMs: rp.maxBackoffMs }),
      retryable: rp.retryableStatusCodes,
    };
    if (Object.isFrozen(handler) && Object.isFrozen(handler.grpcConfig) && Object.isFrozen(rp)) setups.set(handler, setup);
  }
  return setup;
}

/**
 * One gRPC attempt: breaker admission, then Execute under the per-attempt
 * timeout (also sent as `grpc-timeout`). Breaker accounting (seed 004): a
 * non-OK status or a timeout is a failure; an `is_error` response is not (the
 * tool answered); an abandoned attempt counts as nothing.
 *
 * The call gets an `AbortSignal` only when something other than connect's own
 * deadline can end it early: the caller's signal, or a timeout on a clock that
 * is not the system clock (a test's manual clock). On the system clock the
 * attempt's timer and connect's `timeoutMs` deadline fire together, and
 * `close()` ends calls through the client's session. Linking a signal into
 * connect cost about 2 % of a loopback call's CPU (issue #13).
 * @internal Does not follow semver.
 */
export async function grpcAttempt(
  call: PreparedGrpcCall,
  deps: {
    readonly breaker: CircuitBreaker;
    readonly clock: Clock;
    readonly retryable: readonly string[];
    readonly signal: AbortSignal | undefined;
    readonly logger: Logger;
  },
): Promise<AttemptOutcome<BackendSuccess>> {
  const ticket = deps.breaker.admit();
  const timeoutMs = call.handler.timeoutMs;
  const linked = deps.signal !== undefined || (timeoutMs > 0 && deps.clock !== systemClock);
  const options: ToolServiceCallOptions = timeoutMs > 0 ? { headers: call.metadata, timeoutMs } : { headers: call.metadata };
  const settled = await runAbortableAttempt(
    (abort) => call.client.execute(call.handler.tool.name, call.argumentsJson, linked ? { ...options, signal: abort.signal } : options),
    { clock: deps.clock, timeoutMs, signal: deps.signal },
  );
  switch (settled.kind) {
    case "abandoned":
      ticket.abandon();
      return { kind: "abandoned", error: settled.error };
    case "timeout":
      ticket.failure();
      return { kind: "failure", error: settled.error, ...classifyGrpcStatus("DEADLINE_EXCEEDED", deps.retryable) };
    case "error": {
      const error = settled.error;
      // The executor was closed under the call: the call is abandoned, not the backend's failure.
      if ((error as { code?: unknown }).code === ErrorCode.CLOSED) {
        ticket.abandon();
        return { kind: "failure", error, retryable: false };
      }
      ticket.failure();
      return { kind: "failure", error, ...classifyGrpcStatus(error instanceof GrpcStatusError ? error.grpcCode : undefined, deps.retryable) };
    }
    case "success": {
      const meaning = interpretToolResponse(settled.value);
      // is_error is the tool's own answer: not a breaker failure, never retried.
      ticket.success();
      if (meaning.status === "success") return { kind: "success", value: { result: meaning.result, resultJson: meaning.resultJson } };
      return { kind: "failure", error: meaning.error, retryable: false };
    }
  }
}
