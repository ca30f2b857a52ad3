// MCP client spans and trace context in `params._meta` (issue #37), with the
// real OpenTelemetry JS SDK and real MCP servers on the official SDK: a
// streamable-http server on loopback, and a stdio child process that runs its
// own OpenTelemetry SDK and continues the trace from `_meta` with a SERVER span.
// Every span is compared with semantic-conventions v1.41.1's model files.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { createMcpToolClient } from "../../src/mcp/index.js";
import { createTelemetry } from "../../src/telemetry/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { startMcpHttpServer, type McpHttpTestServer } from "../helpers/mcp-server.js";
import { startModernMcpHttpServer } from "../helpers/mcp-modern-server.js";
import { STANDARD_TOOLS } from "../helpers/mcp-tools.js";
import { useOtelSdk } from "../helpers/otel-sdk.js";
import { assertConforms } from "./semconv.js";
import { LOADER, sourcePath } from "../helpers/source.js";
import { until } from "../helpers/policy-broker.js";

const sdk = useOtelSdk();
const { spans, tracer, closers } = sdk;
const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });
let mcp: McpHttpTestServer;
/** Every JSON-RPC body the server received: method, id and `params._meta`. */
const bodies: { method: string; id: unknown; meta: unknown; session: string | undefined; protocolVersion: string | undefined }[] = [];

before(async () => {
  mcp = await startMcpHttpServer({
    transport: "streamable-http",
    intercept: (req, body) => {
      const b = body as { method?: string; id?: unknown; params?: { _meta?: unknown } } | undefined;
      if (typeof b?.method === "string") bodies.push({ method: b.method, id: b.id, meta: b.params?._meta, session: req.headers["mcp-session-id"] as string | undefined, protocolVersion: req.headers["mcp-protocol-version"] as string | undefined });
      return false;
    },
  });
});

after(() => mcp.close());

beforeEach(() => {
  bodies.length = 0;
});

function mcpRegistry(mcpConfig: Record<string, unknown>): ToolRegistry {
  return loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "kb-registry", namespace: "agents" },
    spec: { handlers: [{ name: "kb", type: "mcp", mcpConfig }] },
  });
}

function executor(reg: ToolRegistry, telemetry: Record<string, unknown>): ToolExecutor {
  const ex = createToolExecutor({ registry: reg, clock: createManualClock(Date.UTC(2026, 11, 4, 14)), telemetry: { tracer, propagator, env: {}, ...telemetry } });
  closers.push(() => ex.close());
  return ex;
}

/** Runs `fn` in the host's active span, with baggage `tenant=acme`. */
function underHost(fn: () => Promise<ToolOutcome>): Promise<{ out: ToolOutcome; parent: ReadableSpan; others: ReadableSpan[] }> {
  return sdk.underHost(fn, { tenant: "acme" });
}

function named(list: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = list.filter((s) => s.name === name);
  assert.equal(found.length, 1, `one ${name} among ${list.map((s) => s.name).join(", ")}`);
  return found[0]!;
}

const MCP_CLIENT = "span.mcp.client";

