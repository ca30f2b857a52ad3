// Issue #35 item 1: the turn's approval gate and a resumed snapshot are host
// channels. The gate is the host's function (it may throw, answer late or
// answer nonsense); a snapshot comes back from the host's store (it may be
// tampered with or huge); a person's edits are arguments like the model's.
// None of them may move a request, carry a secret, stall the turn or lose or
// double a record.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createTurn, TurnError, type TurnSnapshot } from "../../src/turn/index.js";
import { AbortedError, InvalidOptionError } from "../../src/core/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createManualClock, MemoryRecorder, startHttpToolBackend } from "../../src/testing/index.js";
import { until } from "../turn/fixture.js";
import { startHttpServer } from "../helpers/http-server.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";

async function rig(httpConfig = "", secrets: Record<string, string> = {}) {
  const server = await startHttpServer();
  after(() => server.close());
  const registry = loadToolRegistry(`handlers:
  - name: h
    type: http
    tool: { name: refund, description: refunds, inputSchema: { type: object, properties: { amount: { type: integer } } } }
    httpConfig:
      endpoint: ${server.url}/refund?tenant=acme
${httpConfig}`);
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry, recorder, clock: createManualClock(0), secrets: (ref) => secrets[ref.key] ?? "" });
  after(() => executor.close());
  return { server, recorder, executor };
}

test("a gate that throws, answers a promise or answers a wrong shape holds the call (fail closed): nothing reaches the backend, one warning each, no record", async () => {
  const { server, recorder, executor } = await rig();
  const logger = createCaptureLogger();
  const answers: (() => unknown)[] = [
    () => {
      throw new Error("boom");
    },
    () => {
      throw null;
    },
    () => new Promise(() => undefined),
    () => null,
    () => 1,
    () => "yes",
    () => ({ reason: 1 }),
    () => new Proxy({}, { get: () => { throw new Error("trap"); } }),
  ];
  let i = 0;
  const turn = createTurn(executor, { logger, approval: () => answers[i++]!() as never });
  const round = await turn.run(answers.map((_, n) => ({ id: `c${n}`, name: "refund", arguments: `{"amount":${n}}` })));
  assert.deepEqual(round.messages, []);
  assert.equal(round.approvals?.length, answers.length);
  assert.equal(logger.lines.filter((l) => l.level === "warn" && l.message.startsWith("approval: ")).length, answers.length);
  assert.equal(server.requests.length, 0);
  assert.equal(recorder.records.length, 0);
});

test("a person's edits are arguments like the model's: they cannot replace the endpoint's fixed query or staticQuery, nor the origin", async () => {
  const { server, recorder, executor } = await rig("      method: GET\n      staticQuery: { api_key: K-FIXED }\n");
  const turn = createTurn(executor, { approval: ["refund"] });
  await turn.run([{ id: "x", name: "refund", arguments: '{"amount":1}' }]);
  const message = await turn.approve("x", { arguments: { tenant: "evil", api_key: "stolen", amount: 2, "__proto__": { polluted: true } } as never });
  assert.equal(message.isError, false);
  assert.deepEqual(server.requests.map((r) => r.url), ["/refund?amount=2&api_key=K-FIXED&tenant=acme"]);
  assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  assert.deepEqual(recorder.records.map((r) => r.approval), ["edited"]);
});

test("a snapshot holds the model's arguments only: no credential, secret header or static value of the handler", async () => {
  const { server, executor } = await rig("      headersFromSecret: { X-Api-Key: { name: s, key: api } }\n      staticQuery: { api_key: K-FIXED }\n", { api: "S3CRET-VALUE" });
  const turn = createTurn(executor, { approval: ["refund"], ctx: { identity: { userId: "u-1", sessionId: "s-1" } } });
  await turn.run([{ id: "x", name: "refund", arguments: '{"amount":1}' }]);
  const text = JSON.stringify(turn.snapshot());
  for (const secret of ["S3CRET-VALUE", "K-FIXED", "u-1", "s-1", "acme"]) assert.equal(text.includes(secret), false, secret);
  await turn.approve("x");
  assert.equal(server.requests[0]?.headers["x-api-key"], "S3CRET-VALUE");
});

