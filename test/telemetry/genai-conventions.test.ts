// OpenTelemetry's GenAI conventions beside Omnia's names (issue #37), with the
// real OpenTelemetry JS SDK: every span name, kind and attribute is compared
// with the conventions' model files (semantic-conventions v1.41.1, copied in
// test/fixtures/semconv-1.41.1/), and the metrics with a real metric reader.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { createTelemetry, GEN_AI_SEMCONV_VERSION, TOOL_CALL_DURATION_BUCKETS_S } from "../../src/telemetry/index.js";
import { InvalidOptionError } from "../../src/core/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { startHttpServer, type Handler, type TestServer } from "../helpers/http-server.js";
import { useOtelSdk } from "../helpers/otel-sdk.js";
import { assertConforms, attributesOf, metricNames } from "./semconv.js";

const sdk = useOtelSdk();
const { spans, tracer, closers } = sdk;
const propagator = new W3CTraceContextPropagator();
const START = Date.UTC(2026, 11, 4, 14, 0, 0);
let server: TestServer;

const routes: Handler = (req, res) => {
  const path = (req.url ?? "").split("?")[0];
  if (path === "/unavailable") {
    res.statusCode = 503;
    return void res.end("down");
  }
  res.setHeader("content-type", "application/json");
  res.end('{"ok":true}');
};

before(async () => {
  server = await startHttpServer(routes);
});

after(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
});

function registry(path: string, httpExtra = ""): ToolRegistry {
  return loadToolRegistry(`
apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: orders, namespace: agents }
spec:
  handlers:
    - name: lookup-h
      type: http
      tool: { name: lookup, description: "Looks an order up", inputSchema: { type: object } }
      httpConfig: { endpoint: "${server.url}${path}"${httpExtra} }
`);
}

function executor(reg: ToolRegistry, telemetry: Record<string, unknown>, options: Partial<ToolExecutorOptions> = {}): ToolExecutor {
  const ex = createToolExecutor({ registry: reg, clock: createManualClock(START), random: () => 0.5, telemetry: { tracer, propagator, env: {}, ...telemetry }, ...options });
  closers.push(() => ex.close());
  return ex;
}

/** Runs `fn` in the host's active span; returns the outcome, the host span and every other finished span by name. */
async function underHost(fn: () => Promise<ToolOutcome>): Promise<{ out: ToolOutcome; parent: ReadableSpan; byName: Map<string, ReadableSpan>; names: string[] }> {
  const { out, parent, others } = await sdk.underHost(fn);
  return { out, parent, byName: new Map(others.map((s) => [s.name, s])), names: others.map((s) => s.name) };
}

const EXECUTE_TOOL = "span.gen_ai.execute_tool.internal";
const LOOKUP_GEN_AI = {
  "gen_ai.operation.name": "execute_tool",
  "gen_ai.tool.name": "lookup",
  "gen_ai.tool.call.id": "c1",
  "gen_ai.tool.type": "function",
  "gen_ai.tool.description": "Looks an order up",
};

test("the attribute names this package writes are the v1.41.1 model's (execute_tool group)", () => {
  assert.equal(GEN_AI_SEMCONV_VERSION, "1.41.1");
  assert.deepEqual(
    [...attributesOf(EXECUTE_TOOL).keys()].sort(),
    ["error.type", "gen_ai.operation.name", "gen_ai.tool.call.arguments", "gen_ai.tool.call.id", "gen_ai.tool.call.result", "gen_ai.tool.description", "gen_ai.tool.name", "gen_ai.tool.type"],
  );
});

test('["omnia", "gen_ai"]: omnia.tool.call (CLIENT, child of the host span) then execute_tool lookup (INTERNAL, its child); the backend gets the innermost span\'s traceparent', async () => {
  const ex = executor(registry("/ok"), { conventions: ["omnia", "gen_ai"] });
  const { out, parent, byName, names } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: '{"id":1}' }));
  assert.equal(out.status, "success");
  assert.deepEqual(names.sort(), ["execute_tool lookup", "omnia.tool.call"]);
  const omnia = byName.get("omnia.tool.call")!;
  const gen = byName.get("execute_tool lookup")!;
  assert.equal(omnia.kind, SpanKind.CLIENT);
  assert.equal(omnia.parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.deepEqual(omnia.status, { code: SpanStatusCode.OK });
  assert.equal(gen.kind, SpanKind.INTERNAL);
  assert.equal(gen.parentSpanContext?.spanId, omnia.spanContext().spanId);
  assert.equal(gen.spanContext().traceId, parent.spanContext().traceId);
  assert.deepEqual(gen.attributes, LOOKUP_GEN_AI);
  assert.deepEqual(gen.status, { code: SpanStatusCode.UNSET });
  assert.deepEqual(gen.events, []);
  assertConforms(gen, EXECUTE_TOOL);
  assert.equal(server.requests[0]?.headers["traceparent"], `00-${gen.spanContext().traceId}-${gen.spanContext().spanId}-01`);
});

