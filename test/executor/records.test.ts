// Tool-call records through createToolExecutor: runtime-tools.md §5.3 (T1–T5, T7,
// T9) as API.md decision 10 shapes them (one terminal record per call, no
// pending row), against real loopback backends and a real fake broker.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions } from "../../src/executor/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { AbortedError } from "../../src/core/index.js";
import type { Recorder, ToolCallRecord } from "../../src/records/index.js";
import { createManualClock, MemoryRecorder, type ManualClock } from "../../src/testing/index.js";
import { startHttpServer, withoutUnhandledRejections, type TestServer } from "../helpers/http-server.js";
import { startFakeBroker, closedPortUrl, until, type FakeBroker } from "../helpers/policy-broker.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { settle } from "../helpers/settle.js";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

const START = Date.UTC(2026, 10, 29);

async function backend(handler: Parameters<typeof startHttpServer>[0]): Promise<TestServer> {
  const s = await startHttpServer(handler);
  closers.push(() => s.close());
  return s;
}
async function broker(answer: object): Promise<FakeBroker> {
  const b = await startFakeBroker(answer);
  closers.push(() => b.close());
  return b;
}

/** T1's registry: ToolRegistry `orders` in `agents`, http handler `lookup-h` serving `lookup`; plus a client tool. */
function ordersRegistry(endpoint: string, httpExtra: Record<string, unknown> = {}, handlerExtra: Record<string, unknown> = {}): ToolRegistry {
  return loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "orders", namespace: "agents" },
    spec: {
      handlers: [
        { name: "lookup-h", type: "http", tool: { name: "lookup", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint, ...httpExtra }, ...handlerExtra },
        { name: "camera", type: "client", tool: { name: "take_photo", description: "d", inputSchema: { type: "object" } } },
      ],
    },
  });
}

function setup(registry: ToolRegistry, options: Partial<ToolExecutorOptions> = {}, clock: ManualClock = createManualClock(START)) {
  const recorder = new MemoryRecorder();
  const logger = createCaptureLogger();
  const ex = createToolExecutor({ registry, clock, recorder, logger, random: () => 0.5, ...options });
  closers.push(() => ex.close());
  return { ex, clock, recorder, logger };
}

const identity = { sessionId: "sess-1", userId: "u-1", agentName: "agent-1" };

