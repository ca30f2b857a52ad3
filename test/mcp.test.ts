// The MCP client against real MCP servers built with the SDK: loopback
// streamable-http and SSE servers, and a stdio child process. No mocks.
// runtime-tools.md §7.4 (discovery, filter, result shaping), §1.3/§1.5 (breaker),
// §2.3/§2.6 R21–R22 (retry), §3.5 (headers on MCP HTTP, none on stdio), V20/V21/V23.
import { basename, dirname } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { createCircuitBreakers } from "../src/breaker/index.js";
import { AbortedError, ClosedError, ConfigError, InvalidOptionError, TimeoutError } from "../src/core/index.js";
import {
  classifyMcpError,
  createMcpToolClient,
  describeMcpStdioExit,
  isMcpBreakerFailure,
  McpArgumentsError,
  McpAuthError,
  McpToolError,
  McpTransportError,
  type McpCallResult,
  type McpToolClient,
} from "../src/mcp/index.js";
import { runWithRetry, type AttemptOutcome } from "../src/retry/index.js";
import { createManualClock } from "../src/testing/index.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { startMcpHttpServer, type McpHttpTestServer } from "./helpers/mcp-server.js";
import { closedPort, leakedResources, resourceBaseline } from "./helpers/resources.js";
import type { TestTool } from "./helpers/mcp-tools.js";
import { LOADER, sourcePath } from "./helpers/source.js";

const HTTP_TRANSPORTS = ["streamable-http", "sse"] as const;
type HttpTransport = (typeof HTTP_TRANSPORTS)[number];

const STDIO = {
  transport: "stdio" as const,
  command: process.execPath,
  args: [...LOADER, sourcePath("test/fixtures/mcp-stdio-server.ts")],
};

function httpClient(server: McpHttpTestServer, options: Parameters<typeof createMcpToolClient>[1] = {}, filter?: { allowlist?: string[]; blocklist?: string[] }): McpToolClient {
  return createMcpToolClient(
    { name: "docs", mcpConfig: { transport: server.transport, endpoint: server.url, ...(filter === undefined ? {} : { toolFilter: filter }) } },
    options,
  );
}

