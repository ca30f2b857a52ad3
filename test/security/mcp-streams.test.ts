// Issue #31 item 8: an MCP server's event streams are read at most one 20 MiB
// message at a time. A hostile server writes one endless event (`data: xxx…`
// with no blank line) into the sse transport's stream, the streamable-http GET
// stream, or a POST answered with text/event-stream; the client held all of
// it (200 MiB sent, about 241 MiB held) while the session kept working. Now
// the event is cut off past the cap, the session ends as for a POST answer
// past the cap (the requests waiting on it fail with
// `MCP response larger than the 20971520-byte cap`), and the next call opens a
// new session. Memory is shown bounded by what the server could write: its
// writes wait for the client to read (backpressure), and they stop shortly
// past 20 MiB, when the client drops the connection.
// The servers are the SDK's own (test/helpers/mcp-server.ts), each event
// stream taken over by the test as a hostile server would.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { createMcpToolClient, McpTransportError, type McpCallResult } from "../../src/mcp/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startMcpHttpServer, type McpHttpTestServer } from "../helpers/mcp-server.js";
import { STANDARD_TOOLS, type TestTool } from "../helpers/mcp-tools.js";

const CAP = 20 * 1024 * 1024;
/** Where the hostile server gives up on its own (the client before the fix read all of it). */
const FLOOD_LIMIT = 64 * 1024 * 1024;
/** What the loopback socket buffers and undici can hold between the server's writes and the meter. */
const IN_FLIGHT_SLACK = 16 * 1024 * 1024;
const CAP_TEXT = "MCP response larger than the 20971520-byte cap";
/** Before the fix, the POST case waited forever: this bounds the test, not a timing assertion. */
const HANG_GUARD = { timeout: 120_000 };

/**
 * Writes one endless event (`data: ` then `x`s, no line end) into `res`,
 * waiting for each write to drain, until the client drops the connection or
 * FLOOD_LIMIT bytes went out; then ends the event. Resolves with the bytes written.
 */
async function flood(res: ServerResponse): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let closed = res.destroyed;
  res.once("close", () => (closed = true));
  let written = 0;
  res.write("data: ");
  while (!closed && written < FLOOD_LIMIT) {
    written += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  if (!closed) res.write("\n\n");
  return written;
}

