// The official @anthropic-ai/sdk client against a loopback Messages server that
// answers with canned tool_use blocks: examples/anthropic.ts (the README
// snippet) runs an http tool on a loopback backend and a client tool, and the
// second request carries the stage's exact texts as tool_result blocks, with
// no is_error (as PromptKit's Claude provider sends them) unless asked.
import { test } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { answer } from "../../examples/anthropic.js";
import { createTurn, type ClientToolRequest } from "../../src/index.js";
import { fromAnthropicToolUses, runAnthropicToolUses, toAnthropicToolResults, toAnthropicTools } from "../../src/anthropic.js";
import { failingWeather, modelApi, SESSION, weatherTools, WEATHER_SCHEMA } from "./fixture.js";

function reply(content: unknown[], stop: string): unknown {
  return { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
}

const toolUse = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });

test("examples/anthropic.ts: the second request carries each call's exact text as tool_result blocks, without is_error", async () => {
  const { executor, backend, recorder } = await weatherTools();
  const api = await modelApi([
    reply([{ type: "text", text: "Let me check." }, toolUse("toolu_1", "get_weather", { city: "Paris" }), toolUse("toolu_2", "get_weather", { city: "Oslo" }), toolUse("toolu_3", "get_location", {})], "tool_use"),
    reply([{ type: "text", text: "Paris is at 21 degrees; Oslo's weather service is down." }], "end_turn"),
  ]);
  const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: api.url, maxRetries: 0 });
  const asked: ClientToolRequest[] = [];
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather here, in Paris and in Oslo?" }];

  const text = await answer(anthropic, executor, SESSION, messages, async (request) => {
    asked.push(request);
    return { callId: request.callId, isRejected: true, isDenied: true, rejectionReason: "user declined" };
  });

  assert.equal(text, "Paris is at 21 degrees; Oslo's weather service is down.");
  assert.deepEqual(asked, [{ callId: "toolu_3", name: "get_location", argumentsJson: "{}", consentMessage: 'Client tool "get_location" awaiting caller fulfillment' }]);
  assert.deepEqual(backend.requests.map((r) => r.body).sort(), ['{"city":"Oslo"}', '{"city":"Paris"}']);
  assert.equal(api.server.requests[1]?.url, "/v1/messages");
  const [first, second] = api.bodies() as { tools: unknown; messages: unknown[] }[];
  assert.deepEqual(first?.tools, [
    { name: "get_location", description: "The user's location.", input_schema: { type: "object" } },
    { name: "get_weather", description: "Current weather for a city.", input_schema: WEATHER_SCHEMA },
  ]);
  assert.deepEqual(second?.messages.slice(2), [
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: '{\n  "city": "Paris",\n  "temp": 21\n}' },
        { type: "tool_result", tool_use_id: "toolu_2", content: "Tool execution failed: HTTP 503: down" },
        { type: "tool_result", tool_use_id: "toolu_3", content: "Tool rejected: user declined" },
      ],
    },
  ]);
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status]).sort(),
    [["toolu_1", "success"], ["toolu_2", "error"], ["toolu_3", "denied"]],
  );
});

test("markErrors sets is_error: true on the failed call only, through the real client's request", async () => {
  const { executor } = await weatherTools();
  const api = await modelApi([reply([{ type: "text", text: "ok" }], "end_turn")]);
  const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: api.url, maxRetries: 0 });
  const turn = createTurn(executor);
  const response = reply([toolUse("toolu_1", "get_weather", { city: "Paris" }), toolUse("toolu_2", "get_weather", { city: "Oslo" }), toolUse("toolu_3", "get_weather", {})], "tool_use") as Anthropic.Message;
  const round = await runAnthropicToolUses(turn, response, { markErrors: true });
  await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "assistant", content: response.content }, round.message] });
  const [body] = api.bodies() as { messages: unknown[] }[];
  assert.deepEqual(body?.messages[1], {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: '{\n  "city": "Paris",\n  "temp": 21\n}' },
      { type: "tool_result", tool_use_id: "toolu_2", content: "Tool execution failed: HTTP 503: down", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_3", content: "Error: tool get_weather validation error (args_invalid): argument validation failed: [(root): city is required]", is_error: true },
    ],
  });
});

