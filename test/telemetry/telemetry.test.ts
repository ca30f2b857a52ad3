// The telemetry module against the real OpenTelemetry JS SDK: spans through an
// in-memory exporter (the host's active span as parent, via the async-hooks context
// manager), metrics through the Prometheus exporter scraped over loopback.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { context, trace, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { request } from "undici";
import { createTelemetry, type CallSpan, type Telemetry } from "../../src/telemetry/index.js";
import * as realApi from "@opentelemetry/api";
import { loadOpenTelemetryApi, type OpenTelemetryApi } from "../../src/telemetry/load-api.js";
import { RetriesExhaustedError } from "../../src/retry/index.js";
import { BackendError } from "../../src/executor/index.js";
import { TimeoutError } from "../../src/core/index.js";
import { CircuitOpenError } from "../../src/breaker/index.js";
import { PolicyDeniedError } from "../../src/policy/index.js";

const contextManager = new AsyncLocalStorageContextManager();
const spans = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const host: Tracer = provider.getTracer("host");
const meterProvider = new MeterProvider({ readers: [] });

before(() => {
  // The host's setup: a context manager is what makes its active span the parent.
  context.setGlobalContextManager(contextManager.enable());
});

after(async () => {
  context.disable();
  await meterProvider.shutdown();
  await provider.shutdown();
});

beforeEach(() => spans.reset());

function telemetry(): Telemetry {
  return createTelemetry({
    tracer: provider.getTracer("omnia-tools", "0.1.0"),
    meter: meterProvider.getMeter("omnia-tools", "0.1.0"),
    attributes: { agent: "support", namespace: "agents", promptpackName: "support-pack" },
  });
}

const REGISTRY = { registryName: "orders", registryNamespace: "agents", handlerName: "lookup-h", handlerType: "http" } as const;

/** Runs `fn` inside a host span and returns [host span, tool span]. */
function underHost(fn: () => void): [ReadableSpan, ReadableSpan] {
  host.startActiveSpan("genai.chat", (parent) => {
    fn();
    parent.end();
  });
  const finished = spans.getFinishedSpans();
  const tool = finished.find((s) => s.name === "omnia.tool.call");
  const parent = finished.find((s) => s.name === "genai.chat");
  assert.ok(tool !== undefined && parent !== undefined, `spans: ${finished.map((s) => s.name).join(", ")}`);
  return [parent, tool];
}

function events(span: ReadableSpan): { name: string; attributes: unknown }[] {
  return span.events.map((e) => ({ name: e.name, attributes: e.attributes }));
}