test('["gen_ai"]: execute_tool only, a child of the host span; no Omnia span', async () => {
  const ex = executor(registry("/ok"), { conventions: ["gen_ai"] });
  const { parent, byName, names } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: "{}" }));
  assert.deepEqual(names, ["execute_tool lookup"]);
  const gen = byName.get("execute_tool lookup")!;
  assert.equal(gen.parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.deepEqual(gen.attributes, LOOKUP_GEN_AI);
  assertConforms(gen, EXECUTE_TOOL);
});

test("a failure: error.type is the ERR_OMNIA_* code, Error status with the outcome's message", async () => {
  const ex = executor(registry("/unavailable"), { conventions: ["gen_ai"] });
  const { out, byName } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: "{}" }));
  assert.equal(out.status === "error" && out.message, "HTTP 503: down");
  const gen = byName.get("execute_tool lookup")!;
  assert.deepEqual(gen.attributes, { ...LOOKUP_GEN_AI, "error.type": "ERR_OMNIA_HTTP_STATUS" });
  assert.deepEqual(gen.status, { code: SpanStatusCode.ERROR, message: "HTTP 503: down" });
  assertConforms(gen, EXECUTE_TOOL);
});

test("a tool the registry does not serve: the span name says _OTHER (bounded by the registry), the attribute keeps the name", async () => {
  const ex = executor(registry("/ok"), { conventions: ["gen_ai"] });
  const { byName, names } = await underHost(() => ex.execute({ id: "c9", name: "made_up", arguments: "{}" }));
  assert.deepEqual(names, ["execute_tool _OTHER"]);
  const gen = byName.get("execute_tool _OTHER")!;
  assert.deepEqual(gen.attributes, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "made_up", "gen_ai.tool.call.id": "c9", "gen_ai.tool.type": "function", "error.type": "ERR_OMNIA_UNKNOWN_TOOL" });
  assert.deepEqual(gen.status, { code: SpanStatusCode.ERROR, message: 'tool "made_up" not found' });
  // The one deviation from the name the conventions ask for (execute_tool made_up), asserted above.
  assertConforms(gen, EXECUTE_TOOL, false);
});

test("a platform tool is an extension", async () => {
  const ex = executor(registry("/ok"), { conventions: ["gen_ai"] }, { platformTools: { memory_recall: { description: "Recalls", inputSchema: { type: "object" }, execute: () => ({ found: 1 }) } } });
  const { byName } = await underHost(() => ex.execute({ id: "p1", name: "memory_recall", arguments: "{}" }));
  const gen = byName.get("execute_tool memory_recall")!;
  assert.deepEqual(gen.attributes, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "memory_recall", "gen_ai.tool.call.id": "p1", "gen_ai.tool.type": "extension", "gen_ai.tool.description": "Recalls" });
  assertConforms(gen, EXECUTE_TOOL);
});

test("arguments and result are opt-in: absent by default, recorded with captureContent", async () => {
  const off = executor(registry("/ok"), { conventions: ["gen_ai"] });
  const a = await underHost(() => off.execute({ id: "c1", name: "lookup", arguments: '{"id":7}' }));
  assert.deepEqual(a.byName.get("execute_tool lookup")!.attributes, LOOKUP_GEN_AI);
  spans.reset();
  const on = executor(registry("/ok"), { conventions: ["gen_ai"], captureContent: true });
  const b = await underHost(() => on.execute({ id: "c1", name: "lookup", arguments: '{"id":7}' }));
  const gen = b.byName.get("execute_tool lookup")!;
  assert.deepEqual(gen.attributes, { ...LOOKUP_GEN_AI, "gen_ai.tool.call.arguments": '{"id":7}', "gen_ai.tool.call.result": '{"ok":true}' });
  assertConforms(gen, EXECUTE_TOOL);
});

test("captureContent without gen_ai records nothing extra: Omnia's span is unchanged", async () => {
  const ex = executor(registry("/ok"), { captureContent: true });
  const { names, byName } = await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: '{"id":7}' }));
  assert.deepEqual(names, ["omnia.tool.call"]);
  assert.deepEqual(byName.get("omnia.tool.call")!.attributes, { "tool.name": "lookup", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "lookup-h", "tool.handler.type": "http" });
});

