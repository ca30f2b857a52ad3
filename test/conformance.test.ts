// The conformance suite against fixture runtimes on loopback (real connect-node
// HTTP/2 servers written directly against the generated RuntimeService, not our SDK):
// every vector of contract.md §3.4, the failing fixtures with their exact
// detail strings, the frame limit, the probe and overall timeouts, and cleanup.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError, createRouterTransport, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { runConformance, type ConformanceResult } from "../src/conformance.js";
import { CONFORMANCE } from "../src/conformance/index.js";
import { RuntimeService, type ClientMessage, type ServerMessage } from "../src/contract/index.js";
import { createManualClock } from "../src/testing/index.js";
import {
  KNOWN,
  chunk,
  done,
  errorFrame,
  fixtureImpl,
  hello,
  startFixtureRuntime,
  untilCancelled,
  type FixtureBehaviour,
  type FixtureRuntime,
  type RuntimeImpl,
  type ServerFrame,
} from "./helpers/runtime-fixture.js";
import { withoutUnhandledRejections } from "./helpers/http-server.js";

const HEALTH_SKIP = "skipped: Health/contract check failed";
const LEGACY_SKIP = "skipped: runtime advertises no capabilities (legacy \u2014 pre-negotiation)";
const NAMES = ["health/contract", "hello-first", "text-turn-shape", "graceful-malformed-input", "invoke-honesty", "duplex-honesty"];

const H = (capabilities: readonly string[], contractVersion = "1.3.0") => ({ healthy: true, status: "ready", contractVersion, capabilities: [...capabilities] });
const without = (...drop: string[]) => KNOWN.filter((c) => !drop.includes(c));
const MEDIA = { codec: "pcm", sampleRate: 16000, channels: 1 };

type Probe = "text" | "empty" | "duplex" | "none";
function probeOf(first: ClientMessage | undefined): Probe {
  if (first === undefined) return "none";
  if (first.duplexStart !== undefined) return "duplex";
  return first.content === "" ? "empty" : "text";
}

/** A conformant Converse for `caps`: hello then done; on duplex_start, hello + media and return. */
function conformantConverse(caps: readonly string[], helloCaps: readonly string[] = caps) {
  return (first: ClientMessage | undefined): ServerFrame[] =>
    probeOf(first) === "duplex" ? [hello(helloCaps, MEDIA)] : [hello(helloCaps), done("ok")];
}

const running: FixtureRuntime[] = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

/** A fixture from a behaviour description (see fixtureImpl). */
function start(behaviour: FixtureBehaviour): Promise<FixtureRuntime> {
  return startRaw(fixtureImpl(behaviour));
}

/** A fixture from a hand-written (partial) RuntimeService implementation. */
async function startRaw(impl: RuntimeImpl): Promise<FixtureRuntime> {
  const rt = await startFixtureRuntime(impl);
  running.push(rt);
  return rt;
}

async function runAgainst(behaviour: FixtureBehaviour): Promise<ConformanceResult> {
  const rt = await start(behaviour);
  return withoutUnhandledRejections(() => runConformance({ addr: rt.addr }));
}

/**
 * A gRPC transport to `addr` that reports every ServerMessage the client receives,
 * so a test can advance the manual clock only once a frame has arrived.
 */
function observedTransport(addr: string, onFrame: (m: ServerMessage) => void): { transport: Transport; close(): void } {
  const sessionManager = new Http2SessionManager(`http://${addr}`);
  const observe: Interceptor = (next) => async (req) => {
    const res = await next(req);
    if (!res.stream) return res;
    const message = res.message;
    return {
      ...res,
      message: (async function* () {
        for await (const m of message) {
          onFrame(m as ServerMessage);
          yield m;
        }
      })(),
    };
  };
  return { transport: createGrpcTransport({ baseUrl: `http://${addr}`, sessionManager, interceptors: [observe] }), close: () => sessionManager.abort() };
}

