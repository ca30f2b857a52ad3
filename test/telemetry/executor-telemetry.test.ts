// Telemetry through createToolExecutor (issue #22), with the real OpenTelemetry JS SDK:
// omnia.tool.call spans (in-memory exporter, the host's active span as parent through the
// async-hooks context manager), W3C trace context as a real backend receives it (with and
// without @opentelemetry/instrumentation-undici), and the metrics scraped from the
// Prometheus exporter on 127.0.0.1 with undici.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, propagation, trace, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { request } from "undici";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { createManualClock, startGrpcToolBackend, type ManualClock } from "../../src/testing/index.js";
import { startHttpServer, type Handler, type TestServer } from "../helpers/http-server.js";
import { startOpenApiServer } from "../helpers/openapi-server.js";
import { settle } from "../helpers/settle.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { AbortedError } from "../../src/core/index.js";

const contextManager = new AsyncLocalStorageContextManager();
const spans = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const host: Tracer = provider.getTracer("host");
const tracer = provider.getTracer("omnia-tools", "0.1.0");
const propagator = new W3CTraceContextPropagator();
// Constructed enabled (constructed with `enabled: false` it would ignore requests even after
// enable()), then switched off until a test turns it on.
const undiciInstrumentation = new UndiciInstrumentation();
undiciInstrumentation.setTracerProvider(provider);
undiciInstrumentation.disable();

const START = Date.UTC(2026, 11, 1, 22, 0, 0);
const closers: (() => Promise<void>)[] = [];
let server: TestServer;

/** The shared backend's routes: 503 `down`, 404 `no such order`, a hang, else `{"ok":true}`. */
const routes: Handler = (req, res) => {
  const path = (req.url ?? "").split("?")[0];
  if (path === "/unavailable") {
    res.statusCode = 503;
    return void res.end("down");
  }
  if (path === "/missing") {
    res.statusCode = 404;
    return void res.end("no such order");
  }
  if (path === "/hang") return; // never answers
  res.setHeader("content-type", "application/json");
  res.end('{"ok":true}');
};

before(async () => {
  context.setGlobalContextManager(contextManager.enable());
  server = await startHttpServer(routes);
});

after(async () => {
  for (const close of closers.reverse()) await close();
  await server.close();
  undiciInstrumentation.disable();
  context.disable();
  propagation.disable();
  trace.disable();
  await provider.shutdown();
});

beforeEach(() => {
  spans.reset();
  server.requests.length = 0;
});

