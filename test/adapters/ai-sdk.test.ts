// The AI SDK's generateText loop with MockLanguageModelV3 (from ai/test):
// examples/ai-sdk.ts (the README snippet) calls an http tool on a loopback
// backend through the tool set's execute, gets a client tool handed back to
// the app, and the model reads the stage's exact texts. Each AI SDK step is one
// round of one turn: the parallel limit and the identical-call guard hold
// across the AI SDK's parallel executions.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { generateText, stepCountIs, streamText, type ModelMessage } from "ai";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { answer } from "../../examples/ai-sdk.js";
import { createToolExecutor, loadPromptPack, loadToolRegistry, type ClientToolRequest } from "../../src/index.js";
import { clientToolCalls, completeClientToolCalls, offeredToolNames, responseMessages, toAiSdkTools, turnFailure } from "../../src/ai-sdk.js";
import { createManualClock, MemoryRecorder, startHttpToolBackend } from "../../src/testing/index.js";
import { idle, until } from "../turn/fixture.js";
import { SESSION, weatherTools, WEATHER_SCHEMA } from "./fixture.js";

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

function step(content: LanguageModelV3Content[]): LanguageModelV3GenerateResult {
  const calls = content.some((c) => c.type === "tool-call");
  return { content, finishReason: { unified: calls ? "tool-calls" : "stop", raw: calls ? "tool_calls" : "stop" }, usage, warnings: [] };
}

const toolCall = (toolCallId: string, toolName: string, input: string): LanguageModelV3Content => ({ type: "tool-call", toolCallId, toolName, input });

/** A mock model answering each doGenerate call with the next step, recording every prompt. */
function scripted(steps: readonly LanguageModelV3GenerateResult[]): { model: MockLanguageModelV3; calls: LanguageModelV3CallOptions[] } {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const next = steps[calls.length - 1];
      if (next === undefined) throw new Error(`no scripted step ${calls.length}`);
      return next;
    },
  });
  return { model, calls };
}

/** The tool results of a prompt's last tool message, as [id, output]. */
function lastToolResults(options: LanguageModelV3CallOptions | undefined): unknown[] {
  const tool = [...(options?.prompt ?? [])].reverse().find((m) => m.role === "tool");
  return tool === undefined || tool.role !== "tool" ? [] : tool.content.map((p) => (p.type === "tool-result" ? [p.toolCallId, p.output] : p.type));
}

test("examples/ai-sdk.ts: server tools run inside generateText, the client tool is handed back, and the model reads the exact texts", async () => {
  const { executor, backend, recorder } = await weatherTools();
  const { model, calls } = scripted([
    step([toolCall("call_1", "get_weather", '{"city":"Paris"}'), toolCall("call_2", "get_weather", '{"city":"Oslo"}'), toolCall("call_3", "get_location", "{}")]),
    step([{ type: "text", text: "Paris is at 21 degrees; Oslo's weather service is down." }]),
  ]);
  const asked: ClientToolRequest[] = [];
  const messages: ModelMessage[] = [{ role: "user", content: "Weather here, in Paris and in Oslo?" }];

  const text = await answer(model, executor, SESSION, messages, async (request) => {
    asked.push(request);
    return { callId: request.callId, resultJson: '{"lat":48.85,"lon":2.35}' };
  });

  assert.equal(text, "Paris is at 21 degrees; Oslo's weather service is down.");
  assert.deepEqual(asked, [{ callId: "call_3", name: "get_location", argumentsJson: "{}", consentMessage: 'Client tool "get_location" awaiting caller fulfillment' }]);
  assert.deepEqual(backend.requests.map((r) => r.body).sort(), ['{"city":"Oslo"}', '{"city":"Paris"}']);
  assert.equal(calls.length, 2);
  // The offered tools, as the provider receives them.
  assert.deepEqual(
    calls[0]?.tools?.map((t) => (t.type === "function" ? [t.name, t.description, t.inputSchema] : t.type)),
    [
      ["get_location", "The user's location.", { type: "object" }],
      ["get_weather", "Current weather for a city.", WEATHER_SCHEMA],
    ],
  );
  // The second generateText call (after the client's answer) sends every result as text.
  const prompt = calls[1]?.prompt.filter((m) => m.role === "tool") ?? [];
  assert.deepEqual(
    prompt.flatMap((m) => (m.role === "tool" ? m.content.map((p) => (p.type === "tool-result" ? [p.toolCallId, p.output] : p.type)) : [])),
    [
      ["call_1", { type: "text", value: '{\n  "city": "Paris",\n  "temp": 21\n}' }],
      ["call_2", { type: "text", value: "Tool execution failed: HTTP 503: down" }],
      ["call_3", { type: "text", value: '{"lat":48.85,"lon":2.35}' }],
    ],
  );
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status]).sort(),
    [["call_1", "success"], ["call_2", "error"], ["call_3", "success"]],
  );
});

