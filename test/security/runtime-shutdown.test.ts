// Issue #32 items 7-10: serveRuntime and serveToolService shut down cleanly and hold a facade to limits. Real
// connect-node HTTP/2 clients and raw node:http2 / node:net clients on 127.0.0.1; the close grace and the idle
// timeout run on a manual clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import { connect as netConnect } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ClientMessageSchema } from "../../src/gen/omnia/runtime/v1/runtime_pb.js";
import { serveRuntime, type RuntimeHandler } from "../../src/runtime/index.js";
import { serveToolService, ToolRequestSchema } from "../../src/grpc/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { createRuntimeClient, openConverse } from "../helpers/runtime-client.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A turn that says it started, then waits for its signal (a long model call). */
const waiting: RuntimeHandler = {
  async converse(turn, emit) {
    await emit.chunk("working");
    await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
  },
};

test("streams in flight at close() end with UNAVAILABLE `transport is closing` at a connect-node client, not a protocol error", { timeout: 30_000 }, async () => {
  const server = await serveRuntime(waiting, { port: 0 });
  const client = createRuntimeClient(server.url);
  try {
    const streams = Array.from({ length: 20 }, (_, i) => {
      const s = openConverse(client);
      s.send({ sessionId: `s${i}`, content: "long" });
      return s;
    });
    for (const s of streams) await s.until("chunk");
    // A facade reads each stream continuously: every stream's end, as its reader sees it.
    const ends = streams.map(async (s) => {
      try {
        while ((await s.next()) !== undefined);
        return "ended OK";
      } catch (e) {
        const ce = ConnectError.from(e);
        return `${Code[ce.code]}: ${ce.rawMessage}`;
      }
    });
    await server.close();
    assert.deepEqual(new Set(await Promise.all(ends)), new Set(["Unavailable: transport is closing"]));
  } finally {
    client.close();
  }
});

/** A turn that streams output until its signal aborts, as fast as the client takes it. */
const streaming: RuntimeHandler = {
  async converse(turn, emit) {
    const piece = "x".repeat(16 * 1024);
    while (!turn.signal.aborted) await emit.chunk(piece).catch(() => undefined);
  },
};

test("a facade that stops reading while a turn streams: close() destroys its session and socket at the grace, on the clock, and never throws", { timeout: 30_000 }, async () => {
  const clock = createManualClock(0);
  const server = await serveRuntime(streaming, { port: 0, clock, closeGraceMs: 1_000 });
  const client = createRuntimeClient(server.url);
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown): void => void uncaught.push(e);
  process.on("uncaughtException", onUncaught);
  try {
    const s = openConverse(client);
    s.send({ sessionId: "s1", content: "stream" });
    await s.until("chunk");
    // The client reads nothing more: its window fills and the server's writes wait.
    for (let i = 0; i < 50; i++) await tick();
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    for (let i = 0; i < 50; i++) await tick();
    assert.equal(closed, false, "a call whose client does not read holds close() until the grace");
    await clock.advanceAsync(999);
    for (let i = 0; i < 20; i++) await tick();
    assert.equal(closed, false);
    await clock.advanceAsync(1);
    await closing;
    assert.deepEqual(uncaught, []);
    s.cancel();
  } finally {
    process.off("uncaughtException", onUncaught);
    client.close();
  }
});

test("a client that opens a stream and then stops reading its socket: close() resolves at the grace, every socket closed", { timeout: 30_000 }, async () => {
  const clock = createManualClock(0);
  const server = await serveRuntime(streaming, { port: 0, clock, closeGraceMs: 1_000 });
  const socket = netConnect({ host: "127.0.0.1", port: server.port });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const session = http2.connect(server.url, { createConnection: () => socket });
  session.on("error", () => {});
  try {
    const stream = session.request({ ":method": "POST", ":path": "/omnia.runtime.v1.RuntimeService/Converse", "content-type": "application/grpc", te: "trailers" });
    stream.on("error", () => {});
    stream.write(grpcFrame(toBinary(ClientMessageSchema, create(ClientMessageSchema, { sessionId: "s1", content: "stream" }))));
    await new Promise<void>((resolve) => stream.once("data", () => resolve()));
    // From now on the client reads nothing at all.
    socket.pause();
    for (let i = 0; i < 50; i++) await tick();
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    for (let i = 0; i < 50; i++) await tick();
    assert.equal(closed, false);
    await clock.advanceAsync(1_000);
    await closing;
    await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));
    assert.equal(socket.destroyed, true);
  } finally {
    session.destroy();
    socket.destroy();
  }
});