/** A ToolRegistry `orders` in `agents`: http `lookup-h` serving `lookup` (path and extras per test), and a client tool. */
function ordersRegistry(path: string, httpExtra: Record<string, unknown> = {}, handlerExtra: Record<string, unknown> = {}): ToolRegistry {
  return loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "orders", namespace: "agents" },
    spec: {
      handlers: [
        { name: "lookup-h", type: "http", tool: { name: "lookup", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${server.url}${path}`, ...httpExtra }, ...handlerExtra },
        { name: "geo", type: "client", tool: { name: "get_location", description: "d", inputSchema: { type: "object" } } },
      ],
    },
  });
}

/** A bare handler list (no ToolRegistry name): http `h` serving `t`. */
function bareRegistry(path: string): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}${path}" }
`);
}

function executor(registry: ToolRegistry, options: Partial<ToolExecutorOptions> = {}, clock: ManualClock = createManualClock(START)): { ex: ToolExecutor; clock: ManualClock } {
  const ex = createToolExecutor({ registry, clock, random: () => 0.5, telemetry: { tracer, propagator }, ...options });
  closers.push(() => ex.close());
  return { ex, clock };
}

/** Runs `fn` inside the host's active span (its LLM span, `genai.chat`); returns the outcome, the host span and the one tool span. */
async function underHost(fn: () => Promise<ToolOutcome>): Promise<{ out: ToolOutcome; parent: ReadableSpan; tool: ReadableSpan }> {
  const out = await host.startActiveSpan("genai.chat", async (span) => {
    try {
      return await fn();
    } finally {
      span.end();
    }
  });
  const finished = spans.getFinishedSpans();
  const tools = finished.filter((s) => s.name === "omnia.tool.call");
  const parent = finished.find((s) => s.name === "genai.chat");
  assert.equal(tools.length, 1, `spans: ${finished.map((s) => s.name).join(", ")}`);
  assert.ok(parent !== undefined);
  const tool = tools[0]!;
  assert.equal(tool.kind, SpanKind.CLIENT);
  assert.equal(tool.parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.equal(tool.spanContext().traceId, parent.spanContext().traceId);
  assert.equal(tool.instrumentationScope.name, "omnia-tools");
  return { out, parent, tool };
}

function events(span: ReadableSpan): { name: string; attributes: unknown }[] {
  return span.events.map((e) => ({ name: e.name, attributes: e.attributes }));
}

/** The `exception` event without its stack trace, and the stack trace's first line. */
function exception(span: ReadableSpan): { type: unknown; message: unknown; stackHead: string } {
  const e = span.events.find((x) => x.name === "exception");
  assert.ok(e !== undefined, `no exception event: ${JSON.stringify(events(span))}`);
  return { type: e.attributes?.["exception.type"], message: e.attributes?.["exception.message"], stackHead: String(e.attributes?.["exception.stacktrace"]).split("\n")[0] ?? "" };
}

const ORDERS_ATTRIBUTES = { "tool.name": "lookup", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "lookup-h", "tool.handler.type": "http" };

// --- 1. Spans ------------------------------------------------------------------------------------

test("success: one omnia.tool.call, CLIENT, child of the host's active span, Omnia's five attributes, Ok, no events", async () => {
  const { ex } = executor(ordersRegistry("/ok"));
  const { out, tool } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: '{"id":1}' }));
  assert.equal(out.status, "success");
  assert.equal(tool.name, "omnia.tool.call");
  assert.deepEqual(tool.attributes, ORDERS_ATTRIBUTES);
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
  assert.deepEqual(events(tool), []);
});

test("a bare handlers list (no ToolRegistry name): the span has tool.name only", async () => {
  const { ex } = executor(bareRegistry("/ok"));
  const { out, tool } = await underHost(() => ex.execute({ id: "c1", name: "t", arguments: "{}" }));
  assert.equal(out.status, "success");
  assert.deepEqual(tool.attributes, { "tool.name": "t" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
});

test("HTTP 503 with retries: retry.attempt per retried attempt (attempt, delay, error), retry.exhausted, the exception, Error", async () => {
  const { ex, clock } = executor(ordersRegistry("/unavailable", { retryPolicy: { maxAttempts: 3, retryOn: [503], initialBackoff: "100ms", maxBackoff: "1s" } }));
  const { out, tool } = await underHost(() => settle(ex.execute({ id: "c1", name: "lookup", arguments: "{}" }), clock, 10));
  assert.equal(out.status === "error" && out.message, "3 attempts exhausted: HTTP 503: down");
  assert.equal(server.requests.length, 3);
  const [a1, a2, exhausted] = events(tool);
  assert.equal(tool.events.length, 4);
  // random() = 0.5 gives the middle of the jitter range: 100 ms, then 200 ms.
  assert.deepEqual(a1, { name: "retry.attempt", attributes: { attempt: 1, delay: "100ms", error: "HTTP 503: down" } });
  assert.deepEqual(a2, { name: "retry.attempt", attributes: { attempt: 2, delay: "200ms", error: "HTTP 503: down" } });
  assert.deepEqual(exhausted, { name: "retry.exhausted", attributes: { attempts: 3, error: "HTTP 503: down" } });
  assert.deepEqual(exception(tool), { type: "RetriesExhaustedError", message: "3 attempts exhausted: HTTP 503: down", stackHead: "RetriesExhaustedError: 3 attempts exhausted: HTTP 503: down" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: "3 attempts exhausted: HTTP 503: down" });
  assert.deepEqual(tool.attributes, ORDERS_ATTRIBUTES);
});

test("a 4xx: the exception and Error, as Omnia (the breaker counts it a success, the executor returned an error)", async () => {
  const { ex } = executor(ordersRegistry("/missing"));
  const { out, tool } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: "{}" }));
  assert.equal(out.status === "error" && out.message, "HTTP 404: no such order");
  assert.deepEqual(events(tool).map((e) => e.name), ["exception"]);
  assert.deepEqual(exception(tool), { type: "HttpStatusError", message: "HTTP 404: no such order", stackHead: "HttpStatusError: HTTP 404: no such order" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: "HTTP 404: no such order" });
});