test("fromAnthropicToolUses reads tool_use blocks only, its input as parsed arguments, and names a malformed block", () => {
  assert.deepEqual(fromAnthropicToolUses({ content: [{ type: "text" }, toolUse("t1", "x", { b: 1, a: [2] })] }), [{ id: "t1", name: "x", arguments: { b: 1, a: [2] } }]);
  assert.throws(() => fromAnthropicToolUses({ content: [{ type: "tool_use", name: "x" }] }), {
    name: "InvalidOptionError",
    message: "fromAnthropicToolUses: content[0] must be a tool_use block { id: string, name: string, input }",
  });
  assert.throws(() => fromAnthropicToolUses({} as never), { message: "fromAnthropicToolUses: message must be a Messages API response with a content array; got object" });
  assert.throws(() => toAnthropicToolResults([], { isError: true } as never), { message: 'toAnthropicToolResults: unknown option "isError"; expected one of markErrors' });
  assert.deepEqual(toAnthropicToolResults([{ callId: "a", content: "bad", isError: true }]), [{ type: "tool_result", tool_use_id: "a", content: "bad" }]);
  assert.deepEqual(toAnthropicTools([{ name: "n", description: "", inputSchema: { type: "object" } }]), [{ name: "n", description: "", input_schema: { type: "object" } }]);
});

test("examples/anthropic.ts: once every tool is excluded (two failures), the next request sends no tools key; the history keeps the tool blocks", async () => {
  const { executor } = await failingWeather();
  const api = await modelApi([
    reply([toolUse("toolu_1", "get_weather", { city: "Oslo" })], "tool_use"),
    reply([toolUse("toolu_2", "get_weather", { city: "Oslo" })], "tool_use"),
    reply([{ type: "text", text: "The weather service is down." }], "end_turn"),
  ]);
  const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: api.url, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Oslo?" }];
  const text = await answer(anthropic, executor, SESSION, messages, () => Promise.reject(new Error("no client tool")));
  assert.equal(text, "The weather service is down.");
  const bodies = api.bodies() as Record<string, unknown>[];
  assert.deepEqual(bodies.map((b) => Object.keys(b).sort()), [["max_tokens", "messages", "model", "tools"], ["max_tokens", "messages", "model", "tools"], ["max_tokens", "messages", "model"]]);
  assert.equal((bodies[2]?.["messages"] as unknown[]).length, 5);
});

test("approvals through the real Anthropic client: the held call's approved result is a tool_result block in the next request", async () => {
  const { executor, backend, recorder } = await weatherTools();
  const api = await modelApi([
    reply([toolUse("toolu_1", "get_weather", { city: "Paris" })], "tool_use"),
    reply([{ type: "text", text: "Done." }], "end_turn"),
  ]);
  const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: api.url, maxRetries: 0 });
  const turn = createTurn(executor, { pack: SESSION.pack, prompt: SESSION.prompt, ctx: { identity: SESSION.identity }, approval: ["get_weather"] });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
  const first = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 100, messages, tools: toAnthropicTools(turn.tools) });
  const round = await runAnthropicToolUses(turn, first);
  assert.deepEqual(round.message, { role: "user", content: [] });
  assert.deepEqual(round.approvals, [{ callId: "toolu_1", name: "get_weather", argumentsJson: '{"city":"Paris"}', reason: "requires_approval", message: "Tool get_weather is awaiting approval" }]);
  assert.equal(backend.count(), 0);
  const approved = await turn.approve("toolu_1", { arguments: { city: "Lyon" } });
  messages.push({ role: "assistant", content: first.content }, { role: "user", content: toAnthropicToolResults([approved]) });
  await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 100, messages, tools: toAnthropicTools(turn.tools) });
  const second = api.bodies()[1] as { messages: unknown[] };
  assert.deepEqual(second.messages.slice(2), [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: '{\n  "city": "Lyon",\n  "temp": 21\n}' }] }]);
  assert.deepEqual(backend.requests.map((r) => r.body), ['{"city":"Lyon"}']);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.approval, r.arguments]), [["toolu_1", "edited", { city: "Lyon" }]]);
});