function nextFrame(): { seen: (m: ServerMessage) => void; arrived(kind: string): Promise<void> } {
  const waiting: { kind: string; resolve: () => void }[] = [];
  const seenKinds: string[] = [];
  return {
    seen(m) {
      const kind = String(m.message.case);
      seenKinds.push(kind);
      for (const w of waiting.filter((x) => x.kind === kind)) w.resolve();
    },
    async arrived(kind) {
      if (!seenKinds.includes(kind)) await new Promise<void>((resolve) => waiting.push({ kind, resolve }));
      // Let the suite's reader take the frame before time moves.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** [name, status, detail] rows, for one-line assertions. */
function rows(result: ConformanceResult): [string, string, string][] {
  return result.checks.map((c) => [c.name, c.status, c.detail]);
}

function statuses(result: ConformanceResult): string[] {
  return result.checks.map((c) => c.status);
}

function check(result: ConformanceResult, name: string): { status: string; detail: string } {
  const c = result.checks.find((x) => x.name === name);
  assert.ok(c, `no check ${name}`);
  return { status: c.status, detail: c.detail };
}

describe("contract.md §3.4 vectors", () => {
  test("#1 a fully conformant runtime with every known capability passes all six checks", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: conformantConverse(KNOWN), invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(rows(r), NAMES.map((n) => [n, "pass", ""]));
    assert.equal(r.passed, true);
  });

  test("#2 Health healthy=false fails health/contract and skips the rest with the health reason", async () => {
    const r = await runAgainst({ health: { healthy: false, status: "not ready", contractVersion: "1.3.0", capabilities: KNOWN } });
    assert.deepEqual(rows(r), [
      ["health/contract", "fail", "Health reports healthy=false"],
      ["hello-first", "skip", HEALTH_SKIP],
      ["text-turn-shape", "skip", HEALTH_SKIP],
      ["graceful-malformed-input", "skip", HEALTH_SKIP],
      ["invoke-honesty", "skip", HEALTH_SKIP],
      ["duplex-honesty", "skip", HEALTH_SKIP],
    ]);
    assert.equal(r.passed, false);
  });

  test("#3 contract_version \"v1\" is not semver", async () => {
    const r = await runAgainst({ health: H(KNOWN, "v1"), converse: conformantConverse(KNOWN) });
    assert.deepEqual(check(r, "health/contract"), { status: "fail", detail: 'contract_version "v1" is not semver (want N.N.N)' });
    assert.deepEqual(statuses(r).slice(1), ["skip", "skip", "skip", "skip", "skip"]);
    assert.equal(r.passed, false);
  });

  test("#4 Health not implemented: Health RPC failed: <status>", async () => {
    const r = await runAgainst({ converse: conformantConverse(KNOWN) });
    assert.deepEqual(check(r, "health/contract"), {
      status: "fail",
      detail: "Health RPC failed: rpc error: code = Unimplemented desc = omnia.runtime.v1.RuntimeService.Health is not implemented",
    });
    assert.ok(r.checks.slice(1).every((c) => c.status === "skip" && c.detail === HEALTH_SKIP));
    assert.equal(r.passed, false);
  });

  test("#5 Converse sends only done: hello-first and text-turn-shape fail, and duplex fails on the text turn's done", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: () => [done()], invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "fail", "first frame is *runtimev1.ServerMessage_Done, want RuntimeHello"],
      ["text-turn-shape", "fail", "done arrived before RuntimeHello"],
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "pass", ""],
      ["duplex-honesty", "fail", "advertises `duplex_audio` but answered the duplex session as a text turn (a Done before any audio)"],
    ]);
    assert.equal(r.passed, false);
  });

  test("#6 done then hello: done arrived before RuntimeHello", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: () => [done(), hello(KNOWN)], invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(check(r, "hello-first"), { status: "fail", detail: "first frame is *runtimev1.ServerMessage_Done, want RuntimeHello" });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "fail", detail: "done arrived before RuntimeHello" });
    assert.equal(r.passed, false);
  });

  test("#7 Converse reads one message then returns Internal: every Converse probe fails, invoke passes", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: () => {
        throw new ConnectError("boom", Code.Internal);
      },
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "fail", "Converse produced no ServerMessages"],
      ["text-turn-shape", "fail", "stream error before completion: rpc error: code = Internal desc = boom"],
      ["graceful-malformed-input", "fail", "stream crashed on empty input: rpc error: code = Internal desc = boom"],
      ["invoke-honesty", "pass", ""],
      ["duplex-honesty", "fail", "duplex session crashed: rpc error: code = Internal desc = boom"],
    ]);
    assert.equal(r.passed, false);
  });

  test("#8 legacy runtime (no capabilities): hello checks skip, malformed and invoke still run; passes", async () => {
    const r = await runAgainst({ health: H([]), converse: () => [done()] });
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "skip", LEGACY_SKIP],
      ["text-turn-shape", "skip", LEGACY_SKIP],
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "pass", ""],
      ["duplex-honesty", "skip", "duplex_audio not advertised"],
    ]);
    assert.equal(r.passed, true);
  });

  test("#8b a legacy runtime that crashes on empty input still fails graceful-malformed-input", async () => {
    const r = await runAgainst({
      health: H([]),
      converse: (first) => {
        if (probeOf(first) === "empty") throw new ConnectError("nil content", Code.Unknown);
        return [done()];
      },
    });
    assert.deepEqual(check(r, "graceful-malformed-input"), { status: "fail", detail: "stream crashed on empty input: rpc error: code = Unknown desc = nil content" });
    assert.equal(r.passed, false);
  });

  test("#9 advertises invoke but Invoke answers Unimplemented", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: conformantConverse(KNOWN) });
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "pass", ""],
      ["text-turn-shape", "pass", ""],
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "fail", "advertises `invoke` but Invoke returns Unimplemented"],
      ["duplex-honesty", "pass", ""],
    ]);
    assert.equal(r.passed, false);
  });

  test("#10 a hello whose capabilities differ from Health's (hello K, Health K−invoke) fails hello-first only", async () => {
    const r = await runAgainst({ health: H(without("invoke")), converse: conformantConverse(without("invoke"), KNOWN) });
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "fail", "RuntimeHello.capabilities do not match Health.capabilities"],
      ["text-turn-shape", "pass", ""],
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "pass", ""],
      ["duplex-honesty", "pass", ""],
    ]);
    assert.equal(r.passed, false);
  });

  test("#11 does not advertise invoke but serves it", async () => {
    const caps = without("invoke");
    const r = await runAgainst({ health: H(caps), converse: conformantConverse(caps), invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(check(r, "invoke-honesty"), { status: "fail", detail: "Invoke is answered but `invoke` is not advertised" });
    assert.deepEqual(statuses(r), ["pass", "pass", "pass", "pass", "fail", "pass"]);
    assert.equal(r.passed, false);
  });

  test("#11b not advertised, and Invoke answers an error other than Unimplemented: still 'answered'", async () => {
    const caps = without("invoke");
    const r = await runAgainst({
      health: H(caps),
      converse: conformantConverse(caps),
      invoke: () => {
        throw new ConnectError("invocation failed", Code.Internal);
      },
    });
    assert.deepEqual(check(r, "invoke-honesty"), { status: "fail", detail: "Invoke is answered but `invoke` is not advertised" });
  });

  test("#12 Converse returns Unimplemented after the first message", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: () => {
        throw new ConnectError("converse is not supported", Code.Unimplemented);
      },
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "fail", "Converse produced no ServerMessages"],
      ["text-turn-shape", "fail", "stream error before completion: rpc error: code = Unimplemented desc = converse is not supported"],
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "pass", ""],
      ["duplex-honesty", "fail", "advertises `duplex_audio` but the session returns Unimplemented"],
    ]);
    assert.equal(r.passed, false);
  });

  test("#12b Converse not served at all (router Unimplemented) is read the same way", async () => {
    const r = await runAgainst({ health: H(KNOWN), invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(check(r, "text-turn-shape"), {
      status: "fail",
      detail: "stream error before completion: rpc error: code = Unimplemented desc = omnia.runtime.v1.RuntimeService.Converse is not implemented",
    });
    assert.deepEqual(check(r, "graceful-malformed-input"), { status: "pass", detail: "" });
    assert.deepEqual(check(r, "duplex-honesty"), { status: "fail", detail: "advertises `duplex_audio` but the session returns Unimplemented" });
  });

  test("#13 fully conformant without duplex_audio: duplex skipped, passes", async () => {
    const caps = without("duplex_audio");
    const rt = await start({ health: H(caps), converse: conformantConverse(caps), invoke: () => ({ outputJson: "{}" }) });
    const r = await withoutUnhandledRejections(() => runConformance({ addr: rt.addr }));
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "pass", ""],
      ["text-turn-shape", "pass", ""],
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "pass", ""],
      ["duplex-honesty", "skip", "duplex_audio not advertised"],
    ]);
    assert.equal(r.passed, true);
    // Two Converse probes (text, empty input); no duplex probe was opened.
    assert.equal(rt.streams.length, 2);
  });

  test("#14 the same set in another order matches", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: conformantConverse(KNOWN, [...KNOWN].reverse()), invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(check(r, "hello-first"), { status: "pass", detail: "" });
    assert.equal(r.passed, true);
  });

  test("#15 Health [a], hello [a,a]: the lengths differ", async () => {
    const r = await runAgainst({ health: H(["a"]), converse: () => [hello(["a", "a"]), done()] });
    assert.deepEqual(check(r, "hello-first"), { status: "fail", detail: "RuntimeHello.capabilities do not match Health.capabilities" });
    assert.equal(r.passed, false);
  });

  test("#15b Health's list is a set: Health [a,a] matches hello [a], and does not match hello [a,a]", async () => {
    const one = await runAgainst({ health: H(["a", "a"]), converse: () => [hello(["a"]), done()] });
    assert.deepEqual(check(one, "hello-first"), { status: "pass", detail: "" });
    const two = await runAgainst({ health: H(["a", "a"]), converse: () => [hello(["a", "a"]), done()] });
    assert.deepEqual(check(two, "hello-first"), { status: "fail", detail: "RuntimeHello.capabilities do not match Health.capabilities" });
  });

  test("#15c unknown capability names are compared like any other (open set)", async () => {
    const caps = ["client_tools", "x-future-thing"];
    const r = await runAgainst({ health: H(caps), converse: conformantConverse(caps) });
    assert.deepEqual(rows(r).slice(0, 3), [
      ["health/contract", "pass", ""],
      ["hello-first", "pass", ""],
      ["text-turn-shape", "pass", ""],
    ]);
  });

  for (const code of [Code.InvalidArgument, Code.Internal]) {
    test(`#16 advertised invoke answering ${Code[code]} passes (only Unimplemented fails)`, async () => {
      const r = await runAgainst({
        health: H(KNOWN),
        converse: conformantConverse(KNOWN),
        invoke: () => {
          throw new ConnectError("nope", code);
        },
      });
      assert.deepEqual(check(r, "invoke-honesty"), { status: "pass", detail: "" });
      assert.equal(r.passed, true);
    });
  }

  test("#17 hello + 16 chunks + done: only 16 frames are read, so the done is missing", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: (first) => (probeOf(first) === "text" ? [hello(KNOWN), ...Array.from({ length: 16 }, (_, i) => chunk(`c${i}`)), done()] : [hello(KNOWN, MEDIA)]),
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(check(r, "hello-first"), { status: "pass", detail: "" });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "fail", detail: "text turn did not end with a done frame" });
    assert.equal(r.passed, false);
  });

  test("#18 empty input ending with InvalidArgument, DeadlineExceeded or OK-without-frames is graceful", async () => {
    for (const end of [Code.InvalidArgument, Code.DeadlineExceeded, undefined]) {
      const r = await runAgainst({
        health: H(KNOWN),
        converse: (first) => {
          if (probeOf(first) !== "empty") return conformantConverse(KNOWN)(first);
          if (end === undefined) return [];
          throw new ConnectError("empty message", end);
        },
        invoke: () => ({ outputJson: "{}" }),
      });
      assert.deepEqual(check(r, "graceful-malformed-input"), { status: "pass", detail: "" }, String(end));
      assert.equal(r.passed, true);
    }
  });

  for (const code of [Code.Unknown, Code.DataLoss, Code.Internal] as const) {
    test(`#19 answers ${Code[code]} to malformed input: stream crashed on empty input`, async () => {
      const r = await runAgainst({
        health: H(KNOWN),
        converse: (first) => {
          if (probeOf(first) === "empty") throw new ConnectError("nil pointer dereference", code);
          return conformantConverse(KNOWN)(first);
        },
        invoke: () => ({ outputJson: "{}" }),
      });
      assert.deepEqual(rows(r), [
        ["health/contract", "pass", ""],
        ["hello-first", "pass", ""],
        ["text-turn-shape", "pass", ""],
        ["graceful-malformed-input", "fail", `stream crashed on empty input: rpc error: code = ${Code[code]} desc = nil pointer dereference`],
        ["invoke-honesty", "pass", ""],
        ["duplex-honesty", "pass", ""],
      ]);
      assert.equal(r.passed, false);
    });
  }

  test("#20 duplex advertised and answered with an error frame: fails, naming the frame (Omnia's Go suite passes any first frame)", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: (first) => (probeOf(first) === "duplex" ? [errorFrame("DUPLEX_UNSUPPORTED", "duplex audio is not supported by this runtime")] : conformantConverse(KNOWN)(first)),
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(check(r, "duplex-honesty"), {
      status: "fail",
      detail: "advertises `duplex_audio` but answered the duplex session with an error frame: DUPLEX_UNSUPPORTED: duplex audio is not supported by this runtime",
    });
    assert.equal(r.passed, false);
  });

  test("#21 duplex advertised, stream closed OK with no frame", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: (first) => (probeOf(first) === "duplex" ? [] : conformantConverse(KNOWN)(first)),
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(check(r, "duplex-honesty"), { status: "fail", detail: "duplex session closed without emitting any frame" });
    assert.equal(r.passed, false);
  });

  test("#21b duplex advertised, no reply within the 10 s probe timeout (manual clock)", async () => {
    const clock = createManualClock(1_000);
    const rt = await start({
      health: H(KNOWN),
      converse: async function* (first, ctx) {
        if (probeOf(first) === "duplex") await untilCancelled(ctx);
        else yield* conformantConverse(KNOWN)(first);
      },
      invoke: () => ({ outputJson: "{}" }),
    });
    const run = withoutUnhandledRejections(() => runConformance({ addr: rt.addr, clock }));
    // text + empty + duplex_start = 3 messages: the duplex probe is now waiting.
    await rt.messagesRead(3);
    clock.advance(9_999);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(rt.streams.length, 3);
    clock.advance(1);
    const r = await run;
    assert.deepEqual(check(r, "duplex-honesty"), { status: "fail", detail: "duplex session closed without emitting any frame" });
    assert.equal(clock.pendingTimers(), 0);
  });

  for (const v of ["1.3", "1.3.0-rc1", "v1.3.0", ""]) {
    test(`#22 contract_version ${JSON.stringify(v)} fails health/contract`, async () => {
      const r = await runAgainst({ health: H(KNOWN, v), converse: conformantConverse(KNOWN) });
      assert.deepEqual(rows(r), [
        ["health/contract", "fail", `contract_version ${JSON.stringify(v)} is not semver (want N.N.N)`],
        ...NAMES.slice(1).map((n): [string, string, string] => [n, "skip", HEALTH_SKIP]),
      ]);
      assert.equal(r.passed, false);
    });
  }

  test("#22b the version is quoted the way Go's %q does", async () => {
    const r = await runAgainst({ health: H(KNOWN, '1.3.0\n"x"\u0007\u00e9') });
    assert.deepEqual(check(r, "health/contract"), { status: "fail", detail: 'contract_version "1.3.0\\n\\"x\\"\\a\u00e9" is not semver (want N.N.N)' });
  });

  for (const v of ["9.9.9", "01.2.3", "1.9.0"]) {
    test(`#23 contract_version ${v} passes (the suite never compares versions)`, async () => {
      const r = await runAgainst({ health: H(KNOWN, v), converse: conformantConverse(KNOWN), invoke: () => ({ outputJson: "{}" }) });
      assert.deepEqual(check(r, "health/contract"), { status: "pass", detail: "" });
      assert.equal(r.passed, true);
    });
  }
});

