// The official openai client against a loopback Chat Completions server that
// answers with canned tool calls: examples/openai.ts (the README snippet) runs
// an http tool on a loopback backend and a client tool, and the second request
// carries the stage's exact texts as role "tool" messages.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { answer } from "../../examples/openai.js";
import { createToolExecutor, createTurn, InvalidOptionError, loadToolRegistry, type JsonValue } from "../../src/index.js";
import { createManualClock, startHttpToolBackend } from "../../src/testing/index.js";
import { fromOpenAiToolCalls, runOpenAiToolCalls, toOpenAiToolMessages, toOpenAiTools } from "../../src/openai.js";
import type { ClientToolRequest } from "../../src/index.js";
import { failingWeather, modelApi, SESSION, weatherTools, WEATHER_SCHEMA } from "./fixture.js";

function completion(message: Record<string, unknown>, finish: string): unknown {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1764633600,
    model: "gpt-4.1",
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: "assistant", refusal: null, ...message } }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

const call = (id: string, name: string, args: string) => ({ id, type: "function", function: { name, arguments: args } });

test("examples/openai.ts: the second request carries each call's exact text, server results then the client's answer", async () => {
  const { executor, backend, recorder } = await weatherTools();
  const api = await modelApi([
    completion({ content: null, tool_calls: [call("call_1", "get_weather", '{"city":"Paris"}'), call("call_2", "get_weather", '{"city":"Oslo"}'), call("call_3", "get_location", "{}")] }, "tool_calls"),
    completion({ content: "Paris is at 21 degrees; Oslo's weather service is down." }, "stop"),
  ]);
  const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${api.url}/v1`, maxRetries: 0 });
  const asked: ClientToolRequest[] = [];
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather here, in Paris and in Oslo?" }];

  const text = await answer(openai, executor, SESSION, messages, async (request) => {
    asked.push(request);
    return { callId: request.callId, resultJson: '{"lat":48.85,"lon":2.35}' };
  });

  assert.equal(text, "Paris is at 21 degrees; Oslo's weather service is down.");
  assert.deepEqual(asked, [{ callId: "call_3", name: "get_location", argumentsJson: "{}", consentMessage: 'Client tool "get_location" awaiting caller fulfillment' }]);
  assert.deepEqual(backend.requests.map((r) => r.body).sort(), ['{"city":"Oslo"}', '{"city":"Paris"}']);
  const [first, second] = api.bodies() as { tools: unknown; messages: unknown[] }[];
  assert.equal(api.server.requests.length, 2);
  assert.equal(api.server.requests[1]?.url, "/v1/chat/completions");
  // PromptKit 1.5.5's OpenAI provider: strict tools by default, each schema made strict, keys in Go's sorted order.
  assert.ok(
    api.server.requests[0]?.body.toString("utf8").includes(
      '"tools":[{"type":"function","function":{"name":"get_location","description":"The user\'s location.","parameters":{"additionalProperties":false,"properties":{},"required":[],"type":"object"},"strict":true}},' +
        '{"type":"function","function":{"name":"get_weather","description":"Current weather for a city.","parameters":{"additionalProperties":false,"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"},"strict":true}}]',
    ),
    api.server.requests[0]?.body.toString("utf8"),
  );
  assert.deepEqual(first?.tools, [
    { type: "function", function: { name: "get_location", description: "The user's location.", parameters: { type: "object", properties: {}, required: [], additionalProperties: false }, strict: true } },
    { type: "function", function: { name: "get_weather", description: "Current weather for a city.", parameters: { ...WEATHER_SCHEMA, additionalProperties: false }, strict: true } },
  ]);
  assert.deepEqual(second?.messages.slice(2), [
    { role: "tool", tool_call_id: "call_1", content: '{\n  "city": "Paris",\n  "temp": 21\n}' },
    { role: "tool", tool_call_id: "call_2", content: "Tool execution failed: HTTP 503: down" },
    { role: "tool", tool_call_id: "call_3", content: '{"lat":48.85,"lon":2.35}' },
  ]);
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status]).sort(),
    [["call_1", "success"], ["call_2", "error"], ["call_3", "success"]],
  );
});

test("runOpenAiToolCalls: one round of the turn, so the third identical call is not executed", async () => {
  const { executor, backend } = await weatherTools();
  const turn = createTurn(executor);
  const round = await runOpenAiToolCalls(turn, { tool_calls: [1, 2, 3].map((i) => call(`c${i}`, "get_weather", '{"city":"Paris"}')) });
  assert.equal(backend.count(), 2);
  assert.deepEqual(round.pending, []);
  assert.deepEqual(round.messages.map((m) => [m.tool_call_id, m.content.slice(0, 40)]), [
    ["c3", 'Repeated call ignored: "get_weather" has'],
    ["c1", '{\n  "city": "Paris",\n  "temp": 21\n}'],
    ["c2", '{\n  "city": "Paris",\n  "temp": 21\n}'],
  ]);
});

test("fromOpenAiToolCalls keeps the model's argument text, skips custom tool calls, and names a malformed entry", () => {
  assert.deepEqual(fromOpenAiToolCalls({ tool_calls: [call("a", "x", '{"k": 1}'), { id: "b", type: "custom" }] }), [{ id: "a", name: "x", arguments: '{"k": 1}' }]);
  assert.deepEqual(fromOpenAiToolCalls({ tool_calls: null }), []);
  assert.throws(() => fromOpenAiToolCalls({ tool_calls: [{ id: 7, type: "function", function: { name: "x", arguments: "{}" } } as never] }), {
    name: "InvalidOptionError",
    message: "fromOpenAiToolCalls: tool_calls[0] must be { id: string, function: { name: string, arguments } }",
  });
  assert.throws(() => fromOpenAiToolCalls(null as never), (e: unknown) => e instanceof InvalidOptionError && e.message === "fromOpenAiToolCalls: message must be an assistant message object; got null");
  assert.deepEqual(toOpenAiToolMessages([{ callId: "a", content: "t" }]), [{ role: "tool", tool_call_id: "a", content: "t" }]);
  assert.deepEqual(toOpenAiTools([{ name: "n", description: "", inputSchema: {} }], { strict: false }), [{ type: "function", function: { name: "n", description: "", parameters: {} } }]);
});

test("toOpenAiTools: PromptKit 1.5.5's ensureStrictSchema (nested objects, items, bare objects, every property required and sorted); { strict: false } sends the schema unchanged", () => {
  const schema = {
    type: "object",
    required: ["b"],
    properties: {
      b: { type: "string", description: "<b>" },
      a: { type: "object", properties: { z: { type: "number" }, y: { type: "array", items: { type: "object" } } } },
      list: { type: "array", items: { type: "object", properties: { q: { type: "boolean" } } } },
      free: { type: "object", additionalProperties: true },
      anyOf: { anyOf: [{ type: "object", properties: { k: { type: "string" } } }] },
    },
  };
  const [strict] = toOpenAiTools([{ name: "t", description: "d", inputSchema: schema }]);
  assert.equal(
    JSON.stringify(strict),
    '{"type":"function","function":{"name":"t","description":"d","parameters":{"additionalProperties":false,"properties":{' +
      '"a":{"additionalProperties":false,"properties":{"y":{"items":{"additionalProperties":false,"properties":{},"required":[],"type":"object"},"type":"array"},"z":{"type":"number"}},"required":["y","z"],"type":"object"},' +
      '"anyOf":{"anyOf":[{"properties":{"k":{"type":"string"}},"type":"object"}]},' +
      '"b":{"description":"<b>","type":"string"},' +
      '"free":{"additionalProperties":false,"properties":{},"required":[],"type":"object"},' +
      '"list":{"items":{"additionalProperties":false,"properties":{"q":{"type":"boolean"}},"required":["q"],"type":"object"},"type":"array"}' +
      '},"required":["a","anyOf","b","free","list"],"type":"object"},"strict":true}}',
  );
  assert.deepEqual(schema.required, ["b"], "the offered schema is not changed");
  assert.deepEqual(toOpenAiTools([{ name: "t", description: "d", inputSchema: schema }], { strict: false }), [{ type: "function", function: { name: "t", description: "d", parameters: schema } }]);
  assert.throws(() => toOpenAiTools([], { strict: "yes" as never }), { name: "InvalidOptionError", message: 'toOpenAiTools: strict must be true, false or "nullable"; got "yes"' });
});

test("examples/openai.ts: once every tool is excluded (two failures), the next request sends no tools key; the history keeps the tool messages", async () => {
  const { executor } = await failingWeather();
  const api = await modelApi([
    completion({ content: null, tool_calls: [call("call_1", "get_weather", '{"city":"Oslo"}')] }, "tool_calls"),
    completion({ content: null, tool_calls: [call("call_2", "get_weather", '{"city":"Oslo"}')] }, "tool_calls"),
    completion({ content: "The weather service is down." }, "stop"),
  ]);
  const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${api.url}/v1`, maxRetries: 0 });
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Oslo?" }];
  const text = await answer(openai, executor, SESSION, messages, () => Promise.reject(new Error("no client tool")));
  assert.equal(text, "The weather service is down.");
  const bodies = api.bodies() as Record<string, unknown>[];
  assert.deepEqual(bodies.map((b) => Object.keys(b).sort()), [["messages", "model", "tools"], ["messages", "model", "tools"], ["messages", "model"]]);
  assert.deepEqual((bodies[2]?.["messages"] as { role: string }[]).map((m) => m.role), ["user", "assistant", "tool", "assistant", "tool"]);
});

