// Issue #19 item 13: serveRuntime().close() and serveToolService().close()
// resolve within their grace period (5 s on the injected clock) even when a
// real HTTP/2 client set its flow-control window to 0 and never ends its
// request body: past the grace, the sessions and sockets are destroyed.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import { create, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { ClientMessageSchema } from "../../src/contract/index.js";
import { ToolRequestSchema } from "../../src/gen/omnia/tools/v1/tools_pb.js";
import { serveRuntime } from "../../src/runtime/index.js";
import { serveToolService } from "../../src/grpc/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { leakedResources, resourceBaseline } from "../helpers/resources.js";

/** One gRPC length-prefixed message. */
function grpcFrame<D extends DescMessage>(schema: D, message: MessageShape<D>): Buffer {
  const body = toBinary(schema, message);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, Buffer.from(body)]);
}

/** A client that reads nothing (window 0) and never half-closes: it writes one message and stops. */
function stalledClient(url: string, path: string, frame: Buffer): { session: http2.ClientHttp2Session; stream: http2.ClientHttp2Stream; closed: Promise<void> } {
  const session = http2.connect(url, { settings: { initialWindowSize: 0 } });
  session.on("error", () => {});
  const closed = new Promise<void>((resolve) => session.once("close", () => resolve()));
  const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" }, { endStream: false });
  stream.on("error", () => {});
  stream.write(frame);
  return { session, stream, closed };
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

test("serveRuntime().close() with a window-0 client that never ends its stream: pending until the 5 s grace, then resolved", async () => {
  const baseline = resourceBaseline();
  const clock = createManualClock();
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const server = await serveRuntime(
    {
      async converse(_turn, emit) {
        started();
        // 1 MiB of chunks the client never reads.
        for (let i = 0; i < 16; i++) await emit.chunk("x".repeat(64 * 1024)).catch(() => {});
      },
    },
    { port: 0, clock, heartbeatIntervalMs: 0 },
  );
  const client = stalledClient(server.url, "/omnia.runtime.v1.RuntimeService/Converse", grpcFrame(ClientMessageSchema, create(ClientMessageSchema, { sessionId: "s", content: "hi" })));
  await running;
  let done = false;
  const closing = server.close().then(() => {
    done = true;
  });
  await turns(50);
  assert.equal(done, false, "close() waits while the grace runs");
  await clock.advanceAsync(4_999);
  await turns(20);
  assert.equal(done, false, "still within the grace");
  await clock.advanceAsync(1);
  await closing;
  assert.equal(done, true);
  await client.closed;
  assert.deepEqual(await leakedResources(baseline), []);
});

test("serveToolService().close() with a window-0 client that never ends its request: resolved at the 5 s grace", async () => {
  const baseline = resourceBaseline();
  const clock = createManualClock();
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const server = await serveToolService(
    {
      big: {
        description: "d",
        inputSchema: { type: "object" },
        execute: () => {
          started();
          return { blob: "y".repeat(1024 * 1024) };
        },
      },
    },
    { clock },
  );
  // A request that never ends its body: connect waits for it; the GOAWAY alone never closes the session.
  const client = stalledClient(server.url, "/omnia.tools.v1.ToolService/Execute", grpcFrame(ToolRequestSchema, create(ToolRequestSchema, { toolName: "big", argumentsJson: "{}" })));
  client.stream.end();
  await running;
  const second = stalledClient(server.url, "/omnia.tools.v1.ToolService/Execute", Buffer.from([0, 0, 0, 0, 100]));
  await turns(20);
  let done = false;
  const closing = server.close().then(() => {
    done = true;
  });
  await turns(50);
  assert.equal(done, false);
  await clock.advanceAsync(5_000);
  await closing;
  assert.equal(done, true);
  await client.closed;
  await second.closed;
  assert.deepEqual(await leakedResources(baseline), []);
});

test("closeGraceMs is checked", async () => {
  await assert.rejects(serveRuntime({ converse() {} }, { port: 0, closeGraceMs: -1 }), { message: "serveRuntime: closeGraceMs must be a number >= 0; got -1" });
  await assert.rejects(serveToolService({}, { closeGraceMs: Number.NaN }), { message: "serveToolService: closeGraceMs must be a number >= 0; got NaN" });
});