describe("the frame limit (16)", () => {
  const turn = (chunks: number) => (first: ClientMessage | undefined) =>
    probeOf(first) === "text" ? [hello(KNOWN), ...Array.from({ length: chunks }, (_, i) => chunk(`c${i}`)), done("ok")] : conformantConverse(KNOWN)(first);

  test("done as frame 16 (hello + 14 chunks + done) passes", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: turn(14), invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "pass", detail: "" });
  });

  test("done only after frame 16 (hello + 15 chunks + done) fails", async () => {
    const r = await runAgainst({ health: H(KNOWN), converse: turn(15), invoke: () => ({ outputJson: "{}" }) });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "fail", detail: "text turn did not end with a done frame" });
    assert.deepEqual(check(r, "hello-first"), { status: "pass", detail: "" });
  });

  test("a done that is not the last frame still passes (nothing after the first done is checked)", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: (first) => (probeOf(first) === "text" ? [hello(KNOWN), done("a"), chunk("late"), done("b")] : conformantConverse(KNOWN)(first)),
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "pass", detail: "" });
  });

  test("a receive error after the hello and a done still fails text-turn-shape", async () => {
    const r = await runAgainst({
      health: H(KNOWN),
      converse: async function* (first) {
        if (probeOf(first) !== "text") return yield* conformantConverse(KNOWN)(first);
        yield hello(KNOWN);
        yield done();
        throw new ConnectError("late failure", Code.Unavailable);
      },
      invoke: () => ({ outputJson: "{}" }),
    });
    assert.deepEqual(check(r, "hello-first"), { status: "pass", detail: "" });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "fail", detail: "stream error before completion: rpc error: code = Unavailable desc = late failure" });
  });

  test("a hello as frame 0 but an empty oneof frame reports `<nil>` (Go's %T of a nil interface)", async () => {
    const rt = await startRaw({
      health: () => H(KNOWN),
      converse: async function* (requests) {
        for await (const _ of requests) break;
        yield {};
      },
    });
    const r = await withoutUnhandledRejections(() => runConformance({ addr: rt.addr }));
    assert.deepEqual(check(r, "hello-first"), { status: "fail", detail: "first frame is <nil>, want RuntimeHello" });
    assert.deepEqual(check(r, "text-turn-shape"), { status: "fail", detail: "text turn did not end with a done frame" });
  });
});