test("approvals through the real openai client: the round returns the held call, the person's decision becomes its tool message in the next request", async () => {
  const { executor, backend, recorder } = await weatherTools();
  const api = await modelApi([
    completion({ content: null, tool_calls: [call("call_1", "get_weather", '{"city":"Paris"}'), call("call_2", "get_weather", '{"city":"Oslo"}')] }, "tool_calls"),
    completion({ content: "Done." }, "stop"),
  ]);
  const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${api.url}/v1`, maxRetries: 0 });
  const turn = createTurn(executor, { pack: SESSION.pack, prompt: SESSION.prompt, ctx: { identity: SESSION.identity }, approval: (c) => (c.arguments.includes("Oslo") ? { reason: "travel", message: "Oslo needs a manager" } : false) });
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris and Oslo?" }];
  const first = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: toOpenAiTools(turn.tools) });
  const message = first.choices[0]!.message;
  const round = await runOpenAiToolCalls(turn, message);
  assert.deepEqual(round.approvals, [{ callId: "call_2", name: "get_weather", argumentsJson: '{"city":"Oslo"}', reason: "travel", message: "Oslo needs a manager" }]);
  assert.deepEqual(round.messages.map((m) => m.tool_call_id), ["call_1"]);
  const decided = await turn.deny("call_2", "the manager said no");
  messages.push(message, ...round.messages, ...toOpenAiToolMessages([decided]));
  await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: toOpenAiTools(turn.tools) });
  const second = api.bodies()[1] as { messages: unknown[] };
  assert.deepEqual(second.messages.slice(2), [
    { role: "tool", tool_call_id: "call_1", content: '{\n  "city": "Paris",\n  "temp": 21\n}' },
    { role: "tool", tool_call_id: "call_2", content: "Tool call rejected: the manager said no" },
  ]);
  assert.deepEqual(backend.requests.map((r) => r.body), ['{"city":"Paris"}']);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.approval]), [["call_1", "success", undefined], ["call_2", "denied", "denied"]]);
});

test('strict: "nullable": optional properties become nullable in the request the real client sends; the nulls the model gives them never reach the backend', async () => {
  const schema = {
    type: "object",
    required: ["city"],
    properties: {
      city: { type: "string" },
      units: { type: "string", enum: ["metric", "imperial"] },
      days: { type: "integer" },
      note: { type: ["string", "null"] },
      when: { anyOf: [{ type: "string" }, { type: "integer" }] },
      place: { type: "object", properties: { lat: { type: "number" }, label: { type: "string" } }, required: ["lat"] },
    },
  };
  const [tool] = toOpenAiTools([{ name: "get_weather", description: "d", inputSchema: schema }], { strict: "nullable" });
  assert.equal(
    JSON.stringify(tool?.function.parameters),
    '{"additionalProperties":false,"properties":{' +
      '"city":{"type":"string"},' +
      '"days":{"type":["integer","null"]},' +
      '"note":{"type":["string","null"]},' +
      '"place":{"additionalProperties":false,"properties":{"label":{"type":["string","null"]},"lat":{"type":"number"}},"required":["label","lat"],"type":["object","null"]},' +
      '"units":{"enum":["metric","imperial",null],"type":["string","null"]},' +
      '"when":{"anyOf":[{"anyOf":[{"type":"string"},{"type":"integer"}]},{"type":"null"}]}' +
      '},"required":["city","days","note","place","units","when"],"type":"object"}',
  );

  const backend = await startHttpToolBackend({ routes: { "POST /weather": (req) => ({ got: req.json as JsonValue }) } });
  after(() => backend.close());
  const registry = loadToolRegistry(`handlers:
  - name: w
    type: http
    tool:
      name: get_weather
      description: d
      inputSchema: ${JSON.stringify(schema)}
    httpConfig: { endpoint: ${backend.url}/weather, method: POST }
`);
  const executor = createToolExecutor({ registry, clock: createManualClock(0) });
  after(() => executor.close());
  const api = await modelApi([
    completion({ content: null, tool_calls: [call("c1", "get_weather", '{"city":"Paris","units":null,"days":null,"note":null,"when":null,"place":{"lat":1.5,"label":null}}'), call("c2", "get_weather", '{"city":"Oslo","units":"metric","days":2,"note":"x","when":3,"place":null}')] }, "tool_calls"),
  ]);
  const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${api.url}/v1`, maxRetries: 0 });
  const turn = createTurn(executor);
  const completionReply = await openai.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "weather" }], tools: toOpenAiTools(turn.tools, { strict: "nullable" }) });
  const round = await runOpenAiToolCalls(turn, completionReply.choices[0]!.message, { strict: "nullable" });
  assert.equal(round.messages.length, 2);
  // note allows null in the registry's own schema: its null is the model's answer and stays.
  assert.deepEqual(backend.requests.map((r) => r.body), ['{"city":"Paris","note":null,"place":{"lat":1.5}}', '{"city":"Oslo","days":2,"note":"x","units":"metric","when":3}']);
  await assert.rejects(runOpenAiToolCalls(turn, {}, { strict: "maybe" as never }), { name: "InvalidOptionError", message: 'runOpenAiToolCalls: strict must be true, false or "nullable"; got "maybe"' });
});

