// Converse over a real HTTP/2 server on 127.0.0.1, with a connect gRPC client
// as the facade. contract.md §5.4 vectors S2–S13 (adjusted for 1.9.0 per §5.5)
// and the 1.9.0 additions: heartbeats, identity and facade-hop keys,
// record sequence, finish_reason, call-id matching, no-client denial.
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError, encodeBinaryHeader } from "@connectrpc/connect";
import { createManualClock } from "../src/testing/index.js";
import { toOutboundHeaders } from "../src/headers/index.js";
import { ConverseStateError, type ClientToolReply, type RuntimeHandler, type Turn } from "../src/runtime/index.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { converse, frameCases, frameJson, openConverse, startRuntime, type StartedRuntime } from "./helpers/runtime-client.js";

const CAPS = ["client_tools", "invoke"];
const HELLO = { runtimeHello: { capabilities: CAPS } };
const CLIENT_TOOLS = { "x-omnia-client-tools": "true" };

let running: StartedRuntime[] = [];
afterEach(async () => {
  for (const r of running) await r.close();
  running = [];
});

async function start(handler: Omit<RuntimeHandler, "capabilities" | "invoke"> & Partial<RuntimeHandler>, options: Parameters<typeof startRuntime>[1] = {}): Promise<StartedRuntime> {
  const r = await startRuntime({ capabilities: () => CAPS, invoke: () => ({ outputJson: "{}" }), ...handler }, options);
  running.push(r);
  return r;
}

