// serveRuntime and createRuntimeService as servers: options, shutdown, message
// limits, malformed input on the wire (never Internal/Unknown/DataLoss), and
// and the conformance suite (vector S23) against an SDK runtime advertising
// client_tools + invoke.
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import {
  createRuntimeService,
  serveRuntime,
  turnText,
  DEFAULT_MAX_MESSAGE_BYTES,
  type RuntimeHandler,
} from "../src/runtime/index.js";
import { runConformance } from "../src/conformance/index.js";
import { converse, createRuntimeClient, frameCases, openConverse, startRuntime, type StartedRuntime } from "./helpers/runtime-client.js";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const echo: RuntimeHandler = {
  capabilities: () => ["client_tools", "invoke"],
  async converse(turn, emit) {
    const text = turnText(turn);
    await emit.chunk(text);
    await emit.done({ finalContent: text, finishReason: "stop" });
  },
  invoke: (req) => ({ outputJson: req.inputJson }),
};

async function start(handler: RuntimeHandler = echo, options: Parameters<typeof startRuntime>[1] = {}): Promise<StartedRuntime> {
  const r = await startRuntime(handler, options);
  cleanups.push(() => r.close());
  return r;
}

function syncThrows(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.equal((err as { code?: string }).code, "ERR_OMNIA_INVALID_OPTION");
    assert.equal((err as Error).message, message);
    return true;
  });
}

async function asyncThrows(p: () => Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.equal((err as { code?: string }).code, "ERR_OMNIA_INVALID_OPTION");
    assert.equal((err as Error).message, message);
    return true;
  });
}

/** One gRPC call with a raw request body on a plain node:http2 session; resolves the grpc-status. */
function rawCall(session: http2.ClientHttp2Session, path: string, body: Uint8Array): Promise<{ status: string | undefined; message: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
    let status: string | undefined;
    let message: string | undefined;
    const take = (h: http2.IncomingHttpHeaders): void => {
      if (h["grpc-status"] !== undefined) {
        status = String(h["grpc-status"]);
        message = h["grpc-message"] === undefined ? undefined : decodeURIComponent(String(h["grpc-message"]));
      }
    };
    req.on("response", take);
    req.on("trailers", take);
    req.on("data", () => {});
    req.on("error", reject);
    req.on("close", () => resolve({ status, message }));
    req.end(Buffer.from(body));
  });
}

/** A gRPC length-prefixed message (uncompressed). */
function envelope(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  new DataView(out.buffer).setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
}

const CRASH = new Set(["2", "13", "15"]); // Unknown, Internal, DataLoss: what the conformance suite counts as a crash

describe("options", () => {
  test("serveRuntime checks its options eagerly with exact messages", async () => {
    await asyncThrows(() => serveRuntime(echo, { port: -1 }), "serveRuntime: port must be an integer from 0 to 65535; got -1");
    await asyncThrows(() => serveRuntime(echo, { port: 0, host: "" }), 'serveRuntime: host must be a non-empty string; got ""');
    await asyncThrows(() => serveRuntime(echo, { port: 0, maxMessageBytes: 0 }), "serveRuntime: maxMessageBytes must be an integer from 1 to 4294967295; got 0");
    await asyncThrows(
      () => serveRuntime(echo, { port: 0, heartbeatIntervalMs: -5 }),
      "serveRuntime: heartbeatIntervalMs must be a finite number >= 0 (0 disables); got -5",
    );
    await asyncThrows(
      () => serveRuntime(echo, { port: 0, heartbeat: 1 } as never),
      'serveRuntime: unknown option "heartbeat"; known options are capabilities, heartbeatIntervalMs, clock, logger, isPeerAllowed, grpcHealth',
    );
    await asyncThrows(() => serveRuntime({} as never, { port: 0 }), "serveRuntime: handler.converse must be a function; got undefined");
  });

  test("createRuntimeService checks the handler and options", () => {
    syncThrows(() => createRuntimeService(null as never), "createRuntimeService: handler must be an object; got null");
    syncThrows(() => createRuntimeService({ converse() {}, invoke: 1 } as never), "createRuntimeService: handler.invoke must be a function when set; got 1");
    syncThrows(() => createRuntimeService(echo, { capabilities: "invoke" } as never), 'createRuntimeService: capabilities must be an array of strings; got "invoke"');
    syncThrows(() => createRuntimeService(echo, { grpcHealth: "yes" } as never), 'createRuntimeService: grpcHealth must be a boolean; got "yes"');
  });

  test("the default message limit is 16 MiB", () => {
    assert.equal(DEFAULT_MAX_MESSAGE_BYTES, 16_777_216);
  });
});