test("a per-attempt timeout on the manual clock: the exception and Error with the timeout's text", async () => {
  const { ex, clock } = executor(ordersRegistry("/hang", {}, { timeout: "2s" }));
  const { out, tool } = await underHost(() => settle(ex.execute({ id: "c1", name: "lookup", arguments: "{}" }), clock, 100));
  assert.equal(out.status === "error" && out.message, "timed out after 2000ms");
  assert.equal(clock.now() - START, 2000, "the attempt ended at its timeout on the manual clock");
  assert.deepEqual(events(tool).map((e) => e.name), ["exception"]);
  assert.deepEqual(exception(tool), { type: "TimeoutError", message: "timed out after 2000ms", stackHead: "TimeoutError: timed out after 2000ms" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: "timed out after 2000ms" });
});

test("breaker open: after 10 failures the 11th call is rejected without a request; its span is Error with CircuitOpenError", async () => {
  const { ex } = executor(ordersRegistry("/unavailable"));
  for (let i = 0; i < 10; i++) assert.equal((await ex.execute({ id: `f${i}`, name: "lookup", arguments: "{}" })).status, "error");
  spans.reset();
  const { out, tool } = await underHost(() => ex.execute({ id: "open", name: "lookup", arguments: "{}" }));
  assert.equal(server.requests.length, 10);
  assert.equal(out.status === "error" && out.message, "circuit breaker [lookup]: circuit breaker is open");
  assert.deepEqual(events(tool).map((e) => e.name), ["exception"]);
  assert.deepEqual(exception(tool), { type: "CircuitOpenError", message: "circuit breaker [lookup]: circuit breaker is open", stackHead: "CircuitOpenError: circuit breaker [lookup]: circuit breaker is open" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: "circuit breaker [lookup]: circuit breaker is open" });
});

test("a policy denial: the span opens before the decision and ends Error with a PolicyDeniedError exception; no request", async () => {
  const { ex } = executor(ordersRegistry("/ok"), { policy: () => ({ allow: false, reason: 'nope (rule "rule1")' }) });
  const { out, tool } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: "{}" }));
  assert.equal(out.status, "denied");
  assert.equal(server.requests.length, 0);
  assert.deepEqual(tool.attributes, ORDERS_ATTRIBUTES);
  assert.deepEqual(exception(tool), {
    type: "PolicyDeniedError",
    message: 'tool call denied by policy: nope (rule "rule1")',
    stackHead: 'PolicyDeniedError: tool call denied by policy: nope (rule "rule1")',
  });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: 'tool call denied by policy: nope (rule "rule1")' });
});

