// Client tools through createToolExecutor: runtime-tools.md §4.1–4.8 (C1–C5, C9)
// and API.md decision 9. The broker is a real fake on 127.0.0.1, to prove that a
// client tool never reaches it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { NO_CLIENT_REASON, UnknownClientCallError } from "../../src/client-tools/index.js";
import { ClosedError } from "../../src/core/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { startFakeBroker, type FakeBroker } from "../helpers/policy-broker.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

const registry = loadToolRegistry(`
apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: browser-tools, namespace: agents }
spec:
  handlers:
    - name: geolocation
      type: client
      tool:
        name: get_location
        description: The user's location
        inputSchema: { type: object }
      clientConfig:
        consentMessage: "Allow…?"
        categories: [location]
    - name: camera
      type: client
      tool: { name: take_photo, description: A photo, inputSchema: { type: object } }
`);

let broker: FakeBroker | undefined;
async function fakeBroker(): Promise<FakeBroker> {
  if (broker === undefined) {
    const b = await startFakeBroker({ allow: false, deniedBy: "everything", message: "no" });
    closers.push(() => b.close());
    broker = b;
  }
  return broker;
}

async function setup(options: Partial<ToolExecutorOptions> = {}) {
  const b = await fakeBroker();
  const clock = createManualClock(Date.UTC(2026, 10, 29));
  const recorder = new MemoryRecorder();
  const logger = createCaptureLogger();
  const breakers = createCircuitBreakers({ clock });
  const policy = createPolicyBrokerClient({ url: b.url, clock });
  const ex = createToolExecutor({ registry, clock, recorder, logger, breakers, policy, ...options });
  closers.push(async () => {
    await ex.close();
    await policy.close();
  });
  return { ex, clock, recorder, breakers, broker: b, logger };
}

const available = { clientToolsAvailable: true, identity: { sessionId: "sess-1", userId: "u-1" } } as const;

function expectClient(out: ToolOutcome) {
  assert.equal(out.status, "client", JSON.stringify(out));
  if (out.status !== "client") throw new Error("not a client outcome");
  return out;
}

test("C1: a client tool resolves to a request ready to go out as a ToolCall with execution CLIENT; no broker, no breaker, no record yet", async () => {
  const { ex, recorder, breakers, broker: b } = await setup();
  const before = b.decisions.length;
  const out = expectClient(await ex.execute({ id: "c1", name: "get_location", arguments: '{"x":1}' }, available));
  assert.deepEqual(out, {
    status: "client",
    request: { callId: "c1", name: "get_location", argumentsJson: '{"x":1}', consentMessage: "Allow…?", categories: ["location"] },
    toolName: "get_location",
    callId: "c1",
    handlerType: "client",
    durationMs: 0,
  });
  assert.equal(b.decisions.length, before, "no broker call");
  assert.equal(breakers.size, 0, "no breaker");
  assert.equal(recorder.records.length, 0, "recorded when it completes");
});

test("the request's argumentsJson: the model's text verbatim, a parsed value as JSON, `null` when absent; no clientConfig gives no consent fields", async () => {
  const { ex } = await setup();
  const verbatim = expectClient(await ex.execute({ id: "a", name: "get_location", arguments: '{ "x" : 1 }' }, available));
  assert.equal(verbatim.request.argumentsJson, '{ "x" : 1 }');
  const parsed = expectClient(await ex.execute({ id: "b", name: "get_location", arguments: { y: [1, "z"] } }, available));
  assert.equal(parsed.request.argumentsJson, '{"y":[1,"z"]}');
  const absent = expectClient(await ex.execute({ id: "c", name: "take_photo", arguments: "" }, available));
  assert.deepEqual(absent.request, { callId: "c", name: "take_photo", argumentsJson: "null" });
});

