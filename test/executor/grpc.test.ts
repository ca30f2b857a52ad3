// createToolExecutor with a grpc handler against a real connect-node HTTP/2 ToolService on loopback (issue #7).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ConnectError, Code } from "@connectrpc/connect";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { serveToolService, type ToolServiceServer } from "../../src/grpc/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { settle } from "../helpers/settle.js";

const servers: ToolServiceServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

let mode: "ok" | "is_error" | "unavailable" = "ok";
const seen: Record<string, string>[] = [];
const server = await serveToolService({
  lookup_order: {
    description: "Look up an order",
    inputSchema: { type: "object", properties: { id: { type: "integer" } } },
    execute(args, ctx) {
      seen.push(Object.fromEntries(Object.entries(ctx.headers).filter(([k]) => k.startsWith("x-omnia-") || k === "authorization" || k.startsWith("x-inj"))));
      if (mode === "is_error") throw new Error("order not found");
      if (mode === "unavailable") throw new ConnectError("backend down", Code.Unavailable);
      return { order: (args as { id: number }).id, status: "shipped" };
    },
  },
});
servers.push(server);

const registry = loadToolRegistry(`
apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: orders-registry }
spec:
  handlers:
    - name: orders
      type: grpc
      tool: { name: lookup_order, description: d, inputSchema: { type: object } }
      grpcConfig: { endpoint: "127.0.0.1:${server.port}" }
      timeout: 2s
`);

test("Execute: result_json becomes the result; identity goes as lowercase metadata, no x-omnia-param-*", async () => {
  mode = "ok";
  seen.length = 0;
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder, agent: { name: "support", namespace: "agents" }, policy: () => ({ allow: true, headers: { "X-Injected-Auth": "secret-token", "x-omnia-user-id": "injected-user" } }) });
  const out = await ex.execute(
    { id: "g1", name: "lookup_order", arguments: '{"id":42}' },
    { identity: { userId: "u-1", claims: { Team: "eng" }, authorization: "Bearer caller" } as never },
  );
  assert.equal(out.status, "success");
  assert.equal(out.status === "success" && out.resultJson, '{"order":42,"status":"shipped"}');
  assert.deepEqual(seen[0], {
    "x-omnia-agent-name": "support",
    "x-omnia-namespace": "agents",
    "x-omnia-user-id": "injected-user",
    "x-omnia-claim-team": "eng",
    "x-omnia-tool-name": "lookup_order",
    "x-omnia-tool-registry": "orders",
    "x-injected-auth": "secret-token",
  });
  assert.equal(recorder.records[0]?.handlerType, "grpc");
  await ex.close();
});

test("is_error is 'tool error: <message>' and never opens the breaker; 10 UNAVAILABLE do", async () => {
  const breakers = createCircuitBreakers();
  const ex = createToolExecutor({ registry, breakers });
  mode = "is_error";
  for (let i = 0; i < 12; i++) {
    const out = await ex.execute({ id: `e${i}`, name: "lookup_order", arguments: '{"id":1}' });
    assert.equal(out.status === "error" && out.message, "tool error: order not found");
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_TOOL_ERROR");
  }
  assert.equal(breakers.get("lookup_order").state, "closed");
  mode = "unavailable";
  for (let i = 0; i < 10; i++) {
    const out = await ex.execute({ id: `u${i}`, name: "lookup_order", arguments: '{"id":1}' });
    assert.equal(out.status === "error" && out.message, "gRPC tool execution failed: rpc error: code = Unavailable desc = backend down");
  }
  assert.equal(breakers.get("lookup_order").state, "open");
  const rejected = await ex.execute({ id: "u10", name: "lookup_order", arguments: '{"id":1}' });
  assert.equal(rejected.status === "error" && rejected.message, "circuit breaker [lookup_order]: circuit breaker is open");
  await ex.close();
});

test("UNAVAILABLE is retried per grpcConfig.retryPolicy; the last error is wrapped", async () => {
  mode = "unavailable";
  const reg = loadToolRegistry(`
handlers:
  - name: orders
    type: grpc
    tool: { name: lookup_order, description: d, inputSchema: { type: object } }
    grpcConfig:
      endpoint: "127.0.0.1:${server.port}"
      retryPolicy: { maxAttempts: 3, initialBackoff: 10ms }
`);
  const clock = createManualClock();
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry: reg, clock, recorder });
  const out = await settle(ex.execute({ id: "r", name: "lookup_order", arguments: "{}" }), clock, 5);
  assert.equal(out.status === "error" && out.message, "3 attempts exhausted: gRPC tool execution failed: rpc error: code = Unavailable desc = backend down");
  assert.equal(recorder.records[0]?.attempts, 3);
  await ex.close();
});
