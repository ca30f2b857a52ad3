// Issue #19 item 18: a grpc handler timeout longer than connect's 8-digit milliseconds
// (27.7 hours) loads and its calls work, as with Omnia's grpc-go client, against a real
// connect-node ToolService on 127.0.0.1.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createToolExecutor, loadToolRegistry } from "../src/index.js";
import { serveToolService, type ToolServiceContext } from "../src/grpc.js";

test("timeout: 48h and 2000 days on a grpc handler: the call succeeds, grpc-timeout as grpc-go writes it", async () => {
  const seen: ToolServiceContext[] = [];
  const echo = {
    description: "Echoes its arguments",
    inputSchema: { type: "object" },
    execute: (args: unknown, ctx: ToolServiceContext) => {
      seen.push(ctx);
      return args;
    },
  };
  const server = await serveToolService({ echo, echo2: echo });
  const registry = loadToolRegistry(`
handlers:
  - name: long
    type: grpc
    timeout: 48h
    tool: { name: echo, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${server.url.replace(/^http:\/\//, "")}" }
  - name: longer
    type: grpc
    timeout: 48000h
    tool: { name: echo2, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${server.url.replace(/^http:\/\//, "")}" }
`);
  const executor = createToolExecutor({ registry });
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on("warning", onWarning);
  try {
    assert.deepEqual(registry.warnings, []);
    const out = await executor.execute({ id: "c1", name: "echo", arguments: '{"a":1}' });
    assert.deepEqual(out.status === "success" ? out.result : out, { a: 1 });
    assert.equal(seen[0]?.headers["grpc-timeout"], "172800S");
    // 48,000 hours is past a Node timer on the server: it leaves the deadline to the client.
    const longer = await executor.execute({ id: "c2", name: "echo2", arguments: '{"b":2}' });
    assert.deepEqual(longer.status === "success" ? longer.result : longer, { b: 2 });
    assert.equal(seen[1]?.headers["grpc-timeout"], undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, []);
  } finally {
    process.off("warning", onWarning);
    await executor.close();
    await server.close();
  }
});
