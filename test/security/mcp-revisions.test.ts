// The MCP revision fallback as a channel (issue #33 item 7): a server's answer to
// `initialize` decides whether the session moves to revision 2026-07-28. A hostile
// server must not use that to loop the client, to make it parse without bound,
// to move a request elsewhere, or to replace the headers the revision mirrors;
// a 2026-07-28 session keeps the 20 MiB message cap and the redirect rule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMcpToolClient, McpTransportError } from "../../src/mcp/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { startModernMcpHttpServer } from "../helpers/mcp-modern-server.js";
import { STANDARD_TOOLS } from "../helpers/mcp-tools.js";

const CAP_TEXT = "MCP response larger than the 20971520-byte cap";

function refusal(supported: readonly string[], pad = ""): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32022, message: `Unsupported protocol version: 2025-11-25${pad}`, data: { supported, requested: "2025-11-25" } } });
}

test("a server that refuses initialize for 2026-07-28 and then fails server/discover: one typed failure per call, two POSTs per attempt, never a loop", async () => {
  const server = await startModernMcpHttpServer({
    legacy: "modern-only",
    tools: STANDARD_TOOLS,
    intercept: (_req, body, res) => {
      if (body?.method === "initialize") res.writeHead(400, { "content-type": "application/json" }).end(refusal(["2026-07-28"]));
      else res.writeHead(500, { "content-type": "text/plain" }).end("no discovery here");
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  try {
    for (let i = 0; i < 2; i++) {
      await assert.rejects(client.callTool("echo", { text: "x" }), (e: unknown) => {
        assert.ok(e instanceof McpTransportError, String(e));
        assert.equal(e.code, "ERR_OMNIA_MCP_TRANSPORT");
        assert.equal(e.message, "MCP tool call failed: failed to connect MCP: Streamable HTTP error: Version negotiation failed: the server answered the probe with HTTP 500");
        assert.equal(e.httpStatus, 500);
        return true;
      });
    }
    assert.deepEqual(server.rpcMethods(), ["initialize", "server/discover", "initialize", "server/discover"]);
  } finally {
    await client.close();
    await server.close();
  }
});

test("a refusal body past 64 KiB is not parsed: no move to 2026-07-28, and its text reaches the model cut to 512 bytes", async () => {
  const big = refusal(["2026-07-28"], "A".repeat(70 * 1024));
  const server = await startModernMcpHttpServer({
    legacy: "modern-only",
    tools: STANDARD_TOOLS,
    intercept: (_req, _body, res) => {
      res.writeHead(400, { "content-type": "application/json" }).end(big);
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  try {
    await assert.rejects(client.callTool("echo", { text: "x" }), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      const prefix = "MCP tool call failed: failed to connect MCP: Streamable HTTP error: Error POSTing to endpoint: ";
      assert.ok(e.message.startsWith(prefix), e.message.slice(0, 200));
      assert.ok(e.message.endsWith("..."));
      assert.equal(Buffer.byteLength(e.message.slice(prefix.length - "Streamable HTTP error: Error POSTing to endpoint: ".length), "utf8"), 512 + 3);
      return true;
    });
    assert.deepEqual(server.rpcMethods(), ["initialize"]);
  } finally {
    await client.close();
    await server.close();
  }
});

test("a credential or injected header cannot replace the Mcp-Method, Mcp-Name or Mcp-Protocol-Version a 2026-07-28 request carries", async () => {
  const server = await startModernMcpHttpServer({ legacy: "modern-only", tools: STANDARD_TOOLS });
  const client = createMcpToolClient(
    { name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } },
    { headers: () => ({ "Mcp-Method": "tools/list", "Mcp-Protocol-Version": "2025-03-26" }) },
  );
  try {
    const outcome = await client.callTool("echo", { text: "x" }, { headers: { "mcp-name": "other", "MCP-METHOD": "ping", "Mcp-Extra": "kept" } });
    assert.deepEqual(outcome, { status: "success", result: "x", resultJson: '"x"' });
    const call = server.requests.find((r) => r.body?.method === "tools/call");
    assert.equal(call?.headers["mcp-method"], "tools/call");
    assert.equal(call?.headers["mcp-name"], "echo");
    assert.equal(call?.headers["mcp-protocol-version"], "2026-07-28");
    assert.equal(call?.headers["mcp-extra"], "kept");
  } finally {
    await client.close();
    await server.close();
  }
});

test("2026-07-28 keeps the message cap: a tools/call answer past 20 MiB fails that call with the cap text, and the next call works", async () => {
  let flood = true;
  const server = await startModernMcpHttpServer({
    legacy: "modern-only",
    tools: STANDARD_TOOLS,
    intercept: (_req, body, res) => {
      if (body?.method !== "tools/call" || !flood) return false;
      flood = false;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${"x".repeat(21 * 1024 * 1024)}"}]}}`);
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  try {
    await assert.rejects(client.callTool("echo", { text: "big" }), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.equal(e.message, `MCP tool call failed: ${CAP_TEXT}`);
      return true;
    });
    assert.deepEqual(await client.callTool("echo", { text: "after" }), { status: "success", result: "after", resultJson: '"after"' });
  } finally {
    await client.close();
    await server.close();
  }
});

test("a 2026-07-28 server's redirect to another origin is not followed: the other origin sees nothing", async () => {
  const elsewhere: string[] = [];
  const other = createServer((req, res) => {
    elsewhere.push(`${req.method} ${req.url} ${req.headers["authorization"] ?? ""}`);
    res.writeHead(200).end("{}");
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const otherUrl = `http://localhost:${(other.address() as AddressInfo).port}/steal`;
  const server = await startModernMcpHttpServer({
    legacy: "modern-only",
    tools: STANDARD_TOOLS,
    intercept: (_req, body, res) => {
      if (body?.method !== "tools/call") return false;
      res.writeHead(307, { location: otherUrl }).end();
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } }, { headers: () => ({ Authorization: "Bearer s3cret" }) });
  try {
    await assert.rejects(client.callTool("echo", { text: "x" }), (e: unknown) => {
      assert.ok(e instanceof McpTransportError, String(e));
      assert.ok(!e.message.includes("s3cret"), e.message);
      return true;
    });
    assert.deepEqual(elsewhere, []);
  } finally {
    await client.close();
    await server.close();
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test("stdio: a server that refuses initialize and never answers server/discover leaves no child behind the connect timeout and close()", async () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-mcp-hostile-"));
  const log = join(dir, "log");
  const lines = (): string[] => {
    try {
      return readFileSync(log, "utf8").split("\n").filter((l) => l !== "");
    } catch {
      return [];
    }
  };
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const clock = createManualClock();
  const client = createMcpToolClient(
    { name: "docs", mcpConfig: { transport: "stdio", command: process.execPath, args: ["test/fixtures/mcp-hostile-stdio-server.mjs", log] } },
    { clock, connectTimeoutMs: 5_000 },
  );
  try {
    for (let round = 1; round <= 2; round++) {
      const call = client.callTool("echo", {});
      call.catch(() => undefined);
      // Each round: a child refuses initialize, a second one gets the probe and stays silent.
      while (lines().filter((l) => l === "discover").length < round) await new Promise((resolve) => setImmediate(resolve));
      clock.advance(5_000);
      await assert.rejects(call, { message: "MCP tool call failed: failed to connect MCP: timed out after 5000ms" });
    }
    await client.close();
    const pids = lines().filter((l) => l !== "discover").map(Number);
    assert.equal(pids.length, 4);
    assert.deepEqual(pids.filter(alive), []);
  } finally {
    for (const pid of lines().filter((l) => l !== "discover").map(Number)) if (alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
