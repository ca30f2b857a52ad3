// MCP revision 2026-07-28 (issue #33 item 7), against real servers built with the
// SDK's 2.x server package: a server that still answers `initialize` is spoken to
// exactly as Omnia's runtime does (initialize first, no `server/discover`, no
// `_meta` envelope); a server that refuses every older revision gets a session on
// 2026-07-28, with the same results, texts and headers.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { createMcpToolClient, MCP_CLIENT_INFO, McpToolError, McpTransportError, type McpToolClient } from "../src/mcp/index.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { MemoryRecorder } from "../src/testing/index.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { startModernMcpHttpServer, type ModernMcpHttpServer } from "./helpers/mcp-modern-server.js";
import { STANDARD_TOOLS } from "./helpers/mcp-tools.js";
import { LOADER, sourcePath } from "./helpers/source.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "omnia-runtime", version: "v1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const STRUCTURED_JSON = '{"a":"\\u003cb\\u003e\\u0026","nested":{"x":null,"y":[1,2]},"z":1}';

function httpClient(server: ModernMcpHttpServer, options: Parameters<typeof createMcpToolClient>[1] = {}): McpToolClient {
  return createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } }, options);
}

test("a server that speaks both revisions gets Omnia's messages: initialize first, then the calls, with no server/discover, envelope or new headers", async () => {
  const server = await startModernMcpHttpServer({ legacy: "both", tools: STANDARD_TOOLS });
  const client = httpClient(server);
  try {
    assert.deepEqual((await client.listTools()).map((t) => t.name), STANDARD_TOOLS.map((t) => t.name));
    assert.deepEqual(await client.callTool("echo", { text: "hi" }), { status: "success", result: "hi", resultJson: '"hi"' });
    await client.ping();
    const posts = server.requests.filter((r) => r.method === "POST");
    assert.deepEqual(server.rpcMethods(), ["initialize", "notifications/initialized", "tools/list", "tools/call", "ping"]);
    assert.deepEqual(posts[0]?.body, {
      method: "initialize",
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { ...MCP_CLIENT_INFO } },
      jsonrpc: "2.0",
      id: 0,
    });
    assert.deepEqual(posts[3]?.body, { method: "tools/call", params: { name: "echo", arguments: { text: "hi" } }, jsonrpc: "2.0", id: 2 });
    for (const post of posts) {
      assert.equal(post.headers["mcp-method"], undefined);
      assert.equal(post.headers["mcp-name"], undefined);
      assert.notEqual(post.headers["mcp-protocol-version"], "2026-07-28");
      assert.equal(post.body?.params?.["_meta"], undefined);
    }
  } finally {
    await client.close();
    await server.close();
  }
});