test("a tampered snapshot is refused field by field before anything runs; a snapshot of 100,000 held calls resumes in one pass", async () => {
  const { server, executor } = await rig();
  const base: TurnSnapshot = { format: "omnia-tools.turn", version: 1, promptkit: "1.5.5", toolCalls: 0, approvals: [] };
  const hostile: unknown[] = [
    { ...base, toolCalls: 1e400 },
    { ...base, toolCalls: "0" },
    { ...base, approvals: [{ callId: "a", name: "refund", argumentsJson: "{}", reason: "r", message: "m", arguments: {} }] },
    { ...base, approvals: [{ callId: "a", name: "refund", argumentsJson: "{}", reason: "r", message: "m", arguments: "{}" }, { callId: "a", name: "refund", argumentsJson: "{}", reason: "r", message: "m", arguments: "{}" }] },
    new Proxy(base, { get: () => { throw new Error("trap"); } }),
  ];
  for (const resume of hostile) {
    assert.throws(() => createTurn(executor, { resume: resume as TurnSnapshot }), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith("createTurn: resume must be a snapshot from turn.snapshot(); "));
  }
  const many = { ...base, approvals: Array.from({ length: 100_000 }, (_, n) => ({ callId: `c${n}`, name: "refund", argumentsJson: "{}", reason: "r", message: "m", arguments: "{}" })) };
  const turn = createTurn(executor, { resume: many });
  assert.equal(turn.approvals.length, 100_000);
  assert.equal(server.requests.length, 0);
});

test("approve and deny of one call, raced many times: exactly one record per call, never two", async () => {
  const { server, recorder, executor } = await rig();
  const turn = createTurn(executor, { approval: ["refund"] });
  const ids = Array.from({ length: 50 }, (_, n) => `c${n}`);
  await turn.run(ids.map((id, n) => ({ id, name: "refund", arguments: `{"amount":${n}}` })));
  const settled = await Promise.allSettled(ids.flatMap((id, n) => (n % 2 === 0 ? [turn.approve(id), turn.deny(id, "no"), turn.approve(id)] : [turn.deny(id, "no"), turn.approve(id), turn.deny(id, "no")])));
  assert.equal(settled.filter((s) => s.status === "fulfilled").length, 50);
  assert.ok(settled.every((s) => s.status === "fulfilled" || (s.reason instanceof TurnError && s.reason.reason === "approval-unknown")));
  assert.deepEqual(recorder.records.map((r) => r.callId).sort(), [...ids].sort());
  assert.equal(server.requests.length, 25);
});

async function hangingRig() {
  const backend = await startHttpToolBackend({ routes: { "POST /refund": { refunded: true }, "POST /lookup": { ok: true } }, faults: { "POST /refund": { kind: "hang", calls: [1] } } });
  after(() => backend.close());
  const registry = loadToolRegistry(`handlers:
  - name: refund
    type: http
    tool: { name: refund, description: refunds, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/refund", method: POST }
  - name: lookup
    type: http
    tool: { name: lookup, description: looks up, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/lookup", method: POST }
`);
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry, recorder, clock: createManualClock(0) });
  after(() => executor.close());
  return { backend, recorder, executor };
}

test("a model reusing a held call's id while its approve() is in flight gets an error message; the approval that then fails holds its own call again, and nothing is lost", async () => {
  const { backend, executor } = await hangingRig();
  const controller = new AbortController();
  const turn = createTurn(executor, { approval: ["refund"], ctx: { signal: controller.signal } });
  await turn.run([{ id: "x", name: "refund", arguments: '{"v":1}' }]);
  const approving = turn.approve("x");
  await until(() => backend.requests.length === 1, "the approved call to reach the backend");
  assert.throws(() => turn.snapshot(), (e: unknown) => e instanceof TurnError && e.reason === "round-in-progress" && e.message === "turn.snapshot: an approve() or deny() is in flight; take the snapshot once it has settled");
  const round = await turn.run([{ id: "x", name: "refund", arguments: '{"v":2}' }]);
  assert.deepEqual(round.messages, [{ callId: "x", name: "refund", content: 'Tool execution failed: tool call id "x" is already awaiting approval', isError: true }]);
  assert.deepEqual(round.approvals, []);
  controller.abort();
  await assert.rejects(approving, (e: unknown) => e instanceof AbortedError);
  assert.deepEqual(turn.approvals.map((a) => a.argumentsJson), ['{"v":1}']);
});