test("a client tool (an extension): the span ends Ok when the call is handed to the client; its completion adds no span", async () => {
  const { ex } = executor(ordersRegistry("/ok"));
  const { out, tool } = await underHost(() => ex.execute({ id: "c1", name: "get_location", arguments: "{}" }, { clientToolsAvailable: true }));
  assert.equal(out.status, "client");
  assert.deepEqual(tool.attributes, { "tool.name": "get_location", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "geo", "tool.handler.type": "client" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
  assert.deepEqual(events(tool), []);
  assert.equal(ex.completeClientCall({ callId: "c1", isRejected: true, rejectionReason: "camera off" }).status, "error");
  assert.equal(spans.getFinishedSpans().filter((s) => s.name === "omnia.tool.call").length, 1);
  assert.deepEqual(spans.getFinishedSpans().find((s) => s.name === "omnia.tool.call")?.status, { code: SpanStatusCode.OK });
});

test("a client tool with no client to answer: denied at once, the span ends Error", async () => {
  const { ex } = executor(ordersRegistry("/ok"));
  const { out, tool } = await underHost(() => ex.execute({ id: "c1", name: "get_location", arguments: "{}" }));
  assert.equal(out.status, "denied");
  const message = "Tool rejected: no client available to execute client-side tools";
  assert.deepEqual(events(tool), [{ name: "exception", attributes: { "exception.type": "Error", "exception.message": message } }]);
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message });
});

test("a platform tool (an extension): the span with tool.name only (bare list), Ok; a throwing one Error", async () => {
  const { ex } = executor(bareRegistry("/ok"), {
    platformTools: {
      memory__store: { description: "Store", inputSchema: { type: "object" }, execute: () => ({ stored: true }) },
      memory__fail: {
        description: "Fail",
        inputSchema: { type: "object" },
        execute: () => {
          throw new Error("disk full");
        },
      },
    },
  });
  const ok = await underHost(() => ex.execute({ id: "p1", name: "memory__store", arguments: "{}" }));
  assert.equal(ok.out.status, "success");
  assert.deepEqual(ok.tool.attributes, { "tool.name": "memory__store" });
  assert.deepEqual(ok.tool.status, { code: SpanStatusCode.OK });
  spans.reset();
  const failed = await underHost(() => ex.execute({ id: "p2", name: "memory__fail", arguments: "{}" }));
  assert.equal(failed.out.status === "error" && failed.out.message, "disk full");
  assert.deepEqual(failed.tool.attributes, { "tool.name": "memory__fail" });
  assert.deepEqual(exception(failed.tool), { type: "BackendError", message: "disk full", stackHead: "BackendError: disk full" });
  assert.deepEqual(failed.tool.status, { code: SpanStatusCode.ERROR, message: "disk full" });
});

test("a platform tool under a named ToolRegistry: the four registry attributes name the platform handler", async () => {
  const { ex } = executor(ordersRegistry("/ok"), { platformTools: { memory__store: { description: "Store", inputSchema: { type: "object" }, execute: () => 1 } } });
  const { tool } = await underHost(() => ex.execute({ id: "p1", name: "memory__store", arguments: "{}" }));
  assert.deepEqual(tool.attributes, { "tool.name": "memory__store", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "platform", "tool.handler.type": "platform" });
});

test("gRPC success: Ok with the grpc handler's attributes; no trace context in the metadata (as Omnia)", async () => {
  const grpc = await startGrpcToolBackend({ lookup_order: { description: "d", inputSchema: { type: "object" }, execute: () => ({ status: "shipped" }) } });
  closers.push(() => grpc.close());
  const registry = loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "orders", namespace: "agents" },
    spec: { handlers: [{ name: "orders-grpc", type: "grpc", tool: { name: "lookup_order", description: "d", inputSchema: { type: "object" } }, grpcConfig: { endpoint: `127.0.0.1:${grpc.port}` } }] },
  });
  const { ex } = executor(registry);
  const { out, tool } = await underHost(() => ex.execute({ id: "g1", name: "lookup_order", arguments: "{}" }));
  assert.equal(out.status === "success" && out.resultJson, '{"status":"shipped"}');
  assert.deepEqual(tool.attributes, { "tool.name": "lookup_order", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "orders-grpc", "tool.handler.type": "grpc" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
  assert.equal(grpc.calls.length, 1);
  assert.deepEqual(Object.keys(grpc.calls[0]?.headers ?? {}).filter((k) => ["traceparent", "tracestate", "baggage"].includes(k)), []);
});