test("C2: a JSON result is a success; recorded once, as success, when it completes", async () => {
  const { ex, clock, recorder } = await setup();
  expectClient(await ex.execute({ id: "c1", name: "get_location", arguments: '{"x":1}' }, available));
  clock.advance(1_500);
  const out = ex.completeClientCall({ callId: "c1", resultJson: '{"lat":1}' });
  assert.deepEqual(out, { status: "success", result: { lat: 1 }, resultJson: '{"lat":1}', toolName: "get_location", callId: "c1", handlerType: "client", durationMs: 1_500 });
  assert.deepEqual(recorder.records, [
    {
      callId: "c1",
      sessionId: "sess-1",
      toolName: "get_location",
      handlerName: "geolocation",
      handlerType: "client",
      execution: "client",
      registryName: "browser-tools",
      registryNamespace: "agents",
      status: "success",
      arguments: { x: 1 },
      result: { lat: 1 },
      resultJson: '{"lat":1}',
      startedAt: Date.UTC(2026, 10, 29),
      durationMs: 1_500,
      attempts: 0,
    },
  ]);
});

test("C3: result_json that is not JSON reaches the model as the string itself", async () => {
  const { ex, recorder } = await setup();
  expectClient(await ex.execute({ id: "c3", name: "get_location", arguments: "{}" }, available));
  const out = ex.completeClientCall({ callId: "c3", resultJson: "plain" });
  assert.equal(out.status, "success");
  assert.equal(out.status === "success" && out.result, "plain");
  assert.equal(out.status === "success" && out.resultJson, '"plain"');
  assert.equal(recorder.records[0]?.result, "plain");
});

test("C4: a rejection without isDenied is an error (the client's tool failed): `Tool rejected: camera unavailable`", async () => {
  const { ex, recorder } = await setup();
  expectClient(await ex.execute({ id: "c4", name: "take_photo", arguments: "{}" }, available));
  const out = ex.completeClientCall({ callId: "c4", isRejected: true, rejectionReason: "camera unavailable", isDenied: false });
  assert.equal(out.status, "error", JSON.stringify(out));
  if (out.status !== "error") return;
  assert.equal(out.message, "Tool rejected: camera unavailable");
  assert.equal(out.error.code, "ERR_OMNIA_CLIENT_TOOL");
  assert.equal(out.error.message, "Tool rejected: camera unavailable");
  assert.deepEqual(recorder.records.map((r) => [r.status, r.execution]), [["error", "client"]]);
});

test("C5: a rejection with isDenied is denied (declined): reason `user declined`", async () => {
  const { ex, recorder } = await setup();
  expectClient(await ex.execute({ id: "c5", name: "get_location", arguments: "{}" }, available));
  const out = ex.completeClientCall({ callId: "c5", isRejected: true, rejectionReason: "user declined", isDenied: true });
  assert.deepEqual(out, { status: "denied", message: "Tool rejected: user declined", reason: "user declined", toolName: "get_location", callId: "c5", handlerType: "client", durationMs: 0 });
  assert.deepEqual(recorder.records.map((r) => [r.status, r.callId]), [["denied", "c5"]]);
});

test("isDenied without isRejected is still a result; a rejection without a reason has an empty one", async () => {
  const { ex } = await setup();
  expectClient(await ex.execute({ id: "r", name: "get_location", arguments: "{}" }, available));
  assert.equal(ex.completeClientCall({ callId: "r", resultJson: "1", isDenied: true }).status, "success");
  expectClient(await ex.execute({ id: "e", name: "get_location", arguments: "{}" }, available));
  const out = ex.completeClientCall({ callId: "e", isRejected: true });
  assert.equal(out.status === "error" && out.message, "Tool rejected: ");
});

test("C9: no client can answer (clientToolsAvailable absent or false): denied at once, recorded denied, never pending", async () => {
  const { ex, recorder, broker: b } = await setup();
  const before = b.decisions.length;
  for (const [id, ctx] of [
    ["n1", {}],
    ["n2", { clientToolsAvailable: false }],
    ["n3", undefined],
  ] as const) {
    const out = await ex.execute({ id, name: "get_location", arguments: '{"x":1}' }, ctx);
    assert.deepEqual(out, {
      status: "denied",
      message: "Tool rejected: no client available to execute client-side tools",
      reason: NO_CLIENT_REASON,
      toolName: "get_location",
      callId: id,
      handlerType: "client",
      durationMs: 0,
    });
    assert.throws(() => ex.completeClientCall({ callId: id, resultJson: "{}" }), UnknownClientCallError);
  }
  assert.equal(NO_CLIENT_REASON, "no client available to execute client-side tools");
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.execution, r.attempts]), [
    ["n1", "denied", "client", 0],
    ["n2", "denied", "client", 0],
    ["n3", "denied", "client", 0],
  ]);
  assert.equal(b.decisions.length, before);
});