test("examples/ai-sdk.ts: a turn of two steps in one generateText keeps the whole history (the tool call and its result too)", async () => {
  const { executor } = await weatherTools();
  const { model } = scripted([step([toolCall("call_1", "get_weather", '{"city":"Paris"}')]), step([{ type: "text", text: "21 degrees in Paris." }])]);
  const messages: ModelMessage[] = [{ role: "user", content: "Weather in Paris?" }];
  const text = await answer(model, executor, SESSION, messages, () => Promise.reject(new Error("no client tool")));
  assert.equal(text, "21 degrees in Paris.");
  // ai 6 keeps every step's messages in response.messages, ai 7 in responseMessages: responseMessages() reads either.
  assert.deepEqual(
    messages.map((m) => [m.role, typeof m.content === "string" ? m.content : m.content.map((p) => p.type)]),
    [
      ["user", "Weather in Paris?"],
      ["assistant", ["tool-call"]],
      ["tool", ["tool-result"]],
      ["assistant", ["text"]],
    ],
  );
});

test("responseMessages: responseMessages when the result has it (ai 7), else response.messages (ai 6)", () => {
  const a = { role: "assistant" } as const;
  const t = { role: "tool" } as const;
  assert.deepEqual(responseMessages({ response: { messages: [a, t] } }), [a, t]);
  assert.deepEqual(responseMessages({ responseMessages: [a, t], response: { messages: [t] } }), [a, t]);
});

test("one step is one round: the third identical call of a step is not executed, whatever order the AI SDK runs execute in", async () => {
  const { executor, backend } = await weatherTools();
  const tools = await toAiSdkTools(executor);
  const { model, calls } = scripted([step([1, 2, 3].map((i) => toolCall(`c${i}`, "get_weather", '{"city":"Paris"}'))), step([{ type: "text", text: "done" }])]);
  const result = await generateText({ model, tools, prompt: "weather", stopWhen: stepCountIs(5) });
  assert.equal(result.text, "done");
  assert.equal(backend.count(), 2);
  const results = lastToolResults(calls[1]) as [string, { type: string; value: string }][];
  assert.deepEqual(results.map(([id, o]) => [id, o.type, o.value.slice(0, 40)]), [
    ["c1", "text", '{\n  "city": "Paris",\n  "temp": 21\n}'],
    ["c2", "text", '{\n  "city": "Paris",\n  "temp": 21\n}'],
    ["c3", "text", 'Repeated call ignored: "get_weather" has'],
  ]);
  assert.deepEqual(await clientToolCalls(tools), []);
  assert.equal(turnFailure(tools), undefined);
});