/** A promise with its resolve. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function assertFloodBounded(written: number): void {
  assert.ok(written > CAP, `the server wrote ${written} bytes, not past the cap`);
  assert.ok(written <= CAP + IN_FLIGHT_SLACK, `the server wrote ${written} bytes: the client read on past the cap`);
}

function assertCapError(e: unknown, message: string): true {
  assert.ok(e instanceof McpTransportError, String(e));
  assert.equal(e.message, message);
  assert.equal(e.code, "ERR_OMNIA_MCP_TRANSPORT");
  assert.equal(e.handlerName, "docs");
  return true;
}

const initializes = (server: McpHttpTestServer): number => server.requests.filter((r) => r.rpcMethod === "initialize").length;
const echo = async (client: ReturnType<typeof createMcpToolClient>, text: string): Promise<McpCallResult> => client.callTool("echo", { text });

test("sse: an endless event on the session's stream ends the session; the call waiting on it fails with the cap error; the next call opens a new session", HANG_GUARD, async () => {
  let stream: ServerResponse | undefined;
  const flooded = deferred<number>();
  const floodTool: TestTool = {
    name: "flood",
    call: async () => {
      flooded.resolve(await flood(stream as ServerResponse));
      return { content: [{ type: "text", text: "flooded" }] };
    },
  };
  const server = await startMcpHttpServer({ transport: "sse", tools: [...STANDARD_TOOLS, floodTool], onEventStream: (res) => (stream = res) });
  const logger = createCaptureLogger();
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "sse", endpoint: server.url } }, { logger });
  try {
    assert.deepEqual(await echo(client, "before"), { status: "success", result: "before", resultJson: '"before"' });
    await assert.rejects(client.callTool("flood", {}), (e: unknown) => assertCapError(e, `MCP tool call failed: ${CAP_TEXT}`));
    assertFloodBounded(await flooded.promise);
    assert.ok(logger.lines.some((l) => l.message === "mcp: an answer passed the message cap; ending the session" && l.fields?.["error"] === CAP_TEXT));
    assert.deepEqual(await echo(client, "after"), { status: "success", result: "after", resultJson: '"after"' });
    assert.equal(initializes(server), 2, "the flooded session was replaced");
    assert.equal(server.requests.filter((r) => r.method === "GET").length, 2);
  } finally {
    await client.close();
    await server.close();
  }
});

test("streamable-http: an endless event on the GET stream during a call ends the session with the cap error; the next call opens a new session", HANG_GUARD, async () => {
  let stream: ServerResponse | undefined;
  const opened = deferred<void>();
  const flooded = deferred<number>();
  const floodTool: TestTool = {
    name: "flood",
    call: async () => {
      flooded.resolve(await flood(stream as ServerResponse));
      return { content: [{ type: "text", text: "flooded" }] };
    },
  };
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [...STANDARD_TOOLS, floodTool],
    intercept: (req, _body, res) => {
      if (req.method !== "GET") return false;
      // The session's GET stream, taken over: the first one is flooded by the tool; later ones stay quiet.
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).flushHeaders();
      stream ??= res;
      opened.resolve();
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  try {
    assert.deepEqual(await echo(client, "before"), { status: "success", result: "before", resultJson: '"before"' });
    await opened.promise;
    await assert.rejects(client.callTool("flood", {}), (e: unknown) => assertCapError(e, `MCP tool call failed: ${CAP_TEXT}`));
    assertFloodBounded(await flooded.promise);
    assert.deepEqual(await echo(client, "after"), { status: "success", result: "after", resultJson: '"after"' });
    assert.equal(initializes(server), 2, "the flooded session was replaced");
  } finally {
    await client.close();
    await server.close();
  }
});

test("streamable-http: an endless event on an idle session's GET stream retires the session; the next listing opens a new one", HANG_GUARD, async () => {
  const flooded = deferred<number>();
  let gets = 0;
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    intercept: (req, _body, res) => {
      if (req.method !== "GET") return false;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).flushHeaders();
      if (++gets === 1) void flood(res).then(flooded.resolve);
      return true;
    },
  });
  const logger = createCaptureLogger();
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } }, { logger });
  try {
    assert.equal((await client.listTools()).length, STANDARD_TOOLS.length);
    assertFloodBounded(await flooded.promise);
    assert.deepEqual(
      logger.lines.filter((l) => l.message === "mcp: an answer passed the message cap; ending the session").map((l) => l.fields),
      [{ handler: "docs", session: 1, error: CAP_TEXT }],
    );
    assert.deepEqual((await client.listTools()).map((t) => t.name), STANDARD_TOOLS.map((t) => t.name));
    assert.deepEqual(await echo(client, "after"), { status: "success", result: "after", resultJson: '"after"' });
    assert.equal(initializes(server), 2, "the flooded session was replaced");
  } finally {
    await client.close();
    await server.close();
  }
});

test("streamable-http: a POST answered with an endless event is cut at the cap and fails its call with the cap error at once; the next call opens a new session", HANG_GUARD, async () => {
  const flooded = deferred<number>();
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    intercept: (req, body, res) => {
      const params = (body as { method?: string; params?: { name?: string } } | undefined)?.params;
      if (req.method !== "POST" || params?.name !== "flood_post") return false;
      res.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();
      void flood(res).then(flooded.resolve);
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  try {
    assert.deepEqual(await echo(client, "before"), { status: "success", result: "before", resultJson: '"before"' });
    await assert.rejects(client.callTool("flood_post", {}), (e: unknown) => assertCapError(e, `MCP tool call failed: ${CAP_TEXT}`));
    assertFloodBounded(await flooded.promise);
    assert.deepEqual(await echo(client, "after"), { status: "success", result: "after", resultJson: '"after"' });
    assert.equal(initializes(server), 2, "the session was replaced, as after a JSON answer past the cap");
  } finally {
    await client.close();
    await server.close();
  }
});

test("streamable-http: a JSON answer past the cap fails its call with the same error and ends the session", HANG_GUARD, async () => {
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    intercept: (req, body, res) => {
      const rpc = body as { id?: number; params?: { name?: string } } | undefined;
      if (req.method !== "POST" || rpc?.params?.name !== "huge_json") return false;
      const text = "x".repeat(CAP);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result: { content: [{ type: "text", text }] } }));
      return true;
    },
  });
  const client = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  try {
    assert.deepEqual(await echo(client, "before"), { status: "success", result: "before", resultJson: '"before"' });
    await assert.rejects(client.callTool("huge_json", {}), (e: unknown) => assertCapError(e, `MCP tool call failed: ${CAP_TEXT}`));
    assert.deepEqual(await echo(client, "after"), { status: "success", result: "after", resultJson: '"after"' });
    assert.equal(initializes(server), 2);
  } finally {
    await client.close();
    await server.close();
  }
});
