import type { Clock, JsonValue } from "../core/index.js";
import type { McpHandlerConfig, McpRetryPolicy } from "../manifest/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import { classifyMcpError, isMcpBreakerFailure, MCP_OWN_SIGNAL, type McpAttemptCallOptions, type McpCallOptions, type McpToolClient } from "../mcp/index.js";
import { runAttempt, type AttemptOutcome, type RetryPolicyOptions } from "../retry/index.js";
import type { Backend, BackendCall, BackendEnv, BackendSuccess, PreparedCall } from "./backend.js";
import { normalizedPolicy, SINGLE_ATTEMPT } from "./retry-setup.js";

/**
 * One MCP attempt: breaker admission, then `tools/call` under the per-attempt
 * timeout. An `isError` result is the tool's answer (a breaker success, not
 * retried); a transport or protocol error is a breaker failure and retryable;
 * argument and auth errors are neither, as in Omnia's MCP executor.
 * @internal Does not follow semver.
 */
export async function mcpAttempt(
  client: McpToolClient,
  toolName: string,
  args: string | JsonValue | undefined,
  deps: {
    readonly breaker: CircuitBreaker;
    readonly clock: Clock;
    readonly timeoutMs: number;
    readonly injected: Readonly<Record<string, string>> | undefined;
    readonly observer?: McpCallOptions["observer"];
  },
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome<BackendSuccess>> {
  const ticket = deps.breaker.admit();
  const settled = await runAttempt(
    (attemptSignal) => client.callTool(toolName, args, callOptions(attemptSignal, deps)),
    { clock: deps.clock, timeoutMs: deps.timeoutMs, signal },
  );
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

/**
 * The options of one attempt's `tools/call`: its signal, and the broker's headers and the call's observer when
 * there are some. The signal is the attempt's own (discarded when it settles), so the client hands it to the SDK
 * without linking another one to it.
 */
function callOptions(signal: AbortSignal, deps: { readonly injected: Readonly<Record<string, string>> | undefined; readonly observer?: McpCallOptions["observer"] }): McpAttemptCallOptions {
  if (deps.observer === undefined) return deps.injected === undefined ? { signal, [MCP_OWN_SIGNAL]: true } : { signal, headers: deps.injected, [MCP_OWN_SIGNAL]: true };
  return deps.injected === undefined ? { signal, observer: deps.observer, [MCP_OWN_SIGNAL]: true } : { signal, headers: deps.injected, observer: deps.observer, [MCP_OWN_SIGNAL]: true };
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
      const handler = call.handler as McpHandlerConfig;
      const client = env.mcpClient(handler);
      const observer = call.mcpObserver;
      const deps = { breaker: call.breaker!, clock: env.clock, timeoutMs: handler.timeoutMs, injected: call.injected, ...(observer === undefined ? {} : { observer }) };
      const { toolName, rawArgs } = call;
      return { policy: mcpRetryPolicy(handler.mcpConfig.retryPolicy), attempt: (signal) => mcpAttempt(client, toolName, rawArgs, deps, signal) };
    },
  };
}