test("maxParallelCalls holds across the AI SDK's parallel executes: with 1, the second request starts when the first ends", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const backend = await startHttpToolBackend({ clock, routes: { "POST /weather": { temp: 21 } }, faults: { "POST /weather": { kind: "latency", ms: 100 } } });
  const registry = loadToolRegistry(`handlers:
  - name: weather
    type: http
    tool: { name: get_weather, description: w, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/weather", method: POST }
`);
  const executor = createToolExecutor({ registry, clock });
  try {
    const tools = await toAiSdkTools(executor, { maxParallelCalls: 1 });
    const { model } = scripted([step([toolCall("a", "get_weather", '{"n":1}'), toolCall("b", "get_weather", '{"n":2}')]), step([{ type: "text", text: "done" }])]);
    const running = generateText({ model, tools, prompt: "weather", stopWhen: stepCountIs(5) });
    await until(() => backend.count() === 1, "the first request");
    await idle();
    assert.equal(backend.count(), 1, "one call in flight");
    await clock.advanceAsync(100);
    await until(() => backend.count() === 2, "the second request");
    assert.deepEqual(backend.requests.map((r) => r.body), ['{"n":1}', '{"n":2}']);
    await clock.advanceAsync(100);
    assert.equal((await running).text, "done");
  } finally {
    await executor.close();
    await backend.close();
  }
});

test("a pack limits the tool set to the prompt's served tools, and a handed-back call that fails its checks gets the error text", async () => {
  const { executor } = await weatherTools();
  const pack = loadPromptPack(
    JSON.stringify({
      prompts: { support: { tools: ["get_location", "search_kb"] } },
      tools: { get_location: { name: "get_location", description: "Where the user is.", parameters: { type: "object", properties: { precise: { type: "boolean" } }, required: ["precise"] } } },
    }),
  );
  const tools = await toAiSdkTools(executor, { pack });
  assert.deepEqual(Object.keys(tools), ["get_location"]);
  assert.deepEqual(offeredToolNames(tools), ["get_location"]);
  assert.equal(tools["get_location"]?.execute, undefined);
  const { model, calls } = scripted([step([toolCall("c1", "get_location", "{}")])]);
  const result = await generateText({ model, tools, prompt: "where am I" });
  assert.deepEqual(result.toolCalls.map((c) => c.toolCallId), ["c1"]);
  assert.equal(calls[0]?.tools?.[0]?.type === "function" && calls[0].tools[0].description, "Where the user is.");
  assert.deepEqual(await clientToolCalls(tools), []);
  assert.deepEqual(completeClientToolCalls(tools, []), {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "get_location",
        output: { type: "text", value: "Error: tool get_location validation error (args_invalid): argument validation failed: [(root): precise is required]" },
      },
    ],
  });
});

test("the helpers refuse a tool set that toAiSdkTools did not build, and toAiSdkTools names an unknown option", async () => {
  const { executor } = await weatherTools();
  assert.throws(() => turnFailure({}), { name: "InvalidOptionError", message: "turnFailure: tools must be a tool set from toAiSdkTools()" });
  assert.throws(() => completeClientToolCalls({}, []), { message: "completeClientToolCalls: tools must be a tool set from toAiSdkTools()" });
  await assert.rejects(toAiSdkTools(executor, { identity: {} } as never), {
    name: "InvalidOptionError",
    message: 'toAiSdkTools: unknown option "identity"; expected one of pack, prompt, ctx, maxParallelCalls, maxResultBytes, repeatThreshold, maxRounds, logger, promptkit, maxToolCalls, approval, resultBudget, refresh',
  });
});

test("where PromptKit fails the turn, the round's execute rejects with the TurnError and turnFailure stops the loop", async () => {
  const { executor } = await weatherTools();
  const tools = await toAiSdkTools(executor, { maxRounds: 1 });
  const { model, calls } = scripted([step([toolCall("c1", "get_weather", '{"city":"Paris"}')]), step([{ type: "text", text: "never" }])]);
  const result = await generateText({ model, tools, prompt: "weather", stopWhen: [stepCountIs(5), () => turnFailure(tools) !== undefined] });
  assert.equal(calls.length, 1);
  assert.deepEqual(
    result.steps[0]?.content.map((c) => (c.type === "tool-error" ? [c.toolCallId, (c.error as Error).name, (c.error as Error).message] : c.type)),
    ["tool-call", ["c1", "TurnError", "provider stage: max rounds (1) exceeded"]],
  );
  assert.equal((turnFailure(tools) as Error).message, "provider stage: max rounds (1) exceeded");
});

