// The loop guards of a turn (promptkit §10.2–§10.4, P16, P17): the
// identical-call guard and its text, exclusion after a second failure, max
// rounds, and the fresh loop after a client hand-off.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTurn, TurnError } from "../../src/turn/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { backend, clientHandler, executorFor, httpHandler, registry } from "./fixture.js";

const NOTICE = 'Repeated call ignored: "t" has been called 3 times with identical arguments and was NOT executed again \u2014 the result will not change. Stop repeating this exact call: change the arguments, use a different tool, or finish the task.';

async function weather() {
  const b = await backend({ routes: { "/t": (req) => ({ q: (req.json as { q?: string } | undefined)?.q ?? null }), "/u": { u: 1 }, "/bad": {} }, faults: { "/bad": { kind: "status", status: 500, body: "boom" } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t") + httpHandler(b.url, "u") + httpHandler(b.url, "bad")));
  return { b, executor };
}

test("P16: the third identical call in a turn is not executed; a fourth fails the turn", async () => {
  const { b, executor } = await weather();
  const logger = createCaptureLogger();
  const turn = createTurn(executor, { logger });
  await turn.run([{ id: "1", name: "t", arguments: '{"q":"a","n":1}' }]);
  await turn.run([{ id: "2", name: "t", arguments: '{"n":1,"q":"a"}' }]);
  const third = await turn.run([
    { id: "3", name: "u", arguments: "{}" },
    { id: "4", name: "t", arguments: '{ "q": "a", "n": 1 }' },
  ]);
  // The notice first, then the round's executed calls.
  assert.deepEqual(third.messages, [
    { callId: "4", name: "t", content: NOTICE, isError: false },
    { callId: "3", name: "u", content: '{\n  "u": 1\n}', isError: false },
  ]);
  assert.equal(b.count("/t"), 2);
  assert.deepEqual(logger.lines, [{ level: "warn", message: "identical tool-call loop detected; feeding it back to the model for one self-correction attempt", fields: { tool: "t" } }]);

  const failure = await turn.run([{ id: "5", name: "t", arguments: '{"n":1,"q":"a"}' }]).then(
    () => assert.fail("expected the turn to fail"),
    (e: unknown) => e,
  );
  assert.ok(failure instanceof TurnError);
  assert.equal(failure.code, "ERR_OMNIA_TURN");
  assert.equal(failure.reason, "tool-loop");
  assert.equal(failure.toolName, "t");
  assert.equal(failure.message, 'provider stage: tool loop persisted after a self-correction nudge: "t" called with identical arguments');
  assert.equal(b.count("/t"), 2);
  // The turn stays failed.
  await assert.rejects(turn.run([{ id: "6", name: "u", arguments: "{}" }]), (e) => e === failure);
});

test("three identical calls in one round: the first two run, the third gets the notice", async () => {
  const { b, executor } = await weather();
  const round = await createTurn(executor).run([
    { id: "1", name: "t", arguments: '{"q":"x"}' },
    { id: "2", name: "t", arguments: '{"q":"x"}' },
    { id: "3", name: "t", arguments: '{"q":"x"}' },
  ]);
  assert.deepEqual(round.messages.map((m) => [m.callId, m.content]), [
    ["3", NOTICE],
    ["1", '{\n  "q": "x"\n}'],
    ["2", '{\n  "q": "x"\n}'],
  ]);
  assert.equal(b.count("/t"), 2);
});

test("repeatThreshold sets the count in the notice; 0 switches the guard off", async () => {
  const { b, executor } = await weather();
  const two = await createTurn(executor, { repeatThreshold: 2 }).run([
    { id: "1", name: "t", arguments: "{}" },
    { id: "2", name: "t", arguments: "{}" },
  ]);
  assert.equal(two.messages[0]?.content, NOTICE.replace("called 3 times", "called 2 times"));
  const before = b.count("/t");
  const off = await createTurn(executor, { repeatThreshold: 0 }).run(Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, name: "t", arguments: "{}" })));
  assert.equal(off.messages.length, 5);
  assert.equal(b.count("/t") - before, 5);
});

test("P17: a tool that failed twice in the turn leaves turn.tools, and calling it by name still executes it", async () => {
  const { b, executor } = await weather();
  const logger = createCaptureLogger();
  const turn = createTurn(executor, { logger });
  assert.deepEqual(turn.tools.map((t) => t.name), ["bad", "t", "u"]);
  await turn.run([{ id: "1", name: "bad", arguments: '{"try":1}' }]);
  assert.deepEqual(turn.tools.map((t) => t.name), ["bad", "t", "u"]);
  const second = await turn.run([{ id: "2", name: "bad", arguments: '{"try":2}' }]);
  assert.deepEqual(second.messages, [{ callId: "2", name: "bad", content: "Tool execution failed: HTTP 500: boom", isError: true }]);
  assert.deepEqual(turn.tools.map((t) => t.name), ["t", "u"]);
  assert.deepEqual(logger.lines, [{ level: "warn", message: "Tool excluded after repeated rejection", fields: { tool: "bad", rejections: 2 } }]);
  await turn.run([{ id: "3", name: "bad", arguments: '{"try":3}' }]);
  assert.equal(b.count("/bad"), 3);
  assert.equal(logger.lines.length, 1);
});