test("T1: an HTTP call that succeeds: one success record with arguments, result, duration and attempts", async () => {
  const clock = createManualClock(START);
  const server = await backend((_req, res) => {
    clock.advance(25); // the backend takes 25 ms on the executor's clock
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const { ex, recorder } = setup(ordersRegistry(`${server.url}/lookup`), {}, clock);
  const out = await ex.execute({ id: "call-1", name: "lookup", arguments: '{"id":1}' }, { identity });
  assert.equal(out.status, "success");
  assert.deepEqual(recorder.records, [
    {
      callId: "call-1",
      sessionId: "sess-1",
      toolName: "lookup",
      handlerName: "lookup-h",
      handlerType: "http",
      execution: "server",
      registryName: "orders",
      registryNamespace: "agents",
      status: "success",
      arguments: { id: 1 },
      result: { ok: true },
      resultJson: '{"ok":true}',
      startedAt: START,
      durationMs: 25,
      attempts: 1,
    },
  ]);
  assert.equal(out.durationMs, 25);
});

test("T2: backend 503 `down`: one error record, errorMessage `HTTP 503: down`", async () => {
  const server = await backend((_req, res) => {
    res.statusCode = 503;
    res.end("down");
  });
  const { ex, recorder } = setup(ordersRegistry(`${server.url}/lookup`));
  const out = await ex.execute({ id: "call-2", name: "lookup", arguments: '{"id":2}' }, { identity });
  assert.equal(out.status === "error" && out.message, "HTTP 503: down");
  assert.deepEqual(
    recorder.records.map((r) => ({ callId: r.callId, status: r.status, errorMessage: r.errorMessage, result: r.result, attempts: r.attempts, arguments: r.arguments })),
    [{ callId: "call-2", status: "error", errorMessage: "HTTP 503: down", result: undefined, attempts: 1, arguments: { id: 2 } }],
  );
});

test("T3: the broker denies (rule1/nope): one denied record (decision 8), errorMessage the denial text; the backend is never called", async () => {
  const server = await backend((_req, res) => void res.end("{}"));
  const b = await broker({ allow: false, deniedBy: "rule1", message: "nope" });
  const policy = createPolicyBrokerClient({ url: b.url });
  closers.push(() => policy.close());
  const { ex, recorder } = setup(ordersRegistry(`${server.url}/lookup`), { policy });
  await ex.execute({ id: "call-3", name: "lookup", arguments: '{"id":3}' }, { identity });
  assert.deepEqual(recorder.records, [
    {
      callId: "call-3",
      sessionId: "sess-1",
      toolName: "lookup",
      handlerName: "lookup-h",
      handlerType: "http",
      execution: "server",
      registryName: "orders",
      registryNamespace: "agents",
      status: "denied",
      arguments: { id: 3 },
      errorMessage: 'tool call denied by policy: nope (rule "rule1")',
      startedAt: START,
      durationMs: 0,
      attempts: 0,
    },
  ]);
  assert.equal(server.requests.length, 0);
});

test("T4/T5: a client tool declined is recorded denied; a client tool that failed is recorded error", async () => {
  const { ex, recorder } = setup(ordersRegistry("http://127.0.0.1:1/unused"));
  await ex.execute({ id: "declined", name: "take_photo", arguments: "{}" }, { identity, clientToolsAvailable: true });
  await ex.execute({ id: "failed", name: "take_photo", arguments: "{}" }, { identity, clientToolsAvailable: true });
  ex.completeClientCall({ callId: "declined", isRejected: true, rejectionReason: "user declined", isDenied: true });
  ex.completeClientCall({ callId: "failed", isRejected: true, rejectionReason: "camera unavailable" });
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status, r.execution, r.handlerName, r.sessionId]),
    [
      ["declined", "denied", "client", "camera", "sess-1"],
      ["failed", "error", "client", "camera", "sess-1"],
    ],
  );
  assert.ok(recorder.records.every((r) => r.errorMessage?.endsWith(r.callId === "declined" ? "user declined" : "camera unavailable")));
});

test("T7: a recorder that throws is logged (`failed to record tool call`) and the call's outcome is unchanged", async () => {
  const server = await backend((_req, res) => void res.end('{"ok":true}'));
  const throwing: Recorder = {
    record() {
      throw new Error("session-api down");
    },
  };
  const { ex, logger } = setup(ordersRegistry(`${server.url}/lookup`), { recorder: throwing });
  const out = await ex.execute({ id: "call-7", name: "lookup", arguments: "{}" }, { identity });
  assert.equal(out.status, "success");
  assert.deepEqual(logger.lines.filter((l) => l.level === "error"), [
    { level: "error", message: "failed to record tool call", fields: { toolName: "lookup", callId: "call-7", error: "session-api down" } },
  ]);
});

test("T7: a recorder that rejects (every POST answered 500) is logged, never an unhandled rejection, for every kind of outcome", async () => {
  await withoutUnhandledRejections(async () => {
    const server = await backend((req, res) => {
      if (req.url === "/fail") res.statusCode = 500;
      res.end('{"ok":true}');
    });
    const b = await broker({ allow: false, deniedBy: "r", message: "m" });
    const rejecting: Recorder = { record: async () => Promise.reject(new Error("HTTP 500 from session-api")) };
    const policy = createPolicyBrokerClient({ url: b.url });
    closers.push(() => policy.close());
    const allow = setup(ordersRegistry(`${server.url}/ok`), { recorder: rejecting });
    const fail = setup(ordersRegistry(`${server.url}/fail`), { recorder: rejecting });
    const deny = setup(ordersRegistry(`${server.url}/ok`), { recorder: rejecting, policy });
    assert.equal((await allow.ex.execute({ id: "s", name: "lookup", arguments: "{}" })).status, "success");
    assert.equal((await fail.ex.execute({ id: "e", name: "lookup", arguments: "{}" })).status, "error");
    assert.equal((await deny.ex.execute({ id: "d", name: "lookup", arguments: "{}" })).status, "denied");
    const client = await allow.ex.execute({ id: "c", name: "take_photo", arguments: "{}" }, { clientToolsAvailable: true });
    assert.equal(client.status, "client");
    assert.equal(allow.ex.completeClientCall({ callId: "c", resultJson: "1" }).status, "success");
    await new Promise((resolve) => setImmediate(resolve));
    const logged = [allow, fail, deny].flatMap((s) => s.logger.lines.filter((l) => l.message === "failed to record tool call").map((l) => [l.fields?.["callId"], l.fields?.["error"]]));
    assert.deepEqual(logged, [
      ["s", "HTTP 500 from session-api"],
      ["c", "HTTP 500 from session-api"],
      ["e", "HTTP 500 from session-api"],
      ["d", "HTTP 500 from session-api"],
    ]);
  });
});