test("the AI SDK's abortSignal reaches the executor: aborting mid-call abandons the request and the call rejects with AbortedError", async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const backend = await startHttpToolBackend({ clock, routes: { "POST /weather": { temp: 21 } }, faults: { "POST /weather": { kind: "latency", ms: 1000 } } });
  const registry = loadToolRegistry(`handlers:
  - name: weather
    type: http
    tool: { name: get_weather, description: w, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/weather", method: POST }
`);
  const executor = createToolExecutor({ registry, clock });
  try {
    const tools = await toAiSdkTools(executor);
    const execute = tools["get_weather"]?.execute;
    assert.ok(execute);
    const controller = new AbortController();
    const running = Promise.resolve(execute({}, { toolCallId: "c1", messages: [], abortSignal: controller.signal }));
    await until(() => backend.count() === 1, "the request");
    controller.abort();
    await assert.rejects(running, { name: "AbortedError" });
  } finally {
    await executor.close();
    await backend.close();
  }
});

test("streamText: the calls that stream in together are one round, and the next step reads the exact texts", async () => {
  const { executor, backend } = await weatherTools();
  // Two rounds would end the turn at its limit: the two streamed calls must be one.
  const tools = await toAiSdkTools(executor, { maxRounds: 2 });
  const prompts: LanguageModelV3CallOptions[] = [];
  const finish = (unified: "tool-calls" | "stop"): LanguageModelV3StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
  const streams: LanguageModelV3StreamPart[][] = [
    [
      { type: "tool-call", toolCallId: "s1", toolName: "get_weather", input: '{"city":"Paris"}' },
      { type: "tool-call", toolCallId: "s2", toolName: "get_weather", input: '{"city":"Oslo"}' },
      finish("tool-calls"),
    ],
    [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" }, { type: "text-end", id: "t" }, finish("stop")],
  ];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      prompts.push(options);
      return { stream: convertArrayToReadableStream(streams[prompts.length - 1] ?? [finish("stop")]) };
    },
  });
  const result = streamText({ model, tools, prompt: "weather", stopWhen: stepCountIs(5) });
  assert.equal(await result.text, "done");
  assert.equal(backend.count(), 2);
  assert.deepEqual(lastToolResults(prompts[1]), [
    ["s1", { type: "text", value: '{\n  "city": "Paris",\n  "temp": 21\n}' }],
    ["s2", { type: "text", value: "Tool execution failed: HTTP 503: down" }],
  ]);
  assert.equal(turnFailure(tools), undefined);
});

test("a server call the AI SDK does not execute (finish reason length) never reaches the backend", async () => {
  const { executor, backend } = await weatherTools();
  const tools = await toAiSdkTools(executor);
  const { model } = scripted([{ ...step([toolCall("c1", "get_weather", '{"city":"Paris"}')]), finishReason: { unified: "length", raw: "length" } }]);
  const result = await generateText({ model, tools, prompt: "weather", stopWhen: stepCountIs(5) });
  assert.deepEqual(result.toolCalls.map((c) => c.toolCallId), ["c1"]);
  assert.deepEqual(result.toolResults, []);
  assert.deepEqual(await clientToolCalls(tools), []);
  assert.equal(backend.count(), 0);
});

test("an answer to a call that is not pending throws UnknownClientCallError before any answer is recorded", async () => {
  const { executor, recorder } = await weatherTools();
  const tools = await toAiSdkTools(executor, { ctx: { clientToolsAvailable: true } });
  const { model } = scripted([step([toolCall("c1", "get_location", "{}")])]);
  await generateText({ model, tools, prompt: "where" });
  assert.deepEqual((await clientToolCalls(tools)).map((r) => r.callId), ["c1"]);
  assert.throws(() => completeClientToolCalls(tools, [{ callId: "c1", resultJson: "{}" }, { callId: "nope", resultJson: "{}" }]), { name: "UnknownClientCallError" });
  assert.deepEqual(recorder.records.map((r) => r.callId), []);
  assert.deepEqual(completeClientToolCalls(tools, [{ callId: "c1", resultJson: '"here"' }]).content, [
    { type: "tool-result", toolCallId: "c1", toolName: "get_location", output: { type: "text", value: '"here"' } },
  ]);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]), [["c1", "success"]]);
});