test("two failures of one tool in the same round exclude it; validation errors count too", async () => {
  const { executor } = await weather();
  const turn = createTurn(executor);
  await turn.run([
    { id: "1", name: "u", arguments: "[]" },
    { id: "2", name: "u", arguments: '"x"' },
  ]);
  assert.deepEqual(turn.tools.map((t) => t.name), ["bad", "t"]);
});

test("max rounds: the tools of the last round run, then the turn fails with PromptKit's text and that round's messages", async () => {
  const { b, executor } = await weather();
  const turn = createTurn(executor, { maxRounds: 2 });
  await turn.run([{ id: "1", name: "t", arguments: '{"q":"1"}' }]);
  const failure = await turn.run([{ id: "2", name: "t", arguments: '{"q":"2"}' }]).then(
    () => assert.fail("expected the turn to fail"),
    (e: unknown) => e,
  );
  assert.ok(failure instanceof TurnError);
  assert.equal(failure.reason, "max-rounds");
  assert.equal(failure.message, "provider stage: max rounds (2) exceeded");
  assert.deepEqual(failure.messages, [{ callId: "2", name: "t", content: '{\n  "q": "2"\n}', isError: false }]);
  assert.equal(b.count("/t"), 2);
  await assert.rejects(turn.run([{ id: "3", name: "t", arguments: "{}" }]), (e) => e === failure);
  assert.equal(b.count("/t"), 2);
});

test("the default is 50 rounds; maxRounds 0 has no limit", async () => {
  const { executor } = await weather();
  const turn = createTurn(executor);
  for (let i = 1; i < 50; i++) await turn.run([{ id: `c${i}`, name: "t", arguments: `{"q":"${i}"}` }]);
  await assert.rejects(turn.run([{ id: "c50", name: "t", arguments: '{"q":"50"}' }]), { message: "provider stage: max rounds (50) exceeded" });
  const unlimited = createTurn(executor, { maxRounds: 0 });
  for (let i = 1; i <= 51; i++) await unlimited.run([{ id: `d${i}`, name: "t", arguments: `{"q":"${i}"}` }]);
});

test("a round with a pending client call ends the tool loop: no exclusion count, and the next round starts from zero", async () => {
  const b = await backend({ routes: { "/bad": {} }, faults: { "/bad": { kind: "status", status: 500, body: "boom" } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "bad") + clientHandler("ask")));
  const turn = createTurn(executor, { ctx: { clientToolsAvailable: true }, maxRounds: 2 });
  await turn.run([{ id: "1", name: "bad", arguments: "{}" }]);
  const handoff = await turn.run([
    { id: "2", name: "bad", arguments: "{}" },
    { id: "3", name: "ask", arguments: "{}" },
  ]);
  assert.deepEqual(handoff.pending.map((p) => p.callId), ["3"]);
  // Round 2 of 2 ended in a hand-off: no max-rounds failure, and "bad" (2 failures) is still offered.
  assert.deepEqual(turn.tools.map((t) => t.name), ["ask", "bad"]);
  turn.complete({ callId: "3", resultJson: "{}" });
  // A fresh loop: one failure of "bad" does not exclude it, and this is round 1 of 2.
  await turn.run([{ id: "4", name: "bad", arguments: "{}" }]);
  assert.deepEqual(turn.tools.map((t) => t.name), ["ask", "bad"]);
});

test("in the round of the nudge, failures are not counted and client calls are dropped", async () => {
  const b = await backend({ routes: { "/t": { ok: 1 }, "/bad": {} }, faults: { "/bad": { kind: "status", status: 500, body: "boom" } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t") + httpHandler(b.url, "bad") + clientHandler("ask")));
  const turn = createTurn(executor, { ctx: { clientToolsAvailable: true }, repeatThreshold: 2 });
  await turn.run([{ id: "1", name: "bad", arguments: "{}" }]);
  const nudge = await turn.run([
    { id: "2", name: "bad", arguments: "{}" },
    { id: "3", name: "ask", arguments: "{}" },
    { id: "4", name: "t", arguments: "{}" },
  ]);
  assert.deepEqual(nudge.messages.map((m) => m.callId), ["2", "4"]);
  assert.deepEqual(nudge.pending, []);
  assert.equal(b.count("/bad"), 1);
  assert.deepEqual(turn.tools.map((t) => t.name), ["ask", "bad", "t"]);
});