test('strict: "nullable" keeps a null the tool\'s own schema may accept ({}, const null, $ref, allOf, not)', async () => {
  const schema = {
    type: "object",
    $defs: { maybe: { type: ["string", "null"] } },
    properties: { any: {}, constNull: { const: null }, ref: { $ref: "#/$defs/maybe" }, all: { allOf: [{ type: ["string", "null"] }] }, not: { not: { type: "string" } }, gone: { type: "string" } },
  };
  const backend = await startHttpToolBackend({ routes: { "POST /t": { ok: true } } });
  after(() => backend.close());
  const registry = loadToolRegistry({ handlers: [{ name: "t", type: "http", tool: { name: "t", description: "d", inputSchema: schema }, httpConfig: { endpoint: `${backend.url}/t`, method: "POST" } }] });
  const executor = createToolExecutor({ registry, clock: createManualClock(0) });
  after(() => executor.close());
  // What the turn is given, before PromptKit's own coercion (which drops an optional property's null itself).
  const given: string[] = [];
  const turn = createTurn(executor);
  const seen = { ...turn, run: (calls: Parameters<typeof turn.run>[0]) => (given.push(...calls.map((c) => String(c.arguments))), turn.run(calls)) } as typeof turn;
  Object.defineProperty(seen, "tools", { get: () => turn.tools });
  await runOpenAiToolCalls(seen, { tool_calls: [call("c", "t", '{"all":null,"any":null,"constNull":null,"gone":null,"not":null,"ref":null}')] }, { strict: "nullable" });
  assert.deepEqual(given, ['{"all":null,"any":null,"constNull":null,"not":null,"ref":null}']);
});
