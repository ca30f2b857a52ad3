// The README's Observability snippet, verbatim (the test checks it against README.md),
// run with a host's SDK registered globally: the real OpenTelemetry JS SDK's tracer and
// meter providers, context manager and propagator, and a loopback backend.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { context, propagation, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { loadToolRegistry } from "../../src/index.js";
import { startHttpServer } from "../helpers/http-server.js";

// The host: its SDK, registered globally (the library never does this), and a backend.
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const prometheus = new PrometheusExporter({ preventServerStart: true });
const meterProvider = new MeterProvider({ readers: [prometheus] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);
const backend = await startHttpServer((_req, res) => void res.end('{"ok":true}'));
const registry = loadToolRegistry({
  apiVersion: "omnia.altairalabs.ai/v1alpha1",
  kind: "ToolRegistry",
  metadata: { name: "orders", namespace: "agents" },
  spec: { handlers: [{ name: "lookup-h", type: "http", tool: { name: "lookup", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${backend.url}/lookup` } }] },
});

// README snippet begin
import { metrics, trace } from "@opentelemetry/api";
import { createSessionApiRecorder, createToolExecutor } from "../../src/index.js";

// Your host registers its SDK (NodeSDK, or providers and a context manager) as usual.
const executor = createToolExecutor({
  registry,
  agent: { name: "support", namespace: "agents" }, // also the metrics' agent and namespace
  telemetry: {
    tracer: trace.getTracer("omnia-tools"), // optional: the global provider's is the default
    meter: metrics.getMeter("omnia-tools"), // optional, likewise
    attributes: { promptpackName: "support-pack" },
  },
  recorder: createSessionApiRecorder({ url: "http://omnia-session-api.omnia-system.svc.cluster.local:8081" }),
});
// README snippet end

after(async () => {
  await executor.close();
  await backend.close();
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
});

test("the README Observability snippet is this file's code, word for word (with the package name for the import path)", () => {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Observability\n"));
  const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(snippet !== undefined, "README's Observability section has a ts block");
  const own = readFileSync("test/readme/observability.test.ts", "utf8");
  const region = /\/\/ README snippet begin\n([\s\S]*?)\/\/ README snippet end\n/.exec(own)?.[1];
  assert.equal(region?.replace('from "../../src/index.js"', 'from "omnia-tools"'), snippet);
});

test("the snippet's executor traces under the host's span, sends its traceparent and exports Omnia's metrics with the snippet's labels", async () => {
  const host = trace.getTracer("host");
  await host.startActiveSpan("genai.chat", async (span) => {
    // No session id: the session-api recorder writes nothing.
    const out = await executor.execute({ id: "c1", name: "lookup", arguments: "{}" });
    assert.equal(out.status, "success");
    span.end();
  });
  const [tool, parent] = spans.getFinishedSpans();
  assert.deepEqual([tool?.name, tool?.kind, tool?.status, parent?.name], ["omnia.tool.call", SpanKind.CLIENT, { code: SpanStatusCode.OK }, "genai.chat"]);
  assert.equal(tool?.parentSpanContext?.spanId, parent?.spanContext().spanId);
  assert.deepEqual(tool?.attributes, { "tool.name": "lookup", "tool.registry.name": "orders", "tool.registry.namespace": "agents", "tool.handler.name": "lookup-h", "tool.handler.type": "http" });
  assert.equal(backend.requests[0]?.headers.traceparent, `00-${parent?.spanContext().traceId}-${tool?.spanContext().spanId}-01`);
  const { resourceMetrics } = await prometheus.collect();
  const calls = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === "omnia_tool_calls_total");
  assert.deepEqual(calls?.dataPoints.map((p) => [p.attributes, p.value]), [[{ agent: "support", namespace: "agents", promptpack_name: "support-pack", tool: "lookup", status: "success" }, 1]]);
});
