import { BackendError, copyJsonValue, goJsonMarshal, toError, type JsonValue } from "../core/index.js";
import { runAttempt, type AttemptOutcome } from "../retry/index.js";
import type { Backend, BackendCall, BackendEnv, BackendSuccess, PlatformHandlerConfig, PreparedCall } from "./backend.js";
import { SINGLE_ATTEMPT } from "./retry-setup.js";

/**
 * The `platform` backend: a host-process tool's `execute`, once, under the
 * tool's timeout, with no circuit breaker and no retry. Its value is the
 * result, encoded as Go's `json.Marshal` encodes it (sorted keys); a value
 * that is not JSON, or a throw, is an error outcome with the error's message.
 * @internal Does not follow semver.
 */
export function createPlatformBackend(env: BackendEnv): Backend {
  return {
    prepare(call: BackendCall): PreparedCall {
      const handler = call.handler as PlatformHandlerConfig;
      const { callId, identity } = call;
      // The tool's own copy: what it does to its arguments reaches neither the record nor the call's span.
      const args: JsonValue = call.args === undefined ? {} : copyJsonValue(call.args);
      return {
        policy: SINGLE_ATTEMPT,
        async attempt(signal): Promise<AttemptOutcome<BackendSuccess>> {
          const settled = await runAttempt(
            (attemptSignal) => handler.tool.execute(args, { callId, identity, signal: attemptSignal, logger: env.logger, clock: env.clock }),
            { clock: env.clock, timeoutMs: handler.timeoutMs, signal },
          );
          switch (settled.kind) {
            case "abandoned":
              return { kind: "abandoned", error: settled.error };
            case "timeout":
              return { kind: "failure", error: settled.error, retryable: false };
            case "error":
              return { kind: "failure", error: new BackendError(settled.error.message, { cause: settled.error }), retryable: false };
            case "success":
              return toSuccess(call.toolName, settled.value);
          }
        },
      };
    },
  };
}

function toSuccess(toolName: string, value: unknown): AttemptOutcome<BackendSuccess> {
  let result: JsonValue;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`got ${typeof value}`);
    result = JSON.parse(text) as JsonValue;
  } catch (e) {
    const error = toError(e);
    return { kind: "failure", error: new BackendError(`platform tool ${JSON.stringify(toolName)} returned a value that is not JSON: ${error.message}`, { cause: error }), retryable: false };
  }
  return { kind: "success", value: { result, resultJson: goJsonMarshal(result) } };
}
