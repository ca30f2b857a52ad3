// SECURITY.md, the backend-response rows: what an HTTP, OpenAPI, gRPC or MCP backend answers cannot pollute the
// process or cost more than the caps, and ends as a typed outcome recorded once. Real servers on loopback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { MemoryRecorder, startGrpcToolBackend } from "../../src/testing/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { answer, startH2Backend, toolResponseBytes } from "../faults/helpers/h2-backend.js";

const DEEP = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
const PROTO = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
const tool = (name: string): string => `tool: { name: ${name}, description: d, inputSchema: { type: object } }`;

test("results nested 100,000 deep or full of __proto__ keys reach the model as sent, recorded once; no prototype changes", async () => {
  const http = await startHttpServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(req.url === "/deep" ? DEEP : PROTO);
  });
  const mcp = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [
      { name: "mdeep", call: () => ({ content: [{ type: "text", text: DEEP }] }) },
      { name: "mproto", call: () => ({ content: [{ type: "text", text: PROTO }] }) },
    ],
  });
  const registry = loadToolRegistry(`
handlers:
  - { name: d, type: http, ${tool("deep")}, httpConfig: { endpoint: "${http.url}/deep" } }
  - { name: p, type: http, ${tool("proto")}, httpConfig: { endpoint: "${http.url}/proto" } }
  - { name: m, type: mcp, mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" } }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    const outs = [];
    for (const name of ["deep", "proto", "mdeep", "mproto"]) outs.push(await ex.execute({ id: name, name, arguments: "{}" }));
    // HTTP passes a JSON body as it came; an MCP text content is the model's text, as a JSON string. Compared by
    // equality (the texts are 600 KB).
    const expected = [DEEP, PROTO, JSON.stringify(DEEP), JSON.stringify(PROTO)];
    assert.deepEqual(
      outs.map((o, i) => [o.status, o.status === "success" && o.resultJson === expected[i]]),
      [
        ["success", true],
        ["success", true],
        ["success", true],
        ["success", true],
      ],
    );
    assert.deepEqual(recorder.records.map((r) => `${r.callId} ${r.status}`), ["deep success", "proto success", "mdeep success", "mproto success"]);
    assert.deepEqual([({} as { polluted?: unknown }).polluted, Object.getPrototypeOf({}) === Object.prototype], [undefined, true]);
  } finally {
    await ex.close();
    await http.close();
    await mcp.close();
  }
});

test("gRPC: a response over the 4 MiB receive limit is grpc-go's ResourceExhausted, compressed or not, recorded once", async () => {
  const size = 5 * 1024 * 1024;
  const compressed = await startGrpcToolBackend({ big: { description: "d", inputSchema: { type: "object" }, execute: () => ({ s: "x".repeat(size) }) } });
  const payload = toolResponseBytes({ resultJson: JSON.stringify({ s: "x".repeat(size) }) });
  const plain = await startH2Backend((stream) => answer(stream, payload));
  const registry = loadToolRegistry(`
handlers:
  - { name: g1, type: grpc, ${tool("big")}, grpcConfig: { endpoint: "${compressed.endpoint}", tls: false } }
  - { name: g2, type: grpc, ${tool("plain")}, grpcConfig: { endpoint: "${plain.endpoint}", tls: false } }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    const outs = [await ex.execute({ id: "1", name: "big", arguments: "{}" }), await ex.execute({ id: "2", name: "plain", arguments: "{}" })];
    assert.deepEqual(
      outs.map((o) => (o.status === "error" ? [o.error.code, o.message] : [o.status])),
      [
        ["ERR_OMNIA_GRPC_STATUS", "gRPC tool execution failed: rpc error: code = ResourceExhausted desc = grpc: received message after decompression larger than max 4194304"],
        ["ERR_OMNIA_GRPC_STATUS", `gRPC tool execution failed: rpc error: code = ResourceExhausted desc = grpc: received message larger than max (${payload.length} vs. 4194304)`],
      ],
    );
    assert.deepEqual(recorder.records.map((r) => `${r.callId} ${r.status}`), ["1 error", "2 error"]);
  } finally {
    await ex.close();
    await compressed.close();
    await plain.close();
  }
});