describe("what the probes send", () => {
  test("text, empty-input and Invoke probes carry exactly the Go suite's messages; the duplex probe adds one last audio frame", async () => {
    const invokes: { inputJson: string; invocationId: string; deadline: number | undefined }[] = [];
    const halfClosed: boolean[] = [];
    let duplexEnded!: () => void;
    const duplexDone = new Promise<void>((resolve) => (duplexEnded = resolve));
    const rt = await startRaw({
      health: () => H(KNOWN),
      converse: async function* (requests, ctx) {
        const it = requests[Symbol.asyncIterator]();
        const first = await it.next();
        const message = first.done === true ? undefined : first.value;
        if (probeOf(message) === "duplex") {
          yield { message: hello(KNOWN, MEDIA) };
          // The duplex probe does not half-close: the next read only ends when the client cancels.
          const second = await Promise.race([it.next().then((n) => n.done === true, () => "cancelled" as const), untilCancelled(ctx).then(() => "cancelled" as const)]);
          halfClosed.push(second === true);
          duplexEnded();
          return;
        }
        halfClosed.push((await it.next()).done === true);
        for (const m of conformantConverse(KNOWN)(message)) yield { message: m };
      },
      invoke: (req, ctx) => {
        invokes.push({ inputJson: req.inputJson, invocationId: req.invocationId, deadline: ctx.timeoutMs() });
        return { outputJson: "{}", invocationId: req.invocationId };
      },
    });
    const r = await withoutUnhandledRejections(() => runConformance({ addr: rt.addr }));
    assert.equal(r.passed, true);
    const sent = rt.streams.map((s) =>
      s.messages.map((m) => ({
        sessionId: m.sessionId,
        content: m.content,
        duplexStart: m.duplexStart === undefined ? undefined : { codec: m.duplexStart.codec, sampleRate: m.duplexStart.sampleRate, channels: m.duplexStart.channels },
        parts: m.parts.length,
        metadata: Object.keys(m.metadata).length,
        clientToolResult: m.clientToolResult !== undefined,
        audioInput: m.audioInput !== undefined,
      })),
    );
    const base = { parts: 0, metadata: 0, clientToolResult: false, audioInput: false };
    assert.deepEqual(sent, [
      [{ sessionId: "conformance", content: "conformance probe", duplexStart: undefined, ...base }],
      [{ sessionId: "conformance", content: "", duplexStart: undefined, ...base }],
      [
        { sessionId: "conformance", content: "", duplexStart: { codec: "pcm", sampleRate: 16000, channels: 1 }, ...base },
        { sessionId: "conformance", content: "", duplexStart: undefined, ...base, audioInput: true },
      ],
    ]);
    await duplexDone;
    assert.deepEqual(halfClosed, [true, true, false]);
    assert.equal(invokes.length, 1);
    assert.equal(invokes[0]?.inputJson, "{}");
    assert.equal(invokes[0]?.invocationId, "conformance");
    // The 10 s probe deadline goes on the wire as grpc-timeout.
    const deadline = invokes[0]?.deadline;
    assert.ok(deadline !== undefined && deadline > 0 && deadline <= 10_000, `deadline ${deadline}`);
  });
});

