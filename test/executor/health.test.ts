// executor.checkHealth() (issue #20 item 11): Omnia's CheckHealth probes against
// real backends: HEAD for http/openapi, grpc.health.v1 Check, MCP ping; the
// handler's credentials; the probe timeout on the clock; no breaker events.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { createManualClock, startGrpcToolBackend } from "../../src/testing/index.js";
import { isOmniaToolsError } from "../../src/core/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { closedPortUrl } from "../helpers/policy-broker.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

const tool = (name: string) => `tool: { name: ${name}, description: d, inputSchema: { type: object } }`;

test("http: HEAD of the endpoint with the handler's auth; 2xx-4xx healthy, 5xx and a refused port unhealthy, with Omnia's texts", async () => {
  let status = 404;
  const server = await startHttpServer((_req, res) => {
    res.statusCode = status;
    res.end();
  });
  const refused = await closedPortUrl();
  const registry = loadToolRegistry(`
handlers:
  - name: up
    type: http
    auth: { type: bearer, secretRef: { name: s, key: k } }
    ${tool("a")}
    httpConfig: { endpoint: "${server.url}/api", method: POST }
  - name: down
    type: http
    ${tool("b")}
    httpConfig: { endpoint: "${refused}/api" }
  - name: browser
    type: client
    ${tool("c")}
`);
  const breakers = createCircuitBreakers();
  const ex = createToolExecutor({ registry, breakers, secrets: () => "tok" });
  try {
    const first = await ex.checkHealth();
    assert.deepEqual(
      first.map((h) => [h.handler, h.handlerType, h.healthy, h.detail]),
      [
        ["up", "http", true, "HTTP 404"],
        ["down", "http", false, `health check failed: Head "${refused}/api": dial tcp ${refused.slice(7)}: connect: connection refused`],
        ["browser", "client", true, "not probed: client tools run in the client"],
      ],
    );
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.method, "HEAD");
    assert.equal(server.requests[0]?.url, "/api");
    assert.equal(server.requests[0]?.headers["authorization"], "Bearer tok");
    status = 503;
    assert.deepEqual((await ex.checkHealth("up")).map((h) => [h.healthy, h.detail]), [[false, "health check: HTTP 503"]]);
    // Probes are not calls: no breaker was even created.
    assert.equal(breakers.has("a"), false);
    assert.equal(breakers.has("b"), false);
    await assert.rejects(ex.checkHealth("nope"), (e: unknown) => isOmniaToolsError(e) && e.message === 'checkHealth: no handler named "nope"; expected one of "up", "down", "browser"');
  } finally {
    await ex.close();
    await server.close();
  }
});

test("a backend that never answers is unhealthy at spec.probe.timeoutMs on the clock", async () => {
  const server = await startHttpServer(() => {
    /* never answers */
  });
  const clock = createManualClock(0);
  const registry = loadToolRegistry(`
apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: r }
spec:
  probe: { enabled: true, timeout: 2s }
  handlers:
    - name: slow
      type: http
      ${tool("a")}
      httpConfig: { endpoint: "${server.url}/x" }
`);
  const ex = createToolExecutor({ registry, clock });
  try {
    const pending = ex.checkHealth();
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1_999);
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1);
    assert.deepEqual(await pending, [{ handler: "slow", handlerType: "http", healthy: false, detail: "health check failed: timed out after 2000ms", latencyMs: 2_000 }]);
  } finally {
    await ex.close();
    await server.close();
  }
});

test("grpc: grpc.health.v1 Check, SERVING is healthy; an unreachable backend is not", async () => {
  const backend = await startGrpcToolBackend({ t: { description: "d", inputSchema: { type: "object" }, execute: () => ({ ok: true }) } });
  const registry = loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    ${tool("t")}
    grpcConfig: { endpoint: "${backend.endpoint}" }
  - name: gone
    type: grpc
    ${tool("u")}
    grpcConfig: { endpoint: "127.0.0.1:1" }
`);
  const ex = createToolExecutor({ registry });
  try {
    const health = await ex.checkHealth();
    assert.deepEqual(health[0] && [health[0].handler, health[0].healthy, health[0].detail], ["g", true, "SERVING"]);
    assert.equal(health[1]?.healthy, false);
    assert.equal(health[1]?.detail, "health check failed: rpc error: code = Unavailable desc = connect ECONNREFUSED 127.0.0.1:1");
    assert.equal(backend.count(), 0, "a probe is no tool call");
  } finally {
    await ex.close();
    await backend.close();
  }
});

test("mcp: connect and ping", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const registry = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`);
  const ex = createToolExecutor({ registry });
  try {
    assert.deepEqual((await ex.checkHealth()).map((h) => [h.handler, h.handlerType, h.healthy, h.detail]), [["kb", "mcp", true, "ping ok"]]);
    assert.ok(mcp.requests.some((r) => r.rpcMethod === "ping"), JSON.stringify(mcp.requests.map((r) => r.rpcMethod)));
  } finally {
    await ex.close();
    await mcp.close();
  }
});