test("a double completion throws UnknownClientCallError and records nothing more; an unknown call id throws too", async () => {
  const { ex, recorder } = await setup();
  expectClient(await ex.execute({ id: "c1", name: "get_location", arguments: "{}" }, available));
  assert.equal(ex.completeClientCall({ callId: "c1", resultJson: "{}" }).status, "success");
  assert.throws(
    () => ex.completeClientCall({ callId: "c1", resultJson: "{}" }),
    (e: unknown) => {
      assert.ok(e instanceof UnknownClientCallError);
      assert.equal(e.code, "ERR_OMNIA_UNKNOWN_CLIENT_CALL");
      assert.equal(e.callId, "c1");
      assert.equal(e.message, 'completeClientCall: no pending client tool call with id "c1"; it is unknown or already completed');
      return true;
    },
  );
  assert.throws(() => ex.completeClientCall({ callId: "never", isRejected: true }), { message: 'completeClientCall: no pending client tool call with id "never"; it is unknown or already completed' });
  assert.equal(recorder.records.length, 1);
});

test("two client calls of one round complete in any order, each recorded once", async () => {
  const { ex, recorder } = await setup();
  expectClient(await ex.execute({ id: "a", name: "get_location", arguments: "{}" }, available));
  expectClient(await ex.execute({ id: "b", name: "take_photo", arguments: "{}" }, available));
  assert.equal(ex.completeClientCall({ callId: "b", resultJson: '"pic"' }).status, "success");
  assert.equal(ex.completeClientCall({ callId: "a", isRejected: true, rejectionReason: "no", isDenied: true }).status, "denied");
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]), [
    ["b", "success"],
    ["a", "denied"],
  ]);
});

test("the safety timeout (clientCallTimeoutMs) on the clock records the pending call denied; a late completion throws", async () => {
  const { ex, clock, recorder } = await setup({ clientCallTimeoutMs: 60_000 });
  expectClient(await ex.execute({ id: "t1", name: "get_location", arguments: '{"x":1}' }, available));
  expectClient(await ex.execute({ id: "t2", name: "take_photo", arguments: "{}" }, available));
  assert.equal(clock.pendingTimers(), 2);
  assert.equal(ex.completeClientCall({ callId: "t2", resultJson: "{}" }).status, "success");
  assert.equal(clock.pendingTimers(), 1, "completing clears the call's timer");
  clock.advance(59_999);
  assert.equal(recorder.records.length, 1);
  clock.advance(1);
  assert.equal(clock.pendingTimers(), 0);
  const r = recorder.records[1];
  assert.deepEqual(
    { callId: r?.callId, status: r?.status, errorMessage: r?.errorMessage, durationMs: r?.durationMs, execution: r?.execution, arguments: r?.arguments },
    { callId: "t1", status: "denied", errorMessage: "client tool timeout (1m0s)", durationMs: 60_000, execution: "client", arguments: { x: 1 } },
  );
  assert.throws(() => ex.completeClientCall({ callId: "t1", resultJson: "{}" }), UnknownClientCallError);
  assert.equal(recorder.records.length, 2, "exactly one record per call");
});