/** A promise with its resolver, to step a handler from the test. */
function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("Converse: contract.md §5.4 vectors", () => {
  test("S2: hello(caps), chunks, done with usage; stream OK", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.chunk("hello ");
        await emit.chunk("world");
        await emit.done({ finalContent: "hello world", usage: { inputTokens: 3, outputTokens: 2 } });
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "hi" }]);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.frames.map(frameJson), [
      HELLO,
      { chunk: { content: "hello " } },
      { chunk: { content: "world" } },
      { done: { finalContent: "hello world", usage: { inputTokens: 3, outputTokens: 2 } } },
    ]);
  });

  test("S3: a handler that returns without done gets an empty done", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.chunk("partial");
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "hi" }]);
    assert.deepEqual(r.frames.map(frameJson), [HELLO, { chunk: { content: "partial" } }, { done: {} }]);
    assert.equal(r.error, undefined);
  });

  test("S4: chunk('') sends nothing", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.chunk("");
        await emit.done({ finalContent: "x" });
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "hi" }]);
    assert.deepEqual(r.frames.map(frameJson), [HELLO, { done: { finalContent: "x" } }]);
  });

  test("S5: a handler error sends the fixed INTERNAL_ERROR frame, no done, and the stream continues", async () => {
    const logger = createCaptureLogger();
    const { client } = await start(
      {
        async converse(turn, emit) {
          if (turn.content === "boom") throw new Error("secret database password in message");
          await emit.done({ finalContent: "fine" });
        },
      },
      { logger },
    );
    const r = await converse(client, [
      { sessionId: "s1", content: "boom" },
      { sessionId: "s1", content: "next" },
    ]);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.frames.map(frameJson), [
      HELLO,
      { error: { code: "INTERNAL_ERROR", message: "an internal error occurred while processing the message" } },
      { done: { finalContent: "fine" } },
    ]);
    assert.deepEqual(logger.lines, [
      { level: "error", message: "runtime: converse handler failed", fields: { sessionId: "s1", error: "secret database password in message" } },
    ]);
  });

  test("S6: a stream opened with duplex_start gets the hello first, then DUPLEX_UNSUPPORTED; the next text message is a turn", async () => {
    let turns = 0;
    const { client } = await start({
      async converse(_turn, emit) {
        turns++;
        await emit.done();
      },
    });
    const r = await converse(client, [
      { sessionId: "s1", duplexStart: { codec: "pcm", sampleRate: 16000, channels: 1 } },
      { sessionId: "s1", content: "text after" },
    ]);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.frames.map(frameJson), [
      HELLO,
      { error: { code: "DUPLEX_UNSUPPORTED", message: "duplex audio is not supported by this runtime" } },
      { done: {} },
    ]);
    assert.equal(turns, 1);
  });

  test("audio_input without a duplex session is refused with DUPLEX_UNSUPPORTED, never an empty text turn; the log is bounded", async () => {
    const logger = createCaptureLogger();
    const turns: string[] = [];
    const { client } = await start(
      {
        async converse(turn, emit) {
          turns.push(turn.content);
          await emit.done();
        },
      },
      { logger },
    );
    const audio = { sessionId: "s1", audioInput: { data: new Uint8Array([1, 2, 3]) } };
    const r = await converse(client, [...Array.from({ length: 10 }, () => audio), { sessionId: "s1", content: "text after" }]);
    assert.equal(r.error, undefined);
    const refusal = { error: { code: "DUPLEX_UNSUPPORTED", message: "audio_input needs a duplex session, which this runtime does not serve" } };
    assert.deepEqual(r.frames.map(frameJson), [HELLO, ...Array.from({ length: 10 }, () => refusal), { done: {} }]);
    assert.deepEqual(turns, ["text after"]);
    assert.deepEqual(
      logger.lines.map((l) => [l.message, l.fields?.["refused"]]),
      [
        ["runtime: refused audio_input: this runtime serves no duplex session", 1],
        ["runtime: refused audio_input: this runtime serves no duplex session", 10],
      ],
    );
  });

  test("content sent with a client_tool_result is refused with a warning, never silently dropped; the result still answers its call", async () => {
    const logger = createCaptureLogger();
    let reply: ClientToolReply | undefined;
    const { client } = await start(
      {
        async converse(_turn, emit) {
          reply = await emit.toolCall({ callId: "c1", name: "get_location", argumentsJson: "{}" });
          await emit.done({ finalContent: reply.resultJson ?? "" });
        },
      },
      { logger },
    );
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "where am I" });
    await s.until("toolCall");
    s.send({ clientToolResult: { callId: "c1", resultJson: '"Bristol"' }, content: "and also this" });
    assert.deepEqual(frameJson((await s.until("done")).frame), { done: { finalContent: '"Bristol"' } });
    s.send({ clientToolResult: { callId: "late", resultJson: "1" }, parts: [{ text: "a part" }] });
    s.end();
    assert.equal(await s.next(), undefined);
    assert.deepEqual(
      logger.lines.filter((l) => l.level === "warn").map((l) => [l.message, l.fields]),
      [
        ["runtime: refused the content sent with a client_tool_result; send it as its own message", { callId: "c1", contentBytes: 13, parts: 0, refused: 1 }],
        ["runtime: dropped a client_tool_result whose call_id matches no pending tool call", { callId: "late", dropped: 1 }],
      ],
    );
  });

  test("S7: two text messages on one stream get exactly one hello, before the first turn", async () => {
    const { client } = await start({
      async converse(turn, emit) {
        await emit.chunk(turn.content);
        await emit.done();
      },
    });
    const r = await converse(client, [
      { sessionId: "s1", content: "one" },
      { sessionId: "s1", content: "two" },
    ]);
    assert.deepEqual(frameCases(r.frames), ["runtimeHello", "chunk", "done", "chunk", "done"]);
  });

  test("S8: an empty message gets hello and an empty done; the stream ends OK", async () => {
    const { client } = await start({ converse: () => {} });
    const r = await converse(client, [{ sessionId: "s1" }]);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.frames.map(frameJson), [HELLO, { done: {} }]);
  });

  test("S9: toolCall sends a CLIENT tool_call and resolves with the matching client_tool_result", async () => {
    let got: ClientToolReply | undefined;
    const { client } = await start({
      async converse(_turn, emit) {
        got = await emit.toolCall({ callId: "call-1", name: "get_location", argumentsJson: "{}" });
        await emit.done({ finalContent: "ok" });
      },
    });
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "where am I?" });
    assert.deepEqual(frameJson((await s.next())!), HELLO);
    assert.deepEqual(frameJson((await s.next())!), {
      toolCall: { id: "call-1", name: "get_location", argumentsJson: "{}", execution: "TOOL_EXECUTION_CLIENT" },
    });
    s.send({ clientToolResult: { callId: "call-1", resultJson: '{"city":"Bristol"}' } });
    assert.deepEqual(frameJson((await s.next())!), { done: { finalContent: "ok" } });
    s.end();
    assert.equal(await s.next(), undefined);
    assert.deepEqual(got, { callId: "call-1", resultJson: '{"city":"Bristol"}', isRejected: false, rejectionReason: "", isDenied: false });
  });

  test("S9 (consent): consent_message and categories travel on the tool_call", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.toolCall({ callId: "c", name: "read_file", argumentsJson: '{"p":1}', consentMessage: "Allow?", categories: ["filesystem"] });
        await emit.done();
      },
    });
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "x" });
    const { frame } = await s.until("toolCall");
    assert.deepEqual(frameJson(frame), {
      toolCall: { id: "c", name: "read_file", argumentsJson: '{"p":1}', execution: "TOOL_EXECUTION_CLIENT", consentMessage: "Allow?", categories: ["filesystem"] },
    });
    s.send({ clientToolResult: { callId: "c", isRejected: true, isDenied: true, rejectionReason: "user declined" } });
    await s.until("done");
    s.cancel();
  });

  test("S10: a message without client_tool_result while waiting fails the call with FailedPrecondition and is not a turn", async () => {
    let turns = 0;
    let failure: unknown;
    const { client } = await start({
      async converse(_turn, emit) {
        turns++;
        try {
          await emit.toolCall({ callId: "call-1", name: "get_location", argumentsJson: "{}" });
        } catch (err) {
          failure = err;
        }
        await emit.done({ finalContent: "after" });
      },
    });
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "where?" });
    await s.until("toolCall");
    s.send({ sessionId: "s1", content: "not a result" });
    s.end();
    const { frame } = await s.until("done");
    assert.deepEqual(frameJson(frame), { done: { finalContent: "after" } });
    assert.equal(await s.next(), undefined);
    assert.ok(failure instanceof ConnectError);
    assert.equal(failure.code, Code.FailedPrecondition);
    assert.equal(failure.rawMessage, "expected ClientToolResult after ToolCall");
    assert.equal(turns, 1);
  });

  test("S10: uncaught, the failure ends the turn with the INTERNAL_ERROR frame", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.toolCall({ callId: "call-1", name: "get_location", argumentsJson: "{}" });
        await emit.done();
      },
    });
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "where?" });
    await s.until("toolCall");
    s.send({ content: "not a result" });
    s.end();
    assert.deepEqual(frameJson((await s.next())!), { error: { code: "INTERNAL_ERROR", message: "an internal error occurred while processing the message" } });
    assert.equal(await s.next(), undefined);
  });

  test("S11: media sends a media_chunk with the raw bytes", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.media({ mediaId: "m1", sequence: 0, isLast: true, mimeType: "audio/pcm", data: new Uint8Array([1, 2, 3]) });
        await emit.done();
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "x" }]);
    const media = r.frames[1]?.message;
    assert.equal(media?.case, "mediaChunk");
    assert.deepEqual(
      { mediaId: media.value.mediaId, sequence: media.value.sequence, isLast: media.value.isLast, mimeType: media.value.mimeType, data: [...media.value.data] },
      { mediaId: "m1", sequence: 0, isLast: true, mimeType: "audio/pcm", data: [1, 2, 3] },
    );
  });

  test("S12: inbound parts are flattened onto the turn", async () => {
    let turn: Turn | undefined;
    const { client } = await start({
      converse(t) {
        turn = t;
      },
    });
    await converse(client, [
      {
        sessionId: "s1",
        parts: [
          { type: "text", text: "hi" },
          { type: "image", media: { data: "ZGVm", url: "http://x", mimeType: "image/jpeg", storageRef: "omnia://in" } },
        ],
      },
    ]);
    assert.deepEqual(turn?.parts, [
      { type: "text", text: "hi" },
      { type: "image", data: "ZGVm", url: "http://x", mimeType: "image/jpeg", storageRef: "omnia://in" },
    ]);
  });

  test("S13: done parts go out; media only where a media field is set", async () => {
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.done({ parts: [{ type: "text", text: "reply" }, { type: "image", data: "YWJj", mimeType: "image/png", storageRef: "omnia://out" }] });
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "x" }]);
    const done = r.frames[1]?.message;
    assert.equal(done?.case, "done");
    assert.equal(done.value.parts[0]?.media, undefined);
    assert.equal(done.value.parts[0]?.text, "reply");
    assert.equal(done.value.parts[1]?.media?.mimeType, "image/png");
    assert.equal(done.value.parts[1]?.media?.storageRef, "omnia://out");
    assert.equal(done.value.parts[1]?.media?.data, "YWJj");
  });
});