test("a 2026-07-28-only server over streamable-http: refused initialize, then server/discover and every request with the envelope, the revision's headers and the credential", async () => {
  const server = await startModernMcpHttpServer({ legacy: "modern-only", tools: STANDARD_TOOLS });
  const logger = createCaptureLogger();
  const client = httpClient(server, { headers: () => ({ Authorization: "Bearer t0k" }), logger });
  try {
    assert.deepEqual((await client.listTools()).map((t) => t.name), STANDARD_TOOLS.map((t) => t.name));
    assert.deepEqual(await client.callTool("echo", '{"text":"hi"}', { headers: { "X-Injected": "v1" } }), { status: "success", result: "hi", resultJson: '"hi"' });
    const structured = await client.callTool("structured", {});
    assert.equal(structured.status === "success" ? structured.resultJson : structured.message, STRUCTURED_JSON);
    const failed = await client.callTool("fail", {});
    assert.equal(failed.status, "error");
    assert.ok(failed.status === "error" && failed.error instanceof McpToolError);
    assert.equal(failed.status === "error" ? failed.message : "", "boom: the widget is broken");
    await client.ping();
    assert.deepEqual(server.rpcMethods(), ["initialize", "server/discover", "tools/list", "tools/call", "tools/call", "tools/call", "server/discover"]);
    const [refused, ...modern] = server.requests.filter((r) => r.method === "POST");
    assert.equal(refused?.headers["authorization"], "Bearer t0k");
    assert.equal(refused?.body?.params?.["_meta"], undefined);
    for (const post of modern) {
      assert.equal(post.headers["mcp-protocol-version"], "2026-07-28");
      assert.equal(post.headers["mcp-method"], post.body?.method);
      assert.equal(post.headers["authorization"], "Bearer t0k");
      assert.deepEqual(post.body?.params?.["_meta"], ENVELOPE);
    }
    const echo = modern[2];
    assert.deepEqual(echo?.body?.params, { name: "echo", arguments: { text: "hi" }, _meta: ENVELOPE });
    assert.equal(echo?.headers["mcp-name"], "echo");
    assert.equal(echo?.headers["x-injected"], "v1");
    assert.equal(modern[3]?.headers["x-injected"], undefined);
    assert.ok(logger.lines.some((l) => l.message === "mcp: the server refused initialize and speaks only the newer revision; opening the session on it" && l.fields?.["revision"] === "2026-07-28"));
    assert.ok(logger.lines.some((l) => l.message === "mcp: connected" && l.fields?.["revision"] === "2026-07-28"));
    await assert.rejects(client.callTool("nope", {}), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.equal(e.message, "MCP tool call failed: MCP error -32602: Tool nope not found");
      assert.equal(e.rpcCode, -32602);
      return true;
    });
  } finally {
    await client.close();
    await server.close();
  }
});

/**
 * A 2026-07-28-only server whose first tools/call is answered by `answer`: that call fails with `expected`
 * (and `httpStatus`), the next call succeeds on the same session, and no new server/discover is sent.
 */
async function firstCallFails(answer: (res: ServerResponse, id: unknown) => void, expected: string, httpStatus?: number): Promise<void> {
  let pending = true;
  const server = await startModernMcpHttpServer({
    legacy: "modern-only",
    tools: STANDARD_TOOLS,
    intercept: (_req, body, res) => {
      if (body?.method !== "tools/call" || !pending) return false;
      pending = false;
      answer(res, (body as { id?: unknown }).id);
      return true;
    },
  });
  const client = httpClient(server);
  try {
    await assert.rejects(client.callTool("echo", { text: "a" }), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.equal(e.message, expected);
      assert.equal(e.httpStatus, httpStatus);
      return true;
    });
    assert.deepEqual(await client.callTool("echo", { text: "b" }), { status: "success", result: "b", resultJson: '"b"' });
    assert.deepEqual(server.rpcMethods(), ["initialize", "server/discover", "tools/call", "tools/call"]);
  } finally {
    await client.close();
    await server.close();
  }
}

test("2026-07-28 failures read as on the older revisions: an HTTP 500 fails that call only, the next call goes on without a new server/discover", async () => {
  await firstCallFails((res) => res.writeHead(500, { "content-type": "text/plain" }).end("boom"), "MCP tool call failed: Streamable HTTP error: Error POSTing to endpoint: boom", 500);
});

test("a refusal that names no revision the client speaks fails as before: one initialize, its text, no second attempt", async () => {
  const refusal = '{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25","data":{"supported":["2099-01-01"],"requested":"2025-11-25"}}}';
  const server = await startModernMcpHttpServer({
    legacy: "modern-only",
    tools: STANDARD_TOOLS,
    intercept: (_req, _body, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(refusal);
      return true;
    },
  });
  const client = httpClient(server);
  try {
    await assert.rejects(client.listTools(), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.equal(e.message, `handler "docs": failed to connect MCP: Streamable HTTP error: Error POSTing to endpoint: ${refusal}`);
      assert.equal(e.httpStatus, 400);
      return true;
    });
    assert.deepEqual(server.rpcMethods(), ["initialize"]);
  } finally {
    await client.close();
    await server.close();
  }
});