test("gen_ai over streamable-http: tools/list (child of the host span), execute_tool echo, tools/call echo (CLIENT, its child) with the MCP attributes", async () => {
  const ex = executor(mcpRegistry({ transport: "streamable-http", endpoint: mcp.url }), { conventions: ["gen_ai"] });
  const { out, parent, others } = await underHost(() => ex.execute({ id: "m1", name: "echo", arguments: '{"text":"hi"}' }));
  assert.equal(out.status === "success" && out.resultJson, '"hi"');
  assert.deepEqual(others.map((s) => s.name).sort(), ["execute_tool echo", "tools/call echo", "tools/list"]);
  const port = Number(new URL(mcp.url).port);
  const listBody = bodies.find((b) => b.method === "tools/list")!;
  const callBody = bodies.find((b) => b.method === "tools/call")!;
  assert.ok(callBody.session !== undefined && callBody.session !== "");

  const list = named(others, "tools/list");
  assert.equal(list.kind, SpanKind.CLIENT);
  assert.equal(list.parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.deepEqual(list.attributes, {
    "mcp.method.name": "tools/list",
    "network.transport": "tcp",
    "network.protocol.name": "http",
    "server.address": "127.0.0.1",
    "server.port": port,
    "jsonrpc.request.id": String(listBody.id),
    "mcp.session.id": listBody.session,
    "mcp.protocol.version": listBody.protocolVersion,
  });
  assertConforms(list, MCP_CLIENT);

  const gen = named(others, "execute_tool echo");
  assert.equal(gen.parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.deepEqual(gen.attributes, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "echo", "gen_ai.tool.call.id": "m1", "gen_ai.tool.type": "extension", "gen_ai.tool.description": "Echoes text" });
  assertConforms(gen, "span.gen_ai.execute_tool.internal");

  const call = named(others, "tools/call echo");
  assert.equal(call.kind, SpanKind.CLIENT);
  assert.equal(call.parentSpanContext?.spanId, gen.spanContext().spanId);
  assert.equal(call.spanContext().traceId, parent.spanContext().traceId);
  assert.deepEqual(call.attributes, {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "echo",
    "gen_ai.operation.name": "execute_tool",
    "network.transport": "tcp",
    "network.protocol.name": "http",
    "server.address": "127.0.0.1",
    "server.port": port,
    "jsonrpc.request.id": String(callBody.id),
    "mcp.session.id": callBody.session,
    "mcp.protocol.version": callBody.protocolVersion,
  });
  // The revision initialize negotiated, which the request also carries as its MCP-Protocol-Version header.
  assert.equal(callBody.protocolVersion, LATEST_PROTOCOL_VERSION);
  assert.deepEqual(call.status, { code: SpanStatusCode.UNSET });
  assertConforms(call, MCP_CLIENT);
  // mcpMeta is off: no trace context in the request (Omnia sends none).
  assert.equal(callBody.meta, undefined);
});

test("an isError result: the MCP span says error.type tool_error and Error; the execute_tool span the executor's code", async () => {
  const ex = executor(mcpRegistry({ transport: "streamable-http", endpoint: mcp.url }), { conventions: ["omnia", "gen_ai"] });
  const { out, others } = await underHost(() => ex.execute({ id: "m2", name: "fail", arguments: "{}" }));
  assert.equal(out.status, "error");
  const omnia = named(others, "omnia.tool.call");
  const gen = named(others, "execute_tool fail");
  const call = named(others, "tools/call fail");
  assert.equal(gen.parentSpanContext?.spanId, omnia.spanContext().spanId);
  assert.equal(call.parentSpanContext?.spanId, gen.spanContext().spanId);
  assert.equal(call.attributes["error.type"], "tool_error");
  assert.deepEqual(call.status, { code: SpanStatusCode.ERROR });
  assertConforms(call, MCP_CLIENT);
  assert.equal(gen.attributes["error.type"], "ERR_OMNIA_MCP_TOOL_ERROR");
  assertConforms(gen, "span.gen_ai.execute_tool.internal");
});

test("a JSON-RPC error: error.type and rpc.response.status_code are its code, the status its message", async () => {
  const telemetry = createTelemetry({ tracer, propagator, conventions: ["gen_ai"], env: {} });
  const client = createMcpToolClient({ name: "kb", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } }, { observer: telemetry.mcp! });
  closers.push(() => client.close());
  await assert.rejects(client.callTool("no_such_tool", {}), { message: "MCP tool call failed: MCP error -32603: unknown tool no_such_tool" });
  const call = named(spans.getFinishedSpans(), "tools/call no_such_tool");
  assert.equal(call.attributes["error.type"], "-32603");
  assert.equal(call.attributes["rpc.response.status_code"], "-32603");
  assert.deepEqual(call.status, { code: SpanStatusCode.ERROR, message: "MCP error -32603: unknown tool no_such_tool" });
  assertConforms(call, MCP_CLIENT);
});

test("the default (omnia): no MCP spans and no observer work; only Omnia's span", async () => {
  const ex = executor(mcpRegistry({ transport: "streamable-http", endpoint: mcp.url }), {});
  const { others } = await underHost(() => ex.execute({ id: "m3", name: "echo", arguments: '{"text":"hi"}' }));
  assert.deepEqual(others.map((s) => s.name), ["omnia.tool.call"]);
  assert.equal(bodies.find((b) => b.method === "tools/call")?.meta, undefined);
});

test("mcpMeta with gen_ai: tools/call carries traceparent (the tools/call span) and baggage in params._meta; tools/list carries none", async () => {
  const ex = executor(mcpRegistry({ transport: "streamable-http", endpoint: mcp.url }), { conventions: ["gen_ai"], mcpMeta: true });
  const { others } = await underHost(() => ex.execute({ id: "m4", name: "echo", arguments: '{"text":"hi"}' }));
  const call = named(others, "tools/call echo");
  assert.deepEqual(bodies.find((b) => b.method === "tools/call")?.meta, { traceparent: `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`, baggage: "tenant=acme" });
  assert.equal(bodies.find((b) => b.method === "tools/list")?.meta, undefined);
});

