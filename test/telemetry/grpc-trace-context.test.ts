// W3C trace context in a gRPC tool call's metadata, opted in with
// telemetry.grpcMetadata (issue #37): the metadata a real gRPC backend
// receives, with the real OpenTelemetry JS SDK.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { createManualClock, startGrpcToolBackend } from "../../src/testing/index.js";
import { useOtelSdk } from "../helpers/otel-sdk.js";

const sdk = useOtelSdk();
const { tracer, closers } = sdk;
const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });
let grpc: Awaited<ReturnType<typeof startGrpcToolBackend>>;

before(async () => {
  grpc = await startGrpcToolBackend({ lookup_order: { description: "d", inputSchema: { type: "object" }, execute: () => ({ status: "shipped" }) } });
});

after(() => grpc.close());

let seen = 0;
beforeEach(() => {
  seen = grpc.calls.length;
});

function registry(extra: Record<string, unknown> = {}): ToolRegistry {
  return loadToolRegistry({
    handlers: [{ name: "orders-grpc", type: "grpc", tool: { name: "lookup_order", description: "d", inputSchema: { type: "object" } }, grpcConfig: { endpoint: `127.0.0.1:${grpc.port}` }, ...extra }],
  });
}

function executor(telemetry: Record<string, unknown>, reg: ToolRegistry = registry()): ToolExecutor {
  const ex = createToolExecutor({ registry: reg, clock: createManualClock(Date.UTC(2026, 11, 4, 14)), telemetry: { tracer, propagator, env: {}, ...telemetry } });
  closers.push(() => ex.close());
  return ex;
}

async function underHost(fn: () => Promise<ToolOutcome>): Promise<{ out: ToolOutcome; finished: ReadableSpan[] }> {
  const { out, others } = await sdk.underHost(fn, { tenant: "acme" });
  return { out, finished: others };
}

function traceHeaders(): Record<string, unknown> {
  assert.equal(grpc.calls.length, seen + 1);
  const headers = grpc.calls[seen]?.headers ?? {};
  return Object.fromEntries(Object.entries(headers).filter(([k]) => ["traceparent", "tracestate", "baggage"].includes(k)));
}

function traceparent(span: ReadableSpan): string {
  return `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
}

test("grpcMetadata: the metadata carries traceparent (Omnia's span) and baggage, even with propagation never", async () => {
  const ex = executor({ grpcMetadata: true, propagation: "never" });
  const { out, finished } = await underHost(() => ex.execute({ id: "g1", name: "lookup_order", arguments: "{}" }));
  assert.equal(out.status, "success");
  const omnia = finished.find((s) => s.name === "omnia.tool.call")!;
  assert.deepEqual(traceHeaders(), { traceparent: traceparent(omnia), baggage: "tenant=acme" });
});

test("grpcMetadata with gen_ai: the traceparent is the innermost span, execute_tool", async () => {
  const ex = executor({ grpcMetadata: true, conventions: ["omnia", "gen_ai"] });
  const { finished } = await underHost(() => ex.execute({ id: "g1", name: "lookup_order", arguments: "{}" }));
  const gen = finished.find((s) => s.name === "execute_tool lookup_order")!;
  assert.deepEqual(traceHeaders(), { traceparent: traceparent(gen), baggage: "tenant=acme" });
});

test("without grpcMetadata (the default): no trace context in the metadata, as Omnia", async () => {
  const ex = executor({ conventions: ["omnia", "gen_ai"], mcpMeta: true });
  await underHost(() => ex.execute({ id: "g1", name: "lookup_order", arguments: "{}" }));
  assert.deepEqual(traceHeaders(), {});
});
