// A round of createTurn as the parent of its tool spans (issue #37), with the
// real OpenTelemetry JS SDK. The first tests run with no context manager
// registered at all: the round's span reaches its calls explicitly, not through
// the active context. The last ones register one, for a host span.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { context, propagation, trace, SpanKind } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor } from "../../src/executor/index.js";
import { createTurn } from "../../src/turn/index.js";
import { createManualClock, recordCassette, replayCassette } from "../../src/testing/index.js";

const spans = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const tracer = provider.getTracer("omnia-tools", "0.1.0");
const closers: (() => Promise<void>)[] = [];

after(async () => {
  for (const close of closers.reverse()) await close();
  context.disable();
  propagation.disable();
  trace.disable();
  await provider.shutdown();
});

beforeEach(() => spans.reset());

function executor(telemetry: Record<string, unknown>): ToolExecutor {
  const registry = loadToolRegistry(`
handlers:
  - name: geo
    type: client
    tool: { name: get_location, description: "Where the user is", inputSchema: { type: object } }
`);
  const ex = createToolExecutor({
    registry,
    clock: createManualClock(Date.UTC(2026, 11, 4, 14)),
    platformTools: {
      add: { description: "Adds", inputSchema: { type: "object" }, execute: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b },
      echo: { description: "Echoes", inputSchema: { type: "object" }, execute: (args) => args },
    },
    telemetry: { tracer, env: {}, ...telemetry },
  });
  closers.push(() => ex.close());
  return ex;
}

const CALLS = [
  { id: "c1", name: "add", arguments: '{"a":1,"b":2}' },
  { id: "c2", name: "echo", arguments: '{"x":1}' },
];

function byName(list: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = list.filter((s) => s.name === name);
  assert.equal(found.length, 1, `one ${name} among ${list.map((s) => s.name).join(", ")}`);
  return found[0]!;
}

test("gen_ai, no active span (and no context manager): one omnia_tools.turn.round span (INTERNAL, a root) is the parent of the round's execute_tool spans", async () => {
  const turn = createTurn(executor({ conventions: ["gen_ai"] }));
  const round = await turn.run(CALLS);
  assert.deepEqual(round.messages.map((m) => m.content), ["3", '{\n  "x": 1\n}']);
  const finished = spans.getFinishedSpans();
  assert.deepEqual(finished.map((s) => s.name).sort(), ["execute_tool add", "execute_tool echo", "omnia_tools.turn.round"]);
  const parent = byName(finished, "omnia_tools.turn.round");
  assert.equal(parent.kind, SpanKind.INTERNAL);
  assert.equal(parent.parentSpanContext, undefined);
  assert.deepEqual(parent.attributes, { "omnia_tools.turn.tool_calls": 2 });
  for (const name of ["execute_tool add", "execute_tool echo"]) {
    const span = byName(finished, name);
    assert.equal(span.parentSpanContext?.spanId, parent.spanContext().spanId, name);
    assert.equal(span.spanContext().traceId, parent.spanContext().traceId, name);
  }
  // Ended after its calls.
  const ends = finished.map((s) => s.name);
  assert.equal(ends.at(-1), "omnia_tools.turn.round");
});

test("gen_ai, a turn over a recording cassette: the same round span, parent of the same execute_tool spans; both calls on the cassette", async () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-round-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "turn.jsonl");
  const recording = recordCassette(executor({ conventions: ["gen_ai"] }), { path });
  assert.equal(typeof recording.startRound, "function");
  const round = await createTurn(recording).run(CALLS);
  assert.deepEqual(round.messages.map((m) => m.content), ["3", '{\n  "x": 1\n}']);
  const finished = spans.getFinishedSpans();
  assert.deepEqual(finished.map((s) => s.name).sort(), ["execute_tool add", "execute_tool echo", "omnia_tools.turn.round"]);
  const parent = byName(finished, "omnia_tools.turn.round");
  for (const name of ["execute_tool add", "execute_tool echo"]) assert.equal(byName(finished, name).parentSpanContext?.spanId, parent.spanContext().spanId, name);
  const lines = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { kind: string; callId?: string });
  assert.deepEqual(lines.filter((l) => l.kind === "call").map((l) => l.callId).sort(), ["c1", "c2"]);
  await recording.close();
  // A replaying cassette records no spans: it has no round to open.
  assert.equal(replayCassette(path).startRound, undefined);
});

test("each round is its own span; with both conventions Omnia's span is the round's child and execute_tool its", async () => {
  const turn = createTurn(executor({ conventions: ["omnia", "gen_ai"] }));
  await turn.run([CALLS[0]!]);
  await turn.run([CALLS[1]!]);
  const finished = spans.getFinishedSpans();
  const rounds = finished.filter((s) => s.name === "omnia_tools.turn.round");
  assert.equal(rounds.length, 2);
  assert.notEqual(rounds[0]!.spanContext().traceId, rounds[1]!.spanContext().traceId);
  const omnia = finished.filter((s) => s.name === "omnia.tool.call");
  assert.deepEqual(omnia.map((s) => s.parentSpanContext?.spanId), rounds.map((r) => r.spanContext().spanId));
  assert.equal(byName(finished, "execute_tool add").parentSpanContext?.spanId, omnia[0]!.spanContext().spanId);
});

test("a client tool's call (no hooks go with it) is not in the round: the round still has a span for its server calls", async () => {
  const turn = createTurn(executor({ conventions: ["gen_ai"] }));
  const round = await turn.run([CALLS[0]!, { id: "g1", name: "get_location", arguments: "{}" }]);
  assert.equal(round.messages[1]?.content, "Tool rejected: no client available to execute client-side tools");
  const finished = spans.getFinishedSpans();
  const parent = byName(finished, "omnia_tools.turn.round");
  assert.deepEqual(parent.attributes, { "omnia_tools.turn.tool_calls": 2 });
  assert.equal(byName(finished, "execute_tool add").parentSpanContext?.spanId, parent.spanContext().spanId);
  assert.equal(byName(finished, "execute_tool get_location").parentSpanContext, undefined);
});

test("omnia only (the default): no round span, Omnia's spans as before", async () => {
  const turn = createTurn(executor({}));
  await turn.run(CALLS);
  assert.deepEqual(spans.getFinishedSpans().map((s) => s.name), ["omnia.tool.call", "omnia.tool.call"]);
  assert.deepEqual(spans.getFinishedSpans().map((s) => s.parentSpanContext), [undefined, undefined]);
});

test("the host's active span wins: no round span, the tool spans are its children", async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const turn = createTurn(executor({ conventions: ["gen_ai"] }));
  const hostTracer = provider.getTracer("host");
  await hostTracer.startActiveSpan("invoke_agent support", async (span) => {
    try {
      await turn.run(CALLS);
    } finally {
      span.end();
    }
  });
  const finished = spans.getFinishedSpans();
  const hostSpan = byName(finished, "invoke_agent support");
  assert.deepEqual(finished.map((s) => s.name).sort(), ["execute_tool add", "execute_tool echo", "invoke_agent support"]);
  for (const name of ["execute_tool add", "execute_tool echo"]) assert.equal(byName(finished, name).parentSpanContext?.spanId, hostSpan.spanContext().spanId);
});
