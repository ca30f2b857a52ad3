// examples/echo-runtime: the example registry and pack behind serveRuntime, with
// tools executed through createToolExecutor. The weather handler's endpoint is
// pointed at a loopback HTTP server (nothing leaves 127.0.0.1); the client tool
// makes the full round trip through a connect client acting as the facade.
// test/start-runtime.test.ts runs examples/echo-runtime/main.ts as a process.
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runConformance } from "../src/conformance/index.js";
import { MemoryRecorder } from "../src/testing/index.js";
import { createEchoRuntime, type EchoRuntime } from "../examples/echo-runtime/echo-runtime.js";
import { startHttpServer, type TestServer } from "./helpers/http-server.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { converse, createRuntimeClient, frameJson, openConverse, startRuntime, type StartedRuntime } from "./helpers/runtime-client.js";

const REGISTRY = readFileSync("examples/registry.yaml", "utf8");
const PACK = readFileSync("examples/pack.json", "utf8");
const CLIENT = { "x-omnia-client-tools": "true" };

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

interface Setup {
  readonly runtime: EchoRuntime;
  readonly started: StartedRuntime;
  readonly weather: TestServer;
  readonly recorder: MemoryRecorder;
}

async function setup(): Promise<Setup> {
  const weather = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"temp":18,"sky":"clear","apiKeyEcho":"k-123"}');
  });
  cleanups.push(() => weather.close());
  const recorder = new MemoryRecorder();
  const runtime = createEchoRuntime({
    registry: REGISTRY.replace("https://weather.example.com", weather.url),
    pack: PACK,
    executor: { recorder, secrets: (ref) => (ref.name === "weather-api-token" ? "weather-secret" : "unused") },
    logger: createCaptureLogger(),
  });
  cleanups.push(() => runtime.close());
  const started = await startRuntime(runtime.handler);
  cleanups.push(() => started.close());
  return { runtime, started, weather, recorder };
}

async function reply(s: Setup, text: string, headers: Record<string, string> = {}): Promise<unknown[]> {
  const r = await converse(s.started.client, [{ sessionId: "s1", content: text }], { headers });
  assert.equal(r.error, undefined);
  return r.frames.slice(1).map(frameJson);
}