test("success: omnia.tool.call, CLIENT, child of the host's active span, Omnia's five attributes, Ok without description", () => {
  const t = telemetry();
  const [parent, tool] = underHost(() => t.startCall({ toolName: "lookup", ...REGISTRY }).end({ status: "success", durationMs: 12 }));
  assert.equal(tool.name, "omnia.tool.call");
  assert.equal(tool.kind, SpanKind.CLIENT);
  assert.equal(tool.parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.equal(tool.spanContext().traceId, parent.spanContext().traceId);
  assert.deepEqual(tool.attributes, {
    "tool.name": "lookup",
    "tool.registry.name": "orders",
    "tool.registry.namespace": "agents",
    "tool.handler.name": "lookup-h",
    "tool.handler.type": "http",
  });
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
  assert.deepEqual(events(tool), []);
  assert.equal(tool.instrumentationScope.name, "omnia-tools");
});

test("without a registry name the span has tool.name only", () => {
  const t = telemetry();
  const [, tool] = underHost(() => t.startCall({ toolName: "lookup", registryName: "", handlerName: "lookup-h", handlerType: "http" }).end({ status: "success", durationMs: 1 }));
  assert.deepEqual(tool.attributes, { "tool.name": "lookup" });
});

test("HTTP 503 with retries: two retry.attempt events, retry.exhausted, the exception, Error with Omnia's text", () => {
  const t = telemetry();
  const last = new BackendError("HTTP 503: down");
  const error = new RetriesExhaustedError(3, last);
  const [, tool] = underHost(() => {
    const call = t.startCall({ toolName: "lookup", ...REGISTRY });
    call.retry({ attempt: 1, delayMs: 98.304, error: last });
    call.retry({ attempt: 2, delayMs: 1200, error: "HTTP 503: down" });
    call.end({ status: "error", message: error.message, error, durationMs: 1400 });
  });
  const [a1, a2, exhausted, exception] = tool.events;
  assert.equal(tool.events.length, 4);
  assert.deepEqual({ name: a1?.name, attributes: a1?.attributes }, { name: "retry.attempt", attributes: { attempt: 1, delay: "98.304ms", error: "HTTP 503: down" } });
  assert.deepEqual({ name: a2?.name, attributes: a2?.attributes }, { name: "retry.attempt", attributes: { attempt: 2, delay: "1.2s", error: "HTTP 503: down" } });
  assert.deepEqual({ name: exhausted?.name, attributes: exhausted?.attributes }, { name: "retry.exhausted", attributes: { attempts: 3, error: "HTTP 503: down" } });
  assert.equal(exception?.name, "exception");
  assert.equal(exception?.attributes?.["exception.type"], "RetriesExhaustedError");
  assert.equal(exception?.attributes?.["exception.message"], "3 attempts exhausted: HTTP 503: down");
  assert.match(String(exception?.attributes?.["exception.stacktrace"]), /^RetriesExhaustedError: 3 attempts exhausted: HTTP 503: down\n {4}at /);
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: "3 attempts exhausted: HTTP 503: down" });
});

for (const [label, error] of [
  ["a 4xx (a breaker success, still an executor error)", new BackendError("HTTP 404: no such order")],
  ["a timeout", new TimeoutError(30_000)],
  ["an open breaker", new CircuitOpenError("lookup", "open")],
] as const) {
  test(`${label}: exception event and Error status, no retry events`, () => {
    const t = telemetry();
    const [, tool] = underHost(() => t.startCall({ toolName: "lookup", ...REGISTRY }).end({ status: "error", message: error.message, error, durationMs: 3 }));
    assert.deepEqual(tool.events.map((e) => e.name), ["exception"]);
    assert.equal(tool.events[0]?.attributes?.["exception.type"], error.name);
    assert.equal(tool.events[0]?.attributes?.["exception.message"], error.message);
    assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: error.message });
  });
}

test("a policy denial is an Error span, as in Omnia", () => {
  const t = telemetry();
  const error = new PolicyDeniedError('nope (rule "rule1")');
  const [, tool] = underHost(() => t.startCall({ toolName: "lookup", ...REGISTRY }).end({ status: "denied", message: error.message, error, durationMs: 2 }));
  assert.equal(tool.events[0]?.attributes?.["exception.type"], "PolicyDeniedError");
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: 'tool call denied by policy: nope (rule "rule1")' });
});

test("a denial without an error object still records the exception with its text", () => {
  const t = telemetry();
  const message = "Tool rejected: no client connected that can execute client tools";
  const [, tool] = underHost(() => t.startCall({ toolName: "get_location", registryName: "orders", handlerName: "geo", handlerType: "client" }).end({ status: "denied", message, durationMs: 0 }));
  assert.deepEqual(events(tool), [{ name: "exception", attributes: { "exception.type": "Error", "exception.message": message } }]);
  assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message });
});

test("a client call (an extension: Omnia spans only server calls) ends Ok when handed to the client", () => {
  const t = telemetry();
  const [, tool] = underHost(() => t.startCall({ toolName: "get_location", ...REGISTRY, handlerName: "geo", handlerType: "client" }).end({ status: "client", durationMs: 5 }));
  assert.equal(tool.attributes["tool.handler.type"], "client");
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
});

