// createTurn's approval gate (PromptKit 1.5.6): held server calls, approve,
// approve-with-edits, deny, single-winner resolution, records, and a snapshot
// resumed on a new executor after the first one closed. Real HTTP and MCP
// backends on 127.0.0.1.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createTurn, TurnError, type TurnApprovalCall, type TurnSnapshot } from "../../src/turn/index.js";
import { ClosedError, InvalidOptionError } from "../../src/core/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { backend, clientHandler, executorFor, httpHandler, registry } from "./fixture.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

const REFUND_SCHEMA = "{ type: object, properties: { amount: { type: integer }, note: { type: string } }, required: [amount] }";

async function setup() {
  const b = await backend({ routes: { "/refund": { refunded: true }, "/lookup": { order: 7 } } });
  const reg = registry(httpHandler(b.url, "refund", { inputSchema: REFUND_SCHEMA }) + httpHandler(b.url, "lookup") + clientHandler("confirm"));
  return { b, reg, ...executorFor(reg) };
}

test("a round holds the gated server calls: no backend call, no record, no message; the others run", async () => {
  const { b, executor, recorder } = await setup();
  const turn = createTurn(executor, { approval: ["refund", "confirm", "nope"], ctx: { clientToolsAvailable: true } });
  const round = await turn.run([
    { id: "r1", name: "refund", arguments: '{"note":"<dup>","amount":5}' },
    { id: "l1", name: "lookup", arguments: "{}" },
    { id: "c1", name: "confirm", arguments: "{}" },
    { id: "n1", name: "nope", arguments: "{}" },
    { id: "r2", name: "refund", arguments: "" },
  ]);
  assert.deepEqual(round, {
    messages: [
      { callId: "l1", name: "lookup", content: '{\n  "order": 7\n}', isError: false },
      { callId: "n1", name: "nope", content: "Error: tool not found: nope", isError: true },
    ],
    // Client tools are never held: the client decides.
    pending: [{ callId: "c1", name: "confirm", argumentsJson: "{}", consentMessage: 'Client tool "confirm" awaiting caller fulfillment' }],
    approvals: [
      { callId: "r1", name: "refund", argumentsJson: '{"amount":5,"note":"\\u003cdup\\u003e"}', reason: "requires_approval", message: "Tool refund is awaiting approval" },
      { callId: "r2", name: "refund", argumentsJson: "", reason: "requires_approval", message: "Tool refund is awaiting approval" },
    ],
  });
  assert.deepEqual(b.requests.map((r) => r.path), ["/lookup"]);
  // The turn answers an unknown name itself: only lookup reached the executor.
  assert.deepEqual(recorder.records.map((r) => r.toolName), ["lookup"]);
  assert.deepEqual(turn.approvals.map((a) => a.callId), ["r1", "r2"]);
  // Without the option a round has no `approvals` key, as before.
  assert.deepEqual(Object.keys(await createTurn(executor).run([{ id: "x", name: "lookup", arguments: "{}" }])), ["messages", "pending"]);
});