describe("timeouts and cancellation", () => {
  test("a text turn that never ends fails text-turn-shape when the 10 s probe timeout fires", async () => {
    const clock = createManualClock(0);
    const rt = await start({
      health: H(KNOWN),
      converse: async function* (first, ctx) {
        if (probeOf(first) !== "text") return yield* conformantConverse(KNOWN)(first);
        yield hello(KNOWN);
        await untilCancelled(ctx);
      },
      invoke: () => ({ outputJson: "{}" }),
    });
    const frames = nextFrame();
    const { transport, close } = observedTransport(rt.addr, frames.seen);
    const run = withoutUnhandledRejections(() => runConformance({ transport, clock }));
    await frames.arrived("runtimeHello");
    clock.advance(9_999);
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1);
    const r = await run.finally(close);
    assert.deepEqual(rows(r).slice(1, 3), [
      ["hello-first", "pass", ""],
      ["text-turn-shape", "fail", "stream error before completion: rpc error: code = DeadlineExceeded desc = context deadline exceeded"],
    ]);
    // The probes after it ran with fresh 10 s limits and passed.
    assert.deepEqual(statuses(r).slice(3), ["pass", "pass", "pass"]);
  });

  test("the overall timeout bounds Health, which has no probe timeout of its own", async () => {
    const clock = createManualClock(0);
    let entered!: () => void;
    const inHealth = new Promise<void>((resolve) => (entered = resolve));
    const rt = await startRaw({
      health: async (_req, ctx) => {
        entered();
        await untilCancelled(ctx);
        return H(KNOWN);
      },
    });
    const run = withoutUnhandledRejections(() => runConformance({ addr: rt.addr, clock, timeoutMs: 45_000 }));
    await inHealth;
    clock.advance(44_999);
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1);
    const r = await run;
    assert.deepEqual(rows(r), [
      ["health/contract", "fail", "Health RPC failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded"],
      ...NAMES.slice(1).map((n): [string, string, string] => [n, "skip", HEALTH_SKIP]),
    ]);
  });

  test("the overall timeout cuts a probe short: the probe sees the overall deadline", async () => {
    const clock = createManualClock(0);
    const rt = await start({
      health: H(KNOWN),
      converse: async function* (first, ctx) {
        if (probeOf(first) !== "text") return yield* conformantConverse(KNOWN)(first);
        yield hello(KNOWN);
        await untilCancelled(ctx);
      },
      invoke: () => ({ outputJson: "{}" }),
    });
    const frames = nextFrame();
    const { transport, close } = observedTransport(rt.addr, frames.seen);
    const run = withoutUnhandledRejections(() => runConformance({ transport, clock, timeoutMs: 3_000 }));
    await frames.arrived("runtimeHello");
    clock.advance(3_000);
    const r = await run.finally(close);
    const timedOut = "rpc error: code = DeadlineExceeded desc = context deadline exceeded";
    assert.deepEqual(rows(r), [
      ["health/contract", "pass", ""],
      ["hello-first", "pass", ""],
      ["text-turn-shape", "fail", `stream error before completion: ${timedOut}`],
      // Later probes start under an expired run: DeadlineExceeded is not a crash,
      // and not Unimplemented, so an advertised invoke and the empty input pass…
      ["graceful-malformed-input", "pass", ""],
      ["invoke-honesty", "pass", ""],
      // …and the duplex probe receives no frame.
      ["duplex-honesty", "fail", "duplex session closed without emitting any frame"],
    ]);
  });

  test("aborting the caller's signal rejects with AbortedError", async () => {
    const rt = await start({
      health: H(KNOWN),
      converse: async function* (first, ctx) {
        await untilCancelled(ctx);
        yield* conformantConverse(KNOWN)(first);
      },
    });
    const controller = new AbortController();
    const run = runConformance({ addr: rt.addr, signal: controller.signal });
    await rt.messagesRead(1);
    controller.abort();
    await assert.rejects(run, { name: "AbortedError", code: "ERR_OMNIA_ABORTED", message: "runConformance: aborted by the caller's signal" });
  });

  test("an already-aborted signal rejects before dialling", async () => {
    const rt = await start({ health: H(KNOWN) });
    await assert.rejects(runConformance({ addr: rt.addr, signal: AbortSignal.abort() }), { code: "ERR_OMNIA_ABORTED" });
    assert.equal(rt.sessionCount(), 0);
  });
});

