// SECURITY.md, the model-arguments rows: whatever the model writes as arguments (text that is not JSON, nesting
// 100,000 deep, more than maxArgumentBytes), every handler type answers with a typed outcome recorded once, and no
// backend receives anything. Real backends on loopback: node:http (http), the OpenAPI test service, a connect-node
// gRPC server, the MCP SDK's streamable-http server; a client tool and a platform tool.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { MemoryRecorder, startGrpcToolBackend } from "../../src/testing/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startOpenApiServer } from "../helpers/openapi-server.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

const DEEP = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
function parserMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return assert.fail("parsed");
}

const tool = (name: string): string => `tool: { name: ${name}, description: d, inputSchema: { type: object } }`;

test("every handler type: arguments that are not JSON, nested 100,000 deep or over maxArgumentBytes are a typed error recorded once; nothing is sent", async () => {
  const http = await startHttpServer();
  const openapi = await startOpenApiServer();
  let platformRuns = 0;
  const grpc = await startGrpcToolBackend({ gt: { description: "d", inputSchema: { type: "object" }, execute: () => ({ ok: true }) } });
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const registry = loadToolRegistry(`
handlers:
  - { name: h, type: http, ${tool("ht")}, httpConfig: { endpoint: "${http.url}/x", method: POST } }
  - { name: o, type: openapi, openAPIConfig: { specURL: "${openapi.specURL}", operationFilter: [addPet] } }
  - { name: g, type: grpc, ${tool("gt")}, grpcConfig: { endpoint: "${grpc.endpoint}", tls: false } }
  - { name: m, type: mcp, mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" } }
  - { name: c, type: client, ${tool("ct")} }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({
    registry,
    recorder,
    maxArgumentBytes: 1024 * 1024,
    platformTools: { memory__store: { description: "d", inputSchema: { type: "object" }, execute: () => (platformRuns++, { ok: true }) } },
  });
  try {
    await ex.refresh();
    const names = ["ht", "addPet", "gt", "echo", "ct", "memory__store"];
    const cases: readonly [string, string, string][] = [
      // The executor quotes the JSON parser's own message (it differs between Node versions).
      ["notjson", "{oops", parserMessage("{oops")],
      ["deep", DEEP, "JSON nested deeper than 1000 levels"],
      ["big", JSON.stringify({ s: "x".repeat(1024 * 1024) }), `arguments of ${1024 * 1024 + 8} bytes exceed the limit of 1048576 bytes`],
    ];
    const seen: string[] = [];
    for (const name of names) {
      for (const [label, args] of cases) {
        const out: ToolOutcome = await ex.execute({ id: `${name}-${label}`, name, arguments: args }, { clientToolsAvailable: true });
        seen.push(`${name} ${label}: ${out.status} ${out.status === "error" ? `${out.error.code} ${out.message}` : ""}`);
      }
    }
    assert.deepEqual(
      seen,
      names.flatMap((name) => cases.map(([label, , why]) => `${name} ${label}: error ERR_OMNIA_INVALID_ARGUMENTS invalid arguments for tool "${name}": ${why}`)),
    );
    assert.deepEqual(
      recorder.records.map((r) => `${r.callId} ${r.status}`),
      names.flatMap((name) => cases.map(([label]) => `${name}-${label} error`)),
    );
    assert.deepEqual([http.requests.length, openapi.apiRequests().length, grpc.count(), mcp.calls.length, platformRuns], [0, 0, 0, 0, 0]);
  } finally {
    await ex.close();
    await Promise.all([http.close(), openapi.close(), grpc.close(), mcp.close()]);
  }
});

test("the caller's Authorization never reaches an OpenAPI or MCP backend, a record or an outcome", async () => {
  const SENTINEL = "Bearer SENTINEL-caller-7f3a";
  const openapi = await startOpenApiServer();
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const registry = loadToolRegistry(`
handlers:
  - { name: o, type: openapi, openAPIConfig: { specURL: "${openapi.specURL}", operationFilter: [getPetById] } }
  - { name: m, type: mcp, mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" } }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    await ex.refresh();
    // The identity as a facade's metadata would carry it, with the caller's token smuggled in as extra fields.
    const identity = Object.assign({ userId: "u1" }, { authorization: SENTINEL, Authorization: SENTINEL, token: SENTINEL });
    const outs = [await ex.execute({ id: "o", name: "getPetById", arguments: '{"petId":"7"}' }, { identity }), await ex.execute({ id: "m", name: "echo", arguments: '{"text":"hi"}' }, { identity })];
    assert.deepEqual(outs.map((o) => (o.status === "error" ? o.message : o.status)), ["success", "success"]);
    const sent = [...openapi.apiRequests().map((r) => r.headers), ...mcp.requests.filter((r) => r.rpcMethod === "tools/call").map((r) => r.headers)];
    assert.deepEqual(
      sent.map((h) => [h["authorization"] ?? "-", h["x-omnia-user-id"] ?? "-"]),
      [
        ["-", "u1"],
        // An MCP call carries the handler's credential and broker-injected headers only, no identity headers.
        ["-", "-"],
      ],
    );
    assert.equal(JSON.stringify({ sent, records: recorder.records, outs }).includes("SENTINEL"), false);
  } finally {
    await ex.close();
    await openapi.close();
    await mcp.close();
  }
});