test("MCP success: Ok with the mcp handler's attributes; no trace context on the MCP requests (as Omnia)", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  closers.push(() => mcp.close());
  const registry = loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "kb-registry", namespace: "agents" },
    spec: { handlers: [{ name: "kb", type: "mcp", mcpConfig: { transport: "streamable-http", endpoint: mcp.url } }] },
  });
  const { ex } = executor(registry);
  const { out, tool } = await underHost(() => ex.execute({ id: "m1", name: "echo", arguments: '{"text":"hi"}' }));
  assert.equal(out.status === "success" && out.resultJson, '"hi"');
  assert.deepEqual(tool.attributes, { "tool.name": "echo", "tool.registry.name": "kb-registry", "tool.registry.namespace": "agents", "tool.handler.name": "kb", "tool.handler.type": "mcp" });
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
  assert.ok(mcp.requests.some((r) => r.rpcMethod === "tools/call"));
  assert.deepEqual(mcp.requests.filter((r) => r.headers.traceparent !== undefined).map((r) => r.rpcMethod), []);
});

test("an unknown tool (an extension: Omnia opens no span for it): Error with the not-found text, empty handler attributes", async () => {
  const { ex } = executor(ordersRegistry("/ok"));
  const { out, tool } = await underHost(() => ex.execute({ id: "u1", name: "nope", arguments: "{}" }));
  assert.equal(out.status === "error" && out.message, 'tool "nope" not found');
  assert.deepEqual(tool.attributes, { "tool.name": "nope", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "", "tool.handler.type": "" });
  assert.deepEqual(exception(tool), { type: "UnknownToolError", message: 'tool "nope" not found', stackHead: 'UnknownToolError: tool "nope" not found' });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: 'tool "nope" not found' });
});

test("a call the host abandons (its signal aborts mid-request): the span still ends, Error with the executor's abort text (as the record's)", async () => {
  const { ex } = executor(ordersRegistry("/hang"));
  const controller = new AbortController();
  const { tool } = await underHost(async () => {
    const pending = ex.execute({ id: "a1", name: "lookup", arguments: "{}" }, { signal: controller.signal });
    for (let i = 0; i < 200 && server.requests.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(server.requests.length, 1);
    controller.abort(new AbortedError("conversation ended"));
    await assert.rejects(pending, AbortedError);
    return { status: "error" } as ToolOutcome;
  });
  const message = "attempt: the caller's signal aborted";
  assert.deepEqual(exception(tool), { type: "AbortedError", message, stackHead: `AbortedError: ${message}` });
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message });
});

// --- 2. Trace context into the backend -----------------------------------------------------------

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** Every traceparent header (any case) each request carried, as the backend received them. */
function traceparents(requests: TestServer["requests"]): string[][] {
  return requests.map((r) => r.rawHeaders.filter(([name]) => name.toLowerCase() === "traceparent").map(([, value]) => value));
}

