// Platform tools (issue #18): host-process tools beside the registry's, through the
// same stages as a server tool: policy, records, events, a per-call timeout on the
// clock, no breaker, and a name that collides with a registry tool refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type PlatformTool, type PlatformToolContext } from "../../src/executor/index.js";
import { reconcileTools } from "../../src/reconcile/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { isOmniaToolsError, type JsonValue } from "../../src/core/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
/** Lets the pending promise jobs run (the call reaches its timer). */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const registry = loadToolRegistry(`
handlers:
  - name: lookup
    type: http
    tool: { name: lookup, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "http://127.0.0.1:1/lookup" }
`);

const memory = (seen: { args: JsonValue; ctx: PlatformToolContext }[] = []): PlatformTool => ({
  description: "Store a memory",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  execute(args, ctx) {
    seen.push({ args, ctx });
    return { stored: true, id: ctx.callId, z: "<b>", a: 1 };
  },
});

test("a platform tool is listed, executed, recorded once and evented like a server tool", async () => {
  const recorder = new MemoryRecorder();
  const seen: { args: JsonValue; ctx: PlatformToolContext }[] = [];
  const clock = createManualClock(1_000);
  const ex = createToolExecutor({ registry, recorder, clock, platformTools: { memory__store: memory(seen) } });
  const events: string[] = [];
  ex.on("tool_call", (e) => events.push(`call ${e.callId} ${e.name}`));
  ex.on("tool_result", (e) => events.push(`result ${e.callId} ${e.name} ${e.ok}`));
  try {
    assert.deepEqual(
      ex.tools.map((t) => [t.name, t.handlerName, t.handlerType, t.execution]),
      [
        ["lookup", "lookup", "http", "server"],
        ["memory__store", "platform", "platform", "server"],
      ],
    );
    const identity = { sessionId: "s1", userId: "u1" };
    const out = await ex.execute({ id: "c1", name: "memory__store", arguments: '{"text":"hi"}' }, { identity });
    assert.deepEqual(out, {
      status: "success",
      result: { stored: true, id: "c1", z: "<b>", a: 1 },
      // Encoded as Go's json.Marshal encodes it: sorted keys, HTML characters escaped.
      resultJson: '{"a":1,"id":"c1","stored":true,"z":"\\u003cb\\u003e"}',
      toolName: "memory__store",
      callId: "c1",
      handlerType: "platform",
      durationMs: 0,
    });
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0]?.args, { text: "hi" });
    assert.equal(seen[0]?.ctx.callId, "c1");
    assert.deepEqual(seen[0]?.ctx.identity, identity);
    assert.equal(seen[0]?.ctx.clock, clock);
    assert.equal(seen[0]?.ctx.signal.aborted, false);
    assert.deepEqual(recorder.records, [
      {
        callId: "c1",
        sessionId: "s1",
        toolName: "memory__store",
        handlerName: "platform",
        handlerType: "platform",
        execution: "server",
        status: "success",
        arguments: { text: "hi" },
        result: { stored: true, id: "c1", z: "<b>", a: 1 },
        resultJson: '{"a":1,"id":"c1","stored":true,"z":"\\u003cb\\u003e"}',
        startedAt: 1_000,
        durationMs: 0,
        attempts: 1,
      },
    ]);
    assert.deepEqual(events, ["call c1 memory__store", "result c1 memory__store true"]);
  } finally {
    await ex.close();
  }
});

test("a thrown error is an error outcome with the error's message, recorded once, never retried, no breaker", async () => {
  const recorder = new MemoryRecorder();
  const breakers = createCircuitBreakers();
  let calls = 0;
  const ex = createToolExecutor({
    registry,
    recorder,
    breakers,
    platformTools: {
      skill__run: {
        description: "d",
        inputSchema: { type: "object" },
        async execute() {
          calls++;
          throw new Error("skill not installed");
        },
      },
    },
  });
  try {
    for (let i = 0; i < 12; i++) {
      const out = await ex.execute({ id: `c${i}`, name: "skill__run", arguments: "{}" });
      assert.equal(out.status, "error");
      assert.equal(out.status === "error" && out.message, "skill not installed");
      assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_BACKEND");
    }
    // Twelve failures: no breaker opened (there is none), every call reached execute.
    assert.equal(calls, 12);
    assert.equal(breakers.has("skill__run"), false);
    assert.equal(recorder.records.length, 12);
    assert.deepEqual(
      { status: recorder.records[0]?.status, errorMessage: recorder.records[0]?.errorMessage, attempts: recorder.records[0]?.attempts },
      { status: "error", errorMessage: "skill not installed", attempts: 1 },
    );
  } finally {
    await ex.close();
  }
});

