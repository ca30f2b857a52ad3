// MCP fault matrix through createToolExecutor (issue #14): a server that dies mid-call,
// a server that is gone, isError never tripping the breaker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { settle } from "../helpers/settle.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { withoutUnhandledRejections } from "../helpers/http-server.js";

const registryFor = (url: string) =>
  loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${url}" }
`);

// The SDK's streamable-http client does not fail a call whose response stream is cut: it waits
// (to resume), so a server that dies mid-call ends at the per-attempt timeout, which is a
// breaker failure. Known limitation, noted on issue #14.
test("an MCP server that dies mid-call: a timeout error outcome, one breaker failure, no unhandled rejection, no live handle", async () => {
  await withoutUnhandledRejections(async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap" || r === "TCPServerWrap").length;
    const mcp = await startMcpHttpServer({ transport: "streamable-http" });
    const breakers = createCircuitBreakers();
    const recorder = new MemoryRecorder();
    const clock = createManualClock();
    const ex = createToolExecutor({ registry: registryFor(mcp.url), breakers, recorder, clock });
    await ex.refresh();
    const pending = ex.execute({ id: "h1", name: "hang", arguments: "{}" });
    await mcp.waitForCall("hang");
    await mcp.close();
    const out = await settle(pending, clock, 1_000);
    assert.equal(out.status === "error" && out.message, "timed out after 30000ms", JSON.stringify(out));
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_TIMEOUT");
    assert.deepEqual([breakers.get("hang").snapshot().failures, recorder.records[0]?.status], [1, "error"]);
    await ex.close();
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 50 && process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap" || r === "TCPServerWrap").length > before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const after = process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap" || r === "TCPServerWrap").length;
    assert.equal(after, before, "every socket is closed");
  });
});

test("isError results never open the MCP tool's breaker; ten transport failures do", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const breakers = createCircuitBreakers();
  const ex = createToolExecutor({ registry: registryFor(mcp.url), breakers });
  try {
    for (let i = 0; i < 12; i++) {
      const out = await ex.execute({ id: `f${i}`, name: "fail", arguments: "{}" });
      assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_MCP_TOOL_ERROR");
    }
    assert.equal(breakers.get("fail").state, "closed");
    mcp.failToolCalls(10, 500);
    for (let i = 0; i < 10; i++) {
      const out = await ex.execute({ id: `t${i}`, name: "echo", arguments: '{"text":"x"}' });
      assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_MCP_TRANSPORT", JSON.stringify(out));
    }
    const rejected = await ex.execute({ id: "t10", name: "echo", arguments: '{"text":"x"}' });
    assert.equal(rejected.status === "error" && rejected.message, "circuit breaker [echo]: circuit breaker is open");
  } finally {
    await ex.close();
    await mcp.close();
  }
});