test("without a connected client, a client tool's call is refused by the executor and its result is the refusal text", async () => {
  const { executor, recorder } = await weatherTools();
  const tools = await toAiSdkTools(executor);
  const { model } = scripted([step([toolCall("c1", "get_location", "{}")])]);
  await generateText({ model, tools, prompt: "where" });
  assert.deepEqual(await clientToolCalls(tools), []);
  const reply = completeClientToolCalls(tools, []);
  assert.deepEqual(reply.content.map((p) => (p.type === "tool-result" ? [p.toolCallId, p.output] : p.type)), [
    ["c1", { type: "text", value: "Tool rejected: no client available to execute client-side tools" }],
  ]);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]), [["c1", "denied"]]);
});

test("a tool whose results were errors twice leaves offeredToolNames, and prepareStep's activeTools passes that on to the model", async () => {
  const { executor } = await weatherTools();
  const tools = await toAiSdkTools(executor, { pack: SESSION.pack, prompt: SESSION.prompt });
  assert.deepEqual(offeredToolNames(tools), ["get_location", "get_weather"]);
  const { model, calls } = scripted([step([toolCall("c1", "get_weather", '{"city":"Oslo"}'), toolCall("c2", "get_weather", '{"city":"Oslo"}')]), step([{ type: "text", text: "down" }])]);
  const result = await generateText({ model, tools, prompt: "weather", stopWhen: stepCountIs(5), prepareStep: () => ({ activeTools: offeredToolNames(tools) }) });
  assert.equal(result.text, "down");
  assert.deepEqual(offeredToolNames(tools), ["get_location"]);
  assert.deepEqual(calls.map((c) => c.tools?.map((t) => t.name)), [["get_location", "get_weather"], ["get_location"]]);
});

test("approval through the AI SDK's own flow: generateText stops with a tool-approval-request; approved, the call runs and is recorded approved; denied, it never reaches the backend", async () => {
  const { executor, backend, recorder } = await weatherTools();
  const { model, calls } = scripted([
    step([toolCall("call_1", "get_weather", '{"city":"Paris"}'), toolCall("call_2", "get_weather", '{"city":"Lyon"}'), toolCall("call_3", "get_weather", '{"city":"Nice"}')]),
    step([{ type: "text", text: "Paris is at 21 degrees." }]),
  ]);
  const tools = await toAiSdkTools(executor, { pack: SESSION.pack, prompt: SESSION.prompt, ctx: { identity: SESSION.identity }, approval: (c) => !c.arguments.includes("Nice") });
  const messages: ModelMessage[] = [{ role: "user", content: "Weather in Paris and Lyon?" }];
  const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
  const requests = first.content.filter((p) => p.type === "tool-approval-request") as unknown as { approvalId: string; toolCall: { toolCallId: string } }[];
  assert.deepEqual(requests.map((r) => r.toolCall.toolCallId), ["call_1", "call_2"]);
  // Only the call the gate let through ran; the held ones wait for the app.
  assert.deepEqual(backend.requests.map((r) => r.body), ['{"city":"Nice"}']);
  messages.push(...responseMessages(first));
  messages.push({
    role: "tool",
    content: [
      { type: "tool-approval-response", approvalId: requests[0]!.approvalId, approved: true },
      { type: "tool-approval-response", approvalId: requests[1]!.approvalId, approved: false, reason: "not now" },
    ],
  } as ModelMessage);
  const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
  assert.equal(second.text, "Paris is at 21 degrees.");
  assert.deepEqual(backend.requests.map((r) => r.body), ['{"city":"Nice"}', '{"city":"Paris"}']);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.approval]), [["call_3", "success", undefined], ["call_1", "success", "approved"]]);
  // The model reads the turn's text for the approved call.
  const results = (calls[1]?.prompt ?? []).flatMap((m) => (m.role === "tool" ? m.content.map((p) => (p.type === "tool-result" ? [p.toolCallId, p.output.type] : p.type)) : []));
  assert.deepEqual(results.find((r) => Array.isArray(r) && r[0] === "call_1"), ["call_1", "text"]);
  assert.deepEqual(results.find((r) => Array.isArray(r) && r[0] === "call_2"), ["call_2", "execution-denied"]);
});