test("T9: breaker open: an error record `circuit breaker [lookup]: circuit breaker is open`", async () => {
  const server = await backend((_req, res) => {
    res.statusCode = 500;
    res.end("boom");
  });
  const { ex, recorder } = setup(ordersRegistry(`${server.url}/lookup`));
  for (let i = 0; i < 10; i++) await ex.execute({ id: `f${i}`, name: "lookup", arguments: "{}" });
  await ex.execute({ id: "open", name: "lookup", arguments: '{"id":9}' }, { identity });
  assert.equal(server.requests.length, 10);
  const r = recorder.records.at(-1);
  assert.deepEqual(
    { callId: r?.callId, status: r?.status, errorMessage: r?.errorMessage, arguments: r?.arguments },
    { callId: "open", status: "error", errorMessage: "circuit breaker [lookup]: circuit breaker is open", arguments: { id: 9 } },
  );
  assert.ok(r?.errorMessage?.includes("circuit breaker is open"));
  assert.equal(recorder.records.length, 11, "one record per call");
});

test("one record for every path, with its exact status and message", async () => {
  const server = await backend((req, res) => {
    if (req.url === "/retry") {
      res.statusCode = 502;
      res.end("bad gateway");
    } else res.end('{"ok":true}');
  });
  const b = await broker({ allow: true });
  const policy = createPolicyBrokerClient({ url: b.url });
  const downUrl = await closedPortUrl();
  const down = createPolicyBrokerClient({ url: downUrl });
  closers.push(() => policy.close(), () => down.close());
  const clock = createManualClock(START);
  const retrying = setup(ordersRegistry(`${server.url}/retry`, { retryPolicy: { maxAttempts: 3, retryOn: [502], initialBackoff: "1ms" } }), { policy }, clock);
  const noSecret = setup(ordersRegistry(`${server.url}/ok`, {}, { auth: { type: "bearer", secretRef: { name: "s", key: "k" } } }), { secrets: () => "" });
  const unreachable = setup(ordersRegistry(`${server.url}/ok`), { policy: down });
  const timing = setup(ordersRegistry(`${server.url}/ok`), { clientCallTimeoutMs: 5_000 });

  await settle(retrying.ex.execute({ id: "exhausted", name: "lookup", arguments: "{}" }), clock);
  await retrying.ex.execute({ id: "unknown", name: "nope", arguments: "{}" });
  await retrying.ex.execute({ id: "bad-args", name: "lookup", arguments: "{oops" });
  await noSecret.ex.execute({ id: "no-secret", name: "lookup", arguments: "{}" });
  await unreachable.ex.execute({ id: "broker-down", name: "lookup", arguments: "{}" });
  await timing.ex.execute({ id: "no-client", name: "take_photo", arguments: "{}" });
  await timing.ex.execute({ id: "timeout", name: "take_photo", arguments: "{}" }, { clientToolsAvailable: true });
  timing.clock.advance(5_000);

  const rows = [retrying, noSecret, unreachable, timing].flatMap((s) => s.recorder.records).map((r) => [r.callId, r.status, r.errorMessage, r.attempts]);
  assert.equal(rows.length, 7);
  assert.deepEqual(rows[0], ["exhausted", "error", "3 attempts exhausted: HTTP 502: bad gateway", 3]);
  assert.deepEqual(rows[1], ["unknown", "error", 'tool "nope" not found', 0]);
  assert.equal(rows[2]?.[1], "error");
  assert.match(String(rows[2]?.[2]), /^invalid arguments for tool "lookup": /);
  assert.deepEqual(rows.slice(3), [
    ["no-secret", "error", 'handler "lookup-h" auth: bearer auth requires a token', 0],
    ["broker-down", "denied", 'tool call denied by policy: policy broker unreachable; failing closed (rule "policy-broker-unreachable")', 0],
    ["no-client", "denied", "no client available to execute client-side tools", 0],
    ["timeout", "denied", "client tool timeout (5s)", 0],
  ]);
  assert.equal(b.decisions.length, 1, "one decision: the retried call; unknown tool and bad arguments never reach the broker");
});

