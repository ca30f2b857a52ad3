// Trace context into an HTTP backend: a real node:http server counts the traceparent
// headers it receives, with and without @opentelemetry/instrumentation-undici active.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { channel } from "node:diagnostics_channel";
import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { request } from "undici";
import { createTelemetry, type CallSpan, type TelemetryOptions } from "../../src/telemetry/index.js";
import { startHttpServer, type TestServer } from "../helpers/http-server.js";

const contextManager = new AsyncLocalStorageContextManager();
const spans = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const host: Tracer = provider.getTracer("host");
// Constructed enabled (with `enabled: false` in its config it would ignore every request
// even after enable()), then switched off until a test turns it on.
const undiciInstrumentation = new UndiciInstrumentation();
undiciInstrumentation.setTracerProvider(provider);
undiciInstrumentation.disable();
let server: TestServer;

before(async () => {
  context.setGlobalContextManager(contextManager.enable());
  server = await startHttpServer((_req, res) => void res.end("{}"));
});

after(async () => {
  undiciInstrumentation.disable();
  context.disable();
  propagation.disable();
  await server.close();
  await provider.shutdown();
});

beforeEach(() => {
  spans.reset();
  server.requests.length = 0;
});

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

function options(extra: Partial<TelemetryOptions> = {}): TelemetryOptions {
  return { tracer: provider.getTracer("omnia-tools"), propagator: new W3CTraceContextPropagator(), ...extra };
}

/** One backend attempt, as the executor makes it: headers complete, trace context injected last, sent inside the tool span. */
async function callBackend(call: CallSpan, headers: Record<string, string>): Promise<void> {
  call.inject(headers);
  await call.run(async () => {
    const res = await request(`${server.url}/tool`, { method: "POST", headers, body: "{}" });
    await res.body.dump();
  });
}

function traceparents(index = 0): string[] {
  const req = server.requests[index];
  assert.ok(req !== undefined, "the backend got no request");
  return req.rawHeaders.filter(([name]) => name.toLowerCase() === "traceparent").map(([, value]) => value);
}

async function underHost(opts: TelemetryOptions, headers: Record<string, string> = { "content-type": "application/json" }) {
  const t = createTelemetry(opts);
  let toolSpanId = "";
  let traceId = "";
  await host.startActiveSpan("genai.chat", async (parent) => {
    traceId = parent.spanContext().traceId;
    const call = t.startCall({ toolName: "lookup" });
    await callBackend(call, headers);
    await callBackend(call, { ...headers }); // a second attempt of the same call
    call.end({ status: "success", durationMs: 1 });
    parent.end();
  });
  const tool = spans.getFinishedSpans().find((s) => s.name === "omnia.tool.call");
  assert.ok(tool !== undefined);
  toolSpanId = tool.spanContext().spanId;
  return { traceId, toolSpanId };
}

test("without undici instrumentation: exactly one traceparent per attempt, its parent-id the tool span's id", async () => {
  assert.equal(channel("undici:request:create").hasSubscribers, false);
  const { traceId, toolSpanId } = await underHost(options());
  assert.equal(server.requests.length, 2);
  for (const index of [0, 1]) {
    const values = traceparents(index);
    assert.equal(values.length, 1, `attempt ${index + 1}: ${values.join(" | ")}`);
    assert.deepEqual(TRACEPARENT.exec(values[0] ?? "")?.slice(1), [traceId, toolSpanId]);
  }
});

test("injection comes last: a configured traceparent header is overwritten", async () => {
  const { traceId, toolSpanId } = await underHost(options(), { traceparent: "00-0123456789abcdef0123456789abcdef-0123456789abcdef-00" });
  assert.deepEqual(traceparents().map((v) => TRACEPARENT.exec(v)?.slice(1)), [[traceId, toolSpanId]]);
});

test("propagation: never sends no traceparent", async () => {
  await underHost(options({ propagation: "never" }));
  assert.deepEqual(traceparents(), []);
});

test("with undici instrumentation active: auto skips our injection, so exactly one traceparent, the instrumentation's, under the tool span", async () => {
  // The host's setup for the instrumentation: it injects through the global propagator.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  undiciInstrumentation.enable();
  try {
    assert.equal(channel("undici:request:create").hasSubscribers, true);
    const { traceId, toolSpanId } = await underHost(options());
    const clientSpans = spans.getFinishedSpans().filter((s) => s.name === "POST");
    assert.equal(clientSpans.length, 2);
    for (const index of [0, 1]) {
      const values = traceparents(index);
      assert.equal(values.length, 1, `attempt ${index + 1}: ${values.join(" | ")}`);
      const [gotTrace, gotParent] = TRACEPARENT.exec(values[0] ?? "")?.slice(1) ?? [];
      assert.equal(gotTrace, traceId);
      const client = clientSpans.find((s) => s.spanContext().spanId === gotParent);
      assert.ok(client !== undefined, `traceparent ${values[0]} names no undici client span`);
      assert.equal(client.parentSpanContext?.spanId, toolSpanId);
    }
  } finally {
    undiciInstrumentation.disable();
    propagation.disable();
  }
  assert.equal(channel("undici:request:create").hasSubscribers, false);
});

test("with undici instrumentation active, always injects anyway: the double-traceparent pitfall", async () => {
  // The host's setup for the instrumentation: it injects through the global propagator.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  undiciInstrumentation.enable();
  try {
    const { toolSpanId } = await underHost(options({ propagation: "always" }));
    const parents = traceparents().map((v) => TRACEPARENT.exec(v)?.[2]);
    assert.equal(parents.length, 2);
    assert.ok(parents.includes(toolSpanId));
  } finally {
    undiciInstrumentation.disable();
    propagation.disable();
  }
});

test("the default propagator is the host's global one; with none registered nothing is injected", async () => {
  const { propagator: _p, ...noPropagator } = options();
  await underHost(noPropagator);
  assert.deepEqual(traceparents(), []);
  assert.equal(propagation.setGlobalPropagator(new W3CTraceContextPropagator()), true);
  try {
    server.requests.length = 0;
    spans.reset();
    const { toolSpanId } = await underHost(noPropagator);
    assert.deepEqual(traceparents().map((v) => TRACEPARENT.exec(v)?.[2]), [toolSpanId]);
  } finally {
    propagation.disable();
  }
});

test("a call with no valid span (no SDK tracer) injects nothing", async () => {
  const t = createTelemetry({ tracer: trace.getTracer("nothing-registered"), propagator: new W3CTraceContextPropagator() });
  const call = t.startCall({ toolName: "lookup" });
  const headers: Record<string, string> = {};
  call.inject(headers);
  call.end({ status: "success", durationMs: 0 });
  assert.deepEqual(headers, {});
});