test("a value that is not JSON is an error outcome naming the tool", async () => {
  const ex = createToolExecutor({
    registry,
    platformTools: {
      a: { description: "d", inputSchema: {}, execute: () => 10n as unknown as JsonValue },
      b: { description: "d", inputSchema: {}, execute: () => undefined as unknown as JsonValue },
    },
  });
  try {
    const a = await ex.execute({ id: "1", name: "a", arguments: "" });
    assert.equal(a.status === "error" && a.message, 'platform tool "a" returned a value that is not JSON: Do not know how to serialize a BigInt');
    const b = await ex.execute({ id: "2", name: "b", arguments: "" });
    assert.equal(b.status === "error" && b.message, 'platform tool "b" returned a value that is not JSON: got undefined');
  } finally {
    await ex.close();
  }
});

test("a policy denial stops a platform tool before execute, recorded denied", async () => {
  const recorder = new MemoryRecorder();
  const requests: { toolName: string; handlerName: string; handlerType: string }[] = [];
  let calls = 0;
  const ex = createToolExecutor({
    registry,
    recorder,
    policy: async (request) => {
      requests.push({ toolName: request.toolName, handlerName: request.handlerName, handlerType: request.handlerType });
      return { allow: false, reason: "memory is off for this user" };
    },
    platformTools: { memory__store: { ...memory(), execute: () => (calls++, null) } },
  });
  try {
    const out = await ex.execute({ id: "c1", name: "memory__store", arguments: "{}" }, { identity: { sessionId: "s" } });
    assert.equal(out.status, "denied");
    assert.equal(out.status === "denied" && out.message, "tool call denied by policy: memory is off for this user");
    assert.equal(calls, 0);
    assert.deepEqual(requests, [{ toolName: "memory__store", handlerName: "platform", handlerType: "platform" }]);
    assert.deepEqual(
      recorder.records.map((r) => [r.status, r.errorMessage, r.attempts, r.handlerType]),
      [["denied", "tool call denied by policy: memory is off for this user", 0, "platform"]],
    );
  } finally {
    await ex.close();
  }
});

test("a platform tool times out after its timeoutMs on the clock (default 30 s), and its signal aborts", async () => {
  const clock = createManualClock(0);
  const recorder = new MemoryRecorder();
  const signals: AbortSignal[] = [];
  const never = (timeoutMs?: number): PlatformTool => ({
    description: "d",
    inputSchema: {},
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute: (_args, ctx) => {
      signals.push(ctx.signal);
      return new Promise<JsonValue>(() => {});
    },
  });
  const ex = createToolExecutor({ registry, clock, recorder, platformTools: { slow: never(), quick: never(250) } });
  try {
    const slow = ex.execute({ id: "s", name: "slow", arguments: "{}" });
    await flush();
    clock.advance(29_999);
    await flush();
    assert.equal(recorder.records.length, 0, "still running at 29 999 ms");
    clock.advance(1);
    const outSlow = await slow;
    assert.equal(outSlow.status === "error" && outSlow.message, "timed out after 30000ms");
    assert.equal(outSlow.status === "error" && outSlow.error.code, "ERR_OMNIA_TIMEOUT");
    assert.equal(outSlow.durationMs, 30_000);

    const quick = ex.execute({ id: "q", name: "quick", arguments: "{}" });
    await flush();
    clock.advance(250);
    const outQuick = await quick;
    assert.equal(outQuick.status === "error" && outQuick.message, "timed out after 250ms");
    assert.deepEqual(signals.map((s) => s.aborted), [true, true]);
    assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.durationMs]), [["s", "error", 30_000], ["q", "error", 250]]);
  } finally {
    await ex.close();
  }
});