test("OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental adds gen_ai beside omnia; the host's conventions win over it", async () => {
  const env = { OTEL_SEMCONV_STABILITY_OPT_IN: "http, gen_ai_latest_experimental" };
  const both = executor(registry("/ok"), { env });
  assert.deepEqual((await underHost(() => both.execute({ id: "c1", name: "lookup", arguments: "{}" }))).names.sort(), ["execute_tool lookup", "omnia.tool.call"]);
  spans.reset();
  const host = executor(registry("/ok"), { env, conventions: ["omnia"] });
  assert.deepEqual((await underHost(() => host.execute({ id: "c1", name: "lookup", arguments: "{}" }))).names, ["omnia.tool.call"]);
  spans.reset();
  const other = executor(registry("/ok"), { env: { OTEL_SEMCONV_STABILITY_OPT_IN: "http" } });
  assert.deepEqual((await underHost(() => other.execute({ id: "c1", name: "lookup", arguments: "{}" }))).names, ["omnia.tool.call"]);
});

test("without env, process.env is read once, when the executor is created", async () => {
  const saved = process.env["OTEL_SEMCONV_STABILITY_OPT_IN"];
  process.env["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental";
  let ex: ToolExecutor;
  try {
    ex = createToolExecutor({ registry: registry("/ok"), clock: createManualClock(START), telemetry: { tracer, propagator } });
    closers.push(() => ex.close());
  } finally {
    if (saved === undefined) delete process.env["OTEL_SEMCONV_STABILITY_OPT_IN"];
    else process.env["OTEL_SEMCONV_STABILITY_OPT_IN"] = saved;
  }
  assert.deepEqual((await underHost(() => ex.execute({ id: "c1", name: "lookup", arguments: "{}" }))).names.sort(), ["execute_tool lookup", "omnia.tool.call"]);
});

test("bad conventions and flags are refused when the telemetry is created", () => {
  const bad: unknown[] = [[], ["otel"], ["gen_ai", "gen_ai"], "gen_ai"];
  for (const conventions of bad) {
    assert.throws(() => createTelemetry({ conventions } as never), (e: unknown) => e instanceof InvalidOptionError && e.message === `createTelemetry: conventions must be a non-empty list of "omnia" and "gen_ai" without repeats; got ${JSON.stringify(conventions)}`);
  }
  assert.throws(() => createTelemetry({ mcpMeta: "yes" } as never), { message: "createTelemetry: mcpMeta must be a boolean; got string" });
  assert.throws(() => createTelemetry({ captureContent: 1 } as never), { message: "createTelemetry: captureContent must be a boolean; got number" });
});

// --- metrics ---------------------------------------------------------------------------------------

async function metricsOf(conventions: readonly string[]): Promise<ResourceMetrics> {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2_147_483_647 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  try {
    const ex = executor(registry("/ok"), { conventions, meter: meterProvider.getMeter("omnia-tools") });
    await ex.execute({ id: "c1", name: "lookup", arguments: "{}" });
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics;
  } finally {
    await meterProvider.shutdown();
  }
}

test("metrics: v1.41.1 defines no tool-execution metric, so gen_ai adds none; Omnia's two stay with omnia and go without it", async () => {
  const defined = metricNames();
  assert.ok(defined.includes("gen_ai.client.operation.duration"), "the model's metrics are loaded");
  assert.ok(!defined.some((n) => n.startsWith("gen_ai.execute_tool")), `v1.41.1 defines ${defined.join(", ")}`);
  const both = (await metricsOf(["omnia", "gen_ai"])).scopeMetrics.flatMap((s) => s.metrics);
  assert.deepEqual(
    both.map((m) => ({ name: m.descriptor.name, unit: m.descriptor.unit })),
    [
      { name: "omnia_tool_calls_total", unit: "" },
      { name: "omnia_tool_call_duration_seconds", unit: "s" },
    ],
  );
  const histogram = both[1]!.dataPoints[0]!.value as { buckets: { boundaries: number[] } };
  assert.deepEqual(histogram.buckets.boundaries, [...TOOL_CALL_DURATION_BUCKETS_S]);
  const genOnly = (await metricsOf(["gen_ai"])).scopeMetrics.flatMap((s) => s.metrics);
  assert.deepEqual(genOnly.map((m) => m.descriptor.name), []);
});

test("gen_ai off (the default): no MCP observer, no round span, nothing GenAI on a call's span object", () => {
  const t = createTelemetry({ tracer, propagator, env: {} });
  assert.equal(t.genAi, false);
  assert.equal(t.captureContent, false);
  assert.equal(t.mcp, undefined);
  assert.equal(t.startRound(2), undefined);
  const call = t.startCall({ toolName: "lookup" });
  assert.equal(call.mcp, undefined);
  call.end({ status: "success", durationMs: 0 });
  assert.deepEqual(spans.getFinishedSpans().map((s) => [s.name, s.attributes]), [["omnia.tool.call", { "tool.name": "lookup" }]]);
  // captureContent alone turns nothing on: it needs gen_ai.
  assert.equal(createTelemetry({ tracer, captureContent: true, env: {} }).captureContent, false);
});
