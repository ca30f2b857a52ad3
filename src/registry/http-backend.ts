import type { Clock, JsonValue, Logger } from "../core/index.js";
import type { HttpHandlerConfig } from "../manifest/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import {
  buildHttpRequest,
  HttpStatusError,
  HttpTransportError,
  interpretHttpResponse,
  sendHttpRequest,
  type HttpHeaderContext,
  type HttpDispatcher,
  type HttpRequestShape,
} from "../http/index.js";
import { classifyHttpError, classifyHttpStatus, runAttempt, type AttemptOutcome, type HttpRetryRules, type RetryPolicyOptions } from "../retry/index.js";

/** What one HTTP call needs before its first attempt. @internal Does not follow semver. */
export interface PreparedHttpCall {
  readonly handler: HttpHandlerConfig;
  /** The arguments: the text as the model produced it (sent verbatim on the simple path), or a value. */
  readonly args: string | JsonValue | undefined;
  readonly context: HttpHeaderContext;
  /** The request, built once per call (Go rebuilds it per attempt, identically). */
  request?: HttpRequestShape | Error;
}

/** The success value of an HTTP attempt. @internal Does not follow semver. */
export interface HttpSuccess {
  readonly result: JsonValue;
  readonly resultJson: string;
  readonly truncated?: true;
}

const NO_RETRY_RULES: HttpRetryRules = Object.freeze({ retryOn: Object.freeze([]), retryOnNetworkError: false, respectRetryAfter: false });

/** The handler's retry policy and rules; no `retryPolicy` means one attempt. @internal Does not follow semver. */
export function httpRetrySetup(handler: HttpHandlerConfig): { policy: RetryPolicyOptions; rules: HttpRetryRules } {
  const rp = handler.httpConfig.retryPolicy;
  if (rp === undefined) return { policy: { maxAttempts: 1 }, rules: NO_RETRY_RULES };
  return {
    policy: { maxAttempts: rp.maxAttempts, initialBackoffMs: rp.initialBackoffMs, backoffMultiplier: rp.backoffMultiplier, maxBackoffMs: rp.maxBackoffMs },
    rules: { retryOn: rp.retryOn, retryOnNetworkError: rp.retryOnNetworkError, respectRetryAfter: rp.respectRetryAfter },
  };
}

/**
 * One attempt: breaker admission, then the request under the handler's
 * per-attempt timeout, then classification for the breaker and the retry loop.
 * Breaker accounting: 2xx and 4xx are successes; 5xx, other statuses,
 * transport errors, timeouts, build and mapping errors are failures; an
 * abandoned attempt counts as nothing.
 * @internal Does not follow semver.
 */
export async function httpAttempt(
  call: PreparedHttpCall,
  deps: {
    readonly breaker: CircuitBreaker;
    readonly clock: Clock;
    readonly dispatcher: HttpDispatcher;
    readonly rules: HttpRetryRules;
    readonly signal: AbortSignal | undefined;
    readonly logger: Logger;
  },
): Promise<AttemptOutcome<HttpSuccess>> {
  const ticket = deps.breaker.admit(); // throws CircuitOpenError: the loop reads it as a rejection
  if (call.request === undefined) {
    try {
      call.request = buildHttpRequest(call.handler, call.args, call.context);
    } catch (e) {
      call.request = e as Error;
    }
  }
  const request = call.request;
  if (request instanceof Error) {
    ticket.failure();
    return { kind: "failure", error: request, retryable: false };
  }
  const settled = await runAttempt(
    (signal) => sendHttpRequest(deps.dispatcher, request, { signal }),
    deps.signal === undefined ? { clock: deps.clock, timeoutMs: call.handler.timeoutMs } : { clock: deps.clock, timeoutMs: call.handler.timeoutMs, signal: deps.signal },
  );
  switch (settled.kind) {
    case "abandoned":
      ticket.abandon();
      return { kind: "abandoned", error: settled.error };
    case "timeout":
      ticket.failure();
      return { kind: "failure", error: settled.error, retryable: deps.rules.retryOnNetworkError };
    case "error": {
      ticket.failure();
      const error = settled.error;
      // The headers arrived, then the body broke off: retries go by the status.
      if (error instanceof HttpTransportError && error.status !== undefined) {
        return { kind: "failure", error, ...classifyHttpStatus(error.status, undefined, deps.rules, deps.clock.now()) };
      }
      return { kind: "failure", error, ...classifyHttpError(error, deps.rules) };
    }
    case "success": {
      const response = settled.value;
      const retryAfter = headerValue(response.headers["retry-after"]);
      const meaning = interpretHttpResponse(call.handler, response.status, response.body, { truncated: response.truncated, retryAfter });
      if (meaning.status === "success") {
        ticket.success();
        if (meaning.truncated === true) deps.logger.warn("HTTP tool response cut at the 10 MiB read cap", { tool: call.handler.tool.name });
        return { kind: "success", value: meaning.truncated === true ? { result: meaning.result, resultJson: meaning.resultJson, truncated: true } : { result: meaning.result, resultJson: meaning.resultJson } };
      }
      // A 4xx is not a breaker failure: the backend answered; the request was wrong.
      if (meaning.error instanceof HttpStatusError && response.status >= 400 && response.status <= 499) ticket.success();
      else ticket.failure();
      return { kind: "failure", error: meaning.error, ...classifyHttpStatus(response.status, retryAfter, deps.rules, deps.clock.now()) };
    }
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