test("maxToolCalls is a hard limit for approvals too: a held call is not run once the budget is spent, nor on a failed turn", async () => {
  const { backend, executor } = await hangingRig();
  const turn = createTurn(executor, { approval: ["refund"], promptkit: "1.5.11", maxToolCalls: 1 });
  await turn.run([
    { id: "l", name: "lookup", arguments: "{}" },
    { id: "r", name: "refund", arguments: "{}" },
  ]);
  await assert.rejects(turn.approve("r"), (e: unknown) => e instanceof TurnError && e.reason === "max-tool-calls" && e.message === "workflow budget exhausted: max_tool_calls 1 reached limit 1");
  await assert.rejects(turn.approve("r"), (e: unknown) => e instanceof TurnError && e.reason === "max-tool-calls");
  assert.deepEqual(backend.requests.map((r) => r.path), ["/lookup"]);
  // It can still be denied, and is recorded so.
  assert.equal((await turn.deny("r", "over budget")).content, "Tool call rejected: over budget");
});

test("a call the gate holds in a round the identical-call guard interrupted stays held (never silently dropped)", async () => {
  const { backend, executor } = await hangingRig();
  const turn = createTurn(executor, { approval: ["refund"] });
  const round = await turn.run([
    { id: "l1", name: "lookup", arguments: "{}" },
    { id: "l2", name: "lookup", arguments: "{}" },
    { id: "l3", name: "lookup", arguments: "{}" },
    { id: "r", name: "refund", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages.map((m) => m.callId), ["l3", "l1", "l2"]);
  assert.deepEqual(round.approvals?.map((a) => a.callId), ["r"]);
  assert.deepEqual(turn.approvals.map((a) => a.callId), ["r"]);
  assert.equal(backend.requests.some((r) => r.path === "/refund"), false);
});

test("a resumed snapshot whose shown arguments (argumentsJson) differ from the ones that would run is refused", async () => {
  const { executor } = await rig();
  const tampered: TurnSnapshot = {
    format: "omnia-tools.turn",
    version: 1,
    promptkit: "1.5.5",
    toolCalls: 0,
    approvals: [{ callId: "x", name: "refund", argumentsJson: '{"amount":1}', reason: "requires_approval", message: "Tool refund is awaiting approval", arguments: '{"amount":1000000}' }],
  };
  assert.throws(() => createTurn(executor, { resume: tampered }), (e: unknown) => e instanceof InvalidOptionError && e.message === "createTurn: resume must be a snapshot from turn.snapshot(); approvals[0].argumentsJson does not match approvals[0].arguments");
});

test("approvals made at once cannot pass maxToolCalls together; what runs is the canonical arguments the person was shown; unreadable edits are a typed error", async () => {
  const { backend, executor } = await hangingRig();
  backend.clearFaults();
  const turn = createTurn(executor, { approval: ["refund"], promptkit: "1.5.11", maxToolCalls: 2 });
  await turn.run([
    { id: "l", name: "lookup", arguments: "{}" },
    { id: "r1", name: "refund", arguments: '{"amount":1000000,"amount":1}' },
    { id: "r2", name: "refund", arguments: "{}" },
  ]);
  assert.deepEqual(turn.approvals.map((a) => a.argumentsJson), ['{"amount":1}', "{}"]);
  const trap = new Proxy({}, { ownKeys: () => { throw new Error("trap"); } });
  await assert.rejects(turn.approve("r1", { arguments: trap as never }), (e: unknown) => e instanceof InvalidOptionError && e.message === "turn.approve: arguments could not be read: trap");
  const [first, second] = await Promise.allSettled([turn.approve("r1"), turn.approve("r2")]);
  assert.equal(first.status, "fulfilled");
  assert.equal(second.status === "rejected" && second.reason instanceof TurnError && second.reason.message, "workflow budget exhausted: max_tool_calls 2 reached limit 2 (counting the approvals in flight)");
  assert.deepEqual(backend.requests.map((r) => [r.path, r.body]), [["/lookup", ""], ["/refund", '{"amount":1}']]);
});