/** A call of `lookup` that fails twice with 503 then succeeds: three attempts of one span. */
async function threeAttempts(options: Partial<ToolExecutorOptions>, handlerExtra: Record<string, unknown> = {}): Promise<{ out: ToolOutcome; tool: ReadableSpan; parent: ReadableSpan }> {
  server.handle((_req, res, index) => {
    if (index < 2) {
      res.statusCode = 503;
      return void res.end("down");
    }
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  try {
    const { ex, clock } = executor(ordersRegistry("/flaky", { retryPolicy: { maxAttempts: 3, retryOn: [503], initialBackoff: "10ms" }, ...handlerExtra }), options);
    const result = await underHost(() => settle(ex.execute({ id: "c1", name: "lookup", arguments: "{}" }), clock, 10));
    assert.equal(result.out.status, "success", JSON.stringify(result.out));
    assert.equal(server.requests.length, 3);
    return result;
  } finally {
    server.handle(routes);
  }
}

test("propagation auto: exactly one traceparent per attempt, every attempt the same, its parent-id the tool span's id", async () => {
  const { tool, parent } = await threeAttempts({});
  const expected = `00-${parent.spanContext().traceId}-${tool.spanContext().spanId}-01`;
  assert.deepEqual(traceparents(server.requests), [[expected], [expected], [expected]]);
  assert.deepEqual(events(tool).map((e) => e.name), ["retry.attempt", "retry.attempt"]);
});

test("a static handler header `Traceparent: stale` is replaced, not duplicated", async () => {
  const { tool, parent } = await threeAttempts({}, { headers: { Traceparent: "stale" } });
  const expected = `00-${parent.spanContext().traceId}-${tool.spanContext().spanId}-01`;
  assert.deepEqual(traceparents(server.requests), [[expected], [expected], [expected]]);
});

test("with @opentelemetry/instrumentation-undici enabled: still exactly one per attempt, the instrumentation's, whose span is a child of the tool span", async () => {
  // The host's setup for the instrumentation: it injects through the global propagator.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  undiciInstrumentation.enable();
  try {
    for (const handlerExtra of [{}, { headers: { Traceparent: "stale" } }]) {
      spans.reset();
      server.requests.length = 0;
      const { tool, parent } = await threeAttempts({}, handlerExtra);
      const clients = spans.getFinishedSpans().filter((s) => s.name === "POST");
      assert.equal(clients.length, 3);
      const got = traceparents(server.requests);
      assert.deepEqual(got.map((values) => values.length), [1, 1, 1], `${JSON.stringify(handlerExtra)}: ${JSON.stringify(got)}`);
      for (const [index, [value]] of got.entries()) {
        const [traceId, parentId] = TRACEPARENT.exec(value ?? "")?.slice(1) ?? [];
        assert.equal(traceId, parent.spanContext().traceId);
        const client = clients[index];
        assert.equal(parentId, client?.spanContext().spanId, "the traceparent names the instrumentation's client span of that attempt");
        assert.equal(client?.parentSpanContext?.spanId, tool.spanContext().spanId, "whose parent is the tool span");
      }
    }
  } finally {
    undiciInstrumentation.disable();
    propagation.disable();
  }
});

test("telemetry: false sends no traceparent and creates no span, even with a global tracer provider and propagator registered", async () => {
  assert.equal(trace.setGlobalTracerProvider(provider), true);
  assert.equal(propagation.setGlobalPropagator(new W3CTraceContextPropagator()), true);
  try {
    const off = executor(ordersRegistry("/ok"), { telemetry: false });
    await host.startActiveSpan("genai.chat", async (span) => {
      assert.equal((await off.ex.execute({ id: "c1", name: "lookup", arguments: "{}" })).status, "success");
      span.end();
    });
    assert.deepEqual(spans.getFinishedSpans().map((s) => s.name), ["genai.chat"]);
    assert.deepEqual(traceparents(server.requests), [[]]);
    // The same executor options without `telemetry` use those globals: one span, one traceparent.
    spans.reset();
    server.requests.length = 0;
    const on = createToolExecutor({ registry: ordersRegistry("/ok"), clock: createManualClock(START) });
    closers.push(() => on.close());
    const { tool } = await underHost(() => on.execute({ id: "c2", name: "lookup", arguments: "{}" }));
    assert.deepEqual(traceparents(server.requests).map((v) => v.map((x) => TRACEPARENT.exec(x)?.[2])), [[tool.spanContext().spanId]]);
  } finally {
    trace.disable();
    propagation.disable();
  }
});

test("propagation never: no traceparent; the span is still there", async () => {
  const { tool } = await threeAttempts({ telemetry: { tracer, propagator, propagation: "never" } });
  assert.equal(tool.name, "omnia.tool.call");
  assert.deepEqual(traceparents(server.requests), [[], [], []]);
});

test("an OpenAPI handler: one traceparent per attempt whose parent-id is the tool span's", async () => {
  const api = await startOpenApiServer();
  closers.push(() => api.close());
  const registry = loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "pets", namespace: "agents" },
    spec: { handlers: [{ name: "pets-api", type: "openapi", openAPIConfig: { specURL: api.specURL, operationFilter: ["getPetById", "status"] } }] },
  });
  const { ex } = executor(registry);
  await ex.refresh();
  const { out, tool, parent } = await underHost(() => ex.execute({ id: "o1", name: "getPetById", arguments: '{"petId":7}' }));
  assert.equal(out.status === "success" && out.resultJson, '{"id":"7","name":"Rex"}');
  assert.deepEqual(tool.attributes, { "tool.name": "getPetById", "tool.registry.name": "pets", "tool.registry.namespace": "agents", "tool.handler.name": "pets-api", "tool.handler.type": "openapi" });
  assert.deepEqual(traceparents(api.apiRequests()), [[`00-${parent.spanContext().traceId}-${tool.spanContext().spanId}-01`]]);
  // The spec fetch is not a tool call: no trace context on it.
  assert.deepEqual(traceparents(api.server.requests.filter((r) => r.url === "/openapi.json")), [[]]);
});

