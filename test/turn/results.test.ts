// What the model reads of a result through a turn: formatting, the size limit
// (and its warning), output-schema validation, failure prefixes (promptkit §12 P5–P13).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTurn, type TurnExecutor, type TurnOutcome } from "../../src/turn/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startFakeBroker } from "../helpers/policy-broker.js";
import { backend, executorFor, httpHandler, registry } from "./fixture.js";
import { httpReply } from "../../src/testing/index.js";

test("P6–P8: an object is pretty-printed with sorted keys, a string is bare, null is <nil>, a number is %v", async () => {
  const b = await backend({
    routes: {
      "/obj": httpReply({ text: '{"b":2,"a":1}', headers: { "content-type": "application/json" } }),
      "/str": "done",
      "/nil": httpReply({ text: "null", headers: { "content-type": "application/json" } }),
      "/num": 1000000,
    },
  });
  const { executor } = executorFor(registry(httpHandler(b.url, "obj") + httpHandler(b.url, "str") + httpHandler(b.url, "nil") + httpHandler(b.url, "num")));
  const round = await createTurn(executor).run([
    { id: "1", name: "obj", arguments: "{}" },
    { id: "2", name: "str", arguments: "{}" },
    { id: "3", name: "nil", arguments: "{}" },
    { id: "4", name: "num", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages.map((m) => m.content), ['{\n  "a": 1,\n  "b": 2\n}', "done", "<nil>", "1e+06"]);
});

test("P11: a result of 1,048,579 bytes ending in € is cut at 1,048,576 bytes, the € dropped, and a warning logged", async () => {
  const text = "x".repeat(1_048_576) + "€";
  const b = await backend({ routes: { "/big": text } });
  const { executor } = executorFor(registry(httpHandler(b.url, "big")));
  const logger = createCaptureLogger();
  const round = await createTurn(executor, { logger }).run([{ id: "1", name: "big", arguments: "{}" }]);
  const content = round.messages[0]?.content ?? "";
  assert.equal(content, `${"x".repeat(1_048_576)}\n... [truncated, 1048579 bytes exceeded limit of 1048576 bytes]`);
  assert.equal(round.messages[0]?.isError, false);
  assert.deepEqual(logger.lines, [{ level: "warn", message: "Tool result truncated", fields: { tool: "big", size: 1048579, limit: 1048576 } }]);
});

test("P12: with maxResultBytes 3, ab€cd keeps one U+FFFD per leftover byte; 0 disables the limit", async () => {
  const b = await backend({ routes: { "/t": "ab€cd" } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t")));
  const cut = await createTurn(executor, { maxResultBytes: 3 }).run([{ id: "1", name: "t", arguments: "{}" }]);
  assert.equal(JSON.stringify(cut.messages[0]?.content), '"ab\ufffd\\n... [truncated, 7 bytes exceeded limit of 3 bytes]"');
  const whole = await createTurn(executor, { maxResultBytes: 0 }).run([{ id: "1", name: "t", arguments: "{}" }]);
  assert.equal(whole.messages[0]?.content, "ab€cd");
});

test("P13: a registry-only http tool's output schema is checked; the failure reads Tool execution failed: result validation failed: …", async () => {
  const b = await backend({ routes: { "/w": (req) => ((req.json as { ok?: boolean } | undefined)?.ok === true ? { temp: 21 } : { tmp: 1 }) } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t", { path: "/w", outputSchema: "{ type: object, properties: { temp: { type: number } }, required: [temp] }" })));
  const turn = createTurn(executor);
  const round = await turn.run([
    { id: "1", name: "t", arguments: '{"ok":true}' },
    { id: "2", name: "t", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages.map((m) => [m.content, m.isError]), [
    ['{\n  "temp": 21\n}', false],
    ["Tool execution failed: result validation failed: coercion failed: tool t validation error (result_invalid): result validation failed: [(root): temp is required]", true],
  ]);
});

test("a pack-defined tool is never output-validated, and is validated against the pack's parameters", async () => {
  const b = await backend({ routes: { "/w": { tmp: 1 } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t", { path: "/w", outputSchema: "{ type: object, required: [temp] }" })));
  const pack = { prompts: { main: { tools: ["t"] } }, tools: { t: { name: "t", description: "pack d", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } } } };
  const turn = createTurn(executor, { pack });
  const round = await turn.run([
    { id: "1", name: "t", arguments: '{"q":"a"}' },
    { id: "2", name: "t", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages.map((m) => m.content), [
    '{\n  "tmp": 1\n}',
    "Error: tool t validation error (args_invalid): argument validation failed: [(root): q is required]",
  ]);
});

test("P5: an input schema that does not compile fails every call with Error: invalid input schema …", async () => {
  const b = await backend({ routes: { "/t": { ok: true } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t", { inputSchema: "{ type: strin }" })));
  const round = await createTurn(executor).run([{ id: "1", name: "t", arguments: "{}" }]);
  assert.deepEqual(round.messages, [
    { callId: "1", name: "t", content: "Error: invalid input schema for tool t: has a primitive type that is NOT VALID -- given: /strin/ Expected valid values are:[array boolean integer number null object string]", isError: true },
  ]);
  assert.deepEqual(b.requests, []);
});

test("a pack tool that no handler serves: Tool execution failed: no handler registered for tool: <name>", async () => {
  const b = await backend({ routes: { "/t": { ok: true } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "t")));
  const pack = { prompts: { main: { tools: ["t", "ghost"] } }, tools: { ghost: { description: "g", parameters: { type: "object" } } } };
  const turn = createTurn(executor, { pack, repeatThreshold: 0 });
  assert.deepEqual(turn.tools.map((t) => t.name), ["t"]);
  const round = await turn.run([
    { id: "1", name: "ghost", arguments: "{}" },
    { id: "2", name: "ghost", arguments: "" },
  ]);
  assert.deepEqual(round.messages.map((m) => m.content), [
    "Tool execution failed: no handler registered for tool: ghost",
    "Tool execution failed: failed to parse tool arguments: unexpected end of JSON input",
  ]);
});

test("P9: an executor failure reads Tool execution failed: <message>, whatever the message", async () => {
  const outcome: TurnOutcome = { status: "error", message: "circuit breaker [t]: HTTP 503: down" };
  const executor: TurnExecutor = {
    tools: [{ name: "t", description: "d", inputSchema: { type: "object" }, handlerName: "h", handlerType: "http", execution: "server" }],
    execute: async () => outcome,
    completeClientCall: () => outcome,
  };
  const round = await createTurn(executor).run([{ id: "1", name: "t", arguments: "{}" }]);
  assert.deepEqual(round.messages, [{ callId: "1", name: "t", content: "Tool execution failed: circuit breaker [t]: HTTP 503: down", isError: true }]);
});

test("a policy denial reads Tool execution failed: tool call denied by policy: …", async () => {
  const broker = await startFakeBroker({ allow: false, deniedBy: "rule1", message: "nope" });
  const b = await backend({ routes: { "/t": { ok: true } } });
  const policy = createPolicyBrokerClient({ url: broker.url });
  const { executor } = executorFor(registry(httpHandler(b.url, "t")), { policy });
  try {
    const round = await createTurn(executor).run([{ id: "1", name: "t", arguments: "{}" }]);
    assert.deepEqual(round.messages, [{ callId: "1", name: "t", content: 'Tool execution failed: tool call denied by policy: nope (rule "rule1")', isError: true }]);
    assert.deepEqual(b.requests, []);
  } finally {
    await policy.close();
    await broker.close();
  }
});

test("execute() gets a recordResult hook that maps the result to the model's text; the truncation warning is logged once", async () => {
  const seen: { args: string; record: unknown }[] = [];
  const executor: TurnExecutor = {
    tools: [{ name: "t", description: "d", inputSchema: { type: "object", properties: { n: { type: "integer" } } }, handlerName: "h", handlerType: "http", execution: "server" }],
    execute: async (call, _ctx, hooks) => {
      const resultJson = '{"b":"xyz","a":1}';
      seen.push({ args: call.arguments, record: hooks?.recordResult(resultJson) });
      return { status: "success", resultJson };
    },
    completeClientCall: () => ({ status: "success", resultJson: "{}" }),
  };
  const logger = createCaptureLogger();
  const round = await createTurn(executor, { maxResultBytes: 12, logger }).run([{ id: "1", name: "t", arguments: '{"n":"7"}' }]);
  const text = '{\n  "a": 1,\n\n... [truncated, 26 bytes exceeded limit of 12 bytes]';
  assert.deepEqual(seen, [{ args: '{"n":7}', record: text }]);
  assert.deepEqual(round.messages, [{ callId: "1", name: "t", content: text, isError: false }]);
  assert.deepEqual(logger.lines, [{ level: "warn", message: "Tool result truncated", fields: { tool: "t", size: 26, limit: 12 } }]);
});