describe("echo-runtime", () => {
  test("reconciles the example registry against the pack: three tools offered", async () => {
    const { runtime } = await setup();
    assert.deepEqual(runtime.reconciliation.offered, ["get_location", "get_weather", "lookup_order"]);
    assert.deepEqual(runtime.reconciliation.servedNotDeclared, ["convert_currency"]);
  });

  test("a plain turn is echoed", async () => {
    const s = await setup();
    assert.deepEqual(await reply(s, "hello there"), [{ chunk: { content: "hello there" } }, { done: { finalContent: "hello there", finishReason: "stop" } }]);
  });

  test("call get_location {}: a CLIENT tool_call with the registry's consent fields, finished with the client's answer and recorded", async () => {
    const s = await setup();
    const stream = openConverse(s.started.client, { headers: CLIENT });
    stream.send({ sessionId: "s1", content: "call get_location {}" });
    const { frame } = await stream.until("toolCall");
    assert.deepEqual(frameJson(frame), {
      toolCall: {
        id: "echo-1",
        name: "get_location",
        argumentsJson: "{}",
        execution: "TOOL_EXECUTION_CLIENT",
        consentMessage: "Share your location so the assistant can find nearby stores?",
        categories: ["location"],
      },
    });
    stream.send({ clientToolResult: { callId: "echo-1", resultJson: '{"lat":51.45,"lon":-2.58}' } });
    stream.end();
    assert.deepEqual(frameJson((await stream.next())!), { chunk: { content: '{"lat":51.45,"lon":-2.58}' } });
    assert.deepEqual(frameJson((await stream.next())!), { done: { finalContent: '{"lat":51.45,"lon":-2.58}', finishReason: "stop", recordSequenceHighWater: "1" } });
    assert.equal(await stream.next(), undefined);
    assert.deepEqual(
      s.recorder.records.map((r) => [r.callId, r.toolName, r.execution, r.status]),
      [["echo-1", "get_location", "client", "success"]],
    );
  });

  test("a client that declines: denied, 'Tool rejected: <reason>'", async () => {
    const s = await setup();
    const stream = openConverse(s.started.client, { headers: CLIENT });
    stream.send({ sessionId: "s1", content: "call get_location" });
    await stream.until("toolCall");
    stream.send({ clientToolResult: { callId: "echo-1", isRejected: true, isDenied: true, rejectionReason: "user declined" } });
    stream.end();
    assert.deepEqual(frameJson((await stream.until("done")).frame), { done: { finalContent: "Tool rejected: user declined", finishReason: "stop", recordSequenceHighWater: "1" } });
    assert.equal(s.recorder.records[0]?.status, "denied");
  });

  test("no client on this surface (A2A): the client tool is denied at once, nothing is sent", async () => {
    const s = await setup();
    assert.deepEqual(await reply(s, "call get_location {}"), [
      { chunk: { content: "Tool rejected: no client available to execute client-side tools" } },
      { done: { finalContent: "Tool rejected: no client available to execute client-side tools", finishReason: "stop", recordSequenceHighWater: "1" } },
    ]);
  });

  test("a served but undeclared tool is not offered, and never executed", async () => {
    const s = await setup();
    const text = 'tool "convert_currency" is not offered to the model; offered: get_location, get_weather, lookup_order';
    assert.deepEqual(await reply(s, 'call convert_currency {"from":"EUR","to":"GBP","amount":1}'), [
      { chunk: { content: text } },
      { done: { finalContent: text, finishReason: "stop" } },
    ]);
    assert.equal(s.recorder.records.length, 0);
  });

  test("call get_weather: identity from facade metadata reaches the tool; the caller's Authorization does not", async () => {
    const s = await setup();
    const frames = await reply(s, 'call get_weather {"city":"Paris"}', {
      authorization: "Bearer user-token",
      "x-omnia-user-id": "u-1",
      "x-omnia-session-id": "s1",
      "x-omnia-claim-tier": "gold",
      ...CLIENT,
    });
    // redact: apiKeyEcho masked, keys re-marshalled in Go order (http.md).
    assert.deepEqual(frames, [{ chunk: { content: '{"apiKeyEcho":"[REDACTED]","sky":"clear","temp":18}' } }, { done: { finalContent: '{"apiKeyEcho":"[REDACTED]","sky":"clear","temp":18}', finishReason: "stop", recordSequenceHighWater: "1" } }]);
    const req = s.weather.requests[0];
    assert.ok(req !== undefined);
    assert.equal(req.method, "GET");
    assert.equal(req.headers["authorization"], "Bearer weather-secret", "the handler's own credential, never the caller's token");
    assert.equal(req.headers["x-omnia-user-id"], "u-1");
    assert.equal(req.headers["x-omnia-claim-tier"], "gold");
    assert.equal(req.headers["x-omnia-tool-name"], "get_weather");
    assert.ok(!JSON.stringify(req.rawHeaders).includes("user-token"));
    assert.ok(!req.rawHeaders.some(([k]) => /client-tools|session-open|declare/i.test(k)));
    assert.deepEqual(s.recorder.records.map((r) => [r.toolName, r.status, r.sessionId]), [["get_weather", "success", "s1"]]);
    // A WebSocket conversation (x-omnia-client-tools: true): no x-omnia-session-id reaches the tool, the record keeps it.
    assert.equal(req.headers["x-omnia-session-id"], undefined);
    await reply(s, 'call get_weather {"city":"Rome"}', { "x-omnia-user-id": "u-1", "x-omnia-session-id": "s2" });
    // A2A (no client tools): the tool gets it.
    assert.equal(s.weather.requests[1]?.headers["x-omnia-session-id"], "s2");
    assert.deepEqual(s.recorder.records.map((r) => r.sessionId), ["s1", "s2"]);
  });

  test("Invoke runs a server tool and WatchInvocation streams its events, then OK", async () => {
    const s = await setup();
    const client = s.started.client.runtime;
    const it = client.watchInvocation({ invocationId: "inv-1" })[Symbol.asyncIterator]();
    assert.equal((await it.next()).value?.progress.case, "ready");
    const res = await client.invoke({ invocationId: "inv-1", inputJson: '{"tool":"get_weather","arguments":{"city":"Oslo"}}' });
    assert.deepEqual(JSON.parse(res.outputJson), { status: "success", result: '{"apiKeyEcho":"[REDACTED]","sky":"clear","temp":18}' });
    const events: unknown[] = [];
    for (let r = await it.next(); r.done !== true; r = await it.next()) {
      const p = r.value.progress;
      events.push(p.case === "toolCall" ? ["tool_call", p.value.callId, p.value.name] : p.case === "toolResult" ? ["tool_result", p.value.callId, p.value.name, p.value.ok] : p.case);
    }
    assert.deepEqual(events, [
      ["tool_call", "echo-1", "get_weather"],
      ["tool_result", "echo-1", "get_weather", true],
    ]);
    const echoed = await client.invoke({ invocationId: "inv-2", inputJson: '{"q":1}' });
    assert.equal(echoed.outputJson, '{"q":1}');
  });

  test("records are numbered from record_sequence_base, and Done reports the last position used (#34 item 5)", async () => {
    const s = await setup();
    const stream = openConverse(s.started.client, { headers: CLIENT });
    stream.send({ sessionId: "s1", content: 'call get_weather {"city":"Oslo"}', recordSequenceBase: 41n });
    assert.deepEqual(frameJson((await stream.until("done")).frame), {
      done: { finalContent: '{"apiKeyEcho":"[REDACTED]","sky":"clear","temp":18}', finishReason: "stop", recordSequenceHighWater: "42" },
    });
    // A client call: its pending and terminal rows share the next position.
    stream.send({ sessionId: "s1", content: "call get_location {}", recordSequenceBase: 42n });
    await stream.until("toolCall");
    stream.send({ clientToolResult: { callId: "echo-2", resultJson: '{"city":"Bristol"}' } });
    assert.deepEqual(frameJson((await stream.until("done")).frame), { done: { finalContent: '{"city":"Bristol"}', finishReason: "stop", recordSequenceHighWater: "43" } });
    // A turn that records nothing reports the base.
    stream.send({ sessionId: "s1", content: "just text", recordSequenceBase: 43n });
    assert.deepEqual(frameJson((await stream.until("done")).frame), { done: { finalContent: "just text", finishReason: "stop", recordSequenceHighWater: "43" } });
    stream.end();
    assert.deepEqual(s.recorder.records.map((r) => [r.callId, r.sequenceNum]), [["echo-1", 42], ["echo-2", 43]]);
    const invoked = await s.started.client.runtime.invoke({ invocationId: "inv-9", inputJson: '{"tool":"get_weather","arguments":{"city":"Rome"}}', recordSequenceBase: 100n });
    assert.equal(invoked.recordSequenceHighWater, 101n);
    assert.deepEqual(s.recorder.records.map((r) => r.sequenceNum), [42, 43, 101]);
    // A base at the end of int64: the call is recorded without a position, and the stream carries on.
    const top = await converse(s.started.client, [{ sessionId: "s1", content: 'call get_weather {"city":"Nice"}', recordSequenceBase: 0x7fffffffffffffffn }]);
    assert.equal(top.error, undefined);
    assert.equal((frameJson(top.frames.at(-1)!) as { done: { recordSequenceHighWater: string } }).done.recordSequenceHighWater, "9223372036854775807");
    assert.equal(s.recorder.records.at(-1)?.sequenceNum, undefined);
    assert.equal(s.recorder.records.length, 4);
  });

  test("a client call the client never answered is recorded denied when its stream ends (#34 item 6)", async () => {
    const s = await setup();
    const stream = openConverse(s.started.client, { headers: CLIENT });
    stream.send({ sessionId: "s1", content: "call get_location {}" });
    await stream.until("toolCall");
    assert.equal(s.recorder.records.length, 0);
    stream.cancel();
    for (let i = 0; i < 1000 && s.recorder.records.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      s.recorder.records.map((r) => [r.callId, r.toolName, r.status, r.errorMessage]),
      [["echo-1", "get_location", "denied", "the client never answered"]],
    );
  });

  test("each Converse stream has its own conversation scope (sandbox breakers), dropped when that stream ends", async () => {
    const s = await setup();
    assert.equal(s.runtime.liveScopes(), 0);
    const first = openConverse(s.started.client);
    first.send({ sessionId: "s1", content: 'call get_weather {"city":"Oslo"}' });
    await first.until("done");
    first.send({ sessionId: "s1", content: 'call get_weather {"city":"Rome"}' });
    await first.until("done");
    assert.equal(s.runtime.liveScopes(), 1, "two turns of one stream share its scope");
    const second = openConverse(s.started.client);
    second.send({ sessionId: "s1", content: 'call get_weather {"city":"Paris"}' });
    await second.until("done");
    assert.equal(s.runtime.liveScopes(), 2, "the next message's stream gets a new one");
    first.end();
    assert.equal(await first.next(), undefined);
    for (let i = 0; i < 1000 && s.runtime.liveScopes() !== 1; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(s.runtime.liveScopes(), 1);
    second.end();
    assert.equal(await second.next(), undefined);
    for (let i = 0; i < 1000 && s.runtime.liveScopes() !== 0; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(s.runtime.liveScopes(), 0);
  });

  test("EndConversation is served, and the runtime passes the conformance suite", async () => {
    const s = await setup();
    await reply(s, "call get_location {}"); // opens the session's scope
    await s.started.client.runtime.endConversation({ sessionId: "s1" });
    const result = await runConformance({ addr: `127.0.0.1:${s.started.server.port}`, timeoutMs: 30_000 });
    assert.equal(result.passed, true, JSON.stringify(result.checks));
  });
});