// --- 3. Metrics ----------------------------------------------------------------------------------

/** Serves the exporter's /metrics on 127.0.0.1 and scrapes it once with undici. */
async function scrape(exporter: PrometheusExporter): Promise<string> {
  const metricsServer: Server = createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((resolve) => metricsServer.listen(0, "127.0.0.1", resolve));
  try {
    const res = await request(`http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers["content-type"], "text/plain");
    return await res.body.text();
  } finally {
    await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
  }
}

const SCOPE = 'otel_scope_name="omnia-tools",otel_scope_version="0.1.0"';
const CONST_LABELS = 'agent="support",namespace="agents",promptpack_name="support-pack"';
const BUCKETS = ["0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"];

function histogramLines(tool: string, counts: readonly number[], sum: number, count: number): string[] {
  return [
    `omnia_tool_call_duration_seconds_count{${CONST_LABELS},tool="${tool}",${SCOPE}} ${count}`,
    `omnia_tool_call_duration_seconds_sum{${CONST_LABELS},tool="${tool}",${SCOPE}} ${sum}`,
    ...BUCKETS.map((le, i) => `omnia_tool_call_duration_seconds_bucket{${CONST_LABELS},tool="${tool}",${SCOPE},le="${le}"} ${counts[i]}`),
  ];
}

test("metrics after a few calls: Omnia's names, help texts, labels (agent/namespace from options.agent, promptpack_name from telemetry.attributes), buckets", async () => {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ readers: [exporter] });
  closers.push(() => meterProvider.shutdown());
  const clock = createManualClock(START);
  // The backend takes 20 ms (success) or 300 ms (the 503) on the executor's clock.
  const timed = await startHttpServer((req, res) => {
    if (req.url === "/slow-fail") {
      clock.advance(300);
      res.statusCode = 503;
      return void res.end("down");
    }
    clock.advance(20);
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  closers.push(() => timed.close());
  const registry = loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "orders", namespace: "agents" },
    spec: {
      handlers: [
        { name: "lookup-h", type: "http", tool: { name: "lookup", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${timed.url}/ok` } },
        { name: "fail-h", type: "http", tool: { name: "fail", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${timed.url}/slow-fail` } },
        { name: "geo", type: "client", tool: { name: "get_location", description: "d", inputSchema: { type: "object" } } },
      ],
    },
  });
  const ex = createToolExecutor({
    registry,
    clock,
    agent: { name: "support", namespace: "agents" },
    telemetry: { tracer, propagator, meter: meterProvider.getMeter("omnia-tools", "0.1.0"), attributes: { promptpackName: "support-pack" } },
  });
  closers.push(() => ex.close());
  assert.equal((await ex.execute({ id: "a", name: "lookup", arguments: "{}" })).status, "success");
  assert.equal((await ex.execute({ id: "b", name: "lookup", arguments: "{}" })).status, "success");
  // An executor failure counts as status="success", as PromptKit's collector counts it.
  assert.equal((await ex.execute({ id: "c", name: "fail", arguments: "{}" })).status, "error");
  // Refused before any handler ran (unknown tool, arguments that are not JSON): the only status="error".
  assert.equal((await ex.execute({ id: "d", name: "nope", arguments: "{}" })).status, "error");
  assert.equal((await ex.execute({ id: "e", name: "lookup", arguments: "{oops" })).status, "error");
  // A client call is observed once, as 0 s, when it is handed to the client.
  assert.equal((await ex.execute({ id: "f", name: "get_location", arguments: "{}" }, { clientToolsAvailable: true })).status, "client");
  clock.advance(5_000);
  assert.equal(ex.completeClientCall({ callId: "f", resultJson: "1" }).status, "success");

  const lines = (await scrape(exporter)).split("\n").filter((l) => l.includes("omnia_tool"));
  assert.deepEqual(lines, [
    "# HELP omnia_tool_calls_total Total number of tool calls",
    "# TYPE omnia_tool_calls_total counter",
    `omnia_tool_calls_total{${CONST_LABELS},tool="lookup",status="success",${SCOPE}} 2`,
    `omnia_tool_calls_total{${CONST_LABELS},tool="fail",status="success",${SCOPE}} 1`,
    // A name the registry does not serve is counted under one label, whatever the model called it.
    `omnia_tool_calls_total{${CONST_LABELS},tool="_OTHER",status="error",${SCOPE}} 1`,
    `omnia_tool_calls_total{${CONST_LABELS},tool="lookup",status="error",${SCOPE}} 1`,
    `omnia_tool_calls_total{${CONST_LABELS},tool="get_location",status="success",${SCOPE}} 1`,
    "# HELP omnia_tool_call_duration_seconds Duration of tool calls in seconds",
    "# UNIT omnia_tool_call_duration_seconds s",
    "# TYPE omnia_tool_call_duration_seconds histogram",
    // lookup: 0.02 s twice and 0 s (the bad arguments).
    ...histogramLines("lookup", [1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3], 0.04, 3),
    ...histogramLines("fail", [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], 0.3, 1),
    ...histogramLines("_OTHER", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, 1),
    ...histogramLines("get_location", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, 1),
  ]);
});

test("the breaker transitions counter (an extension) after 10 failures open the executor's own breaker", async () => {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ readers: [exporter] });
  closers.push(() => meterProvider.shutdown());
  const { ex } = executor(ordersRegistry("/unavailable"), {
    agent: { name: "support", namespace: "agents" },
    telemetry: { tracer, propagator, meter: meterProvider.getMeter("omnia-tools", "0.1.0"), attributes: { promptpackName: "support-pack" } },
  });
  for (let i = 0; i < 9; i++) await ex.execute({ id: `f${i}`, name: "lookup", arguments: "{}" });
  assert.deepEqual((await scrape(exporter)).split("\n").filter((l) => l.includes("breaker")), [], "no transition after 9 failures");
  await ex.execute({ id: "f9", name: "lookup", arguments: "{}" });
  const open = await ex.execute({ id: "open", name: "lookup", arguments: "{}" });
  assert.equal(open.status === "error" && open.message, "circuit breaker [lookup]: circuit breaker is open");
  assert.equal(server.requests.length, 10);
  assert.deepEqual((await scrape(exporter)).split("\n").filter((l) => l.includes("breaker")), [
    "# HELP omnia_tools_breaker_transitions_total Circuit breaker transitions (an omnia-tools extension: Omnia's runtime has no breaker metrics)",
    "# TYPE omnia_tools_breaker_transitions_total counter",
    `omnia_tools_breaker_transitions_total{${CONST_LABELS},breaker="lookup",transition="break",${SCOPE}} 1`,
  ]);
});
