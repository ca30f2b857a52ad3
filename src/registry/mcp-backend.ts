import type { Clock, JsonValue } from "../core/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import { classifyMcpError, isMcpBreakerFailure, type McpToolClient } from "../mcp/index.js";
import { runAttempt, type AttemptOutcome } from "../retry/index.js";
import type { BackendSuccess } from "./http-backend.js";

/**
 * One MCP attempt: breaker admission, then `tools/call` under the per-attempt
 * timeout. An `isError` result is the tool's answer (a breaker success, not
 * retried); a transport or protocol error is a breaker failure and retryable;
 * argument and auth errors are neither (runtime-tools.md §1.3, §2.3).
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
    readonly signal: AbortSignal | undefined;
  },
): Promise<AttemptOutcome<BackendSuccess>> {
  const ticket = deps.breaker.admit();
  const settled = await runAttempt(
    (signal) => client.callTool(toolName, args, deps.injected === undefined ? { signal } : { signal, headers: deps.injected }),
    { clock: deps.clock, timeoutMs: deps.timeoutMs, signal: deps.signal },
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
