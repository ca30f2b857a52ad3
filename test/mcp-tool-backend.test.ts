// omnia-tools/testing's MCP backend (issue #36 part 2): a real MCP server over
// streamable-http and SSE whose faults give the executor's exact outcomes, the
// request log, call scoping, latency on the manual clock, hang ended by
// close(), and no socket left behind. Every call goes through the library's
// own MCP client inside a real executor.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolOutcome } from "../src/executor/index.js";
import { createMcpToolClient } from "../src/mcp/index.js";
import {
  assertOutcome,
  assertRecord,
  createManualClock,
  mcpResult,
  MemoryRecorder,
  startMcpToolBackend,
  type ManualClock,
  type McpBackendTool,
  type McpToolBackend,
  type McpToolBackendOptions,
} from "../src/testing.js";
import { leakedResources, resourceBaseline } from "./helpers/resources.js";
import { LOADER, sourceUrl } from "./helpers/source.js";

const START = Date.UTC(2026, 0, 2, 3, 4, 5);
const TRANSPORTS = ["streamable-http", "sse"] as const;
const MIB = 1024 * 1024;

const TOOLS: Readonly<Record<string, McpBackendTool>> = {
  lookup_order: {
    description: "Look up an order",
    inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
    outputSchema: { type: "object", properties: { id: { type: "string" } } },
    result: (args, call) => ({ id: args["orderId"] ?? null, call: call.call ?? null }),
  },
  greet: { result: "hello" },
  list: { description: "A list", result: [1, "two"] },
  structured: { result: mcpResult({ content: [], structuredContent: { z: 1, a: "<b>" } }) },
  image: { result: mcpResult({ content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] }) },
  refuse: { result: mcpResult({ isError: true, content: [{ type: "text", text: "not allowed" }] }) },
  boom: {
    result: async () => {
      throw new Error("kaput");
    },
  },
};

interface Harness {
  readonly backend: McpToolBackend;
  readonly executor: ToolExecutor;
  readonly clock: ManualClock;
  readonly recorder: MemoryRecorder;
  call(name?: string, args?: string): Promise<ToolOutcome>;
}

/** A backend and an executor whose single mcp handler `m` points at it; both closed after `body`. */
async function withBackend(
  transport: (typeof TRANSPORTS)[number],
  options: Omit<McpToolBackendOptions, "transport">,
  body: (h: Harness) => Promise<void>,
  handlerExtra = "",
  executorOptions: { policy?: () => { allow: true; headers: Record<string, string> } } = {},
): Promise<void> {
  const clock = options.clock === undefined ? createManualClock(START) : (options.clock as ManualClock);
  const backend = await startMcpToolBackend(TOOLS, { ...options, transport });
  const registry = loadToolRegistry(`
handlers:
  - name: m
    type: mcp
${handlerExtra}
    mcpConfig: { transport: ${transport}, endpoint: "${backend.url}" }
`);
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry, clock, recorder, random: () => 0.5, ...executorOptions });
  let n = 0;
  const call = (name = "lookup_order", args = '{"orderId":"A-1"}'): Promise<ToolOutcome> => executor.execute({ id: `c${++n}`, name, arguments: args });
  try {
    // Discovery first, on its own: calls then reach the backend without connecting.
    await executor.refresh();
    await body({ backend, executor, clock, recorder, call });
  } finally {
    await executor.close();
    await backend.close();
  }
}

