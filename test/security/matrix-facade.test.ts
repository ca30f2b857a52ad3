// SECURITY.md, the facade row: a frame over the runtime's receive limit (`maxMessageBytes`, 16 MiB by default as in
// the Go SDK) ends that stream with ResourceExhausted from its 5-byte length prefix, before its bytes are buffered or
// the handler sees it, and the server goes on serving the next stream. Real serveRuntime over loopback HTTP/2; the
// oversized frame is sent by a raw node:http2 client (only its prefix and 64 KiB of it).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import { serveRuntime, type Turn } from "../../src/runtime/index.js";
import { createRuntimeClient, converse, frameCases } from "../helpers/runtime-client.js";

/** Sends one gRPC frame that claims `claimed` bytes but carries only `sent`; resolves with the response's gRPC status and message. */
async function oversizedFrame(url: string, claimed: number, sent: number): Promise<[string, string]> {
  const session = http2.connect(url);
  try {
    const stream = session.request({ ":method": "POST", ":path": "/omnia.runtime.v1.RuntimeService/Converse", "content-type": "application/grpc", te: "trailers" });
    const head = Buffer.alloc(5);
    head.writeUInt32BE(claimed, 1);
    stream.end(Buffer.concat([head, Buffer.alloc(sent, 0x41)]));
    stream.resume();
    return await new Promise<[string, string]>((resolve, reject) => {
      let status = "";
      let message = "";
      const take = (h: http2.IncomingHttpHeaders): void => {
        if (h["grpc-status"] !== undefined) status = String(h["grpc-status"]);
        if (h["grpc-message"] !== undefined) message = decodeURIComponent(String(h["grpc-message"]));
      };
      stream.on("response", take);
      stream.on("trailers", take);
      stream.on("close", () => resolve([status, message]));
      stream.on("error", reject);
    });
  } finally {
    session.close();
  }
}

test("a frame over maxMessageBytes ends its stream with ResourceExhausted before any turn; the next stream is served", { timeout: 20_000 }, async () => {
  const turns: number[] = [];
  const server = await serveRuntime(
    {
      async converse(turn: Turn, emit) {
        turns.push(turn.content.length);
        await emit.done({ finalContent: "ok" });
      },
    },
    { port: 0, heartbeatIntervalMs: 0, maxMessageBytes: 1024 * 1024 },
  );
  const client = createRuntimeClient(server.url);
  try {
    assert.deepEqual(await oversizedFrame(server.url, 512 * 1024 * 1024, 64 * 1024), ["8", "message size 536870912 is larger than configured readMaxBytes 1048576"]);
    const next = await converse(client, [{ sessionId: "s2", content: "hi" }]);
    assert.deepEqual([frameCases(next.frames), next.error], [["runtimeHello", "done"], undefined]);
    assert.deepEqual(turns, [2]);
  } finally {
    client.close();
    await server.close();
  }
});
