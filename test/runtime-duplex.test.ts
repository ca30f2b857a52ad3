// Duplex audio sessions in the runtime SDK (issue #34 section 2, item 3): a handler
// with `duplex` gets the DuplexStart, answers with its counter-offer and voice mode in
// the hello, receives the client's audio frames as they come, and streams audio,
// transcript text and interruptions back. Real connect-node server and client.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { runConformance } from "../src/conformance/index.js";
import type { AudioInput, DuplexEmitter, DuplexSession, RuntimeHandler } from "../src/runtime/index.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { converse, frameJson, openConverse, startRuntime, type StartedRuntime } from "./helpers/runtime-client.js";

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function start(handler: RuntimeHandler, logger = createCaptureLogger()): Promise<StartedRuntime> {
  const started = await startRuntime(handler, { logger });
  cleanups.push(() => started.close());
  return started;
}

const START = { codec: "pcm", sampleRate: 16000, channels: 1 };
const b64 = (bytes: number[]): string => Buffer.from(bytes).toString("base64");

/** Echoes each audio frame back as media, interrupts after the second, says what it heard. */
function echoDuplex(heard: AudioInput[], sessions: DuplexSession[]): RuntimeHandler {
  return {
    capabilities: () => ["duplex_audio", "interruption"],
    converse: async (_turn, emit) => {
      await emit.done({ finalContent: "text" });
    },
    negotiateDuplex: (start) => ({ media: { codec: start.codec, sampleRate: 24000, channels: 1 }, voiceMode: "cascaded" }),
    async duplex(session, emit: DuplexEmitter) {
      sessions.push(session);
      for await (const frame of session.audio) {
        heard.push(frame);
        await emit.media({ mediaId: "reply", sequence: frame.sequence, isLast: frame.isLast, mimeType: "audio/pcm", data: frame.data });
        if (frame.sequence === 1) await emit.interruption();
      }
      await emit.chunk(`heard ${heard.length} frames`);
      await emit.done({ finalContent: `heard ${heard.length} frames`, finishReason: "stop" });
    },
  };
}

test("a duplex session: the hello carries the counter-offer and voice mode, audio flows both ways, an interruption, then Done", async () => {
  const heard: AudioInput[] = [];
  const sessions: DuplexSession[] = [];
  const { client } = await start(echoDuplex(heard, sessions));
  const r = await converse(client, [
    { sessionId: "d1", duplexStart: { ...START, systemInstruction: "be brief" }, metadata: { lang: "en" } },
    { sessionId: "d1", audioInput: { data: new Uint8Array([1, 2]), sequence: 0 } },
    { sessionId: "d1", audioInput: { data: new Uint8Array([3]), sequence: 1 } },
    { sessionId: "d1", audioInput: { data: new Uint8Array([4, 5, 6]), sequence: 2, isLast: true } },
    { sessionId: "d1", content: "a text turn after the session" },
  ]);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.frames.map(frameJson), [
    { runtimeHello: { capabilities: ["duplex_audio", "interruption"], media: { codec: "pcm", sampleRate: 24000, channels: 1 }, voiceMode: "VOICE_MODE_CASCADED" } },
    { mediaChunk: { mediaId: "reply", mimeType: "audio/pcm", data: b64([1, 2]) } },
    { mediaChunk: { mediaId: "reply", sequence: 1, mimeType: "audio/pcm", data: b64([3]) } },
    { interruption: {} },
    { mediaChunk: { mediaId: "reply", sequence: 2, isLast: true, mimeType: "audio/pcm", data: b64([4, 5, 6]) } },
    { chunk: { content: "heard 3 frames" } },
    { done: { finalContent: "heard 3 frames", finishReason: "stop" } },
    { done: { finalContent: "text" } },
  ]);
  assert.deepEqual(heard.map((f) => [[...f.data], f.sequence, f.isLast]), [
    [[1, 2], 0, false],
    [[3], 1, false],
    [[4, 5, 6], 2, true],
  ]);
  assert.deepEqual({ ...sessions[0]?.start }, { codec: "pcm", sampleRate: 16000, channels: 1, systemInstruction: "be brief" });
  assert.deepEqual(sessions[0]?.metadata, { lang: "en" });
  assert.equal(sessions[0]?.sessionId, "d1");
});