/** Lets the event loop turn (no timers) until `cond` holds. */
async function until(cond: () => boolean, turns = 20_000): Promise<void> {
  for (let i = 0; i < turns && !cond(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(cond(), "condition not reached");
}

/** Whether `promise` is still pending after the event loop has turned `turns` times. */
async function pendingAfter(promise: Promise<unknown>, turns = 200): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < turns && !settled; i++) await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

for (const transport of TRANSPORTS) {
  describe(`startMcpToolBackend over ${transport}`, () => {
    test("tools/list gives the names, descriptions and schemas as given", async () => {
      await withBackend(transport, {}, async ({ executor }) => {
        assert.deepEqual(
          executor.tools.map((t) => ({ ...t })),
          [
            {
              name: "lookup_order",
              description: "Look up an order",
              inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
              outputSchema: { type: "object", properties: { id: { type: "string" } } },
              handlerName: "m",
              handlerType: "mcp",
              execution: "server",
            },
            { name: "greet", description: "", inputSchema: { type: "object" }, handlerName: "m", handlerType: "mcp", execution: "server" },
            { name: "list", description: "A list", inputSchema: { type: "object" }, handlerName: "m", handlerType: "mcp", execution: "server" },
            { name: "structured", description: "", inputSchema: { type: "object" }, handlerName: "m", handlerType: "mcp", execution: "server" },
            { name: "image", description: "", inputSchema: { type: "object" }, handlerName: "m", handlerType: "mcp", execution: "server" },
            { name: "refuse", description: "", inputSchema: { type: "object" }, handlerName: "m", handlerType: "mcp", execution: "server" },
            { name: "boom", description: "", inputSchema: { type: "object" }, handlerName: "m", handlerType: "mcp", execution: "server" },
          ],
        );
      });
    });

    test("each kind of result maps as Omnia maps a CallToolResult; the request log has every JSON-RPC request", async () => {
      await withBackend(transport, {}, async ({ backend, call }) => {
        // A JSON object goes as one text item (its JSON text) plus structuredContent: the text wins.
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":1}', resultJson: '"{\\"id\\":\\"A-1\\",\\"call\\":1}"' });
        assertOutcome(await call("greet", "{}"), { status: "success", result: '"hello"', resultJson: '"\\"hello\\""' });
        assertOutcome(await call("list", "{}"), { status: "success", result: '[1,"two"]', resultJson: '"[1,\\"two\\"]"' });
        assertOutcome(await call("structured", "{}"), { status: "success", result: { z: 1, a: "<b>" }, resultJson: '{"a":"\\u003cb\\u003e","z":1}' });
        assertOutcome(await call("image", "{}"), { status: "success", result: { type: "image", data: "aGk=", mimeType: "image/png" }, resultJson: '{"data":"aGk=","mimeType":"image/png","type":"image"}' });
        assertOutcome(await call("refuse", "{}"), { status: "error", message: "not allowed", error: { name: "McpToolError", code: "ERR_OMNIA_MCP_TOOL_ERROR" } });
        assertOutcome(await call("boom", "{}"), { status: "error", message: "kaput", error: { name: "McpToolError", code: "ERR_OMNIA_MCP_TOOL_ERROR" } });
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":2}' });

        const session = backend.requests[1]?.sessionId;
        assert.equal(typeof session, "string");
        assert.deepEqual(
          backend.requests.map((r) => [r.method, r.id, r.toolName, r.call, r.sessionId === session]),
          [
            // streamable-http: initialize carries no session yet; sse: every POST carries the stream's.
            ["initialize", 0, undefined, undefined, transport === "sse"],
            ["notifications/initialized", undefined, undefined, undefined, true],
            ["tools/list", 1, undefined, undefined, true],
            ["tools/call", 2, "lookup_order", 1, true],
            ["tools/call", 3, "greet", 1, true],
            ["tools/call", 4, "list", 1, true],
            ["tools/call", 5, "structured", 1, true],
            ["tools/call", 6, "image", 1, true],
            ["tools/call", 7, "refuse", 1, true],
            ["tools/call", 8, "boom", 1, true],
            ["tools/call", 9, "lookup_order", 2, true],
          ],
        );
        const first = backend.requests[3];
        assert.deepEqual(first?.arguments, { orderId: "A-1" });
        assert.deepEqual(first?.params, { name: "lookup_order", arguments: { orderId: "A-1" } });
        assert.equal(first?.headers["mcp-protocol-version"], "2025-11-25");
        assert.deepEqual(backend.requests[0]?.params, { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "omnia-runtime", version: "v1.0.0" } });
        assert.equal(backend.calls(), 8);
        assert.equal(backend.calls("lookup_order"), 2);
        assert.equal(backend.calls("greet"), 1);
        assert.equal(backend.calls("nothing"), 0);
      });
    });

    test("is-error: the message is the outcome, an McpToolError, not retried", async () => {
      await withBackend(
        transport,
        { faults: { lookup_order: { kind: "is-error", message: "no such order" } } },
        async ({ backend, call, recorder }) => {
          assertOutcome(await call(), { status: "error", message: "no such order", error: { name: "McpToolError", code: "ERR_OMNIA_MCP_TOOL_ERROR" } });
          assertRecord(recorder.records[0], { status: "error", errorMessage: "no such order", attempts: 1 });
          assert.equal(backend.calls("lookup_order"), 1);
        },
      );
    });

    test("error: a JSON-RPC error, -32603 Internal error by default, or the code and message given", async () => {
      await withBackend(transport, { faults: { lookup_order: [{ kind: "error", calls: [1] }, { kind: "error", code: -32000, message: "backend down", calls: [2] }] } }, async ({ call }) => {
        assertOutcome(await call(), {
          status: "error",
          message: "MCP tool call failed: MCP error -32603: Internal error",
          error: { name: "McpTransportError", code: "ERR_OMNIA_MCP_TRANSPORT" },
        });
        assertOutcome(await call(), { status: "error", message: "MCP tool call failed: MCP error -32000: backend down" });
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":3}' });
      });
    });

    test("status: the POST carrying the call is answered with the status and the body (default: its text)", async () => {
      const failed =
        transport === "sse"
          ? (status: number, body: string) => `MCP tool call failed: Error POSTing to endpoint (HTTP ${status}): ${body}`
          : (_status: number, body: string) => `MCP tool call failed: Streamable HTTP error: Error POSTing to endpoint: ${body}`;
      await withBackend(transport, { faults: { lookup_order: [{ kind: "status", status: [503, 200, 502] }, { kind: "status", status: 429, body: "slow down", calls: [4] }] } }, async ({ backend, call }) => {
        assertOutcome(await call(), { status: "error", message: failed(503, "Service Unavailable"), error: { name: "McpTransportError", code: "ERR_OMNIA_MCP_TRANSPORT" } });
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":2}' });
        assertOutcome(await call(), { status: "error", message: failed(502, "Bad Gateway") });
        assertOutcome(await call(), { status: "error", message: failed(429, "slow down") });
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":5}' });
        assert.equal(backend.calls("lookup_order"), 5);
      });
    });

    test("status 404 reads as an expired session: the client sends the call once more on a new session", async () => {
      await withBackend(transport, { faults: { lookup_order: { kind: "status", status: 404, calls: [1, 3, 4] } } }, async ({ backend, call }) => {
        // Call 1 is answered 404; the client opens a new session and sends it again (call 2, let through).
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":2}' });
        // Calls 3 and 4 are both answered 404: the call fails after its one resend.
        const notFound = transport === "sse" ? "MCP tool call failed: Error POSTing to endpoint (HTTP 404): Not Found" : "MCP tool call failed: Streamable HTTP error: Error POSTing to endpoint: Not Found";
        assertOutcome(await call(), { status: "error", message: notFound });
        assert.equal(backend.calls("lookup_order"), 4);
        const sessions = new Set(backend.requests.filter((r) => r.method === "tools/call").map((r) => r.sessionId));
        assert.equal(sessions.size, 3);
      });
    });

    test("reset-before-headers: the connection is reset, a transport error", async () => {
      await withBackend(transport, { faults: { lookup_order: { kind: "reset-before-headers", calls: [1] } } }, async ({ call }) => {
        assertOutcome(await call(), { status: "error", message: "MCP tool call failed: fetch failed: read ECONNRESET", error: { name: "McpTransportError", code: "ERR_OMNIA_MCP_TRANSPORT" } });
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":2}' });
      });
    });

    test("oversized-result: past the 20 MiB message cap the session ends; between 10 and 20 MiB the result cap refuses it", async () => {
      await withBackend(transport, { faults: { lookup_order: [{ kind: "oversized-result", calls: [1] }, { kind: "oversized-result", bytes: 11 * MIB, calls: [2] }] } }, async ({ call }) => {
        assertOutcome(await call(), {
          status: "error",
          message: "MCP tool call failed: MCP response larger than the 20971520-byte cap",
          error: { name: "McpTransportError", code: "ERR_OMNIA_MCP_TRANSPORT" },
        });
        // 11 MiB of text is 11 MiB + 2 bytes as a JSON string.
        assertOutcome(await call(), {
          status: "error",
          message: `MCP tool result of ${11 * MIB + 2} bytes exceeds the 10485760-byte cap`,
          error: { name: "McpResultTooLargeError", code: "ERR_OMNIA_MCP_RESULT_TOO_LARGE" },
        });
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":3}' });
      });
    });

    test("calls scopes a fault: calls: [1] fails the first call only; \"*\" applies to every tool, after the tool's own", async () => {
      await withBackend(
        transport,
        { faults: { lookup_order: { kind: "is-error", message: "first only", calls: [1] }, "*": { kind: "is-error", message: "every second call", calls: [2] } } },
        async ({ backend, call }) => {
          assertOutcome(await call(), { status: "error", message: "first only" });
          assertOutcome(await call(), { status: "error", message: "every second call" });
          assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":3}' });
          assertOutcome(await call("greet", "{}"), { status: "success", result: '"hello"' });
          assertOutcome(await call("greet", "{}"), { status: "error", message: "every second call" });
          assert.deepEqual([backend.calls("lookup_order"), backend.calls("greet"), backend.calls()], [3, 2, 5]);
        },
      );
    });

    test("setFaults and clearFaults change the faults between calls; call numbering goes on", async () => {
      await withBackend(transport, {}, async ({ backend, call }) => {
        backend.setFaults("lookup_order", { kind: "is-error", message: "set" });
        assertOutcome(await call(), { status: "error", message: "set" });
        backend.setFaults("*", { kind: "error", message: "everything" });
        assertOutcome(await call(), { status: "error", message: "set" });
        backend.setFaults("lookup_order", []);
        assertOutcome(await call(), { status: "error", message: "MCP tool call failed: MCP error -32603: everything" });
        backend.clearFaults();
        assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":4}' });
        assert.throws(() => backend.setFaults("lookup", { kind: "hang" }), {
          name: "TypeError",
          message: 'startMcpToolBackend: faults for "lookup", a tool this backend does not serve; serving lookup_order, greet, list, structured, image, refuse, boom',
        });
      });
    });

    test("latency waits on the backend's clock: the call is pending until the test advances it, and past the timeout it times out", async () => {
      const clock = createManualClock(START);
      await withBackend(
        transport,
        { clock, faults: { lookup_order: [{ kind: "latency", ms: 400, calls: [1] }, { kind: "latency", ms: 1500, calls: [2] }] } },
        async ({ backend, call }) => {
          const fast = call();
          await until(() => backend.calls() === 1);
          assert.equal(await pendingAfter(fast), true);
          clock.advance(399);
          assert.equal(await pendingAfter(fast), true);
          clock.advance(1);
          assertOutcome(await fast, { status: "success", durationMs: 400, result: '{"id":"A-1","call":1}' });
          const slow = call();
          await until(() => backend.calls() === 2);
          assert.equal(await pendingAfter(slow), true);
          clock.advance(1000);
          assertOutcome(await slow, { status: "error", message: "timed out after 1000ms", durationMs: 1000, error: { name: "TimeoutError", code: "ERR_OMNIA_TIMEOUT" } });
        },
        "    timeout: 1s",
      );
    });

    test("hang: the call is never answered; the handler's timeout ends it", async () => {
      await withBackend(
        transport,
        { faults: { lookup_order: { kind: "hang", calls: [1] } } },
        async ({ backend, clock, call }) => {
          const hung = call();
          await until(() => backend.calls() === 1);
          assert.equal(await pendingAfter(hung), true);
          clock.advance(250);
          assertOutcome(await hung, { status: "error", message: "timed out after 250ms", error: { name: "TimeoutError", code: "ERR_OMNIA_TIMEOUT" } });
          assertOutcome(await call(), { status: "success", result: '{"id":"A-1","call":2}' });
        },
        "    timeout: 250ms",
      );
    });

    test("close() ends a hanging call and a real-clock latency wait, leaves no socket or timer, and is idempotent", async () => {
      const baseline = resourceBaseline();
      const clock = createManualClock(START);
      // The backend's latency runs on the real clock here: close() must clear its timer.
      const backend = await startMcpToolBackend(TOOLS, { transport, faults: { lookup_order: { kind: "hang" }, greet: { kind: "latency", ms: 60_000 } } });
      const registry = loadToolRegistry(`
handlers:
  - name: m
    type: mcp
    mcpConfig: { transport: ${transport}, endpoint: "${backend.url}" }
`);
      const executor = createToolExecutor({ registry, clock });
      await executor.refresh();
      const hung = executor.execute({ id: "h1", name: "lookup_order", arguments: "{}" });
      const slow = executor.execute({ id: "h2", name: "greet", arguments: "{}" });
      await until(() => backend.calls() === 2);
      assert.equal(await pendingAfter(Promise.race([hung, slow])), true);
      const first = backend.close();
      assert.equal(backend.close(), first);
      await first;
      // The POST carrying each call lost its connection without an answer.
      const closed = "MCP tool call failed: fetch failed: other side closed";
      assertOutcome(await hung, { status: "error", message: closed, error: { name: "McpTransportError", code: "ERR_OMNIA_MCP_TRANSPORT" } });
      assertOutcome(await slow, { status: "error", message: closed });
      await backend.close();
      await executor.close();
      assert.deepEqual(await leakedResources(baseline), []);
    });

    test("headers: each request's HTTP headers are logged; a broker's injected headers reach tools/call, and no x-omnia-* header does", async () => {
      await withBackend(
        transport,
        {},
        async ({ backend, executor }) => {
          const out = await executor.execute({ id: "c1", name: "greet", arguments: "{}" }, { identity: { userId: "u-7", sessionId: "s-1", claims: { team: "a" } } });
          assertOutcome(out, { status: "success", result: '"hello"' });
          const seen = backend.requests.find((r) => r.method === "tools/call");
          assert.equal(seen?.headers["x-policy"], "p1");
          assert.equal(seen?.headers["content-type"], "application/json");
          assert.equal(seen?.headers["host"], `127.0.0.1:${backend.port}`);
          if (transport === "streamable-http") assert.equal(seen?.headers["mcp-session-id"], seen?.sessionId);
          // Omnia sends identity headers to HTTP, OpenAPI and gRPC tools, not to MCP servers.
          assert.deepEqual(
            Object.keys(seen?.headers ?? {}).filter((k) => k.startsWith("x-omnia-")),
            [],
          );
          // Discovery runs outside any call: no injected header on it.
          assert.equal(backend.requests.find((r) => r.method === "tools/list")?.headers["x-policy"], undefined);
        },
        "",
        { policy: () => ({ allow: true, headers: { "X-Policy": "p1" } }) },
      );
    });

    test("a tools/call of a tool not served is the JSON-RPC error -32602 Unknown tool, counted but never faulted", async () => {
      const backend = await startMcpToolBackend(TOOLS, { transport, faults: { "*": { kind: "hang" } } });
      const client = createMcpToolClient({ name: "m", mcpConfig: { transport, endpoint: backend.url } });
      try {
        await assert.rejects(client.callTool("nope", {}), { name: "McpTransportError", message: "MCP tool call failed: MCP error -32602: Unknown tool: nope" });
        assert.equal(backend.calls("nope"), 1);
      } finally {
        await client.close();
        await backend.close();
      }
    });
  });
}

