// SECURITY.md, the MCP rows: an MCP server that never answers holds discovery no longer than the 30 s connect
// timeout on the injected clock, and a result over the 10 MiB cap is a typed error; every call is recorded once.
// Real servers: a node:http server that never answers, the MCP SDK's streamable-http server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { LOADER, sourcePath } from "../helpers/source.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !predicate(); i++) await tick();
  assert.ok(predicate(), "condition never held");
}

test("an MCP server that never answers: discovery ends at the 30 s connect timeout on the clock, typed; the call is recorded once", { timeout: 20_000 }, async () => {
  const silent = await startHttpServer(() => {}); // accepts, never answers
  const clock = createManualClock(0);
  const recorder = new MemoryRecorder();
  const registry = loadToolRegistry(`
handlers:
  - { name: m, type: mcp, mcpConfig: { transport: streamable-http, endpoint: "${silent.url}/mcp" } }
`);
  const ex = createToolExecutor({ registry, clock, recorder });
  try {
    const pending = ex.execute({ id: "c1", name: "anything", arguments: "{}" });
    await until(() => silent.requests.length === 1);
    clock.advance(30_000);
    const out = await pending;
    assert.deepEqual([out.status, out.status === "error" && out.error.code, out.status === "error" && out.message], ["error", "ERR_OMNIA_MCP_TRANSPORT", 'handler "m": failed to connect MCP: timed out after 30000ms']);
    assert.deepEqual(recorder.records.map((r) => `${r.callId} ${r.status} ${r.errorMessage ?? ""}`), ['c1 error handler "m": failed to connect MCP: timed out after 30000ms']);
  } finally {
    await ex.close();
    await silent.close();
  }
});

test("an MCP result over 10 MiB is a typed error naming the cap, recorded once; the next call is served", { timeout: 20_000 }, async () => {
  const mcp = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [
      { name: "huge", call: () => ({ content: [{ type: "text", text: "x".repeat(11 * 1024 * 1024) }] }) },
      { name: "small", call: () => ({ content: [{ type: "text", text: "ok" }] }) },
    ],
  });
  const recorder = new MemoryRecorder();
  const registry = loadToolRegistry(`
handlers:
  - { name: m, type: mcp, mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" } }
`);
  const ex = createToolExecutor({ registry, recorder });
  try {
    const huge = await ex.execute({ id: "1", name: "huge", arguments: "{}" });
    const small = await ex.execute({ id: "2", name: "small", arguments: "{}" });
    assert.deepEqual(
      [huge.status, huge.status === "error" && huge.error.code, huge.status === "error" && huge.message, small.status === "success" && small.resultJson],
      ["error", "ERR_OMNIA_MCP_RESULT_TOO_LARGE", "MCP tool result of 11534338 bytes exceeds the 10485760-byte cap", '"ok"'],
    );
    assert.deepEqual(recorder.records.map((r) => `${r.callId} ${r.status}`), ["1 error", "2 success"]);
  } finally {
    await ex.close();
    await mcp.close();
  }
});

test("an MCP stdio child that never answers a call: the call ends at the handler timeout on the clock, typed, recorded once; the child is kept", { timeout: 30_000 }, async () => {
  const clock = createManualClock(0);
  const recorder = new MemoryRecorder();
  const registry = loadToolRegistry({
    handlers: [
      { name: "s", type: "mcp", timeout: "2s", mcpConfig: { transport: "stdio", command: process.execPath, args: [...LOADER, sourcePath("test/fixtures/mcp-stdio-server.ts")] } },
    ],
  });
  const ex = createToolExecutor({ registry, clock, recorder });
  try {
    await ex.refresh();
    const pending = ex.execute({ id: "h", name: "hang", arguments: "{}" });
    await until(() => clock.pendingTimers() > 0);
    clock.advance(2000);
    const out = await pending;
    const echo = await ex.execute({ id: "e", name: "echo", arguments: '{"text":"still here"}' });
    assert.deepEqual(
      [out.status, out.status === "error" && out.error.code, out.status === "error" && out.message, echo.status === "success" && echo.resultJson],
      ["error", "ERR_OMNIA_TIMEOUT", "timed out after 2000ms", '"still here"'],
    );
    assert.deepEqual(recorder.records.map((r) => `${r.callId} ${r.status}`), ["h error", "e success"]);
  } finally {
    await ex.close();
  }
});