test("mcpMeta with omnia only: the traceparent is Omnia's span (no MCP span is recorded)", async () => {
  const ex = executor(mcpRegistry({ transport: "streamable-http", endpoint: mcp.url }), { mcpMeta: true });
  const { others } = await underHost(() => ex.execute({ id: "m5", name: "echo", arguments: '{"text":"hi"}' }));
  const omnia = named(others, "omnia.tool.call");
  assert.deepEqual(others.map((s) => s.name), ["omnia.tool.call"]);
  assert.deepEqual(bodies.find((b) => b.method === "tools/call")?.meta, { traceparent: `00-${omnia.spanContext().traceId}-${omnia.spanContext().spanId}-01`, baggage: "tenant=acme" });
});

test("across a process: a stdio MCP server continues the trace from _meta; its SERVER span's parent is the client's tools/call span", async () => {
  const ex = executor(mcpRegistry({ transport: "stdio", command: process.execPath, args: [...LOADER, sourcePath("test/fixtures/mcp-traced-stdio-server.ts")] }), { conventions: ["gen_ai"], mcpMeta: true });
  const { out, parent, others } = await underHost(() => ex.execute({ id: "s1", name: "whoami", arguments: "{}" }));
  assert.equal(out.status, "success");
  const call = named(others, "tools/call whoami");
  const server = JSON.parse(JSON.parse(out.status === "success" ? out.resultJson : "") as string) as Record<string, unknown>;
  assert.deepEqual(server, {
    name: "tools/call whoami",
    kind: SpanKind.SERVER,
    traceId: parent.spanContext().traceId,
    parentSpanId: call.spanContext().spanId,
    metaKeys: ["baggage", "traceparent"],
    baggage: { tenant: "acme" },
  });
  assert.equal(call.attributes["network.transport"], "pipe");
  assert.equal(call.attributes["mcp.session.id"], undefined);
  assert.equal(typeof call.attributes["jsonrpc.request.id"], "string");
  // stdio has no header to carry it, and the SDK keeps it nowhere: the client notes what initialize negotiated.
  assert.equal(call.attributes["mcp.protocol.version"], LATEST_PROTOCOL_VERSION);
  assertConforms(call, MCP_CLIENT);
});

test("an HTTP failure (500) is no JSON-RPC error: error.type _OTHER, no rpc.response.status_code", async () => {
  const telemetry = createTelemetry({ tracer, propagator, conventions: ["gen_ai"], env: {} });
  const client = createMcpToolClient({ name: "kb", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } }, { observer: telemetry.mcp! });
  closers.push(() => client.close());
  await client.listTools();
  mcp.failToolCalls(1, 500);
  await assert.rejects(client.callTool("echo", { text: "hi" }), (e: unknown) => (e as Error).message.startsWith("MCP tool call failed: "));
  const call = named(spans.getFinishedSpans(), "tools/call echo");
  assert.equal(call.attributes["error.type"], "_OTHER");
  assert.equal(call.attributes["rpc.response.status_code"], undefined);
  assert.equal(call.status.code, SpanStatusCode.ERROR);
  assertConforms(call, MCP_CLIENT);
});