test("end() twice closes the span once; retry() after end() adds nothing", () => {
  const t = telemetry();
  const [, tool] = underHost(() => {
    const call = t.startCall({ toolName: "lookup" });
    call.end({ status: "success", durationMs: 1 });
    call.retry({ attempt: 1, delayMs: 1, error: "late" });
    call.end({ status: "error", message: "late", durationMs: 1 });
  });
  assert.equal(spans.getFinishedSpans().filter((s) => s.name === "omnia.tool.call").length, 1);
  assert.deepEqual(events(tool), []);
  assert.deepEqual(tool.status, { code: SpanStatusCode.OK });
});

test("run() makes the tool span active for the backend code", () => {
  const t = telemetry();
  let inner: string | undefined;
  let call: CallSpan | undefined;
  const [, tool] = underHost(() => {
    call = t.startCall({ toolName: "lookup" });
    call.run(() => {
      inner = trace.getActiveSpan()?.spanContext().spanId;
    });
    call.end({ status: "success", durationMs: 1 });
  });
  assert.equal(inner, tool.spanContext().spanId);
});

test("without @opentelemetry/api: the shared frozen no-op; startCall returns one frozen no-op span", () => {
  const t = createTelemetry(undefined, () => undefined);
  assert.equal(t.enabled, false);
  const a = t.startCall({ toolName: "a" });
  const b = t.startCall({ toolName: "b" });
  assert.equal(a, b);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(t));
  assert.equal(createTelemetry({ propagation: "never" }, () => undefined), t);
  assert.equal(a.run(() => 42), 42);
  const headers: Record<string, string> = { a: "1" };
  a.inject(headers);
  assert.deepEqual(headers, { a: "1" });
});

test("a tracer given without the API installed is reported once at warn", () => {
  const lines: string[] = [];
  const logger = { debug() {}, info() {}, error() {}, warn: (m: string) => void lines.push(m) };
  assert.equal(createTelemetry({ tracer: host, logger }, () => undefined).enabled, false);
  assert.deepEqual(lines, ["telemetry: @opentelemetry/api is not installed; tool-call spans and metrics are off"]);
});

test("unknown options and propagation modes are typed errors", () => {
  assert.throws(() => createTelemetry({ tracr: host } as never), { code: "ERR_OMNIA_INVALID_OPTION", message: /createTelemetry: unknown option "tracr"/ });
  assert.throws(() => createTelemetry({ propagation: "sometimes" as never }), {
    code: "ERR_OMNIA_INVALID_OPTION",
    message: 'createTelemetry: propagation must be "auto", "always" or "never"; got "sometimes"',
  });
});

test("with the API installed and no SDK registered, the defaults are the global no-op API: nothing recorded, nothing injected", () => {
  const api = loadOpenTelemetryApi();
  assert.ok(api !== undefined);
  // The structural slice the package declares is what the real module provides (checked by tsc).
  const typed: OpenTelemetryApi = realApi;
  assert.equal(typeof typed.trace.setSpan, "function");
  const t = createTelemetry(undefined, () => api);
  assert.equal(t.enabled, true);
  const call = t.startCall({ toolName: "lookup" });
  const headers: Record<string, string> = {};
  call.inject(headers);
  call.end({ status: "success", durationMs: 1 });
  assert.deepEqual(headers, {});
  assert.deepEqual(spans.getFinishedSpans(), []);
});

test("the global tracer provider is the default once the host registers one (never registered by the library)", () => {
  assert.equal(trace.setGlobalTracerProvider(provider), true);
  try {
    const t = createTelemetry({ meter: meterProvider.getMeter("unused") });
    const [, tool] = underHost(() => t.startCall({ toolName: "lookup" }).end({ status: "success", durationMs: 1 }));
    assert.equal(tool.instrumentationScope.name, "omnia-tools");
    assert.equal(tool.instrumentationScope.version, "0.1.0");
  } finally {
    trace.disable();
  }
});