test("the caller's signal ending before the client answers records the call denied at once (`the client never answered`); a late completion throws", async () => {
  const { ex, clock, recorder } = await setup({ clientCallTimeoutMs: 60_000 });
  const stream = new AbortController();
  expectClient(await ex.execute({ id: "s1", name: "get_location", arguments: "{}" }, { ...available, signal: stream.signal }));
  expectClient(await ex.execute({ id: "s2", name: "take_photo", arguments: "{}" }, { ...available, signal: stream.signal }));
  assert.equal(ex.completeClientCall({ callId: "s2", resultJson: '"ok"' }).status, "success");
  clock.advance(1_500);
  stream.abort(new Error("the stream ended"));
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status, r.errorMessage, r.durationMs]),
    [
      ["s2", "success", undefined, 0],
      ["s1", "denied", "the client never answered", 1_500],
    ],
  );
  assert.equal(clock.pendingTimers(), 0, "the safety timer went with the call");
  assert.throws(() => ex.completeClientCall({ callId: "s1", resultJson: "{}" }), UnknownClientCallError);
  const aborted = new AbortController();
  aborted.abort();
  const late = await ex.execute({ id: "s3", name: "get_location", arguments: "{}" }, { ...available, signal: aborted.signal });
  await Promise.resolve();
  // Handed off (its pending row first), then denied once the caller has the outcome.
  assert.equal(expectClient(late).callId, "s3");
  assert.deepEqual(recorder.records.slice(2).map((r) => [r.callId, r.status, r.errorMessage]), [["s3", "denied", "the client never answered"]]);
});

test("client calls on one stream's signal, ten one after another and twelve at once: no listener warning, each call recorded once", async () => {
  const { ex, recorder } = await setup();
  const stream = new AbortController();
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on("warning", onWarning);
  try {
    for (let i = 0; i < 10; i++) {
      expectClient(await ex.execute({ id: `seq-${i}`, name: "get_location", arguments: "{}" }, { ...available, signal: stream.signal }));
      assert.equal(ex.completeClientCall({ callId: `seq-${i}`, resultJson: "1" }).status, "success");
    }
    for (let i = 0; i < 12; i++) expectClient(await ex.execute({ id: `par-${i}`, name: "get_location", arguments: "{}" }, { ...available, signal: stream.signal }));
    stream.abort();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", onWarning);
  }
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    recorder.records.map((r) => r.status),
    [...Array.from({ length: 10 }, () => "success"), ...Array.from({ length: 12 }, () => "denied")],
  );
});

test("no safety timeout by default: a pending call arms no timer", async () => {
  const { ex, clock, recorder } = await setup();
  expectClient(await ex.execute({ id: "p", name: "get_location", arguments: "{}" }, available));
  assert.equal(clock.pendingTimers(), 0);
  clock.advance(24 * 3600_000);
  assert.equal(recorder.records.length, 0);
  assert.equal(ex.completeClientCall({ callId: "p", resultJson: "{}" }).status, "success");
});

test("close() drops pending client calls: completing one afterwards throws, and execute throws ClosedError", async () => {
  const { ex, clock } = await setup({ clientCallTimeoutMs: 1_000 });
  expectClient(await ex.execute({ id: "p", name: "get_location", arguments: "{}" }, available));
  await ex.close();
  assert.equal(clock.pendingTimers(), 0, "the safety timer is cleared");
  assert.throws(() => ex.completeClientCall({ callId: "p", resultJson: "{}" }), UnknownClientCallError);
  await assert.rejects(ex.execute({ id: "q", name: "get_location", arguments: "{}" }, available), ClosedError);
});

// §4.5 / §5.3 T5: the record's errorMessage for a client rejection is the
// rejection reason. The executor records the model-visible `Tool rejected: <reason>`
// instead (see the report).
test("T4/T5: a client rejection's record carries the rejection reason as errorMessage", async () => {
  const { ex, recorder } = await setup();
  expectClient(await ex.execute({ id: "f", name: "take_photo", arguments: "{}" }, available));
  ex.completeClientCall({ callId: "f", isRejected: true, rejectionReason: "camera unavailable" });
  expectClient(await ex.execute({ id: "d", name: "take_photo", arguments: "{}" }, available));
  ex.completeClientCall({ callId: "d", isRejected: true, rejectionReason: "user declined", isDenied: true });
  assert.deepEqual(recorder.records.map((r) => [r.status, r.errorMessage]), [
    ["error", "camera unavailable"],
    ["denied", "user declined"],
  ]);
});
