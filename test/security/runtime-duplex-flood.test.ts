// Duplex audio from the facade (issue #34): a facade that sends audio faster than the
// handler takes it must not grow the runtime's memory. The session holds about 1 MiB of
// audio for its handler and then stops reading the stream, so HTTP/2 flow control holds
// the sender back; nothing is dropped.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { serveRuntime } from "../../src/runtime.js";
import type { ClientMessageSchema } from "../../src/runtime.js";
import { createRuntimeClient } from "../helpers/runtime-client.js";

test("a facade flooding 200 audio frames of 64 KiB at a handler that takes none is held back after about 1 MiB; every frame arrives once the handler reads", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const heard: number[] = [];
  const server = await serveRuntime(
    {
      converse: async () => {},
      async duplex(session, emit) {
        await gate;
        for await (const frame of session.audio) heard.push(frame.sequence);
        await emit.done({ finalContent: String(heard.length) });
      },
    },
    { port: 0 },
  );
  const client = createRuntimeClient(server.url);
  let pulled = 0;
  async function* flood(): AsyncGenerator<MessageInitShape<typeof ClientMessageSchema>> {
    yield { sessionId: "f", duplexStart: { codec: "pcm", sampleRate: 16000, channels: 1 } };
    for (let i = 0; i < 200; i++) {
      pulled++;
      yield { sessionId: "f", audioInput: { data: new Uint8Array(64 * 1024), sequence: i, isLast: i === 199 } };
    }
  }
  try {
    const frames: string[] = [];
    const reading = (async () => {
      for await (const frame of client.runtime.converse(flood())) frames.push(frame.message.case ?? "");
    })();
    // Let the client push as far as the runtime lets it (it stops when the runtime stops reading).
    for (let i = 0, last = -1; i < 100 && pulled !== last; i++) {
      last = pulled;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(pulled < 100, `the client got ${pulled} frames of 64 KiB out while the handler took none`);
    release();
    await reading;
    assert.equal(pulled, 200);
    assert.deepEqual(heard, Array.from({ length: 200 }, (_, i) => i));
    assert.deepEqual(frames, ["runtimeHello", "done"]);
  } finally {
    client.close();
    await server.close();
  }
});