test("breaker transitions go to the extension counter, labelled breaker and transition", async () => {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const mp = new MeterProvider({ readers: [exporter] });
  const t = createTelemetry({ tracer: host, meter: mp.getMeter("omnia-tools", "0.1.0"), attributes: { agent: "support" } });
  t.onBreakerTransition("lookup", "break");
  t.onBreakerTransition("lookup", "half-open");
  t.onBreakerTransition("lookup", "break");
  const text = await scrapeFrom(exporter);
  assert.equal(
    text.split("\n").filter((l) => l.includes("omnia_tools_breaker_transitions_total")).join("\n"),
    [
      "# HELP omnia_tools_breaker_transitions_total Circuit breaker transitions (an omnia-tools extension: Omnia's runtime has no breaker metrics)",
      "# TYPE omnia_tools_breaker_transitions_total counter",
      'omnia_tools_breaker_transitions_total{agent="support",breaker="lookup",transition="break",otel_scope_name="omnia-tools",otel_scope_version="0.1.0"} 2',
      'omnia_tools_breaker_transitions_total{agent="support",breaker="lookup",transition="half-open",otel_scope_name="omnia-tools",otel_scope_version="0.1.0"} 1',
    ].join("\n"),
  );
  await mp.shutdown();
});

async function scrapeFrom(exporter: PrometheusExporter): Promise<string> {
  const server = createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
    assert.equal(res.statusCode, 200);
    return await res.body.text();
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test("metrics: Omnia's names, help texts, buckets and status semantics, scraped from the Prometheus exporter", async () => {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const mp = new MeterProvider({ readers: [exporter] });
  const t = createTelemetry({
    tracer: host,
    meter: mp.getMeter("omnia-tools", "0.1.0"),
    attributes: { agent: "support", namespace: "agents", promptpackName: "support-pack" },
  });
  t.startCall({ toolName: "lookup", ...REGISTRY }).end({ status: "success", durationMs: 20 });
  // An executor failure counts as success, as PromptKit's collector counts it.
  t.startCall({ toolName: "lookup", ...REGISTRY }).end({ status: "error", message: "HTTP 503: down", error: new BackendError("HTTP 503: down"), durationMs: 300 });
  // A call refused before any handler ran is the only status="error".
  t.startCall({ toolName: "nope" }).end({ status: "error", message: 'tool "nope" not found', durationMs: 0, rejectedBeforeExecution: true });
  // A client call is observed as 0 s.
  t.startCall({ toolName: "get_location" }).end({ status: "client", durationMs: 900 });
  const text = await scrapeFrom(exporter);
  await mp.shutdown();
  const lines = text.split("\n").filter((l) => l.includes("omnia_tool_call"));
  const scope = 'otel_scope_name="omnia-tools",otel_scope_version="0.1.0"';
  const labels = 'agent="support",namespace="agents",promptpack_name="support-pack"';
  const buckets = ["0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"];
  const histogram = (tool: string, counts: number[], sum: number, count: number) => [
    `omnia_tool_call_duration_seconds_count{${labels},tool="${tool}",${scope}} ${count}`,
    `omnia_tool_call_duration_seconds_sum{${labels},tool="${tool}",${scope}} ${sum}`,
    ...buckets.map((le, i) => `omnia_tool_call_duration_seconds_bucket{${labels},tool="${tool}",${scope},le="${le}"} ${counts[i]}`),
  ];
  assert.deepEqual(lines, [
    "# HELP omnia_tool_calls_total Total number of tool calls",
    "# TYPE omnia_tool_calls_total counter",
    `omnia_tool_calls_total{${labels},tool="lookup",status="success",${scope}} 2`,
    `omnia_tool_calls_total{${labels},tool="nope",status="error",${scope}} 1`,
    `omnia_tool_calls_total{${labels},tool="get_location",status="success",${scope}} 1`,
    "# HELP omnia_tool_call_duration_seconds Duration of tool calls in seconds",
    "# UNIT omnia_tool_call_duration_seconds s",
    "# TYPE omnia_tool_call_duration_seconds histogram",
    ...histogram("lookup", [0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2], 0.32, 2),
    ...histogram("nope", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, 1),
    ...histogram("get_location", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 0, 1),
  ]);
});
