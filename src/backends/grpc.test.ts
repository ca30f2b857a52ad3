import { test } from "node:test";
import assert from "node:assert/strict";
import { noopLogger, systemClock } from "../core/index.js";
import { createCircuitBreakers } from "../breaker/index.js";
import { loadToolRegistry, type GrpcHandlerConfig } from "../manifest/index.js";
import * as grpc from "../grpc/index.js";
import type { ToolServiceCallOptions, ToolServiceClient } from "../grpc/index.js";
import { createManualClock } from "../testing/index.js";
import { grpcAttempt } from "./grpc.js";

// Which options reach the client: the wire itself is covered by the gRPC fault matrix
// (test/security/grpc-faults.test.ts); this pins when the call is linked to a signal.
function prepared(timeout: string) {
  const registry = loadToolRegistry(`handlers:\n  - name: h\n    type: grpc\n    timeout: ${timeout}\n    tool: { name: t, description: d, inputSchema: { type: object } }\n    grpcConfig: { endpoint: "127.0.0.1:1" }\n`);
  const seen: ToolServiceCallOptions[] = [];
  const client = {
    baseUrl: "http://127.0.0.1:1",
    execute: async (_tool: string, _args: string, options: ToolServiceCallOptions = {}) => {
      seen.push(options);
      return { resultJson: '{"ok":true}', isError: false, errorMessage: "" };
    },
  } as unknown as ToolServiceClient;
  const handler = registry.getHandler("h") as GrpcHandlerConfig;
  return { call: { handler, client, grpc, argumentsJson: "{}", metadata: { "x-omnia-tool-name": "t" } }, seen };
}

test("on the system clock with no caller signal, the call carries connect's deadline and no signal", async () => {
  const { call, seen } = prepared("5s");
  const breaker = createCircuitBreakers().get("t");
  const out = await grpcAttempt(call, { breaker, clock: systemClock, retryable: [], logger: noopLogger }, undefined);
  assert.equal(out.kind, "success");
  assert.deepEqual(seen, [{ headers: { "x-omnia-tool-name": "t" }, timeoutMs: 5000 }]);
});

test("a caller signal, or a timeout on another clock, links the call to the attempt's signal", async () => {
  const caller = new AbortController();
  for (const [clock, signal] of [
    [systemClock, caller.signal],
    [createManualClock(0), undefined],
  ] as const) {
    const { call, seen } = prepared("5s");
    const breaker = createCircuitBreakers({ clock }).get("t");
    await grpcAttempt(call, { breaker, clock, retryable: [], logger: noopLogger }, signal);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.timeoutMs, 5000);
    assert.ok(seen[0]?.signal instanceof AbortSignal);
    assert.equal(seen[0]?.signal?.aborted, false);
  }
});

test("no timeout (0s): no deadline; a signal only for a caller signal", async () => {
  const { call, seen } = prepared("0s");
  const breaker = createCircuitBreakers().get("t");
  await grpcAttempt(call, { breaker, clock: createManualClock(0), retryable: [], logger: noopLogger }, undefined);
  const caller = new AbortController();
  await grpcAttempt(call, { breaker, clock: systemClock, retryable: [], logger: noopLogger }, caller.signal);
  assert.deepEqual(seen[0], { headers: { "x-omnia-tool-name": "t" } });
  assert.ok(seen[1]?.signal instanceof AbortSignal);
  assert.equal(seen[1]?.timeoutMs, undefined);
});
