// Issue #32 item 11: a second or concurrent close() returns the first one's promise, everywhere, so that no caller
// is told "closed" while the first close() is still releasing sockets; none of them rejects. Real objects, each used
// once against a loopback server first so that it holds sockets to release.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { createMcpToolClient } from "../../src/mcp/index.js";
import { createToolServiceClient, serveToolService } from "../../src/grpc/index.js";
import { serveRuntime } from "../../src/runtime/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

/** Calls close() twice at once and once after it settled: the same promise each time, resolved with undefined. */
async function closeThrice(what: string, target: { close(): Promise<void> }): Promise<void> {
  const first = target.close();
  const second = target.close();
  assert.equal(second, first, `${what}: a concurrent close() returns the first one's promise`);
  assert.equal(await first, undefined);
  assert.equal(target.close(), first, `${what}: a later close() returns it too`);
}

test("executor, policy broker client, MCP client, ToolService client and both servers: close() twice is one close", { timeout: 30_000 }, async () => {
  const http = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"allow":true}');
  });
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const tools = await serveToolService({ echo: { description: "d", inputSchema: { type: "object" }, execute: (args) => args } }, { port: 0 });
  const runtime = await serveRuntime({ async converse(_turn, emit) { await emit.done({}); } }, { port: 0, heartbeatIntervalMs: 0 });
  try {
    const policy = createPolicyBrokerClient({ url: http.url });
    const ex = createToolExecutor({
      registry: loadToolRegistry(`handlers:\n  - { name: h, type: http, tool: { name: t, description: d, inputSchema: { type: object } }, httpConfig: { endpoint: "${http.url}/x" } }\n`),
      policy,
    });
    assert.equal((await ex.execute({ id: "1", name: "t", arguments: "{}" })).status, "success");
    await closeThrice("executor", ex);
    await closeThrice("policy broker client", policy);
    const mcpClient = createMcpToolClient({ name: "m", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } });
    assert.ok((await mcpClient.listTools()).length > 0);
    await closeThrice("MCP client", mcpClient);
    const grpc = createToolServiceClient({ endpoint: tools.url });
    assert.deepEqual((await grpc.listTools()).map((t) => t.name), ["echo"]);
    await closeThrice("ToolService client", grpc);
    await closeThrice("serveToolService", tools);
    await closeThrice("serveRuntime", runtime);
  } finally {
    await Promise.all([http.close(), mcp.close(), tools.close(), runtime.close()]);
  }
});
