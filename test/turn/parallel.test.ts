// Parallel rounds through createTurn against a real loopback HTTP backend whose
// latency runs on the executor's manual clock: at most maxParallelCalls in
// flight, started in call order, results in call order, failures isolated.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTurn } from "../../src/turn/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { backend, executorFor, httpHandler, idle, registry, until } from "./fixture.js";

test("a round of 12 calls that each take 200 ms: 10 start at once, the 11th and 12th when the first ones end, results in call order", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const b = await backend({
    clock,
    routes: { "/slow": (req) => ({ n: (req.json as { n: number }).n }) },
    faults: { "/slow": { kind: "latency", ms: 200 } },
  });
  const { executor } = executorFor(registry(httpHandler(b.url, "slow")), {}, clock);
  const turn = createTurn(executor);
  const started: string[] = [];
  executor.on("tool_call", (e) => started.push(e.callId));
  const calls = Array.from({ length: 12 }, (_, i) => ({ id: `c${i + 1}`, name: "slow", arguments: `{"n":${i + 1}}` }));
  let settled = false;
  const running = turn.run(calls).finally(() => (settled = true));

  await until(() => b.count() === 10, "10 requests");
  await idle();
  assert.equal(b.count(), 10, "no more than 10 in flight");
  // Started in call order (the backend may receive simultaneous requests in any order).
  assert.deepEqual(started, calls.slice(0, 10).map((c) => c.id));
  assert.deepEqual(b.requests.map((r) => r.body).sort(), calls.slice(0, 10).map((c) => c.arguments).sort());

  await clock.advanceAsync(199);
  await idle();
  assert.equal(b.count(), 10, "still 10: none has finished");
  assert.equal(settled, false);

  await clock.advanceAsync(1);
  await until(() => b.count() === 12, "the 11th and 12th requests");
  assert.deepEqual(started.slice(10), ["c11", "c12"]);
  assert.deepEqual(b.requests.slice(10).map((r) => r.body).sort(), ['{"n":11}', '{"n":12}']);
  assert.equal(settled, false);

  await clock.advanceAsync(200);
  const round = await running;
  assert.deepEqual(round.pending, []);
  assert.deepEqual(
    round.messages,
    calls.map((c, i) => ({ callId: c.id, name: "slow", content: `{\n  "n": ${i + 1}\n}`, isError: false })),
  );
});

test("maxParallelCalls 2 runs two at a time; 0 runs every call at once", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const b = await backend({ clock, routes: { "/slow": { ok: true } }, faults: { "/slow": { kind: "latency", ms: 100 } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "slow")), {}, clock);
  const calls = Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, name: "slow", arguments: `{"i":${i}}` }));

  const two = createTurn(executor, { maxParallelCalls: 2 }).run(calls);
  await until(() => b.count() === 2, "2 requests");
  await idle();
  assert.equal(b.count(), 2);
  await clock.advanceAsync(100);
  await until(() => b.count() === 4, "4 requests");
  await idle();
  assert.equal(b.count(), 4);
  await clock.advanceAsync(100);
  await until(() => b.count() === 5, "5 requests");
  await clock.advanceAsync(100);
  assert.equal((await two).messages.length, 5);

  const all = createTurn(executor, { maxParallelCalls: 0, repeatThreshold: 0 }).run(calls);
  await until(() => b.count() === 10, "5 more requests at once");
  await clock.advanceAsync(100);
  assert.deepEqual((await all).messages.map((m) => m.content), calls.map(() => '{\n  "ok": true\n}'));
});

test("P18: calls finishing in the order c3, c1, c2 come back as c1, c2, c3", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const b = await backend({
    clock,
    routes: { "/a": { tool: "a" }, "/b": { tool: "b" }, "/c": { tool: "c" } },
    faults: { "/a": { kind: "latency", ms: 200 }, "/b": { kind: "latency", ms: 300 }, "/c": { kind: "latency", ms: 100 } },
  });
  const { executor } = executorFor(registry(httpHandler(b.url, "a") + httpHandler(b.url, "b") + httpHandler(b.url, "c")), {}, clock);
  const turn = createTurn(executor);
  const finished: string[] = [];
  executor.on("tool_result", (e) => finished.push(e.callId));
  const running = turn.run([
    { id: "c1", name: "a", arguments: "{}" },
    { id: "c2", name: "b", arguments: "{}" },
    { id: "c3", name: "c", arguments: "{}" },
  ]);
  await until(() => b.count() === 3, "3 requests");
  for (let i = 0; i < 3; i++) {
    await clock.advanceAsync(100);
    await until(() => finished.length === i + 1, `call ${i + 1} finished`);
  }
  const round = await running;
  assert.deepEqual(finished, ["c3", "c1", "c2"]);
  assert.deepEqual(round.messages.map((m) => [m.callId, m.content]), [
    ["c1", '{\n  "tool": "a"\n}'],
    ["c2", '{\n  "tool": "b"\n}'],
    ["c3", '{\n  "tool": "c"\n}'],
  ]);
});

test("one failing call does not affect the others of its round", async () => {
  const b = await backend({ routes: { "/a": { ok: 1 }, "/b": { ok: 2 } }, faults: { "/a": { kind: "status", status: 503, body: "down" } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "a") + httpHandler(b.url, "b")));
  const round = await createTurn(executor).run([
    { id: "c1", name: "a", arguments: "{}" },
    { id: "c2", name: "b", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages, [
    { callId: "c1", name: "a", content: "Tool execution failed: HTTP 503: down", isError: true },
    { callId: "c2", name: "b", content: '{\n  "ok": 2\n}', isError: false },
  ]);
});