test("approve runs the call as the model sent it; approve-with-edits merges, validates and records `edited`; deny never runs it and is recorded `denied`", async () => {
  const { b, executor, recorder } = await setup();
  const turn = createTurn(executor, { approval: ["refund"] });
  const round = await turn.run([
    { id: "a", name: "refund", arguments: '{"amount":5,"note":"as is"}' },
    { id: "e", name: "refund", arguments: '{"amount":5000,"note":"big"}' },
    { id: "d", name: "refund", arguments: '{"amount":1}' },
    { id: "u", name: "refund", arguments: '{"amount":2}' },
    { id: "v", name: "refund", arguments: '{"amount":3}' },
  ]);
  assert.equal(round.approvals?.length, 5);

  assert.deepEqual(await turn.approve("a"), { callId: "a", name: "refund", content: '{\n  "refunded": true\n}', isError: false });
  assert.deepEqual(await turn.approve("e", { arguments: { amount: "50", reason: "capped" } }), { callId: "e", name: "refund", content: '{\n  "refunded": true\n}', isError: false });
  assert.deepEqual(await turn.deny("d", "not authorised for refunds"), { callId: "d", name: "refund", content: "Tool call rejected: not authorised for refunds", isError: true });
  // Edits are validated again: a wrong type never reaches the backend.
  const invalid = await turn.approve("v", { arguments: { amount: "lots" } });
  assert.equal(invalid.isError, true);
  assert.match(invalid.content, /^Error: tool refund validation error \(args_invalid\): argument validation failed: \[amount: Invalid type\. Expected: integer, given: string\]$/);

  // The backend saw the approved bodies only: as proposed, then merged and coerced ("50" → 50).
  assert.deepEqual(b.requests.map((r) => r.body), ['{"amount":5,"note":"as is"}', '{"amount":50,"note":"big","reason":"capped"}']);
  const rows = recorder.records.map((r) => ({ callId: r.callId, status: r.status, approval: r.approval, arguments: r.arguments, attempts: r.attempts, errorMessage: r.errorMessage }));
  assert.deepEqual(rows, [
    { callId: "a", status: "success", approval: "approved", arguments: { amount: 5, note: "as is" }, attempts: 1, errorMessage: undefined },
    { callId: "e", status: "success", approval: "edited", arguments: { amount: 50, note: "big", reason: "capped" }, attempts: 1, errorMessage: undefined },
    { callId: "d", status: "denied", approval: "denied", arguments: { amount: 1 }, attempts: 0, errorMessage: "not authorised for refunds" },
  ]);
  // The unanswered call is still held; every resolved one is gone.
  assert.deepEqual(turn.approvals.map((a) => a.callId), ["u"]);
  for (const [method, id] of [["approve", "a"], ["deny", "d"], ["deny", "e"], ["approve", "zz"]] as const) {
    await assert.rejects(method === "approve" ? turn.approve(id) : turn.deny(id, "again"), (e: unknown) => e instanceof TurnError && e.reason === "approval-unknown" && e.message === `turn.${method}: no call ${JSON.stringify(id)} is awaiting approval (never held, or already approved or denied)`);
  }
  assert.equal(b.requests.length, 2);
});

test("single winner: an approve and a deny of the same call at once, one runs and the other is refused", async () => {
  const { b, executor, recorder } = await setup();
  const turn = createTurn(executor, { approval: ["refund"] });
  await turn.run([{ id: "x", name: "refund", arguments: '{"amount":1}' }]);
  const [approved, denied] = await Promise.allSettled([turn.approve("x"), turn.deny("x", "no")]);
  assert.equal(approved.status, "fulfilled");
  assert.equal(denied.status === "rejected" && denied.reason instanceof TurnError && denied.reason.reason, "approval-unknown");
  assert.equal(b.requests.length, 1);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.approval]), [["x", "success", "approved"]]);
});

test("bad edits leave the call held", async () => {
  const { executor } = await setup();
  const turn = createTurn(executor, { approval: ["refund"] });
  await turn.run([{ id: "x", name: "refund", arguments: '{"amount":1}' }]);
  await assert.rejects(turn.approve("x", { arguments: [1] as never }), (e: unknown) => e instanceof InvalidOptionError && e.message === "turn.approve: arguments must be an object of the keys to change; got an array");
  await assert.rejects(turn.approve("x", { arguments: { amount: Number.NaN } }), (e: unknown) => e instanceof InvalidOptionError && /only JSON values/.test(e.message));
  await assert.rejects(turn.deny("x", 5 as never), (e: unknown) => e instanceof InvalidOptionError && e.message === "turn.deny: reason must be a string; got number");
  assert.deepEqual(turn.approvals.map((a) => a.callId), ["x"]);
  // An empty edit approves the call as proposed (PromptKit).
  const { content } = await turn.approve("x", { arguments: {} });
  assert.equal(content, '{\n  "refunded": true\n}');
});

