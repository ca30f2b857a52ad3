// turn.tools (what the model is offered), createTurn's option checks, and what
// a round does when the executor itself throws (the host's signal).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTurn, type TurnExecutor } from "../../src/turn/index.js";
import { AbortedError, InvalidOptionError } from "../../src/core/index.js";
import { loadPromptPack } from "../../src/manifest/index.js";
import { reconcileTools } from "../../src/reconcile/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { backend, clientHandler, executorFor, httpHandler, registry, until } from "./fixture.js";

test("with a pack: the prompt's served tools plus the implicit namespaces, sorted, with the pack's description and parameters", async () => {
  const b = await backend({ routes: {} });
  const reg = registry(httpHandler(b.url, "zeta") + httpHandler(b.url, "alpha") + httpHandler(b.url, "memory__recall") + httpHandler(b.url, "undeclared") + clientHandler("beta"));
  const { executor } = executorFor(reg);
  const pack = loadPromptPack(
    JSON.stringify({
      prompts: { support: { tools: ["zeta", "beta", "alpha", "missing"] }, other: { tools: ["undeclared"] } },
      tools: { alpha: { name: "alpha", description: "Alpha, from the pack", parameters: { type: "object", properties: { q: { type: "string" } } } } },
    }),
  );
  const turn = createTurn(executor, { pack, prompt: "support" });
  assert.deepEqual(turn.tools, [
    { name: "alpha", description: "Alpha, from the pack", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
    { name: "beta", description: "the beta tool", inputSchema: { type: "object" } },
    { name: "memory__recall", description: "the memory__recall tool", inputSchema: { type: "object" } },
    { name: "zeta", description: "the zeta tool", inputSchema: { type: "object" } },
  ]);
  // The default prompt is the pack's first.
  assert.deepEqual(createTurn(executor, { pack }).tools.map((t) => t.name), ["alpha", "beta", "memory__recall", "zeta"]);
  assert.deepEqual(createTurn(executor, { pack, prompt: "other" }).tools.map((t) => t.name), ["memory__recall", "undeclared"]);
  // Without a pack: every served tool.
  assert.deepEqual(createTurn(executor).tools.map((t) => t.name), ["alpha", "beta", "memory__recall", "undeclared", "zeta"]);
});

test("image__ and video__ tools are offered without a pack entry, as PromptKit 1.5.5 offers them; reconcileTools' report keeps to Omnia's five namespaces", async () => {
  const b = await backend({ routes: {} });
  const reg = registry(httpHandler(b.url, "image__generate") + httpHandler(b.url, "video__generate") + httpHandler(b.url, "imagery__x") + httpHandler(b.url, "search"));
  const { executor } = executorFor(reg);
  const pack = loadPromptPack(JSON.stringify({ prompts: { support: { tools: ["search"] } } }));
  assert.deepEqual(createTurn(executor, { pack }).tools.map((t) => t.name), ["image__generate", "search", "video__generate"]);
  const report = reconcileTools(pack, executor.tools.map((t) => t.name));
  assert.deepEqual(report.offered, ["search"]);
  assert.deepEqual(report.mismatches.map((m) => [m.kind, m.tools]), [["served-not-declared", ["image__generate", "imagery__x", "video__generate"]]]);
});

test("createTurn checks its options eagerly", () => {
  const executor: TurnExecutor = { tools: [], execute: async () => ({ status: "success", resultJson: "{}" }), completeClientCall: () => ({ status: "success", resultJson: "{}" }) };
  const bad = (options: object, message: string) => assert.throws(() => createTurn(executor, options as never), (e: unknown) => e instanceof InvalidOptionError && e.message === message);
  bad({ maxRounds: -1 }, "createTurn: maxRounds must be a non-negative integer (0 disables the limit); got -1");
  bad({ maxParallelCalls: 1.5 }, "createTurn: maxParallelCalls must be a non-negative integer (0 disables the limit); got 1.5");
  bad({ maxResults: 1 }, 'createTurn: unknown option "maxResults"; expected one of pack, prompt, ctx, maxParallelCalls, maxResultBytes, repeatThreshold, maxRounds, logger, promptkit, maxToolCalls, approval, resume, resultBudget');
  bad({ prompt: "x" }, 'createTurn: prompt "x" needs a pack');
  bad({ pack: { prompts: { a: {} } }, prompt: "b" }, 'createTurn: the pack has no prompt "b"; expected one of a');
  assert.throws(() => createTurn({} as never), InvalidOptionError);
});

test("an empty round changes nothing; a parsed arguments object is sent as its JSON text", async () => {
  const b = await backend({ routes: { "/t": { ok: true } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t")));
  const turn = createTurn(executor, { maxRounds: 1 });
  assert.deepEqual(await turn.run([]), { messages: [], pending: [] });
  await assert.rejects(turn.run([{ id: "1", name: "t", arguments: { city: "Paris" } }]), { reason: "max-rounds" });
  assert.deepEqual(b.requests.map((r) => r.body), ['{"city":"Paris"}']);
});

test("the host's signal aborting mid-round: every call settles, then run rejects with the executor's AbortedError", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const b = await backend({ clock, routes: { "/slow": { ok: true }, "/fast": { ok: true } }, faults: { "/slow": { kind: "latency", ms: 1000 } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "slow") + httpHandler(b.url, "fast")), {}, clock);
  const controller = new AbortController();
  const turn = createTurn(executor, { ctx: { signal: controller.signal } });
  const running = turn.run([
    { id: "1", name: "slow", arguments: "{}" },
    { id: "2", name: "fast", arguments: "{}" },
  ]);
  await until(() => b.count() === 2, "2 requests");
  controller.abort();
  await assert.rejects(running, (e: unknown) => e instanceof AbortedError);
});

test("one round at a time: run() while a round is in flight is refused", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const b = await backend({ clock, routes: { "/slow": { ok: true } }, faults: { "/slow": { kind: "latency", ms: 100 } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "slow")), {}, clock);
  const turn = createTurn(executor);
  const first = turn.run([{ id: "1", name: "slow", arguments: "{}" }]);
  await assert.rejects(turn.run([{ id: "2", name: "slow", arguments: "{}" }]), { code: "ERR_OMNIA_TURN", reason: "round-in-progress" });
  await until(() => b.count() === 1, "1 request");
  await clock.advanceAsync(100);
  assert.equal((await first).messages.length, 1);
});

test("run() refuses calls that are not { id, name, arguments }", async () => {
  const executor: TurnExecutor = { tools: [], execute: async () => ({ status: "success", resultJson: "{}" }), completeClientCall: () => ({ status: "success", resultJson: "{}" }) };
  const turn = createTurn(executor);
  await assert.rejects(turn.run([{ id: 1, name: "t", arguments: "{}" } as never]), { code: "ERR_OMNIA_INVALID_OPTION", message: "turn.run: calls[0] must be { id: string, name: string, arguments }; got id: number, name: string" });
  await assert.rejects(turn.run([null as never]), { message: "turn.run: calls[0] must be { id: string, name: string, arguments }; got null" });
  assert.deepEqual(await turn.run([]), { messages: [], pending: [] });
});