test("revision 2026-07-28 (the 2.x client): the request id is read as sent, and traceparent goes into _meta beside the SDK's envelope", async () => {
  const modern = await startModernMcpHttpServer({ legacy: "modern-only", tools: STANDARD_TOOLS });
  closers.push(() => modern.close());
  const ex = executor(mcpRegistry({ transport: "streamable-http", endpoint: modern.url }), { conventions: ["gen_ai"], mcpMeta: true });
  const { out, others } = await underHost(() => ex.execute({ id: "r1", name: "echo", arguments: '{"text":"hi"}' }));
  assert.equal(out.status === "success" && out.resultJson, '"hi"');
  const call = named(others, "tools/call echo");
  const body = modern.requests.map((r) => r.body as { method?: string; id?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined).find((b) => b?.method === "tools/call")!;
  assert.equal(call.attributes["jsonrpc.request.id"], String(body.id));
  assert.equal(call.attributes["mcp.protocol.version"], "2026-07-28");
  const meta = body.params?._meta ?? {};
  assert.equal(meta["traceparent"], `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
  assert.equal(meta["baggage"], "tenant=acme");
  assert.ok(Object.keys(meta).length > 2, `the SDK's envelope keys are kept: ${Object.keys(meta).join(", ")}`);
  assertConforms(call, MCP_CLIENT);
});

test("an aborted or timed-out call ends its tools/call span first, with the abort, then the executor's spans", async () => {
  for (const how of ["abort", "timeout"] as const) {
    const clock = createManualClock(Date.UTC(2026, 11, 4, 14));
    const reg = loadToolRegistry({
      apiVersion: "omnia.altairalabs.ai/v1alpha1",
      kind: "ToolRegistry",
      metadata: { name: "kb-registry", namespace: "agents" },
      spec: { handlers: [{ name: "kb", type: "mcp", timeout: "2s", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } }] },
    });
    const ex = createToolExecutor({ registry: reg, clock, telemetry: { tracer, propagator, env: {}, conventions: ["omnia", "gen_ai"] } });
    closers.push(() => ex.close());
    await ex.refresh();
    spans.reset();
    bodies.length = 0;
    const caller = new AbortController();
    const pending = ex.execute({ id: how, name: "hang", arguments: "{}" }, { signal: caller.signal });
    await until(() => bodies.some((b) => b.method === "tools/call"), "the tools/call request");
    if (how === "abort") {
      caller.abort(new Error("the user left"));
      await assert.rejects(pending, { code: "ERR_OMNIA_ABORTED", message: "attempt: the caller's signal aborted" });
    } else {
      clock.advance(2_000);
      const out = await pending;
      assert.equal(out.status === "error" && out.message, "timed out after 2000ms");
    }
    const finished = spans.getFinishedSpans();
    assert.deepEqual(finished.map((s) => s.name), ["tools/call hang", "execute_tool hang", "omnia.tool.call"], how);
    const call = named(finished, "tools/call hang");
    assert.equal(call.parentSpanContext?.spanId, named(finished, "execute_tool hang").spanContext().spanId);
    const message = how === "abort" ? 'mcp handler "kb": the caller\'s signal aborted' : "timed out after 2000ms";
    assert.deepEqual([call.status, call.attributes["error.type"]], [{ code: SpanStatusCode.ERROR, message }, "_OTHER"], how);
    assertConforms(call, MCP_CLIENT);
    await ex.close();
  }
});

test("a host observer's trace ends exactly once when the call fails before anything is sent: arguments that are not an object, a signal whose reads throw", async () => {
  const ends: string[] = [];
  const observer = {
    start: () => ({ meta: undefined, sent: () => undefined, end: (_result: unknown, error?: unknown) => void ends.push(error instanceof Error ? error.message : String(error)) }),
  };
  const client = createMcpToolClient({ name: "kb", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } }, { observer });
  closers.push(() => client.close());
  bodies.length = 0;
  await assert.rejects(client.callTool("echo", "[1]"), { message: "failed to parse MCP args: json: cannot unmarshal array into Go value of type map[string]interface {}" });
  const hostile = new Proxy(new AbortController().signal, {
    get() {
      throw new Error("the host's signal threw");
    },
  });
  await assert.rejects(client.callTool("echo", {}, { signal: hostile }), { message: "the host's signal threw" });
  assert.deepEqual(ends, ["failed to parse MCP args: json: cannot unmarshal array into Go value of type map[string]interface {}", "the host's signal threw"]);
  assert.deepEqual(bodies.filter((b) => b.method === "tools/call"), []);
});

test("a host observer whose trace end throws as a call is aborted: the call rejects with the abort, the throw is logged, nothing escapes", async () => {
  const logged: [string, Record<string, unknown> | undefined][] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (message: string, fields?: Record<string, unknown>) => void logged.push([message, fields]) };
  const observer = {
    start: () => ({
      meta: undefined,
      sent: () => undefined,
      end: () => {
        throw new Error("observer end boom");
      },
    }),
  };
  const client = createMcpToolClient({ name: "kb", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } }, { observer, logger });
  closers.push(() => client.close());
  bodies.length = 0;
  const caller = new AbortController();
  const pending = client.callTool("hang", {}, { signal: caller.signal });
  await until(() => bodies.some((b) => b.method === "tools/call"), "the tools/call request");
  caller.abort(new Error("the user left"));
  await assert.rejects(pending, { code: "ERR_OMNIA_ABORTED", message: 'mcp handler "kb": the caller\'s signal aborted' });
  assert.deepEqual(logged, [["mcp: the request observer threw as its trace ended", { handler: "kb", error: "observer end boom" }]]);
});