describe("targets, connections and options", () => {
  test("with addr, the suite closes the HTTP/2 session it opened", async () => {
    const caps = without("duplex_audio");
    const rt = await start({ health: H(caps), converse: conformantConverse(caps), invoke: () => ({ outputJson: "{}" }) });
    const r = await runConformance({ addr: rt.addr });
    assert.equal(r.passed, true);
    assert.equal(rt.sessionCount(), 1);
    await rt.sessionsClosed();
  });

  test("an unreachable address (a closed loopback port) is a failed Health check, not a throw", async () => {
    const rt = await startFixtureRuntime({});
    const addr = rt.addr;
    await rt.close();
    const r = await withoutUnhandledRejections(() => runConformance({ addr }));
    assert.deepEqual(rows(r), [
      ["health/contract", "fail", `Health RPC failed: rpc error: code = Unavailable desc = connect ECONNREFUSED ${addr}`],
      ...NAMES.slice(1).map((n): [string, string, string] => [n, "skip", HEALTH_SKIP]),
    ]);
    assert.equal(r.passed, false);
  });

  test("with a caller's transport, the suite runs over it and leaves it open", async () => {
    const caps = without("duplex_audio");
    const rt = await start({ health: H(caps), converse: conformantConverse(caps), invoke: () => ({ outputJson: "{}" }) });
    const sessionManager = new Http2SessionManager(`http://${rt.addr}`);
    const transport = createGrpcTransport({ baseUrl: `http://${rt.addr}`, sessionManager });
    try {
      const r = await runConformance({ transport });
      assert.equal(r.passed, true);
      assert.equal(sessionManager.state(), "open");
    } finally {
      sessionManager.abort();
    }
    await rt.sessionsClosed();
  });

  test("any connect Transport works, e.g. an in-memory router transport (shape only)", async () => {
    const caps = without("duplex_audio");
    const transport = createRouterTransport(({ service }) => {
      service(RuntimeService, fixtureImpl({ health: H(caps), converse: conformantConverse(caps), invoke: () => ({ outputJson: "{}" }) }));
    });
    const r = await runConformance({ transport });
    assert.deepEqual(statuses(r), ["pass", "pass", "pass", "pass", "pass", "skip"]);
  });

  const bad: [string, unknown, string][] = [
    ["neither target", {}, "runConformance: exactly one of addr or transport is required; got neither"],
    ["both targets", { addr: "127.0.0.1:1", transport: createRouterTransport(() => {}) }, "runConformance: exactly one of addr or transport is required; got both"],
    ["addr without a port", { addr: "127.0.0.1" }, 'runConformance: addr must be host:port; got "127.0.0.1"'],
    ["addr with a scheme", { addr: "http://127.0.0.1:9000" }, 'runConformance: addr must be host:port; got "http://127.0.0.1:9000"'],
    ["addr with a path", { addr: "127.0.0.1:9000/x" }, 'runConformance: addr must be host:port; got "127.0.0.1:9000/x"'],
    ["port out of range", { addr: "localhost:65536" }, 'runConformance: addr must be host:port; got "localhost:65536"'],
    ["port 0", { addr: "localhost:0" }, 'runConformance: addr must be host:port; got "localhost:0"'],
    ["addr not a string", { addr: 9000 }, "runConformance: addr must be a string; got 9000"],
    ["transport not a transport", { transport: {} }, "runConformance: transport must be a connect Transport; got object"],
    ["negative timeout", { addr: "127.0.0.1:1", timeoutMs: -1 }, "runConformance: timeoutMs must be a number >= 0 (Infinity for no limit); got -1"],
    ["NaN timeout", { addr: "127.0.0.1:1", timeoutMs: Number.NaN }, "runConformance: timeoutMs must be a number >= 0 (Infinity for no limit); got NaN"],
    ["string timeout", { addr: "127.0.0.1:1", timeoutMs: "10s" }, 'runConformance: timeoutMs must be a number >= 0 (Infinity for no limit); got "10s"'],
    ["signal not a signal", { addr: "127.0.0.1:1", signal: {} }, "runConformance: signal must be an AbortSignal; got object"],
    ["clock without setTimeout", { addr: "127.0.0.1:1", clock: { now: () => 0 } }, "runConformance: clock must have now() and setTimeout(); got object"],
  ];
  for (const [what, options, message] of bad) {
    test(`rejects ${what} with InvalidOptionError`, async () => {
      await assert.rejects(runConformance(options as never), { name: "InvalidOptionError", code: "ERR_OMNIA_INVALID_OPTION", message });
    });
  }

  test("accepts hostnames and bracketed IPv6 addresses", async () => {
    const rt = await start({ health: H([]), converse: () => [done()] });
    const r = await runConformance({ addr: `localhost:${rt.port}`, timeoutMs: Infinity });
    assert.equal(r.checks[0]?.status, "pass");
    const v6 = await runConformance({ addr: `[::1]:${rt.port}`, timeoutMs: 5_000 });
    // The fixture listens on 127.0.0.1 only: ::1 is refused, which is a Health failure, not an option error.
    assert.match(v6.checks[0]?.detail ?? "", /^Health RPC failed: rpc error: code = Unavailable desc = /);
  });

  test("the constants are Omnia's", () => {
    assert.deepEqual(
      { ...CONFORMANCE },
      {
        PROBE_SESSION_ID: "conformance",
        PROBE_CONTENT: "conformance probe",
        MAX_FRAMES: 16,
        PROBE_TIMEOUT_MS: 10_000,
        SKIP_HEALTH_FAILED: HEALTH_SKIP,
        SKIP_LEGACY: LEGACY_SKIP,
      },
    );
  });
});
