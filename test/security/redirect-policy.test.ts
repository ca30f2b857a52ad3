// Issue #31 item 2: one redirect rule for everything the library sends on a handler's behalf. The OpenAPI spec fetch
// and the checkHealth probe forwarded a custom-named credential header (`auth.workloadIdentity.header: X-Api-Token`)
// across a 302 to another origin, although tool calls already dropped it. The other origin is a real server on
// 127.0.0.2 (loopback on Linux) that records what it got.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { createSessionApiRecorder } from "../../src/records/index.js";
import { McpHttp } from "../../src/mcp/http-fetch.js";
import { startHttpServer } from "../helpers/http-server.js";

const SPEC = JSON.stringify({
  openapi: "3.0.0",
  info: { title: "t", version: "1" },
  paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } } },
});

async function otherOrigin(): Promise<{ url: string; seen: { method: string; url: string; headers: IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    res.setHeader("content-type", "application/json");
    res.end(SPEC);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const WORKLOAD = "auth: { type: workloadIdentity, workloadIdentity: { cloud: azure, audience: api://x, header: X-Api-Token } }";
const workloadIdentity = async (): Promise<{ token: string }> => ({ token: "wi-secret" });

test("the OpenAPI spec fetch: a 302 to another origin drops the workload-identity header; the spec host itself got it", async () => {
  const other = await otherOrigin();
  const specHost = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/spec.json` });
    res.end();
  });
  const registry = loadToolRegistry(`
handlers:
  - name: pets
    type: openapi
    ${WORKLOAD}
    openAPIConfig: { specURL: "${specHost.url}/spec.json", baseURL: "${specHost.url}" }
`);
  const ex = createToolExecutor({ registry, workloadIdentity });
  try {
    await ex.refresh();
    assert.deepEqual(ex.tools.map((t) => t.name), ["listPets"]);
    assert.deepEqual(specHost.requests.map((r) => [r.method, r.url, r.headers["x-api-token"]]), [["GET", "/spec.json", "Bearer wi-secret"]]);
    assert.deepEqual(other.seen.map((s) => [s.method, s.url, s.headers["x-api-token"] ?? "-"]), [["GET", "/spec.json", "-"]]);
  } finally {
    await ex.close();
    await specHost.close();
    await other.close();
  }
});

test("the checkHealth probe: a 302 to another origin drops the workload-identity header; the endpoint itself got it", async () => {
  const other = await otherOrigin();
  const endpoint = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/health` });
    res.end();
  });
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    ${WORKLOAD}
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${endpoint.url}/api" }
`);
  const ex = createToolExecutor({ registry, workloadIdentity });
  try {
    assert.deepEqual((await ex.checkHealth("h")).map((h) => [h.healthy, h.detail]), [[true, "HTTP 200"]]);
    assert.deepEqual(endpoint.requests.map((r) => [r.method, r.url, r.headers["x-api-token"]]), [["HEAD", "/api", "Bearer wi-secret"]]);
    assert.deepEqual(other.seen.map((s) => [s.method, s.url, s.headers["x-api-token"] ?? "-"]), [["HEAD", "/health", "-"]]);
  } finally {
    await ex.close();
    await endpoint.close();
    await other.close();
  }
});

test("the policy broker and session-api follow no redirect: a 302 to another origin reaches nothing there", async () => {
  const other = await otherOrigin();
  const redirecting = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/elsewhere` });
    res.end();
  });
  const backend = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/api" }
`);
  const policy = createPolicyBrokerClient({ url: redirecting.url });
  const recorder = createSessionApiRecorder({ url: redirecting.url, headers: { Authorization: "Bearer sa-token" } });
  const ex = createToolExecutor({ registry, policy, recorder });
  try {
    const out = await ex.execute({ id: "c1", name: "t", arguments: "{}" }, { identity: { sessionId: "s1" } });
    assert.deepEqual([out.status, out.status === "denied" && out.message], ["denied", 'tool call denied by policy: policy broker unreachable; failing closed (rule "policy-broker-unreachable")']);
    await recorder.flush();
    assert.deepEqual(redirecting.requests.map((r) => [r.method, r.url]), [
      ["POST", "/v1/decision"],
      ["POST", "/api/v1/sessions/s1/tool-calls"],
      ["POST", "/api/v1/sessions/s1/tool-calls"],
    ]);
    assert.deepEqual(recorder.stats(), { written: 0, retried: 0, buffered: 0, expired: 0, dropped: { rejected: 2 } });
    assert.deepEqual([other.seen, backend.requests], [[], []]);
  } finally {
    await ex.close();
    await policy.close();
    await recorder.close();
    await redirecting.close();
    await backend.close();
    await other.close();
  }
});

test("MCP over streamable-http: a 302 or 307 to another origin is not followed (the SDK's same-origin rule); the credential stays home", async () => {
  for (const status of [302, 307]) {
    const other = await otherOrigin();
    const front = await startHttpServer((_req, res) => {
      res.writeHead(status, { location: `${other.url}/mcp` });
      res.end();
    });
    const registry = loadToolRegistry(`
handlers:
  - name: m
    type: mcp
    ${WORKLOAD}
    mcpConfig: { transport: streamable-http, endpoint: "${front.url}/mcp" }
`);
    const ex = createToolExecutor({ registry, workloadIdentity });
    try {
      // The redirected listing cannot succeed: the handler's discovery fails, and nothing reached the other origin.
      await assert.rejects(ex.refresh(), (e: unknown) => e instanceof Error && e.message.startsWith('handler "m": failed to connect MCP: '));
      assert.deepEqual(ex.tools, []);
      assert.deepEqual(front.requests.map((r) => [r.method, r.url, r.headers["x-api-token"]]), [["POST", "/mcp", "Bearer wi-secret"]]);
      assert.deepEqual(other.seen, [], String(status));
    } finally {
      await ex.close();
      await front.close();
      await other.close();
    }
  }
});

test("an MCP request that leaves redirects to the fetch gets the one rule: a 302 to another origin is a GET without the credential or identity", async () => {
  const other = await otherOrigin();
  const front = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/mcp` });
    res.end();
  });
  const http = new McpHttp("m", () => ({ "X-Api-Token": "Bearer wi-secret" }), undefined, () => {});
  try {
    const response = await http.fetch(`${front.url}/mcp`, { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-omnia-user-id": "u1", traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "x-trace": "kept" } });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.deepEqual(front.requests.map((r) => [r.method, r.headers["x-api-token"], r.headers["x-omnia-user-id"]]), [["POST", "Bearer wi-secret", "u1"]]);
    assert.deepEqual(
      other.seen.map((s) => [s.method, s.url, s.headers["x-api-token"] ?? "-", s.headers["x-omnia-user-id"] ?? "-", s.headers["traceparent"] ?? "-", s.headers["content-type"] ?? "-", s.headers["x-trace"]]),
      [["GET", "/mcp", "-", "-", "-", "-", "kept"]],
    );
  } finally {
    await http.destroy();
    await front.close();
    await other.close();
  }
});
