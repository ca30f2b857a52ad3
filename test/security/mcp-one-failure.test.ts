// Issue #32 item 1: over streamable-http each request is its own POST, so one POST that fails (its connection
// reset, an HTTP 500, a body that is not JSON) fails its own call only. 100 concurrent calls to one tool on one
// session of the official SDK's server; the server holds every call it runs until 99 have arrived, and one chosen
// tools/call POST is sabotaged before the server sees it. Before the fix, the failed POST retired the session,
// whose SDK Client rejected every pending request: all 100 failed (99 with `MCP error -32000: Connection closed`),
// and with a retry policy the wave of failures opened the breaker.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { MemoryRecorder } from "../../src/testing/index.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import type { TestTool } from "../helpers/mcp-tools.js";

type Sabotage = "reset" | "500" | "invalid JSON";
const SABOTAGE: Record<Sabotage, (req: IncomingMessage, res: ServerResponse) => void> = {
  reset: (req) => void req.socket.destroy(),
  "500": (_req, res) => void res.writeHead(500, { "content-type": "text/plain" }).end("boom"),
  "invalid JSON": (_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end("{not json"),
};

/** A server whose `gate` tool answers only once 99 calls are in, with one tools/call POST (the 50th) sabotaged. */
async function gatedServer(sabotage: Sabotage, transport: "streamable-http" | "sse") {
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  const gate: TestTool = {
    name: "gate",
    call: async (args) => {
      await open;
      return { content: [{ type: "text", text: `done ${String(args["i"])}` }] };
    },
  };
  let toolCalls = 0;
  let sabotaged = false;
  const mcp = await startMcpHttpServer({
    transport,
    tools: [gate],
    intercept: (req, body, res) => {
      if ((body as { method?: unknown } | undefined)?.method !== "tools/call") return false;
      if (++toolCalls !== 50) return false;
      sabotaged = true;
      SABOTAGE[sabotage](req, res);
      return true;
    },
  });
  return { mcp, release, wasSabotaged: () => sabotaged };
}

async function run(sabotage: Sabotage, retry: boolean, transport: "streamable-http" | "sse" = "streamable-http"): Promise<{ outcomes: ToolOutcome[]; records: MemoryRecorder; ran: number; initializes: number; opened: number }> {
  const { mcp, release, wasSabotaged } = await gatedServer(sabotage, transport);
  const registry = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig: { transport: ${transport}, endpoint: "${mcp.url}"${retry ? ", retryPolicy: { maxAttempts: 2, initialBackoff: 1ms }" : ""} }
`);
  const records = new MemoryRecorder();
  let opened = 0;
  const breakers = createCircuitBreakers();
  breakers.on("break", () => opened++);
  const ex = createToolExecutor({ registry, recorder: records, breakers });
  try {
    await ex.listTools();
    const calls = Array.from({ length: 100 }, (_, i) => ex.execute({ id: `c${i}`, name: "gate", arguments: `{"i":${i}}` }));
    await mcp.waitForCall("gate", 99);
    assert.equal(wasSabotaged(), true);
    release();
    const outcomes = await Promise.all(calls);
    return { outcomes, records, ran: mcp.calls.length, initializes: mcp.requests.filter((r) => r.rpcMethod === "initialize").length, opened };
  } finally {
    await ex.close();
    await mcp.close();
  }
}

/** V8 words a JSON.parse failure differently across Node versions: the running one's text. */
function jsonParseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("parsed");
}

const FAILURE: Record<Sabotage, string> = {
  reset: "MCP tool call failed: fetch failed: other side closed",
  "500": "MCP tool call failed: Streamable HTTP error: Error POSTing to endpoint: boom",
  "invalid JSON": `MCP tool call failed: ${jsonParseError("{not json")}`,
};

for (const sabotage of ["reset", "500", "invalid JSON"] as const) {
  test(`streamable-http, one tools/call POST answered with ${sabotage === "reset" ? "a reset" : sabotage === "500" ? "an HTTP 500" : "a body that is not JSON"}: exactly 1 of 100 calls fails, the 99 others succeed on the same session`, { timeout: 60_000 }, async () => {
    const { outcomes, records, ran, initializes } = await run(sabotage, false);
    const failed = outcomes.filter((o) => o.status !== "success");
    assert.equal(failed.length, 1, JSON.stringify(failed.map((o) => o.status === "error" && o.message).slice(0, 3)));
    assert.equal(failed[0]!.status === "error" && failed[0]!.message, FAILURE[sabotage]);
    for (const o of outcomes) if (o.status === "success") assert.equal(o.result, `done ${o.callId.slice(1)}`);
    assert.deepEqual([ran, initializes, records.records.length], [99, 1, 100]);
  });
}

test("streamable-http with a retry policy: the one failed POST is sent again, all 100 succeed, the server ran each call once, the breaker never opens", { timeout: 60_000 }, async () => {
  const { outcomes, records, ran, initializes, opened } = await run("500", true);
  assert.deepEqual(
    outcomes.map((o) => o.status),
    Array.from({ length: 100 }, () => "success"),
  );
  assert.deepEqual([ran, initializes, opened], [100, 1, 0]);
  assert.deepEqual(
    records.records.map((r) => r.attempts).sort((a, b) => b - a).slice(0, 2),
    [2, 1],
  );
});

test("sse, one POST answered with an HTTP 500: exactly 1 of 100 calls fails, the 99 others are answered on the same event stream", { timeout: 60_000 }, async () => {
  const { outcomes, ran, initializes } = await run("500", false, "sse");
  const failed = outcomes.filter((o) => o.status !== "success");
  assert.deepEqual(
    failed.map((o) => o.status === "error" && o.message),
    ["MCP tool call failed: Error POSTing to endpoint (HTTP 500): boom"],
  );
  assert.deepEqual([ran, initializes], [99, 1]);
});