async function withServer(transport: HttpTransport, fn: (server: McpHttpTestServer) => Promise<void>, tools?: readonly TestTool[]): Promise<void> {
  const server = await startMcpHttpServer({ transport, ...(tools === undefined ? {} : { tools }) });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function success(result: McpCallResult): { result: unknown; resultJson: string } {
  assert.equal(result.status, "success", result.status === "error" ? result.message : "");
  return result as { result: unknown; resultJson: string };
}

const image = { type: "image", data: "aGk=", mimeType: "image/png" };

/** [tool, args, result, resultJson]: every mapping of runtime-tools.md §7.4, through a real server. */
const MAPPINGS: readonly [string, unknown, unknown, string][] = [
  ["echo", { text: "a <b> & c" }, "a <b> & c", '"a \\u003cb\\u003e \\u0026 c"'],
  ["text_and_structured", {}, "the text wins", '"the text wins"'],
  ["image", {}, image, '{"data":"aGk=","mimeType":"image/png","type":"image"}'],
  ["structured", {}, { z: 1, a: "<b>&", nested: { y: [1, 2], x: null } }, '{"a":"\\u003cb\\u003e\\u0026","nested":{"x":null,"y":[1,2]},"z":1}'],
  ["multi", {}, [{ type: "text", text: "caption" }, image], '[{"text":"caption","type":"text"},{"data":"aGk=","mimeType":"image/png","type":"image"}]'],
  ["empty", {}, null, "null"],
];

const TOOL_ERRORS: readonly [string, string][] = [
  ["fail", "boom: the widget is broken"],
  ["fail_silent", "MCP tool returned error"],
  ["fail_image_first", "MCP tool returned error"],
];

for (const transport of HTTP_TRANSPORTS) {
  test(`${transport}: discovery lists the server's tools, in its order, with description and schema verbatim`, async () => {
    await withServer(transport, async (server) => {
      const client = httpClient(server);
      try {
        assert.equal(client.tools, undefined);
        const tools = await client.listTools();
        assert.deepEqual(
          tools.map((t) => t.name),
          ["echo", "structured", "text_and_structured", "multi", "image", "empty", "fail", "fail_silent", "fail_image_first", "args", "headers", "pid", "env", "hang"],
        );
        assert.deepEqual(tools[0], {
          name: "echo",
          description: "Echoes text",
          inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        });
        assert.deepEqual(tools[2]?.outputSchema, { type: "object", properties: { n: { type: "number" } } });
        assert.equal(client.tools, tools);
        // The client introduced itself as Omnia's runtime does.
        const init = server.requests.find((r) => r.rpcMethod === "initialize");
        assert.ok(init !== undefined);
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: toolFilter — allowlist [a] with blocklist [a] serves a only (V20); blocklist [b] serves a, c (V21)`, async () => {
    const tool = (name: string): TestTool => ({ name, call: () => ({ content: [{ type: "text", text: name }] }) });
    await withServer(
      transport,
      async (server) => {
        const both = httpClient(server, {}, { allowlist: ["a"], blocklist: ["a"] });
        const block = httpClient(server, {}, { blocklist: ["b"] });
        try {
          assert.deepEqual((await both.listTools()).map((t) => t.name), ["a"]);
          assert.deepEqual((await block.listTools()).map((t) => t.name), ["a", "c"]);
          assert.equal(block.serves("b"), false);
          await assert.rejects(block.callTool("b", {}), (e: unknown) => {
            assert.ok(e instanceof InvalidOptionError);
            assert.equal(e.message, 'mcp handler "docs": tool "b" is not served (blocked by toolFilter)');
            return true;
          });
          assert.equal(server.calls.includes("b"), false);
        } finally {
          await both.close();
          await block.close();
        }
      },
      [tool("a"), tool("b"), tool("c")],
    );
  });

  test(`${transport}: each result mapping (one text, one item, structuredContent, content array, nothing)`, async () => {
    await withServer(transport, async (server) => {
      const client = httpClient(server);
      try {
        for (const [name, args, result, resultJson] of MAPPINGS) {
          assert.deepEqual(success(await client.callTool(name, args as never)), { status: "success", result, resultJson }, name);
        }
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: isError is an error outcome with the first text or the fallback; not a breaker failure, not retried`, async () => {
    await withServer(transport, async (server) => {
      const client = httpClient(server);
      try {
        for (const [name, message] of TOOL_ERRORS) {
          const out = await client.callTool(name, "{}");
          assert.equal(out.status, "error");
          if (out.status !== "error") continue;
          assert.equal(out.message, message);
          assert.ok(out.error instanceof McpToolError);
          assert.equal(out.error.code, "ERR_OMNIA_MCP_TOOL_ERROR");
          assert.equal(out.error.toolName, name);
          assert.equal(isMcpBreakerFailure(out.error), false);
          assert.deepEqual(classifyMcpError(out.error), { retryable: false, retryAfterMs: 0 });
        }
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: arguments as text, as a value and empty; a non-object is rejected before anything is sent`, async () => {
    await withServer(transport, async (server) => {
      const client = httpClient(server);
      try {
        assert.deepEqual(success(await client.callTool("args", '{"b":1,"a":"x"}')).resultJson, '{"a":"x","b":1}');
        assert.deepEqual(success(await client.callTool("args", { n: [1, 2] })).result, { n: [1, 2] });
        for (const empty of ["", "null", "{}", null, undefined, {}]) {
          assert.deepEqual(success(await client.callTool("args", empty)).result, {}, JSON.stringify(empty));
        }
        const before = server.requests.length;
        for (const [bad, message] of [
          ["[1,2]", "failed to parse MCP args: json: cannot unmarshal array into Go value of type map[string]interface {}"],
          ["5", "failed to parse MCP args: json: cannot unmarshal number into Go value of type map[string]interface {}"],
          ['"s"', "failed to parse MCP args: json: cannot unmarshal string into Go value of type map[string]interface {}"],
          [true, "failed to parse MCP args: json: cannot unmarshal bool into Go value of type map[string]interface {}"],
          // Go's text for blank and cut-off input, where V8's is capitalised.
          ["  ", "failed to parse MCP args: unexpected end of JSON input"],
          ['{"a":', "failed to parse MCP args: unexpected end of JSON input"],
        ] as const) {
          await assert.rejects(client.callTool("args", bad), (e: unknown) => {
            assert.ok(e instanceof McpArgumentsError);
            assert.equal(e.code, "ERR_OMNIA_MCP_ARGUMENTS");
            assert.equal(e.message, message);
            assert.equal(isMcpBreakerFailure(e), false);
            return true;
          });
        }
        await assert.rejects(client.callTool("args", "{nope"), (e: unknown) => e instanceof McpArgumentsError && e.message.startsWith("failed to parse MCP args: "));
        assert.equal(server.requests.length, before);
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: the header provider runs on every HTTP request (rotated tokens apply); a call's headers win, on that call only (P20)`, async () => {
    await withServer(transport, async (server) => {
      let n = 0;
      const client = httpClient(server, { headers: () => ({ Authorization: `Bearer mcp-tok-${++n}` }) });
      try {
        await client.listTools();
        const injected = await client.callTool("headers", {}, { headers: { Authorization: "Bearer broker-tok", "X-Injected": "abc123" } });
        assert.deepEqual(success(injected).result, { authorization: "Bearer broker-tok", "x-injected": "abc123", "x-call": null });
        const plain = success(await client.callTool("headers", {}));
        assert.deepEqual(plain.result, { authorization: `Bearer mcp-tok-${n}`, "x-injected": null, "x-call": null });
        // The provider ran once per HTTP request, so every request carried a fresh token,
        // except the injected call's, where the broker's Authorization won.
        assert.equal(n, server.requests.length);
        const auth = server.requests.map((r) => r.headers.authorization);
        assert.equal(auth.filter((a) => a === "Bearer broker-tok").length, 1);
        const tokens = auth.filter((a) => a !== "Bearer broker-tok");
        assert.equal(new Set(tokens).size, n - 1);
        for (const token of tokens) assert.match(token ?? "", /^Bearer mcp-tok-\d+$/);
        // Concurrent calls keep their own headers.
        const results = await Promise.all(
          ["1", "2", "3", "4"].map((v) => client.callTool("headers", {}, { headers: { "X-Call": v } }).then((r) => (success(r).result as { "x-call": string })["x-call"])),
        );
        assert.deepEqual(results, ["1", "2", "3", "4"]);
        // MCP's own session header cannot be overridden.
        success(await client.callTool("echo", { text: "still" }, { headers: { "Mcp-Session-Id": "forged" } }));
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: a header provider that throws fails the call with McpAuthError (not a breaker failure, not retried)`, async () => {
    await withServer(transport, async (server) => {
      let broken = false;
      const client = httpClient(server, {
        headers: () => {
          if (broken) throw new Error('read auth token file "/var/run/tok": ENOENT');
          return { Authorization: "Bearer ok" };
        },
      });
      try {
        await client.listTools();
        broken = true;
        await assert.rejects(client.callTool("echo", { text: "x" }), (e: unknown) => {
          assert.ok(e instanceof McpAuthError);
          assert.equal(e.message, 'handler "docs" auth: read auth token file "/var/run/tok": ENOENT');
          assert.equal(isMcpBreakerFailure(e), false);
          assert.equal(classifyMcpError(e).retryable, false);
          return true;
        });
        broken = false;
        assert.equal(success(await client.callTool("echo", { text: "back" })).result, "back");
        // At connect time too, whatever the transport makes of the failure.
        const noToken = httpClient(server, {
          headers: () => {
            throw new Error("token not mounted");
          },
        });
        try {
          await assert.rejects(noToken.listTools(), (e: unknown) => e instanceof McpAuthError && e.message === 'handler "docs" auth: token not mounted');
        } finally {
          await noToken.close();
        }
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: the server gone is a transport error and a breaker failure; 10 of them open the breaker, isError ×12 does not (B16)`, async () => {
    const clock = createManualClock(1_000_000);
    const breakers = createCircuitBreakers({ clock, isFailure: isMcpBreakerFailure });
    const server = await startMcpHttpServer({ transport });
    const client = httpClient(server);
    try {
      const toolErrors = breakers.get("fail");
      for (let i = 0; i < 12; i++) {
        const out = await toolErrors.execute(() => client.callTool("fail", {}));
        assert.equal(out.status, "error");
      }
      assert.equal(toolErrors.state, "closed");

      await server.close();
      const breaker = breakers.get("echo");
      for (let i = 0; i < 10; i++) {
        await assert.rejects(
          breaker.execute(() => client.callTool("echo", { text: "x" })),
          (e: unknown) => {
            assert.ok(e instanceof McpTransportError, String(e));
            assert.equal(e.code, "ERR_OMNIA_MCP_TRANSPORT");
            // The request was refused, so it was sent again on a new session, whose connect failed too.
            const reason = transport === "sse" ? "SSE error: TypeError: fetch failed" : "fetch failed";
            assert.equal(e.message, `MCP tool call failed: failed to connect MCP: ${reason}: connect ECONNREFUSED 127.0.0.1:${server.port}`);
            assert.equal(e.causeCode, "ECONNREFUSED");
            assert.equal(isMcpBreakerFailure(e), true);
            assert.deepEqual(classifyMcpError(e), { retryable: true, retryAfterMs: 0 });
            return true;
          },
        );
        clock.advance(1_000);
      }
      assert.equal(breaker.state, "open");
      await assert.rejects(breaker.execute(() => client.callTool("echo", { text: "x" })), /circuit breaker \[echo\]: circuit breaker is open/);
    } finally {
      await client.close();
    }
  });

  test(`${transport}: reconnects after the server restarts on the same port`, async () => {
    const first = await startMcpHttpServer({ transport });
    const client = httpClient(first);
    let second: McpHttpTestServer | undefined;
    try {
      assert.equal(success(await client.callTool("echo", { text: "one" })).result, "one");
      await first.close();
      second = await startMcpHttpServer({ transport, port: first.port });
      // The first call after the restart succeeds: the stale session is detected
      // (a 404 for it, or the broken event stream) and replaced.
      assert.equal(success(await client.callTool("echo", { text: "two" })).result, "two");
      assert.equal(second.requests.filter((r) => r.rpcMethod === "initialize").length, 1);
      assert.deepEqual(second.calls, ["echo"]);
      assert.equal(success(await client.callTool("echo", { text: "three" })).result, "three");
      assert.equal(second.requests.filter((r) => r.rpcMethod === "initialize").length, 1);
    } finally {
      await client.close();
      await second?.close();
    }
  });

  test(`${transport}: R21 — an HTTP error ×2 then OK with maxAttempts 3 takes 3 attempts (each on a fresh session); R22 — isError takes 1`, async () => {
    await withServer(transport, async (server) => {
      const client = httpClient(server);
      const clock = createManualClock(0);
      try {
        await client.listTools();
        const attempt = async (tool: string): Promise<AttemptOutcome<McpCallResult>> => {
          try {
            const out = await client.callTool(tool, { text: "ok" });
            if (out.status === "success") return { kind: "success", value: out };
            return { kind: "failure", error: out.error, ...classifyMcpError(out.error) };
          } catch (error) {
            return { kind: "failure", error: error as Error, ...classifyMcpError(error) };
          }
        };
        const policy = { maxAttempts: 3, initialBackoffMs: 0, maxBackoffMs: 0, backoffMultiplier: 1 };
        server.failToolCalls(2, 503);
        const posts = () => server.requests.filter((r) => r.rpcMethod === "tools/call").length;
        const retried = await runWithRetry(() => attempt("echo"), { policy, clock });
        assert.equal(retried.status, "success");
        assert.equal(retried.attempts, 3);
        assert.equal(posts(), 3);
        assert.deepEqual(server.calls, ["echo"]);

        const toolError = await runWithRetry(() => attempt("fail"), { policy, clock });
        assert.equal(toolError.status, "failure");
        assert.equal(toolError.attempts, 1);
        assert.equal(toolError.status === "failure" && toolError.error.message, "boom: the widget is broken");
        assert.deepEqual(server.calls, ["echo", "fail"]);
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: timeoutMs runs on the injected clock and cancels the call; the caller's abort gives AbortedError`, async () => {
    await withServer(transport, async (server) => {
      const clock = createManualClock(0);
      const client = httpClient(server, { clock });
      try {
        await client.listTools();
        const timed = client.callTool("hang", {}, { timeoutMs: 5_000 });
        await server.waitForCall("hang");
        clock.advance(4_999);
        clock.advance(1);
        await assert.rejects(timed, (e: unknown) => {
          assert.ok(e instanceof TimeoutError);
          assert.equal(e.message, "timed out after 5000ms");
          assert.equal(isMcpBreakerFailure(e), true);
          return true;
        });
        assert.equal(clock.pendingTimers(), 0);

        const controller = new AbortController();
        const abandoned = client.callTool("hang", {}, { signal: controller.signal });
        await server.waitForCall("hang", 2);
        controller.abort();
        await assert.rejects(abandoned, (e: unknown) => {
          assert.ok(e instanceof AbortedError);
          assert.equal(e.message, 'mcp handler "docs": the caller\'s signal aborted');
          assert.equal(isMcpBreakerFailure(e), false);
          return true;
        });
        // The executor's own attempt timeout arrives as the signal's reason and is rethrown as is.
        const attempt = new AbortController();
        const viaSignal = client.callTool("hang", {}, { signal: attempt.signal });
        await server.waitForCall("hang", 3);
        attempt.abort(new TimeoutError(30_000));
        await assert.rejects(viaSignal, (e: unknown) => e instanceof TimeoutError && e.message === "timed out after 30000ms");
        // The session survived all three: no reconnect.
        assert.equal(success(await client.callTool("echo", { text: "after" })).result, "after");
        assert.equal(server.requests.filter((r) => r.rpcMethod === "initialize").length, 1);
      } finally {
        await client.close();
      }
    });
  });

  test(`${transport}: close() is idempotent, rejects calls in flight and later calls with ClosedError, and leaves no live handle`, async () => {
    const baseline = resourceBaseline();
    const server = await startMcpHttpServer({ transport });
    const client = httpClient(server);
    await client.listTools();
    const inFlight = assert.rejects(client.callTool("hang", {}), (e: unknown) => e instanceof ClosedError && e.message === 'mcp handler "docs": the client is closed');
    await server.waitForCall("hang");
    const closing = client.close();
    assert.equal(client.close(), closing);
    await closing;
    await inFlight;
    await assert.rejects(client.callTool("echo", {}), (e: unknown) => e instanceof ClosedError && e.message === 'mcp handler "docs": callTool() after close()');
    await assert.rejects(client.listTools(), (e: unknown) => e instanceof ClosedError);
    if (transport === "streamable-http") {
      // The session was ended with a DELETE.
      assert.equal(server.requests.at(-1)?.method, "DELETE");
      assert.equal(server.sessionCount(), 0);
    }
    await server.close();
    assert.deepEqual(await leakedResources(baseline), []);
  });
}

test("connect failure at discovery: `handler \"<name>\": failed to connect MCP: …` (V23), for each HTTP transport", async () => {
  const port = await closedPort();
  for (const transport of HTTP_TRANSPORTS) {
    const path = transport === "sse" ? "/sse" : "/mcp";
    const client = createMcpToolClient({ name: "down", mcpConfig: { transport, endpoint: `http://127.0.0.1:${port}${path}` } });
    try {
      await assert.rejects(client.listTools(), (e: unknown) => {
        assert.ok(e instanceof McpTransportError);
        assert.ok(e.message.startsWith('handler "down": failed to connect MCP: '), e.message);
        assert.equal(e.handlerName, "down");
        assert.equal(e.causeCode, "ECONNREFUSED");
        return true;
      });
    } finally {
      await client.close();
    }
  }
});

test("connect timeout runs on the injected clock: a server that never answers initialize", async () => {
  const { startHttpServer } = await import("./helpers/http-server.js");
  const silent = await startHttpServer(() => undefined); // accepts, never responds
  const clock = createManualClock(0);
  const client = createMcpToolClient({ name: "slow", mcpConfig: { transport: "streamable-http", endpoint: `${silent.url}/mcp` } }, { clock, connectTimeoutMs: 2_000 });
  try {
    const listing = client.listTools();
    while (silent.requests.length === 0) await new Promise((r) => setImmediate(r));
    clock.advance(2_000);
    await assert.rejects(listing, (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.equal(e.message, 'handler "slow": failed to connect MCP: timed out after 2000ms');
      assert.ok(e.cause instanceof TimeoutError);
      return true;
    });
  } finally {
    await client.close();
    await silent.close();
  }
});

test("createMcpToolClient validates the handler eagerly, with the controller's messages", () => {
  const cases: [unknown, string][] = [
    [{ transport: "sse" }, 'handler "m": endpoint is required for mcp handlers with SSE transport'],
    [{ transport: "streamable-http", endpoint: "" }, 'handler "m": endpoint is required for mcp handlers with streamable-http transport'],
    [{ transport: "stdio", args: ["x"] }, 'handler "m": command is required for mcp handlers with stdio transport'],
    [{ transport: "websocket", endpoint: "ws://x" }, 'handler "m": unsupported MCP transport: websocket'],
    [{ transport: "sse", endpoint: "not a url" }, 'handler "m": invalid MCP endpoint; got "not a url"'],
    [{ transport: "streamable-http", endpoint: "ftp://x/mcp" }, 'handler "m": MCP endpoint must be an http or https URL; got "ftp://x/mcp"'],
  ];
  for (const [mcpConfig, message] of cases) {
    assert.throws(
      () => createMcpToolClient({ name: "m", mcpConfig: mcpConfig as never }),
      (e: unknown) => e instanceof ConfigError && e.message === message,
      message,
    );
  }
  assert.throws(
    () => createMcpToolClient({ name: "m", auth: { type: "bearer" }, mcpConfig: { transport: "stdio", command: "x" } }),
    (e: unknown) => e instanceof ConfigError && e.message === 'handler "m": auth is not supported for mcp handlers with stdio transport',
  );
  assert.throws(
    () => createMcpToolClient({ name: "m", mcpConfig: { transport: "stdio", command: "x" } }, { connectTimeoutMs: -1 }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === "createMcpToolClient: connectTimeoutMs must be a non-negative number of milliseconds; got -1",
  );
  assert.throws(
    () => createMcpToolClient({ name: "m", mcpConfig: { transport: "stdio", command: "x" } }, { headers: "Bearer x" as never }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === "createMcpToolClient: headers must be a function; got string",
  );
});

test("stdio: discovery, results, env and workDir, stderr to the logger, headers dropped", async () => {
  const logger = createCaptureLogger();
  const client = createMcpToolClient({ name: "local", mcpConfig: { ...STDIO, env: { OMNIA_TEST_VAR: "from-env" }, workDir: process.cwd() } }, { logger });
  try {
    const tools = await client.listTools();
    assert.equal(tools.length, 17);
    assert.deepEqual(tools.at(-1), { name: "exit", description: "Exits the server process without answering", inputSchema: { type: "object", properties: {} } });
    for (const [name, args, result, resultJson] of MAPPINGS) {
      assert.deepEqual(success(await client.callTool(name, args as never)), { status: "success", result, resultJson }, name);
    }
    for (const [name, message] of TOOL_ERRORS) {
      const out = await client.callTool(name, {});
      assert.equal(out.status === "error" && out.message, message);
    }
    // A non-empty env is the child's whole environment, as Go's exec.Cmd.Env: not even HOME is added.
    assert.deepEqual(success(await client.callTool("env", { name: "OMNIA_TEST_VAR" })).result, { value: "from-env", cwd: process.cwd(), home: false });
    // No env (or an empty one: Go leaves cmd.Env nil): the child inherits this process's whole environment.
    process.env["OMNIA_TEST_SECRET"] = "inherited";
    for (const mcpConfig of [STDIO, { ...STDIO, env: {} }]) {
      const inherits = createMcpToolClient({ name: "local2", mcpConfig });
      try {
        assert.deepEqual(success(await inherits.callTool("env", { name: "OMNIA_TEST_SECRET" })).result, { value: "inherited", cwd: process.cwd(), home: process.env["HOME"] !== undefined });
      } finally {
        await inherits.close();
      }
    }
    delete process.env["OMNIA_TEST_SECRET"];
    assert.deepEqual(success(await client.callTool("headers", {}, { headers: { Authorization: "Bearer broker" } })).result, { authorization: null, "x-injected": null, "x-call": null });
    assert.ok(logger.lines.some((l) => l.level === "debug" && l.message === "mcp: stdio server stderr" && l.fields?.["text"] === "mcp stdio fixture ready\n"));
    assert.ok(logger.lines.some((l) => l.message === "mcp: stdio has no header channel; the call's headers are dropped" && (l.fields?.["headers"] as string[])[0] === "Authorization"));
  } finally {
    await client.close();
  }
});

test("stdio: a bare command is looked up on this process's PATH even when env sets another PATH", async () => {
  const dir = dirname(process.execPath);
  const saved = process.env["PATH"];
  process.env["PATH"] = `/nonexistent-omnia-dir:${dir}`;
  const client = createMcpToolClient({
    name: "bare",
    mcpConfig: { ...STDIO, command: basename(process.execPath), env: { PATH: "/nonexistent-only", OMNIA_TEST_VAR: "x" } },
  });
  try {
    assert.deepEqual((success(await client.callTool("env", { name: "PATH" })).result as { value: unknown }).value, "/nonexistent-only");
  } finally {
    process.env["PATH"] = saved;
    await client.close();
  }
});

test("stdio: a child that exits is a transport error (breaker failure); the next call starts a new child; close() reaps it", async () => {
  const baseline = resourceBaseline();
  const client = createMcpToolClient({ name: "local", mcpConfig: STDIO });
  const pid1 = Number(success(await client.callTool("pid", {})).result);
  await assert.rejects(client.callTool("exit", {}), (e: unknown) => {
    assert.ok(e instanceof McpTransportError);
    assert.equal(e.message, "MCP tool call failed: MCP error -32000: Connection closed");
    assert.equal(e.rpcCode, -32000);
    // How the child ended rides on the error, outside the text the model reads.
    assert.deepEqual(e.stdioExit, { exitCode: 3, signal: null, stderr: "mcp stdio fixture ready" });
    assert.equal(isMcpBreakerFailure(e), true);
    assert.equal(classifyMcpError(e).retryable, true);
    return true;
  });
  assert.throws(() => process.kill(pid1, 0), { code: "ESRCH" });
  const pid2 = Number(success(await client.callTool("pid", {})).result);
  assert.notEqual(pid2, pid1);
  assert.equal(process.kill(pid2, 0), true);
  await client.close();
  await client.close();
  assert.throws(() => process.kill(pid2, 0), { code: "ESRCH" });
  assert.deepEqual(await leakedResources(baseline), []);
});

test("stdio: a JSON-RPC error the server answers keeps its child, -32000 (the code the SDK also gives a closed connection) included; the next call runs in the same process", async () => {
  const client = createMcpToolClient({ name: "local", mcpConfig: STDIO });
  try {
    const pid = success(await client.callTool("pid", {})).result;
    for (const code of [-32000, -32603, -32001]) {
      await assert.rejects(client.callTool("rpc_error", { code }), (e: unknown) => {
        assert.ok(e instanceof McpTransportError);
        assert.equal(e.message, `MCP tool call failed: MCP error ${code}: rpc_error ${code}`);
        assert.equal(e.rpcCode, code);
        return true;
      });
      assert.equal(success(await client.callTool("pid", {})).result, pid, String(code));
    }
  } finally {
    await client.close();
  }
});

test("stdio: a script that is not there: the error carries exit code 1 and the child's `Cannot find module` line; the model's text does not; one warning", async () => {
  const logger = createCaptureLogger();
  const client = createMcpToolClient({ name: "typo", mcpConfig: { transport: "stdio", command: process.execPath, args: ["/nonexistent/omnia-mcp-server.js"] } }, { logger });
  try {
    for (let i = 0; i < 2; i++) {
      await assert.rejects(client.listTools(), (e: unknown) => {
        assert.ok(e instanceof McpTransportError);
        assert.equal(e.message, 'handler "typo": failed to connect MCP: MCP error -32000: Connection closed');
        assert.equal(e.stdioExit?.exitCode, 1);
        assert.equal(e.stdioExit?.signal, null);
        const lines = e.stdioExit!.stderr.split("\n");
        assert.ok(lines.includes("Error: Cannot find module '/nonexistent/omnia-mcp-server.js'"), e.stdioExit!.stderr);
        assert.match(lines[lines.length - 1]!, /^Node\.js v\d+\.\d+\.\d+$/);
        assert.ok(lines.length <= 20);
        assert.equal(
          describeMcpStdioExit(e.stdioExit!),
          `the server exited with code 1; its stderr ended: ${lines.join(" | ")}`,
        );
        return true;
      });
    }
    // Each failed start is its own child, logged once each.
    const warnings = logger.lines.filter((l) => l.level === "warn" && l.message === "mcp: the stdio server exited");
    assert.equal(warnings.length, 2);
    assert.equal(warnings[0]!.fields?.["exitCode"], 1);
    assert.equal(warnings[0]!.fields?.["handler"], "typo");
  } finally {
    await client.close();
  }
});

test("describeMcpStdioExit: a signal, and a server that wrote nothing", () => {
  assert.equal(describeMcpStdioExit({ exitCode: null, signal: "SIGKILL", stderr: "" }), "the server was killed by SIGKILL and wrote nothing to stderr");
  assert.equal(describeMcpStdioExit({ exitCode: 0, signal: null, stderr: "a\nb" }), "the server exited with code 0; its stderr ended: a | b");
});

test("stdio: a command that cannot start fails discovery with `failed to connect MCP`", async () => {
  const client = createMcpToolClient({ name: "ghost", mcpConfig: { transport: "stdio", command: "/nonexistent/omnia-mcp-server" } });
  try {
    await assert.rejects(client.listTools(), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.match(e.message, /^handler "ghost": failed to connect MCP: spawn \/nonexistent\/omnia-mcp-server ENOENT/);
      assert.equal(e.causeCode, "ENOENT");
      return true;
    });
  } finally {
    await client.close();
  }
});

test("a result over the 10 MiB cap is a typed error naming the cap; the session (HTTP) and the child (stdio) keep working", async () => {
  const big: TestTool = {
    name: "big",
    call: (args) => ({ content: [{ type: "text", text: "x".repeat(Number(args["bytes"])) }] }),
  };
  const server = await startMcpHttpServer({ transport: "streamable-http", tools: [big] });
  const http = createMcpToolClient({ name: "docs", mcpConfig: { transport: "streamable-http", endpoint: server.url } });
  const stdio = createMcpToolClient({ name: "local", mcpConfig: STDIO });
  try {
    for (const client of [http, stdio]) {
      const out = await client.callTool("big", { bytes: 11 * 1024 * 1024 });
      assert.equal(out.status, "error");
      assert.equal(out.status === "error" && out.message, `MCP tool result of ${11 * 1024 * 1024 + 2} bytes exceeds the 10485760-byte cap`);
      assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_MCP_RESULT_TOO_LARGE");
      assert.deepEqual(success(await client.callTool("big", { bytes: 3 })), { status: "success", result: "xxx", resultJson: '"xxx"' });
    }
    assert.equal(server.requests.filter((r) => r.rpcMethod === "initialize").length, 1, "the HTTP session was kept");
  } finally {
    await http.close();
    await stdio.close();
    await server.close();
  }
});