test("the client half-closing ends the audio; a handler that returns without done gets an empty Done", async () => {
  const frames: number[] = [];
  const { client } = await start({
    converse: async () => {},
    async duplex(session) {
      for await (const f of session.audio) frames.push(f.sequence);
    },
  });
  const r = await converse(client, [
    { sessionId: "d2", duplexStart: START },
    { sessionId: "d2", audioInput: { data: new Uint8Array([9]), sequence: 7 } },
  ]);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.frames.map(frameJson), [{ runtimeHello: { capabilities: ["duplex_audio"] } }, { done: {} }]);
  assert.deepEqual(frames, [7]);
});

test("during a duplex session a text message is refused with a warning and toolCall rejects; a throwing handler gets INTERNAL_ERROR", async () => {
  const logger = createCaptureLogger();
  const errors: string[] = [];
  const { client } = await start(
    {
      converse: async () => {},
      async duplex(session, emit) {
        await emit.toolCall({ callId: "c", name: "get_location", argumentsJson: "{}" }).catch((e: Error) => errors.push(e.message));
        for await (const f of session.audio) if (f.isLast) break;
        throw new Error("the model went away: secret-token-123");
      },
    },
    logger,
  );
  const s = openConverse(client);
  s.send({ sessionId: "d3", duplexStart: START });
  assert.deepEqual(frameJson((await s.next())!), { runtimeHello: { capabilities: ["duplex_audio"] } });
  s.send({ sessionId: "d3", content: "hello?" });
  s.send({ sessionId: "d3", audioInput: { data: new Uint8Array([1]), isLast: true } });
  assert.deepEqual(frameJson((await s.next())!), { error: { code: "INTERNAL_ERROR", message: "an internal error occurred while processing the message" } });
  s.end();
  assert.equal(await s.next(), undefined);
  assert.deepEqual(errors, ["emit.toolCall: client tool calls are not available in a duplex session; nothing was sent"]);
  assert.deepEqual(
    logger.lines.filter((l) => l.level !== "debug").map((l) => [l.level, l.message]),
    [
      ["warn", "runtime: refused a message during a duplex session: only audio_input belongs to it until the frame marked last"],
      ["error", "runtime: duplex handler failed"],
    ],
  );
});

test("after the frame marked last the session stops reading: later audio is refused outside the session, and a text message after it is a turn", async () => {
  const logger = createCaptureLogger();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const heard: number[] = [];
  let entered!: () => void;
  const lastHeard = new Promise<void>((resolve) => (entered = resolve));
  const { client } = await start(
    {
      converse: async (turn, emit) => {
        await emit.done({ finalContent: `text: ${turn.content}` });
      },
      async duplex(session, emit) {
        for await (const f of session.audio) heard.push(f.sequence);
        entered();
        await gate;
        await emit.done({ finalContent: String(heard.length) });
      },
    },
    logger,
  );
  const s = openConverse(client);
  s.send({ sessionId: "d5", duplexStart: START });
  s.send({ sessionId: "d5", audioInput: { data: new Uint8Array([1]), sequence: 0, isLast: true } });
  s.send({ sessionId: "d5", audioInput: { data: new Uint8Array([2]), sequence: 1 } });
  s.send({ sessionId: "d5", content: "after the session" });
  await lastHeard;
  release();
  s.end();
  const frames = [];
  for (let f = await s.next(); f !== undefined; f = await s.next()) frames.push(frameJson(f));
  assert.deepEqual(frames, [
    { runtimeHello: { capabilities: ["duplex_audio"] } },
    { done: { finalContent: "1" } },
    { error: { code: "DUPLEX_UNSUPPORTED", message: "audio_input outside a duplex session: open one with duplex_start as the stream's first message" } },
    { done: { finalContent: "text: after the session" } },
  ]);
  assert.deepEqual(heard, [0]);
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields?.["refused"]]),
    [["warn", "runtime: refused audio_input: this runtime serves no duplex session", 1]],
  );
});