describe("startMcpToolBackend: options, validation and loading", () => {
  test("port and host: a backend restarted on an old backend's port serves the same url", async () => {
    const old = await startMcpToolBackend({ t: { result: 1 } }, { transport: "sse" });
    await old.close();
    const again = await startMcpToolBackend({ t: { result: 2 } }, { transport: "sse", port: old.port, host: "127.0.0.1" });
    try {
      assert.deepEqual([again.url, again.port, again.transport], [`http://127.0.0.1:${old.port}/sse`, old.port, "sse"]);
      const client = createMcpToolClient({ name: "m", mcpConfig: { transport: "sse", endpoint: again.url } });
      assert.deepEqual(await client.callTool("t", {}), { status: "success", result: "2", resultJson: '"2"' });
      await client.close();
    } finally {
      await again.close();
    }
  });


  test("bad tools, options and faults are refused with a TypeError naming the field", async () => {
    const refuse = (tools: unknown, options: unknown, message: string) =>
      assert.rejects(startMcpToolBackend(tools as Record<string, McpBackendTool>, options as McpToolBackendOptions), { name: "TypeError", message });
    await refuse(null, {}, "startMcpToolBackend: tools must be an object of name -> { description, inputSchema, result }; got null");
    await refuse({ t: {} }, {}, 'startMcpToolBackend: tools["t"].result: expected a JSON value, mcpResult(...) or a function; got undefined');
    await refuse({ t: { result: 1, description: 5 } }, {}, 'startMcpToolBackend: tools["t"].description: expected a string; got 5');
    await refuse({ t: { result: 1, inputSchema: "object" } }, {}, 'startMcpToolBackend: tools["t"].inputSchema: expected a JSON Schema object; got "object"');
    await refuse({ t: { result: 1 } }, { transport: "stdio" }, 'startMcpToolBackend: options.transport: expected "streamable-http" or "sse"; got "stdio"');
    await refuse({ t: { result: 1 } }, { port: 70000 }, "startMcpToolBackend: options.port: expected an integer in [0, 65535]; got 70000");
    await refuse({ t: { result: 1 } }, { host: "" }, 'startMcpToolBackend: options.host: expected a non-empty string; got ""');
    await refuse({ t: { result: 1 } }, { clock: {} }, "startMcpToolBackend: options.clock: expected a Clock (now, setTimeout); got {}");
    await refuse({ t: { result: 1 } }, { transprot: "sse" }, "startMcpToolBackend: options.transprot is not an option; expected one of transport, faults, clock, port, host");
    await refuse({ t: { result: 1 } }, { faults: { u: { kind: "hang" } } }, 'startMcpToolBackend: faults for "u", a tool this backend does not serve; serving t');
    await refuse(
      { t: { result: 1 } },
      { faults: { t: { kind: "explode" } } },
      'startMcpToolBackend: faults["t"].kind: expected one of latency, hang, is-error, error, status, reset-before-headers, oversized-result; got "explode"',
    );
    await refuse({ t: { result: 1 } }, { faults: { t: [{ kind: "latency" }] } }, 'startMcpToolBackend: faults["t"][0].ms: expected a non-negative number; got undefined');
    await refuse({ t: { result: 1 } }, { faults: { t: { kind: "is-error" } } }, 'startMcpToolBackend: faults["t"].message: expected a string; got undefined');
    await refuse({ t: { result: 1 } }, { faults: { t: { kind: "error", code: 1.5 } } }, 'startMcpToolBackend: faults["t"].code: expected an integer JSON-RPC error code; got 1.5');
    await refuse({ t: { result: 1 } }, { faults: { t: { kind: "status", status: [] } } }, 'startMcpToolBackend: faults["t"].status: expected a status or a non-empty list of statuses in [200, 999]; got []');
    await refuse({ t: { result: 1 } }, { faults: { t: { kind: "oversized-result", bytes: -1 } } }, 'startMcpToolBackend: faults["t"].bytes: expected a non-negative integer; got -1');
    await refuse({ t: { result: 1 } }, { faults: { t: { kind: "hang", calls: [0] } } }, 'startMcpToolBackend: faults["t"].calls: expected a list of call numbers (integers from 1); got [0]');
    assert.throws(() => mcpResult({ content: [{ text: "no type" }] }), { name: "TypeError", message: "mcpResult: content[0].type: expected a string (each item is an object such as { type: \"text\", text }); got undefined" });
    assert.throws(() => mcpResult({ content: [], structuredContent: [1] as never }), { name: "TypeError", message: "mcpResult: structuredContent must be an object; got [1]" });
  });

  test("importing omnia-tools/testing does not load the MCP SDK; starting a backend does", () => {
    const probe = `
      import { register } from "node:module";
      import { MessageChannel } from "node:worker_threads";
      const { port1, port2 } = new MessageChannel();
      const seen = [];
      port1.on("message", (m) => seen.push(m));
      register("data:text/javascript,${encodeURIComponent(HOOKS)}", { data: { port: port2 }, transferList: [port2] });
      const testing = await import(${JSON.stringify(sourceUrl("src/testing.ts"))});
      await new Promise((r) => setTimeout(r, 50));
      const atImport = seen.some((u) => u.includes("@modelcontextprotocol"));
      const backend = await testing.startMcpToolBackend({ t: { result: 1 } });
      await backend.close();
      await new Promise((r) => setTimeout(r, 50));
      port1.close();
      console.log(JSON.stringify([atImport, seen.some((u) => u.includes("@modelcontextprotocol/sdk"))]));
    `;
    const out = spawnSync(process.execPath, [...LOADER, "--input-type=module", "-e", probe], { encoding: "utf8" });
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stdout.trim().split("\n").pop(), "[false,true]");
  });
});

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(spec, ctx, next) {
  const r = await next(spec, ctx);
  port.postMessage(r.url);
  return r;
}
`;
