// The grpc backend imports connect and protobuf on the executor's first gRPC call (importing the
// package does not). This file must not import the gRPC module before its first test: that test
// closes the executor while the module is still loading, and no client, no connection, may follow.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { createToolExecutor, loadToolRegistry, type ToolOutcome } from "../../src/index.js";

// A plain TCP listener: counts every connection a gRPC client opens to it.
const sockets: Socket[] = [];
const listener = createServer((socket) => sockets.push(socket));
await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
const port = (listener.address() as { port: number }).port;
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

const registry = loadToolRegistry(`
handlers:
  - name: orders
    type: grpc
    tool: { name: lookup_order, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "127.0.0.1:${port}" }
    timeout: 2s
`);

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

test("close() while the gRPC module loads: the call ends ERR_OMNIA_CLOSED and no connection is opened", async () => {
  assert.equal(sockets.length, 0);
  const executor = createToolExecutor({ registry });
  let started = false;
  executor.on("tool_call", () => (started = true));
  const pending = executor.execute({ id: "g1", name: "lookup_order", arguments: "{}" });
  while (!started) await turns(1);
  // A few turns more: the attempt has started and awaits the module import (file reads: far longer).
  await turns(5);
  await executor.close();
  const out: ToolOutcome = await pending;
  assert.equal(out.status, "error");
  assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_CLOSED");
  // The module has loaded now (this import resolves with the same module the backend awaited).
  await import("../../src/grpc/index.js");
  await turns(20);
  assert.equal(sockets.length, 0);
});