test("a gate function: its hold's reason and message; a throw, a promise or a wrong shape holds the call and is logged; false, undefined and an empty hold run it", async () => {
  const { b, executor } = await setup();
  const logger = createCaptureLogger();
  const seen: TurnApprovalCall[] = [];
  const turn = createTurn(executor, {
    logger,
    approval: (call) => {
      seen.push(call);
      const amount = (JSON.parse(call.arguments || "{}") as { amount?: number }).amount ?? 0;
      if (amount === 1) return { reason: "high_value", message: "Refund of $1 needs a manager" };
      if (amount === 2) throw new Error("policy store down");
      if (amount === 3) return Promise.resolve(false) as never;
      if (amount === 4) return { reason: 7 } as never;
      if (amount === 5) return {};
      if (amount === 6) return true;
      return amount === 7 ? undefined : false;
    },
  });
  const round = await turn.run([1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ id: `c${n}`, name: "refund", arguments: `{"amount":${n}}` })));
  assert.deepEqual(round.approvals?.map((a) => [a.callId, a.reason, a.message]), [
    ["c1", "high_value", "Refund of $1 needs a manager"],
    ["c2", "requires_approval", "Tool refund is awaiting approval"],
    ["c3", "requires_approval", "Tool refund is awaiting approval"],
    ["c4", "requires_approval", "Tool refund is awaiting approval"],
    ["c6", "requires_approval", "Tool refund is awaiting approval"],
  ]);
  assert.deepEqual(round.messages.map((m) => m.callId), ["c5", "c7", "c8"]);
  assert.deepEqual(seen[0], { id: "c1", name: "refund", arguments: '{"amount":1}' });
  assert.deepEqual(logger.lines.map((l) => [l.message, l.fields?.["callId"], l.fields?.["error"] ?? l.fields?.["answer"]]), [
    ["approval: the gate threw; the call is held", "c2", "policy store down"],
    ["approval: the gate answered neither a boolean nor { reason?, message? }; the call is held", "c3", "a promise (the gate must answer at once)"],
    ["approval: the gate answered neither a boolean nor { reason?, message? }; the call is held", "c4", "object"],
  ]);
  assert.equal(b.requests.length, 3);
});

test("the gate is asked before validation (PromptKit order); held and denied calls do not count toward maxToolCalls, an approved one does", async () => {
  const { executor } = await setup();
  const turn = createTurn(executor, { approval: ["refund"], promptkit: "1.5.11", maxToolCalls: 2 });
  // Invalid arguments are held too; validation runs when the call is approved.
  const round = await turn.run([
    { id: "x", name: "refund", arguments: '{"amount":"many"}' },
    { id: "y", name: "refund", arguments: '{"amount":1}' },
    { id: "l", name: "lookup", arguments: "{}" },
  ]);
  assert.deepEqual(round.approvals?.map((a) => a.callId), ["x", "y"]);
  await turn.deny("y", "no");
  const x = await turn.approve("x");
  assert.equal(x.content.startsWith("Error: tool refund validation error (args_invalid)"), true);
  // lookup and the approved call ran: the next run() finds the budget spent.
  await assert.rejects(turn.run([{ id: "m", name: "lookup", arguments: "{}" }]), (e: unknown) => e instanceof TurnError && e.message === "workflow budget exhausted: max_tool_calls 2 reached limit 2");
});

test("a snapshot survives the process: taken, the executor closed, a new executor and turn resume it; approve and deny reach the new executor's backend and recorder", async () => {
  const { b, reg, executor } = await setup();
  const turn = createTurn(executor, { approval: ["refund"] });
  await turn.run([
    { id: "keep", name: "refund", arguments: '{"amount":9}' },
    { id: "drop", name: "refund", arguments: '{"amount":8}' },
  ]);
  const snapshot = JSON.parse(JSON.stringify(turn.snapshot())) as TurnSnapshot;
  assert.deepEqual(snapshot, {
    format: "omnia-tools.turn",
    version: 1,
    promptkit: "1.5.5",
    toolCalls: 0,
    approvals: [
      { callId: "keep", name: "refund", argumentsJson: '{"amount":9}', reason: "requires_approval", message: "Tool refund is awaiting approval", arguments: '{"amount":9}' },
      { callId: "drop", name: "refund", argumentsJson: '{"amount":8}', reason: "requires_approval", message: "Tool refund is awaiting approval", arguments: '{"amount":8}' },
    ],
  });
  await executor.close();
  // The old turn cannot run the call any more: it stays held there.
  await assert.rejects(turn.approve("keep"), ClosedError);
  await assert.rejects(turn.deny("drop", "x"), ClosedError);
  assert.deepEqual(turn.approvals.map((a) => a.callId), ["keep", "drop"]);

  const recorder = new MemoryRecorder();
  // Another process would load the same registry again.
  const next = createToolExecutor({ registry: reg, clock: createManualClock(0), recorder });
  after(() => next.close());
  const resumed = createTurn(next, { resume: snapshot });
  assert.deepEqual(resumed.approvals.map((a) => a.callId), ["keep", "drop"]);
  assert.equal((await resumed.approve("keep")).content, '{\n  "refunded": true\n}');
  assert.equal((await resumed.deny("drop", "duplicate")).content, "Tool call rejected: duplicate");
  assert.deepEqual(b.requests.map((r) => r.body), ['{"amount":9}']);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.approval]), [["keep", "success", "approved"], ["drop", "denied", "denied"]]);
  assert.deepEqual(resumed.snapshot().approvals, []);
});

