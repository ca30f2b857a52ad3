import type { Clock, JsonValue } from "../core/index.js";
import type { McpHandlerConfig, McpRetryPolicy } from "../manifest/index.js";
import type { BreakerTicket, CircuitBreaker } from "../breaker/index.js";
import { classifyMcpError, isMcpBreakerFailure, MCP_OWN_SIGNAL, type McpAttemptCallOptions, type McpCallOptions, type McpCallResult, type McpToolClient } from "../mcp/index.js";
import type { AttemptOutcome, AttemptSettlement, AttemptSink, AttemptSource, RetryPolicyOptions } from "../retry/index.js";
import type { Backend, BackendCall, BackendEnv, BackendSuccess, PreparedCall } from "./backend.js";
import { normalizedPolicy, SINGLE_ATTEMPT } from "./retry-setup.js";
import { admitAttempt, attemptPromise, AttemptRun } from "./attempt-run.js";

/**
 * One MCP call, prepared: its client, tool, arguments and what every attempt
 * needs. An attempt is breaker admission, then `tools/call` under the
 * per-attempt timeout. An `isError` result is the tool's answer (a breaker
 * success, not retried); a transport or protocol error is a breaker failure
 * and retryable; argument and auth errors are neither, as in Omnia's MCP
 * executor. The first attempt is delivered into the retry loop
 * ({@link McpCall.attemptInto}): no promise of its own, no async frame.
 */
class McpCall implements PreparedCall, AttemptSource<BackendSuccess> {
  readonly policy: RetryPolicyOptions;
  readonly client: McpToolClient;
  readonly toolName: string;
  readonly args: string | JsonValue | undefined;
  readonly breaker: CircuitBreaker;
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly injected: Readonly<Record<string, string>> | undefined;
  readonly observer: McpCallOptions["observer"];

  constructor(env: BackendEnv, call: BackendCall) {
    const handler = call.handler as McpHandlerConfig;
    this.policy = mcpRetryPolicy(handler.mcpConfig.retryPolicy);
    this.client = env.mcpClient(handler);
    this.toolName = call.toolName;
    // The object the executor parsed, when the text held one: the client would parse the same text into the same
    // object. Any other text goes as it is, for the client's own rules (empty is `{}`, blank is Go's `unexpected end
    // of JSON input`, `null` is `{}`, an array, a number or a JSON string is not an object: a string's value is
    // never read as argument text again).
    const args = call.args;
    this.args = typeof args === "object" && args !== null && !Array.isArray(args) ? args : call.rawArgs;
    this.breaker = call.breaker!;
    this.clock = env.clock;
    this.timeoutMs = handler.timeoutMs;
    this.injected = call.injected;
    this.observer = call.mcpObserver;
  }

  attempt(signal: AbortSignal | undefined): Promise<AttemptOutcome<BackendSuccess>> {
    return attemptPromise(this, signal);
  }

  /** One attempt, delivered into `sink` on a later microtask. */
  attemptInto(signal: AbortSignal | undefined, sink: AttemptSink<BackendSuccess>): void {
    const ticket = admitAttempt(this.breaker, sink);
    if (ticket !== undefined) new McpAttemptRun(this, ticket, signal, sink).start();
  }

  /** The options of one attempt's `tools/call`: its signal, and the broker's headers and the call's observer when there are some. */
  callOptions(signal: AbortSignal): McpAttemptCallOptions {
    // The signal is the attempt's own (discarded when it settles), so the client hands it to the SDK without linking another one to it.
    const { injected, observer } = this;
    if (observer === undefined) return injected === undefined ? { signal, [MCP_OWN_SIGNAL]: true } : { signal, headers: injected, [MCP_OWN_SIGNAL]: true };
    return injected === undefined ? { signal, observer, [MCP_OWN_SIGNAL]: true } : { signal, headers: injected, observer, [MCP_OWN_SIGNAL]: true };
  }
}

/**
 * One attempt of an {@link McpCall}: an {@link AttemptRun} whose exchange is
 * the client's `tools/call`, under a signal of the attempt's own that aborts
 * with the timeout's error or the caller's reason.
 */
class McpAttemptRun extends AttemptRun<McpCallResult> {
  readonly #call: McpCall;
  readonly #controller = new AbortController();

  constructor(call: McpCall, ticket: BreakerTicket, signal: AbortSignal | undefined, sink: AttemptSink<BackendSuccess>) {
    super(ticket, signal, sink, call.timeoutMs);
    this.#call = call;
  }

  /** Sends the call, unless the caller's signal had aborted before the attempt started (abandoned, nothing sent). */
  start(): void {
    const call = this.#call;
    if (!this.watch(call.clock)) return;
    let pending: Promise<McpCallResult>;
    try {
      pending = call.client.callTool(call.toolName, call.args, call.callOptions(this.#controller.signal));
    } catch (error) {
      this.failed(error);
      return;
    }
    pending.then(
      (value) => this.succeeded(value),
      (error: unknown) => this.failed(error),
    );
  }

  protected abortExchange(reason: unknown): void {
    this.#controller.abort(reason);
  }

  protected outcomeOf(settlement: AttemptSettlement<McpCallResult>, ticket: BreakerTicket): AttemptOutcome<BackendSuccess> {
    return settleMcpAttempt(settlement, ticket);
  }
}

/** The breaker accounting and the retry classification of one settled MCP attempt. */
function settleMcpAttempt(settled: AttemptSettlement<McpCallResult>, ticket: BreakerTicket): AttemptOutcome<BackendSuccess> {
  switch (settled.kind) {
    case "abandoned":
      ticket.abandon();
      return { kind: "abandoned", error: settled.error };
    case "timeout":
      ticket.failure();
      return { kind: "failure", error: settled.error, retryable: true };
    case "error": {
      const error = settled.error;
      if (isMcpBreakerFailure(error)) ticket.failure();
      else ticket.abandon();
      return { kind: "failure", error, ...classifyMcpError(error) };
    }
    case "success": {
      ticket.success();
      const meaning = settled.value;
      if (meaning.status === "success") return { kind: "success", value: { result: meaning.result, resultJson: meaning.resultJson } };
      return { kind: "failure", error: meaning.error, retryable: false };
    }
  }
}

const policies = new WeakMap<McpRetryPolicy, RetryPolicyOptions>();

/** An mcp handler's retry policy; no `retryPolicy` means one attempt. */
function mcpRetryPolicy(rp: McpRetryPolicy | undefined): RetryPolicyOptions {
  if (rp === undefined) return SINGLE_ATTEMPT;
  let policy = policies.get(rp);
  if (policy === undefined) {
    policy = normalizedPolicy({ maxAttempts: rp.maxAttempts, initialBackoffMs: rp.initialBackoffMs, backoffMultiplier: rp.backoffMultiplier, maxBackoffMs: rp.maxBackoffMs });
    if (Object.isFrozen(rp)) policies.set(rp, policy);
  }
  return policy;
}

/**
 * The `mcp` backend: `tools/call` on the handler's client (the one discovery
 * listed the tools with).
 * @internal Does not follow semver.
 */
export function createMcpBackend(env: BackendEnv): Backend {
  return {
    async probe(handler, _auth, signal) {
      // The MCP client sends the handler's credentials itself, on every request.
      await env.mcpClient(handler as McpHandlerConfig).ping({ signal });
      return "ping ok";
    },
    prepare(call: BackendCall): PreparedCall {
      return new McpCall(env, call);
    },
  };
}
