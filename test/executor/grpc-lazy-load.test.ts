// The grpc backend imports connect and protobuf on the executor's first gRPC call (importing the
// package does not). Closing the executor while that import is still loading must leave no client
// and open no connection once the module arrives. The import is held by the test (the backend's
// loader is injectable), so "still loading" does not depend on how fast a Node version loads modules.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { loadToolRegistry } from "../../src/index.js";
import { createGrpcBackend, type GrpcModule } from "../../src/backends/grpc.js";
import type { BackendCall } from "../../src/backends/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { systemClock, noopLogger } from "../../src/core/index.js";

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

test("close() while the gRPC module loads: the attempt ends abandoned with the close reason and no connection is opened", async () => {
  const clock = systemClock;
  const closing = new AbortController();
  let imports = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const backend = createGrpcBackend(
    {
      clock,
      logger: noopLogger,
      agent: undefined,
      closing: closing.signal,
      dispatcher: () => assert.fail("the grpc backend uses no HTTP dispatcher"),
      mcpClient: () => assert.fail("the grpc backend uses no MCP client"),
    },
    async () => {
      imports++;
      await held;
      return import("../../src/grpc/index.js") as Promise<GrpcModule>;
    },
  );
  const call: BackendCall = {
    callId: "g1",
    toolName: "lookup_order",
    handler: registry.handlers[0]!,
    operation: undefined,
    rawArgs: "{}",
    args: {},
    identity: undefined,
    auth: {},
    secretHeaders: {},
    injected: undefined,
    delegationToken: undefined,
    injectTrace: undefined,
    breaker: createCircuitBreakers({ clock }).get("lookup_order"),
  };
  const attempt = backend.prepare(call).attempt(undefined);
  await turns(5);
  assert.equal(imports, 1);
  closing.abort(new Error("executor closed"));
  release();
  const out = await attempt;
  assert.equal(out.kind, "abandoned");
  assert.equal(out.kind === "abandoned" && out.error?.message, "executor closed");
  await turns(20);
  assert.equal(sockets.length, 0);
  await backend.close?.();
});