test("resume checks the snapshot field by field", async () => {
  const { executor } = await setup();
  const good = createTurn(executor, { approval: ["refund"] });
  await good.run([{ id: "x", name: "refund", arguments: '{"amount":1}' }]);
  const snap = good.snapshot();
  const bad = (resume: unknown, message: string, promptkit?: "1.5.11") =>
    assert.throws(() => createTurn(executor, { resume: resume as TurnSnapshot, ...(promptkit === undefined ? {} : { promptkit }) }), (e: unknown) => e instanceof InvalidOptionError && e.message === `createTurn: resume must be a snapshot from turn.snapshot(); ${message}`);
  bad(null, "got null");
  bad([], "got an array");
  bad({ ...snap, format: "x" }, 'format must be "omnia-tools.turn"');
  bad({ ...snap, version: 2 }, "version 2 is not one this package reads (1)");
  bad(snap, 'it was taken with promptkit "1.5.5", and this turn runs "1.5.11"', "1.5.11");
  bad({ ...snap, toolCalls: -1 }, "toolCalls must be a non-negative integer");
  bad({ ...snap, approvals: {} }, "approvals must be an array");
  bad({ ...snap, approvals: [null] }, "approvals[0] must be an object");
  bad({ ...snap, approvals: [{ ...snap.approvals[0], name: 5 }] }, "approvals[0].name must be a string");
  bad({ ...snap, approvals: [snap.approvals[0], snap.approvals[0]] }, 'approvals[1].callId "x" repeats an earlier one');
  assert.throws(() => createTurn(executor, { approval: "refund" as never }), (e: unknown) => e instanceof InvalidOptionError && e.message === "createTurn: approval must be a list of tool names or a function (call) => boolean | { reason?, message? }; got string");
});

test("a call id already held is not replaced: the second call gets an error message", async () => {
  const { executor } = await setup();
  const turn = createTurn(executor, { approval: ["refund"] });
  await turn.run([{ id: "x", name: "refund", arguments: '{"amount":1}' }]);
  const round = await turn.run([{ id: "x", name: "refund", arguments: '{"amount":2}' }]);
  assert.deepEqual(round.messages, [{ callId: "x", name: "refund", content: 'Tool execution failed: tool call id "x" is already awaiting approval', isError: true }]);
  assert.deepEqual(turn.approvals.map((a) => a.argumentsJson), ['{"amount":1}']);
});

test("an MCP tool call held, then approved with edits against a real MCP server", async () => {
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [{ name: "delete_repo", inputSchema: { type: "object", properties: { repo: { type: "string" }, force: { type: "boolean" } } }, call: (args) => ({ content: [{ type: "text", text: `deleted ${String(args["repo"])} force=${String(args["force"])}` }] }) }],
  });
  after(() => server.close());
  const { executor, recorder } = executorFor(registry(`  - name: gh
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: ${server.url} }
`));
  await executor.listTools();
  const turn = createTurn(executor, { approval: ["delete_repo"] });
  const round = await turn.run([{ id: "d1", name: "delete_repo", arguments: '{"repo":"prod","force":true}' }]);
  assert.deepEqual(round.approvals?.map((a) => a.argumentsJson), ['{"force":true,"repo":"prod"}']);
  assert.deepEqual(server.calls, []);
  assert.deepEqual(await turn.approve("d1", { arguments: { repo: "staging", force: false } }), { callId: "d1", name: "delete_repo", content: "deleted staging force=false", isError: false });
  assert.deepEqual(server.calls, ["delete_repo"]);
  assert.deepEqual(recorder.records.map((r) => [r.approval, r.arguments]), [["edited", { force: false, repo: "staging" }]]);
});
