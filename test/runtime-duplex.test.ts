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
      ["warn", "runtime: refused a message during a duplex session: only audio_input, up to the frame marked last, belongs to it"],
      ["error", "runtime: duplex handler failed"],
    ],
  );
});

test("audio after the frame marked last is not part of the session: refused with a warning, never handed to the handler", async () => {
  const logger = createCaptureLogger();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const heard: number[] = [];
  const { client } = await start(
    {
      converse: async () => {},
      async duplex(session, emit) {
        for await (const f of session.audio) heard.push(f.sequence);
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
  for (let i = 0; i < 1000 && logger.lines.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  release();
  assert.deepEqual(frameJson((await s.next())!), { runtimeHello: { capabilities: ["duplex_audio"] } });
  assert.deepEqual(frameJson((await s.next())!), { done: { finalContent: "1" } });
  s.end();
  assert.equal(await s.next(), undefined);
  assert.deepEqual(heard, [0]);
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields?.["refused"]]),
    [["warn", "runtime: refused a message during a duplex session: only audio_input, up to the frame marked last, belongs to it", 1]],
  );
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