test("streamText: an ungated call that reuses a gated call's id never makes the gated call run unapproved", async () => {
  const backend = await startHttpToolBackend({ routes: { "POST /refund": { refunded: true }, "POST /lookup": { ok: true } } });
  after(() => backend.close());
  const registry = loadToolRegistry(`handlers:
  - name: refund
    type: http
    tool: { name: refund, description: refunds, inputSchema: { type: object, properties: { amount: { type: integer } } } }
    httpConfig: { endpoint: "${backend.url}/refund", method: POST }
  - name: lookup
    type: http
    tool: { name: lookup, description: looks up, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/lookup", method: POST }
`);
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry, recorder, clock: createManualClock(0) });
  after(() => executor.close());
  const tools = await toAiSdkTools(executor, { approval: ["refund"] });
  const finish = (unified: "tool-calls" | "stop"): LanguageModelV3StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
  const streams: LanguageModelV3StreamPart[][] = [
    [{ type: "tool-call", toolCallId: "dup", toolName: "refund", input: '{"amount":1000000}' }, { type: "tool-call", toolCallId: "dup", toolName: "lookup", input: "{}" }, finish("tool-calls")],
    [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" }, { type: "text-end", id: "t" }, finish("stop")],
  ];
  let n = 0;
  const model = new MockLanguageModelV3({ doStream: async () => ({ stream: convertArrayToReadableStream(streams[n++] ?? [finish("stop")]) }) });
  await streamText({ model, tools, prompt: "go", stopWhen: stepCountIs(3) }).consumeStream();
  // The refund was held and nobody approved it: the lookup's execute (same id) must not run it.
  assert.deepEqual(backend.requests.filter((r) => r.path === "/refund"), []);
  assert.deepEqual(recorder.records.filter((r) => r.toolName === "refund"), []);
});

test("the AI SDK's abort reaches an executing call whose id a gated, unexecuted call also used", { timeout: 20_000 }, async () => {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const backend = await startHttpToolBackend({ clock, routes: { "POST /lookup": { ok: true } }, faults: { "POST /lookup": { kind: "latency", ms: 1000 } } });
  after(() => backend.close());
  const registry = loadToolRegistry(`handlers:
  - name: refund
    type: http
    tool: { name: refund, description: r, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/refund", method: POST }
  - name: lookup
    type: http
    tool: { name: lookup, description: l, inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/lookup", method: POST }
`);
  const executor = createToolExecutor({ registry, clock });
  after(() => executor.close());
  type Hooks = { onInputAvailable?: (o: unknown) => unknown; needsApproval?: (i: unknown, o: unknown) => unknown; execute?: (i: unknown, o: unknown) => unknown };
  const tools = (await toAiSdkTools(executor, { approval: ["refund"] })) as unknown as Record<string, Hooks>;
  const controller = new AbortController();
  const o = { toolCallId: "dup", messages: [], abortSignal: controller.signal };
  // As streamText does it: each call's input, then its approval question; only the ungated one executes.
  await tools["refund"]!.onInputAvailable!({ input: {}, ...o });
  assert.equal(await tools["refund"]!.needsApproval!({}, o), true);
  await tools["lookup"]!.onInputAvailable!({ input: {}, ...o });
  assert.equal(await tools["lookup"]!.needsApproval!({}, o), false);
  const running = Promise.resolve(tools["lookup"]!.execute!({}, o));
  running.catch(() => undefined);
  await until(() => backend.count() === 1, "the lookup request");
  controller.abort();
  await assert.rejects(running, (e: unknown) => e instanceof Error && e.name === "AbortedError");
  assert.equal(backend.requests.some((r) => r.path === "/refund"), false);
});