describe("Converse: 1.9.0 additions", () => {
  test("turnText rule through the wire: text parts joined with a blank line; content ignored", async () => {
    const texts: string[] = [];
    const { client } = await start({
      async converse(turn, emit) {
        const { turnText } = await import("../src/runtime/index.js");
        texts.push(turnText(turn));
        await emit.done();
      },
    });
    await converse(client, [
      { sessionId: "s1", content: "ignored", parts: [{ type: "text", text: "a" }, { type: "image", media: { url: "http://x" } }, { type: "text", text: "b" }] },
      { sessionId: "s1", content: "legacy", parts: [{ type: "image", media: { url: "http://x" } }] },
    ]);
    assert.deepEqual(texts, ["a\n\nb", "legacy"]);
  });

  test("record_sequence_base reaches the turn; done carries record_sequence_high_water and finish_reason", async () => {
    const bases: bigint[] = [];
    const { client } = await start({
      async converse(turn, emit) {
        bases.push(turn.recordSequenceBase);
        if (turn.content === "record") await emit.done({ finalContent: "r", finishReason: "tool_use", recordSequenceHighWater: turn.recordSequenceBase + 3n });
        else if (turn.content === "number") await emit.done({ finishReason: "stop", recordSequenceHighWater: 9 });
        // otherwise: no done, the automatic one echoes the base
      },
    });
    const r = await converse(client, [
      { sessionId: "s1", content: "record", recordSequenceBase: 40n },
      { sessionId: "s1", content: "number", recordSequenceBase: 44n },
      { sessionId: "s1", content: "silent", recordSequenceBase: 50n },
    ]);
    assert.deepEqual(bases, [40n, 44n, 50n]);
    assert.deepEqual(r.frames.map(frameJson), [
      HELLO,
      { done: { finalContent: "r", recordSequenceHighWater: "43", finishReason: "tool_use" } },
      { done: { recordSequenceHighWater: "9", finishReason: "stop" } },
      { done: { recordSequenceHighWater: "50" } },
    ]);
  });

  test("identity round trip: facade metadata → Turn.identity → outbound tool headers; Authorization withheld", async () => {
    const turns: Turn[] = [];
    const { client } = await start({
      converse(turn) {
        turns.push(turn);
      },
    });
    await converse(
      client,
      [
        { sessionId: "s1", content: "a" },
        { sessionId: "s1", content: "b" },
      ],
      {
        headers: {
          authorization: "Bearer user-token",
          "x-omnia-agent-name": "support",
          "x-omnia-namespace": "prod",
          "x-omnia-session-id": "s1",
          "x-omnia-request-id": "req-9",
          "x-omnia-user-id": "u-1",
          "x-omnia-subject-id": "svc-2",
          "x-omnia-user-email": "a@example.com",
          "x-omnia-origin": "oidc",
          "x-omnia-workspace": "acme",
          "x-omnia-claim-role": "editor",
          "x-omnia-claim-customer_id": "c-7",
          "x-omnia-consent-grants": "location,filesystem",
          "x-omnia-client-tools": "true",
          "x-omnia-session-open": "true",
          "x-omnia-declare-bin": encodeBinaryHeader(new TextEncoder().encode('{"a":1}')),
        },
      },
    );
    assert.equal(turns.length, 2);
    const [first, second] = turns as [Turn, Turn];
    // S21 adjusted for 1.9.0: claims rehydrate; consent grants are gone from the contract and from the identity.
    assert.deepEqual(first.identity, {
      agentName: "support",
      namespace: "prod",
      sessionId: "s1",
      requestId: "req-9",
      userId: "u-1",
      subjectId: "svc-2",
      userEmail: "a@example.com",
      origin: "oidc",
      workspace: "acme",
      claims: { role: "editor", customer_id: "c-7" },
    });
    assert.equal(first.clientToolsAvailable, true);
    assert.equal(first.sessionOpen, true);
    assert.equal(new TextDecoder().decode(first.declare), '{"a":1}');
    assert.equal(second.identity, first.identity, "parsed once per stream and reused for every turn");
    assert.ok(!JSON.stringify({ ...first, recordSequenceBase: String(first.recordSequenceBase), recordSequence: String(first.recordSequence.last) }).includes("user-token"));
    assert.ok(!JSON.stringify(first.identity).toLowerCase().includes("authorization"));
    const outbound = toOutboundHeaders(first.identity);
    assert.equal(outbound["authorization"], undefined);
    assert.equal(outbound["Authorization"], undefined);
    assert.ok(!Object.values(outbound).includes("Bearer user-token"));
    assert.equal(outbound["X-Omnia-Claim-Role"], "editor");
    assert.equal(outbound["X-Omnia-Claim-Customer_id"], "c-7");
    assert.equal(outbound["x-omnia-user-id"], "u-1");
    for (const key of Object.keys(outbound)) assert.ok(!/client-tools|session-open|declare/i.test(key), key);
  });

  test("facade-hop keys: absent → no client, not session-open, no declare; declare without session-open ignored", async () => {
    const turns: Turn[] = [];
    const { client } = await start({
      converse(turn) {
        turns.push(turn);
      },
    });
    await converse(client, [{ sessionId: "s1" }]);
    await converse(client, [{ sessionId: "s1" }], { headers: { "x-omnia-client-tools": "false", "x-omnia-declare-bin": "eyJhIjoxfQ" } });
    assert.deepEqual(
      turns.map((t) => [t.clientToolsAvailable, t.sessionOpen, t.declare, t.identity]),
      [
        [false, false, undefined, {}],
        [false, false, undefined, {}],
      ],
    );
  });

  test("no client available: toolCall resolves denied at once and nothing is sent", async () => {
    let got: ClientToolReply | undefined;
    const { client } = await start({
      async converse(_turn, emit) {
        got = await emit.toolCall({ callId: "c1", name: "get_location", argumentsJson: "{}" });
        await emit.done({ finalContent: "denied" });
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "x" }]);
    assert.deepEqual(frameCases(r.frames), ["runtimeHello", "done"]);
    assert.deepEqual(got, { callId: "c1", isRejected: true, isDenied: true, rejectionReason: "no client available to execute client-side tools" });
  });

  test("two client calls in flight: each resolves on the result whose call_id matches, whatever the order", async () => {
    const logger = createCaptureLogger();
    const results: Record<string, ClientToolReply> = {};
    const { client } = await start(
      {
        async converse(_turn, emit) {
          const [a, b] = await Promise.all([
            emit.toolCall({ callId: "call-a", name: "get_location", argumentsJson: "{}" }),
            emit.toolCall({ callId: "call-b", name: "get_time", argumentsJson: '{"tz":"UTC"}' }),
          ]);
          results["a"] = a;
          results["b"] = b;
          await emit.done({ finalContent: `${a.resultJson} ${b.resultJson}` });
        },
      },
      { logger },
    );
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "both" });
    await s.until("runtimeHello");
    const first = await s.next();
    const second = await s.next();
    assert.deepEqual([first, second].map((f) => frameJson(f!)), [
      { toolCall: { id: "call-a", name: "get_location", argumentsJson: "{}", execution: "TOOL_EXECUTION_CLIENT" } },
      { toolCall: { id: "call-b", name: "get_time", argumentsJson: '{"tz":"UTC"}', execution: "TOOL_EXECUTION_CLIENT" } },
    ]);
    s.send({ clientToolResult: { callId: "call-b", resultJson: '"12:00"' } });
    s.send({ clientToolResult: { callId: "call-unknown", resultJson: "1" } });
    s.send({ clientToolResult: { callId: "call-a", resultJson: '{"city":"Bristol"}' } });
    s.send({ sessionId: "s1", content: "next turn" });
    s.end();
    assert.deepEqual(frameJson((await s.next())!), { done: { finalContent: '{"city":"Bristol"} "12:00"' } });
    assert.equal(results["a"]?.callId, "call-a");
    assert.equal(results["b"]?.callId, "call-b");
    assert.equal(results["b"]?.resultJson, '"12:00"');
    // The message after the results is a turn of its own (the pump never reads ahead).
    assert.deepEqual(frameCases([(await s.until("toolCall")).frame]), ["toolCall"]);
    assert.deepEqual(logger.lines.filter((l) => l.level === "warn"), [
      { level: "warn", message: "runtime: dropped a client_tool_result whose call_id matches no pending tool call", fields: { callId: "call-unknown", dropped: 1 } },
    ]);
    s.cancel();
  });

  test("a non-result message while two calls wait fails both with FailedPrecondition", async () => {
    const failures: unknown[] = [];
    const { client } = await start({
      async converse(_turn, emit) {
        const settled = await Promise.allSettled([
          emit.toolCall({ callId: "a", name: "t", argumentsJson: "{}" }),
          emit.toolCall({ callId: "b", name: "t", argumentsJson: "{}" }),
        ]);
        for (const s of settled) if (s.status === "rejected") failures.push(s.reason);
        await emit.done();
      },
    });
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "x" });
    await s.until("toolCall");
    await s.until("toolCall");
    s.send({ content: "oops" });
    s.end();
    await s.until("done");
    assert.deepEqual(
      failures.map((f) => (f instanceof ConnectError ? [f.code, f.rawMessage] : f)),
      [
        [Code.FailedPrecondition, "expected ClientToolResult after ToolCall"],
        [Code.FailedPrecondition, "expected ClientToolResult after ToolCall"],
      ],
    );
  });

  test("the client closing the stream while a call waits rejects it with ClosedError", async () => {
    const outcome = gate<unknown>();
    const { client } = await start({
      async converse(_turn, emit) {
        try {
          await emit.toolCall({ callId: "a", name: "t", argumentsJson: "{}" });
        } catch (err) {
          outcome.open(err);
        }
      },
    });
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "x" });
    await s.until("toolCall");
    s.end();
    const err = await outcome.promise;
    assert.equal((err as Error).name, "ClosedError");
    assert.equal((err as Error).message, "emit.toolCall: the client closed the stream before answering");
    assert.deepEqual(frameJson((await s.next())!), { done: {} });
    assert.equal(await s.next(), undefined);
  });

  test("emitter guards: a second done and sends after done reject with ConverseStateError", async () => {
    const errors: string[] = [];
    const { client } = await start({
      async converse(_turn, emit) {
        await emit.done({ finalContent: "one" });
        for (const p of [emit.done({ finalContent: "two" }), emit.chunk("late"), emit.toolCall({ callId: "c", name: "t", argumentsJson: "{}" })]) {
          try {
            await p;
          } catch (err) {
            assert.ok(err instanceof ConverseStateError);
            errors.push(`${err.code} ${err.message}`);
          }
        }
      },
    });
    const r = await converse(client, [{ sessionId: "s1", content: "x" }]);
    assert.deepEqual(r.frames.map(frameJson), [HELLO, { done: { finalContent: "one" } }]);
    assert.deepEqual(errors, [
      "ERR_OMNIA_CONVERSE_STATE emit.done: the turn is already done; nothing was sent",
      "ERR_OMNIA_CONVERSE_STATE emit.chunk: the turn is already done; nothing was sent",
      "ERR_OMNIA_CONVERSE_STATE emit.toolCall: the turn is already done; nothing was sent",
    ]);
  });
});