test("an abandoned call (the caller's signal aborts) rejects with AbortedError and is still recorded once", async () => {
  await withoutUnhandledRejections(async () => {
    const server = await backend(() => {
      /* never answers */
    });
    const { ex, recorder } = setup(ordersRegistry(`${server.url}/hang`));
    const controller = new AbortController();
    const pending = ex.execute({ id: "gone", name: "lookup", arguments: "{}" }, { signal: controller.signal });
    await until(() => server.requests.length === 1, "the backend request");
    controller.abort(new AbortedError("conversation ended"));
    await assert.rejects(pending, AbortedError);
    assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]), [["gone", "error"]]);
  });
});

test("a secret is never in a record: handler auth, a broker-injected credential, the caller's Authorization", async () => {
  const server = await backend((_req, res) => void res.end('{"echo":"ok"}'));
  const b = await broker({ allow: true, injectedHeaders: { "X-Api-Key": "broker-secret-key" } });
  const policy = createPolicyBrokerClient({ url: b.url });
  closers.push(() => policy.close());
  const { ex, recorder } = setup(ordersRegistry(`${server.url}/lookup`, { headers: { "X-Static": "static-value" } }, { auth: { type: "bearer", secretRef: { name: "s", key: "k" } } }), {
    policy,
    secrets: () => "handler-secret-token",
  });
  const callerIdentity = { ...identity, authorization: "Bearer caller-secret" } as never;
  const out = await ex.execute({ id: "sec", name: "lookup", arguments: '{"q":"x"}' }, { identity: callerIdentity });
  assert.equal(out.status, "success");
  assert.equal(server.requests[0]?.headers["authorization"], "Bearer handler-secret-token", "the backend got the credential");
  assert.equal(server.requests[0]?.headers["x-api-key"], "broker-secret-key");
  const text = JSON.stringify(recorder.records);
  for (const secret of ["handler-secret-token", "broker-secret-key", "caller-secret", "static-value"]) assert.equal(text.includes(secret), false, secret);
  const keys = Object.keys(recorder.records[0] as ToolCallRecord).sort();
  assert.deepEqual(keys, ["arguments", "attempts", "callId", "durationMs", "execution", "handlerName", "handlerType", "registryName", "registryNamespace", "result", "resultJson", "sessionId", "startedAt", "status", "toolName"]);
});

test("MemoryRecorder: records in order, forCall() and clear()", () => {
  const recorder = new MemoryRecorder();
  const base = { sessionId: "s", toolName: "t", handlerName: "h", handlerType: "http", execution: "server", arguments: null, startedAt: 0, durationMs: 0, attempts: 1 } as const;
  recorder.record({ ...base, callId: "a", status: "success", result: 1 });
  recorder.record({ ...base, callId: "b", status: "error", errorMessage: "x" });
  recorder.record({ ...base, callId: "a", status: "denied", errorMessage: "y" });
  assert.deepEqual(recorder.forCall("a").map((r) => r.status), ["success", "denied"]);
  assert.equal(recorder.records.length, 3);
  recorder.clear();
  assert.equal(recorder.records.length, 0);
});