test("a facade flooding empty audio frames fills the session's bound as well as large ones do", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  const { client } = await start({
    converse: async () => {},
    async duplex(session, emit) {
      await gate;
      for await (const _f of session.audio) count++;
      await emit.done({ finalContent: String(count) });
    },
  });
  let pulled = 0;
  async function* flood() {
    yield { sessionId: "e", duplexStart: START };
    for (let i = 0; i < 20_000; i++) {
      pulled++;
      yield { sessionId: "e", audioInput: { data: new Uint8Array(0), sequence: i, isLast: i === 19_999 } };
    }
  }
  const frames: string[] = [];
  const reading = (async () => {
    for await (const f of client.runtime.converse(flood())) frames.push(f.message.case ?? "");
  })();
  for (let i = 0, last = -1; i < 100 && pulled !== last; i++) {
    last = pulled;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(pulled < 20_000, `the client got all ${pulled} empty frames out while the handler took none`);
  release();
  await reading;
  assert.equal(count, 20_000);
  assert.deepEqual(frames, ["runtimeHello", "done"]);
});

test("a counter-offer the hello cannot carry (a negative sample rate) gets the hello without it, then INTERNAL_ERROR; a Done high water past int64 is refused", async () => {
  const logger = createCaptureLogger();
  const doneErrors: string[] = [];
  const { client } = await start(
    {
      converse: async (_turn, emit) => {
        await emit.done({ recordSequenceHighWater: 2n ** 64n }).catch((e: Error) => doneErrors.push(`${e.name}: ${e.message}`));
      },
      negotiateDuplex: () => ({ media: { sampleRate: -1.5 } }),
      duplex: async () => {},
    },
    logger,
  );
  const duplex = await converse(client, [{ sessionId: "d6", duplexStart: START }]);
  assert.equal(duplex.error, undefined);
  assert.deepEqual(duplex.frames.map(frameJson), [
    { runtimeHello: { capabilities: ["duplex_audio"] } },
    { error: { code: "INTERNAL_ERROR", message: "an internal error occurred while processing the message" } },
  ]);
  assert.deepEqual(
    logger.lines.map((l) => [l.message, l.fields?.["error"]]),
    [["runtime: negotiateDuplex handler failed", "negotiateDuplex: media.sampleRate must be a whole number from 0 to 2147483647; got -1.5"]],
  );
  const text = await converse(client, [{ sessionId: "d6", content: "hi" }]);
  assert.equal(text.error, undefined);
  assert.deepEqual(text.frames.map(frameJson), [{ runtimeHello: { capabilities: ["duplex_audio"] } }, { done: {} }]);
  assert.deepEqual(doneErrors, ["RangeError: record_sequence_high_water must fit in int64; got 18446744073709551616"]);
});

test("a handler without duplex keeps refusing: hello (no duplex_audio), then DUPLEX_UNSUPPORTED, whatever capabilities() says", async () => {
  const { client } = await start({ capabilities: () => ["duplex_audio", "client_tools"], converse: async () => {} });
  const r = await converse(client, [{ sessionId: "d4", duplexStart: START }]);
  assert.deepEqual(r.frames.map(frameJson), [
    { runtimeHello: { capabilities: ["client_tools"] } },
    { error: { code: "DUPLEX_UNSUPPORTED", message: "duplex audio is not supported by this runtime" } },
  ]);
});

test("a runtime that serves duplex passes every conformance check, duplex-honesty included", async () => {
  const { server } = await start(echoDuplex([], []));
  const result = await runConformance({ addr: `127.0.0.1:${server.port}`, timeoutMs: 30_000 });
  assert.deepEqual(
    result.checks.map((c) => [c.name, c.status]),
    [
      ["health/contract", "pass"],
      ["hello-first", "pass"],
      ["text-turn-shape", "pass"],
      ["graceful-malformed-input", "pass"],
      ["invoke-honesty", "pass"],
      ["duplex-honesty", "pass"],
    ],
  );
  assert.equal(result.passed, true);
});