describe("serveRuntime lifecycle", () => {
  test("resolves { port, url } on 127.0.0.1 by default", async () => {
    const { server } = await start();
    assert.ok(server.port > 0);
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
  });

  test("close() aborts a running turn, ends the session, is idempotent, and leaves no live handle", async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap");
    let aborted: unknown;
    const server = await serveRuntime(
      {
        async converse(turn, emit) {
          await emit.chunk("working");
          await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborted = turn.signal.aborted;
          // a handler that keeps going after the abort: its sends reject
          await assert.rejects(emit.chunk("too late"), { name: "ClosedError" });
        },
      },
      { port: 0 },
    );
    const client = createRuntimeClient(server.url);
    const s = openConverse(client);
    s.send({ sessionId: "s1", content: "long" }); // and never half-close
    await s.until("chunk");
    const first = server.close();
    assert.equal(server.close(), first, "a second close() returns the same promise");
    await first;
    assert.equal(aborted, true);
    await assert.rejects(s.next(), ConnectError);
    await assert.rejects(createRuntimeClient(server.url).runtime.health({}), (e: unknown) => ConnectError.from(e).code === Code.Unavailable);
    client.close();
    // Let the client's socket finish closing (event-loop turns, no timers).
    const extra = (): string[] => {
      const now = process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap");
      for (const r of before) {
        const i = now.indexOf(r);
        if (i >= 0) now.splice(i, 1);
      }
      return now.filter((r) => r !== "PipeWrap");
    };
    for (let i = 0; i < 200 && extra().length > 0; i++) await new Promise((r) => setImmediate(r));
    assert.deepEqual(extra(), []);
  });

  test("a message over maxMessageBytes ends the stream ResourceExhausted, not a crash", async () => {
    const { client } = await start(echo, { maxMessageBytes: 1024 });
    const r = await converse(client, [{ sessionId: "s1", content: "x".repeat(4096) }]);
    assert.equal(r.error?.code, Code.ResourceExhausted);
    assert.deepEqual(r.frames, []);
  });

  test("createRuntimeService on the host's own HTTP/2 server: routes + contextValues; without contextValues WatchInvocation denies", async () => {
    for (const withPeer of [true, false]) {
      const routes = createRuntimeService(echo);
      const server = http2.createServer(connectNodeAdapter(withPeer ? { routes, contextValues: routes.contextValues } : { routes }));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const sessions = new Set<http2.ServerHttp2Session>();
      server.on("session", (s) => sessions.add(s));
      const client = createRuntimeClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      cleanups.push(async () => {
        client.close();
        for (const s of sessions) s.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
      assert.equal((await client.runtime.health({})).contractVersion, "1.9.0");
      const ac = new AbortController();
      const it = client.runtime.watchInvocation({ invocationId: "i" }, { signal: ac.signal })[Symbol.asyncIterator]();
      if (withPeer) {
        assert.equal((await it.next()).value?.progress.case, "ready");
        ac.abort();
      } else {
        await assert.rejects(it.next(), (e: unknown) => {
          const ce = ConnectError.from(e);
          return ce.code === Code.PermissionDenied && ce.rawMessage === "peer unknown not allowed";
        });
      }
    }
  });
});

describe("malformed input never crashes the stream", () => {
  test("semantically empty messages become (empty) turns; audio without duplex and a stray client_tool_result are not turns; the stream ends OK", async () => {
    const { client } = await start({ converse: () => {} });
    for (const msg of [{ sessionId: "conformance" }, {}, { metadata: { a: "b" }, recordSequenceBase: -1n }]) {
      const r = await converse(client, [msg]);
      assert.equal(r.error, undefined);
      assert.deepEqual(frameCases(r.frames), ["runtimeHello", "done"]);
    }
    // Issue #34: audio outside a duplex session is refused with an error frame, never an empty turn.
    const audio = await converse(client, [{ audioInput: { data: new Uint8Array([1, 2]), sequence: 4, isLast: true } }]);
    assert.equal(audio.error, undefined);
    assert.deepEqual(frameCases(audio.frames), ["runtimeHello", "error"]);
    // Issue #19 item 20: a result no call awaits is not a turn (no done for it).
    const stray = await converse(client, [{ clientToolResult: { callId: "nobody-asked" } }]);
    assert.equal(stray.error, undefined);
    assert.deepEqual(frameCases(stray.frames), ["runtimeHello"]);
  });

  test("undecodable bytes on Converse end it InvalidArgument (connect reports them as Internal)", async () => {
    const { server } = await start();
    const session = http2.connect(server.url);
    cleanups.push(() => void session.close());
    const path = "/omnia.runtime.v1.RuntimeService/Converse";
    // field 1 (string) declaring 100 bytes with 1 present; an invalid wire type; a truncated varint
    for (const bad of [[0x0a, 0x64, 0x41], [0x0f], [0x08, 0xff]]) {
      const r = await rawCall(session, path, envelope(new Uint8Array(bad)));
      assert.equal(r.status, String(Code.InvalidArgument), `payload ${bad.join(",")}: ${r.message}`);
      assert.match(r.message ?? "", /^failed to receive message: parse binary: /);
    }
    // A cut envelope (promises 10 bytes, sends 2).
    const cut = await rawCall(session, path, new Uint8Array([0, 0, 0, 0, 10, 1, 2]));
    assert.ok(!CRASH.has(cut.status ?? ""), `cut envelope: ${cut.status} ${cut.message}`);
  });

  test("property: any payload bytes on Converse never end in Unknown/Internal/DataLoss (300 runs)", async () => {
    const { server } = await start();
    const session = http2.connect(server.url);
    cleanups.push(() => void session.close());
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (payload) => {
        const r = await rawCall(session, "/omnia.runtime.v1.RuntimeService/Converse", envelope(payload));
        assert.ok(r.status !== undefined && !CRASH.has(r.status), `status ${r.status} ${r.message}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe("S23: the conformance suite passes against an SDK runtime", () => {
  test("caps [client_tools, invoke] with Invoke: every check passes except duplex-honesty, which skips", async () => {
    const { server } = await start();
    const result = await runConformance({ addr: `127.0.0.1:${server.port}`, timeoutMs: 30_000 });
    assert.deepEqual(result, {
      passed: true,
      checks: [
        { name: "health/contract", status: "pass", detail: "" },
        { name: "hello-first", status: "pass", detail: "" },
        { name: "text-turn-shape", status: "pass", detail: "" },
        { name: "graceful-malformed-input", status: "pass", detail: "" },
        { name: "invoke-honesty", status: "pass", detail: "" },
        { name: "duplex-honesty", status: "skip", detail: "duplex_audio not advertised" },
      ],
    });
  });

  test("a runtime without invoke answers Unimplemented and does not advertise it: still conformant", async () => {
    const { server } = await start({ capabilities: () => ["client_tools", "invoke"], converse: echo.converse });
    const result = await runConformance({ addr: `127.0.0.1:${server.port}`, timeoutMs: 30_000 });
    assert.equal(result.passed, true);
    assert.deepEqual(result.checks.find((c) => c.name === "invoke-honesty"), { name: "invoke-honesty", status: "pass", detail: "" });
  });
});