const STDIO_FIXTURE = sourcePath("test/fixtures/mcp-modern-stdio-server.ts");

function stdioClient(mode: "modern-only" | "both", log: string): McpToolClient {
  return createMcpToolClient({ name: "docs", mcpConfig: { transport: "stdio", command: process.execPath, args: [...LOADER, STDIO_FIXTURE, mode, log] } });
}

function wire(log: string): { method?: string; params?: Record<string, unknown> }[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { method?: string; params?: Record<string, unknown> });
}

test("stdio: a server that speaks both revisions gets initialize first and never server/discover", async () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-mcp-rev-"));
  const log = join(dir, "wire.jsonl");
  const client = stdioClient("both", log);
  try {
    assert.deepEqual(await client.callTool("echo", { text: "hi" }), { status: "success", result: "hi", resultJson: '"hi"' });
    await client.close();
    const messages = wire(log);
    assert.deepEqual(messages.map((m) => m.method), ["initialize", "notifications/initialized", "tools/call"]);
    assert.ok(messages.every((m) => m.params?.["_meta"] === undefined));
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("stdio: a 2026-07-28-only server is spawned again and spoken to on that revision, with the same results and texts", async () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-mcp-rev-"));
  const log = join(dir, "wire.jsonl");
  const client = stdioClient("modern-only", log);
  try {
    assert.deepEqual((await client.listTools()).map((t) => t.name), STANDARD_TOOLS.map((t) => t.name));
    assert.deepEqual(await client.callTool("echo", { text: "hi" }), { status: "success", result: "hi", resultJson: '"hi"' });
    const failed = await client.callTool("fail_silent", {});
    assert.equal(failed.status === "error" ? failed.message : "", "MCP tool returned error");
    await assert.rejects(client.callTool("nope", {}), { message: "MCP tool call failed: MCP error -32602: Tool nope not found" });
    await client.close();
    const messages = wire(log);
    assert.deepEqual(messages.map((m) => m.method), ["initialize", "server/discover", "tools/list", "tools/call", "tools/call", "tools/call"]);
    for (const m of messages.slice(1)) assert.deepEqual(m.params?.["_meta"], ENVELOPE);
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the executor over a 2026-07-28-only server: discovery, a call with the broker's header, one record, and a healthy probe by server/discover", async () => {
  const server = await startModernMcpHttpServer({ legacy: "modern-only", tools: STANDARD_TOOLS });
  const registry = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig:
      transport: streamable-http
      endpoint: ${server.url}
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder, policy: () => ({ allow: true, headers: { "X-Policy": "p1" } }) });
  try {
    const out = await ex.execute({ id: "m1", name: "echo", arguments: '{"text":"hi"}' });
    assert.deepEqual(out.status === "success" && [out.result, out.resultJson, out.handlerType], ["hi", '"hi"', "mcp"]);
    assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.handlerName]), [["m1", "success", "kb"]]);
    assert.deepEqual((await ex.checkHealth("kb")).map((h) => [h.healthy, h.detail]), [[true, "ping ok"]]);
    assert.equal(server.requests.find((r) => r.body?.method === "tools/call")?.headers["x-policy"], "p1");
    assert.deepEqual(server.rpcMethods(), ["initialize", "server/discover", "tools/list", "tools/call", "server/discover"]);
  } finally {
    await ex.close();
    await server.close();
  }
});

test("a 2026-07-28 tool that asks for input (input_required) fails that call with a short text; the session stays", async () => {
  const inputRequired = { resultType: "input_required", inputRequests: { a: { method: "elicitation/create", params: { message: "who are you?", requestedSchema: { type: "object", properties: {} } } } } };
  await firstCallFails(
    (res, id) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: inputRequired })),
    "MCP tool call failed: Unsupported result type 'input_required' for tools/call",
  );
});