function grpcFrame(message: Uint8Array): Buffer {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

/** The server's SETTINGS as a raw client sees them. */
async function remoteSettings(url: string): Promise<{ session: http2.ClientHttp2Session; settings: http2.Settings }> {
  const session = http2.connect(url);
  session.on("error", () => {});
  const settings = await new Promise<http2.Settings>((resolve) => session.once("remoteSettings", resolve));
  return { session, settings };
}

for (const kind of ["serveRuntime", "serveToolService"] as const) {
  const start = (options: { clock?: ReturnType<typeof createManualClock>; maxConcurrentStreams?: number; idleTimeoutMs?: number }) =>
    kind === "serveRuntime" ? serveRuntime(waiting, { port: 0, ...options }) : serveToolService({ hang: { description: "d", inputSchema: { type: "object" }, execute: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({}), { once: true })) } }, options);
  const path = kind === "serveRuntime" ? "/omnia.runtime.v1.RuntimeService/Converse" : "/omnia.tools.v1.ToolService/Execute";

  test(`${kind}: maxConcurrentStreams is advertised (default 250) and enforced: the stream past it is refused with REFUSED_STREAM`, { timeout: 30_000 }, async () => {
    const byDefault = await start({});
    const first = await remoteSettings(byDefault.url);
    assert.equal(first.settings.maxConcurrentStreams, 250);
    first.session.destroy();
    await byDefault.close();
    const server = await start({ maxConcurrentStreams: 3 });
    // Four streams sent with the client's preface, before it has read the server's SETTINGS (as a client that
    // ignores them would): the server refuses the fourth.
    const session = http2.connect(server.url);
    session.on("error", () => {});
    const closed: number[] = [];
    const streams = Array.from({ length: 4 }, () => {
      const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
      stream.on("error", () => {});
      stream.once("close", () => closed.push(stream.rstCode ?? -1));
      return stream;
    });
    try {
      const settings = await new Promise<http2.Settings>((resolve) => session.once("remoteSettings", resolve));
      assert.equal(settings.maxConcurrentStreams, 3);
      for (let i = 0; i < 2000 && closed.length === 0; i++) await tick();
      for (let i = 0; i < 50; i++) await tick();
      assert.deepEqual(closed, [http2.constants.NGHTTP2_REFUSED_STREAM]);
      assert.equal(streams.filter((st) => !st.closed).length, 3);
    } finally {
      session.destroy();
      await server.close();
    }
  });

  test(`${kind}: a connection idle for idleTimeoutMs on the clock is closed; one with a call in flight is not`, { timeout: 30_000 }, async () => {
    const clock = createManualClock(0);
    const server = await start({ clock, idleTimeoutMs: 60_000 });
    const idle = http2.connect(server.url);
    const busy = http2.connect(server.url);
    idle.on("error", () => {});
    busy.on("error", () => {});
    try {
      await Promise.all([idle, busy].map((s) => new Promise((resolve) => s.once("remoteSettings", resolve))));
      // A call in flight: its stream open (a Converse the client has not written to yet; an Execute still running).
      const call = busy.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
      call.on("error", () => {});
      if (kind === "serveToolService") call.write(grpcFrame(toBinary(ToolRequestSchema, create(ToolRequestSchema, { toolName: "hang", argumentsJson: "{}" }))));
      for (let i = 0; i < 50; i++) await tick();
      let idleGone = false;
      idle.once("goaway", () => (idleGone = true));
      let busyGone = false;
      busy.once("goaway", () => (busyGone = true));
      await clock.advanceAsync(59_999);
      for (let i = 0; i < 20; i++) await tick();
      assert.deepEqual([idleGone, busyGone], [false, false]);
      await clock.advanceAsync(1);
      await new Promise<void>((resolve) => (idle.closed ? resolve() : idle.once("close", () => resolve())));
      assert.equal(idleGone, true);
      await clock.advanceAsync(10 * 60_000);
      for (let i = 0; i < 20; i++) await tick();
      assert.deepEqual([busyGone, busy.closed], [false, false], "a call in flight is never cut");
    } finally {
      idle.destroy();
      busy.destroy();
      await server.close();
    }
  });
}

test("maxConcurrentStreams and idleTimeoutMs are checked eagerly with exact messages", async () => {
  await assert.rejects(serveRuntime(waiting, { port: 0, maxConcurrentStreams: 0 }), { code: "ERR_OMNIA_INVALID_OPTION", message: "serveRuntime: maxConcurrentStreams must be an integer from 1 to 4294967295; got 0" });
  await assert.rejects(serveToolService({}, { idleTimeoutMs: -1 }), { code: "ERR_OMNIA_INVALID_OPTION", message: "serveToolService: idleTimeoutMs must be a number > 0 (Infinity: never); got -1" });
});