describe("Converse: heartbeats on the injected clock", () => {
  test("one heartbeat every 30 s while a turn runs; none after it ends", async () => {
    const clock = createManualClock(0);
    const step = gate();
    const finish = gate();
    const { client } = await start(
      {
        async converse(turn, emit) {
          await step.promise;
          await emit.chunk("marker");
          await finish.promise;
          await emit.done({ finalContent: turn.content });
        },
      },
      { clock },
    );
    const s = openConverse(client);
    s.send({ sessionId: "s1", content: "slow" });
    assert.deepEqual(frameJson((await s.next())!), HELLO);
    assert.equal(clock.pendingTimers(), 1);
    await clock.advanceAsync(29_999);
    step.open();
    // Nothing fired before 30 s: the next frame is the handler's own chunk.
    assert.deepEqual(frameJson((await s.next())!), { chunk: { content: "marker" } });
    await clock.advanceAsync(1);
    assert.deepEqual(frameJson((await s.next())!), { heartbeat: {} });
    await clock.advanceAsync(30_000);
    assert.deepEqual(frameJson((await s.next())!), { heartbeat: {} });
    await clock.advanceAsync(60_000);
    assert.deepEqual(frameJson((await s.next())!), { heartbeat: {} });
    assert.deepEqual(frameJson((await s.next())!), { heartbeat: {} });
    finish.open();
    assert.deepEqual(frameJson((await s.next())!), { done: { finalContent: "slow" } });
    assert.equal(clock.pendingTimers(), 0, "the heartbeat timer is cleared when the turn ends");
    s.end();
    assert.equal(await s.next(), undefined);
  });

  test("heartbeats continue while a client tool result is awaited, and stop after done", async () => {
    const clock = createManualClock(0);
    const after = gate();
    const { client } = await start(
      {
        async converse(_turn, emit) {
          await emit.toolCall({ callId: "c", name: "t", argumentsJson: "{}" });
          await emit.done({ finalContent: "d" });
          await after.promise; // still running, but done: no more heartbeats
        },
      },
      { clock, heartbeatIntervalMs: 1000 },
    );
    const s = openConverse(client, { headers: CLIENT_TOOLS });
    s.send({ sessionId: "s1", content: "x" });
    await s.until("toolCall");
    await clock.advanceAsync(1000);
    assert.deepEqual(frameJson((await s.next())!), { heartbeat: {} });
    s.send({ clientToolResult: { callId: "c", resultJson: "1" } });
    assert.deepEqual(frameJson((await s.next())!), { done: { finalContent: "d" } });
    await clock.advanceAsync(5000);
    after.open();
    s.send({ sessionId: "s1", content: "y" });
    s.end();
    // The next frame belongs to the next turn, not a heartbeat.
    assert.deepEqual(frameJson((await s.next())!), { toolCall: { id: "c", name: "t", argumentsJson: "{}", execution: "TOOL_EXECUTION_CLIENT" } });
    s.cancel();
  });

  test("heartbeatIntervalMs: 0 disables heartbeats", async () => {
    const clock = createManualClock(0);
    const { client } = await start({ converse: () => new Promise<void>(() => {}) }, { clock, heartbeatIntervalMs: 0 });
    const s = openConverse(client);
    s.send({ sessionId: "s1", content: "x" });
    await s.until("runtimeHello");
    assert.equal(clock.pendingTimers(), 0);
    s.cancel();
  });
});