test("the caller's abort abandons a platform call: recorded, thrown as AbortedError", async () => {
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder, platformTools: { slow: { description: "d", inputSchema: {}, execute: () => new Promise<JsonValue>(() => {}) } } });
  const controller = new AbortController();
  try {
    const pending = ex.execute({ id: "a", name: "slow", arguments: "{}" }, { signal: controller.signal });
    await flush();
    controller.abort(new Error("conversation ended"));
    await assert.rejects(pending, (e: unknown) => isOmniaToolsError(e) && e.code === "ERR_OMNIA_ABORTED");
    assert.equal(recorder.records.length, 1);
    assert.equal(recorder.records[0]?.status, "error");
  } finally {
    await ex.close();
  }
});

test("a platform tool named like a registry tool is refused at creation with DuplicateToolError", () => {
  assert.throws(
    () => createToolExecutor({ registry, platformTools: { lookup: memory(), other: memory() } }),
    (e: unknown) => {
      assert.ok(isOmniaToolsError(e));
      assert.equal(e.code, "ERR_OMNIA_DUPLICATE_TOOL");
      assert.equal(e.message, 'platformTools.lookup: duplicate tool name "lookup": served by handler "lookup" and platform tool "lookup"');
      assert.deepEqual((e as unknown as { duplicates: unknown }).duplicates, [{ toolName: "lookup", handlers: ["lookup", "platform"] }]);
      return true;
    },
  );
});

test("malformed platform tools are refused at creation with the option's path", () => {
  const cases: [unknown, string][] = [
    [{ t: null }, 'createToolExecutor: platformTools["t"] must be { description, inputSchema, execute }; got null'],
    [{ t: { description: "d", inputSchema: {} } }, 'createToolExecutor: platformTools["t"].execute must be a function; got undefined'],
    [{ t: { description: 1, inputSchema: {}, execute() {} } }, 'createToolExecutor: platformTools["t"].description must be a string; got number'],
    [{ t: { description: "d", inputSchema: [], execute() {} } }, 'createToolExecutor: platformTools["t"].inputSchema must be a JSON Schema object; got array'],
    [{ t: { description: "d", inputSchema: {}, execute() {}, timeoutMs: -1 } }, 'createToolExecutor: platformTools["t"].timeoutMs must be a number of ms >= 0 (0: none); got -1'],
  ];
  for (const [platformTools, message] of cases) {
    assert.throws(
      () => createToolExecutor({ registry, platformTools: platformTools as Record<string, PlatformTool> }),
      (e: unknown) => isOmniaToolsError(e) && e.code === "ERR_OMNIA_INVALID_OPTION" && e.message === message,
      message,
    );
  }
});

test("reconcileTools(pack, executor) counts platform tools as served; exempt namespaces apply to them", async () => {
  const ex = createToolExecutor({ registry, platformTools: { memory__store: memory(), notes: memory() } });
  try {
    const result = reconcileTools({ prompts: { support: { tools: ["lookup", "notes"] } } }, ex);
    assert.deepEqual(result.offered, ["lookup", "memory__store", "notes"]);
    assert.deepEqual(result.exempt, ["memory__store"]);
    assert.deepEqual(result.servedNotDeclared, []);
  } finally {
    await ex.close();
  }
});

test("platform tools and http tools share one executor: an http call still goes to its backend", async () => {
  const server = await startHttpServer((_req, res) => void res.end('{"ok":true}'));
  const reg = loadToolRegistry(`
handlers:
  - name: lookup
    type: http
    tool: { name: lookup, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/lookup" }
`);
  const ex = createToolExecutor({ registry: reg, platformTools: { memory__store: memory() } });
  try {
    const out = await ex.execute({ id: "h", name: "lookup", arguments: "{}" });
    assert.equal(out.status === "success" && out.resultJson, '{"ok":true}');
    assert.equal(server.requests.length, 1);
  } finally {
    await ex.close();
    await server.close();
  }
});

test("an MCP server listing a platform tool's name is a discovery duplicate naming both", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const reg = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`);
  const ex = createToolExecutor({ registry: reg, platformTools: { echo: memory() } });
  try {
    await assert.rejects(ex.refresh(), (e: unknown) => {
      assert.ok(isOmniaToolsError(e));
      assert.equal(e.code, "ERR_OMNIA_DUPLICATE_TOOL");
      assert.equal(e.message, 'handlers[0]: duplicate tool name "echo": served by handler "platform" and handler "kb"');
      return true;
    });
  } finally {
    await ex.close();
    await mcp.close();
  }
});
