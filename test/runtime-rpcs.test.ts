// The unary and server-streaming RPCs of omnia.runtime.v1 over a real HTTP/2
// server on 127.0.0.1: contract.md §5.4 S1, S14–S20, S22, and 1.9.0's
// EndConversation and WatchInvocation (ordering and the loopback-only rule).
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { ResumeState, type InvocationProgress } from "../src/contract/index.js";
import { createManualClock } from "../src/testing/index.js";
import { type Invocation, type RuntimeCallContext, type RuntimeHandler } from "../src/runtime/index.js";
import { HealthCheckResponse_ServingStatus } from "../src/gen/grpc/health/v1/health_pb.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { grpcJsHealthCheck } from "./helpers/grpc-server.js";
import { startRuntime, type StartedRuntime } from "./helpers/runtime-client.js";

let running: StartedRuntime[] = [];
afterEach(async () => {
  for (const r of running) await r.close();
  running = [];
});

async function start(handler: Partial<RuntimeHandler>, options: Parameters<typeof startRuntime>[1] = {}): Promise<StartedRuntime> {
  const r = await startRuntime({ converse: () => {}, ...handler }, options);
  running.push(r);
  return r;
}

async function rejection(p: Promise<unknown>): Promise<[Code, string]> {
  try {
    await p;
  } catch (err) {
    const ce = ConnectError.from(err);
    return [ce.code, ce.rawMessage];
  }
  assert.fail("expected the call to fail");
}

describe("Health", () => {
  test("S1: healthy, status ready, contract_version 1.9.0, the handler's capabilities in order", async () => {
    const { client } = await start({ capabilities: () => ["media_storage_ref", "client_tools", "invoke"], invoke: () => ({ outputJson: "{}" }) });
    const h = await client.runtime.health({});
    assert.deepEqual(
      { healthy: h.healthy, status: h.status, contractVersion: h.contractVersion, capabilities: h.capabilities },
      { healthy: true, status: "ready", contractVersion: "1.9.0", capabilities: ["media_storage_ref", "client_tools", "invoke"] },
    );
  });

  test("capabilities are de-duplicated, duplex is never advertised, and hello equals Health", async () => {
    const { client } = await start({ capabilities: () => ["client_tools", "duplex_audio", "client_tools", "interruption", "x_future"] });
    const h = await client.runtime.health({});
    assert.deepEqual(h.capabilities, ["client_tools", "x_future"]);
    for await (const frame of client.runtime.converse((async function* () {
      yield { sessionId: "conformance", content: "conformance probe" };
    })())) {
      assert.equal(frame.message.case, "runtimeHello");
      assert.deepEqual(frame.message.value.capabilities, h.capabilities);
      break;
    }
  });

  test("the capabilities option wins; invoke is dropped without an invoke hook", async () => {
    const { client } = await start({ capabilities: () => ["client_tools"] }, { capabilities: ["invoke", "media_storage_ref"] });
    assert.deepEqual((await client.runtime.health({})).capabilities, ["media_storage_ref"]);
  });

  test("S22: grpc.health.v1 Check('') is SERVING (connect and grpc-js clients); an unknown service is NotFound", async () => {
    const { client, server } = await start({});
    assert.equal((await client.health.check({ service: "" })).status, HealthCheckResponse_ServingStatus.SERVING);
    assert.equal((await client.health.check({ service: "omnia.runtime.v1.RuntimeService" })).status, HealthCheckResponse_ServingStatus.SERVING);
    assert.deepEqual(await rejection(client.health.check({ service: "nope" })), [Code.NotFound, 'unknown service "nope"']);
    assert.equal(await grpcJsHealthCheck(`127.0.0.1:${server.port}`, ""), "SERVING");
  });

  test("grpcHealth: false leaves grpc.health.v1 unserved", async () => {
    const { client } = await start({}, { grpcHealth: false });
    const [code] = await rejection(client.health.check({ service: "" }));
    assert.equal(code, Code.Unimplemented);
  });
});

describe("Invoke", () => {
  test("S14: without an invoke hook, Unimplemented", async () => {
    const { client } = await start({});
    assert.deepEqual(await rejection(client.runtime.invoke({ inputJson: "{}", invocationId: "inv-1" })), [
      Code.Unimplemented,
      "invoke is not supported by this runtime",
    ]);
  });

  test("S15: the handler's output, usage and duration; the request's invocation id echoed", async () => {
    let seen: Invocation | undefined;
    const { client } = await start({
      invoke(req) {
        seen = req;
        return { outputJson: '{"a":2}', usage: { outputTokens: 5 }, durationMs: 12 };
      },
    });
    const r = await client.runtime.invoke(
      { inputJson: '{"q":1}', invocationId: "inv-1", metadata: { k: "v" }, recordSequenceBase: 7n },
      { headers: { "x-omnia-user-id": "u-1", authorization: "Bearer t" } },
    );
    assert.deepEqual(
      { outputJson: r.outputJson, invocationId: r.invocationId, durationMs: r.durationMs, outputTokens: r.usage?.outputTokens, hw: r.recordSequenceHighWater },
      { outputJson: '{"a":2}', invocationId: "inv-1", durationMs: 12, outputTokens: 5, hw: 7n },
    );
    assert.deepEqual(
      { inputJson: seen?.inputJson, invocationId: seen?.invocationId, metadata: seen?.metadata, base: seen?.recordSequenceBase, identity: seen?.identity },
      { inputJson: '{"q":1}', invocationId: "inv-1", metadata: { k: "v" }, base: 7n, identity: { userId: "u-1" } },
    );
  });

  test("duration defaults to the clock's measure; usage stays unset when absent; high water from the handler", async () => {
    const clock = createManualClock(1000);
    const { client } = await start(
      {
        async invoke() {
          clock.advance(250);
          return { outputJson: "ok", recordSequenceHighWater: 12 };
        },
      },
      { clock },
    );
    const r = await client.runtime.invoke({ inputJson: "{}", invocationId: "inv-2" });
    assert.deepEqual([r.durationMs, r.usage, r.recordSequenceHighWater], [250, undefined, 12n]);
  });

  test("S16: an empty input_json or invocation_id is InvalidArgument", async () => {
    const { client } = await start({ invoke: () => ({ outputJson: "{}" }) });
    for (const req of [{}, { inputJson: "{}" }, { invocationId: "inv-1" }]) {
      assert.deepEqual(await rejection(client.runtime.invoke(req)), [Code.InvalidArgument, "invocation_id and input_json are required"]);
    }
  });

  test("S17: a handler error is Internal 'invocation failed'; the real error only reaches the logger", async () => {
    const logger = createCaptureLogger();
    const { client } = await start(
      {
        invoke() {
          throw new Error("db down");
        },
      },
      { logger },
    );
    assert.deepEqual(await rejection(client.runtime.invoke({ inputJson: "{}", invocationId: "inv-1" })), [Code.Internal, "invocation failed"]);
    assert.deepEqual(logger.lines, [{ level: "error", message: "runtime: invoke handler failed", fields: { invocationId: "inv-1", error: "db down" } }]);
  });
});

describe("HasConversation", () => {
  test("S18: an empty session_id is InvalidArgument, checked before the probe", async () => {
    const { client } = await start({});
    assert.deepEqual(await rejection(client.runtime.hasConversation({ sessionId: "" })), [Code.InvalidArgument, "session_id is required"]);
  });

  test("S19: without a probe, UNAVAILABLE with the fixed detail", async () => {
    const { client } = await start({});
    const r = await client.runtime.hasConversation({ sessionId: "s1" });
    assert.deepEqual([r.state, r.detail], [ResumeState.UNAVAILABLE, "resume is not supported by this runtime"]);
  });

  test("S20: the probe's answer maps to RESUMABLE / NOT_FOUND / UNAVAILABLE", async () => {
    const seen: [string, RuntimeCallContext][] = [];
    const answers: Record<string, Awaited<ReturnType<NonNullable<RuntimeHandler["hasConversation"]>>>> = {
      a: "resumable",
      b: "notFound",
      c: { state: "unavailable", detail: "store unreachable" },
      d: "unavailable",
    };
    const { client } = await start({
      async hasConversation(sessionId, ctx) {
        seen.push([sessionId, ctx]);
        const answer = answers[sessionId];
        if (answer === undefined) throw new Error("probe broke");
        return answer;
      },
    });
    const out: [ResumeState, string][] = [];
    for (const id of ["a", "b", "c", "d", "e"]) {
      const r = await client.runtime.hasConversation({ sessionId: id }, { headers: { "x-omnia-user-id": "u-1" } });
      out.push([r.state, r.detail]);
    }
    assert.deepEqual(out, [
      [ResumeState.RESUMABLE, ""],
      [ResumeState.NOT_FOUND, ""],
      [ResumeState.UNAVAILABLE, "store unreachable"],
      [ResumeState.UNAVAILABLE, ""],
      [ResumeState.UNAVAILABLE, "resume probe failed"],
    ]);
    assert.deepEqual(seen[0]?.[1].identity, { userId: "u-1" });
  });
});

describe("EndConversation", () => {
  test("calls the hook with the session id and the caller identity, so the host can dispose the scope", async () => {
    const disposed: [string, unknown][] = [];
    const { client } = await start({
      endConversation(sessionId, ctx) {
        disposed.push([sessionId, ctx.identity]);
      },
    });
    const r = await client.runtime.endConversation({ sessionId: "s1" }, { headers: { "x-omnia-session-id": "s1", "x-omnia-agent-name": "a" } });
    assert.equal(r.$typeName, "omnia.runtime.v1.EndConversationResponse");
    assert.deepEqual(disposed, [["s1", { sessionId: "s1", agentName: "a" }]]);
  });

  test("without a hook Unimplemented (the facade ignores it); empty id InvalidArgument; a failing hook Internal", async () => {
    const bare = await start({});
    assert.deepEqual(await rejection(bare.client.runtime.endConversation({ sessionId: "s1" })), [
      Code.Unimplemented,
      "endConversation is not supported by this runtime",
    ]);
    const logger = createCaptureLogger();
    const { client } = await start(
      {
        endConversation() {
          throw new Error("sandbox release failed");
        },
      },
      { logger },
    );
    assert.deepEqual(await rejection(client.runtime.endConversation({ sessionId: "" })), [Code.InvalidArgument, "session_id is required"]);
    assert.deepEqual(await rejection(client.runtime.endConversation({ sessionId: "s1" })), [Code.Internal, "end conversation failed"]);
    assert.deepEqual(logger.lines, [
      { level: "error", message: "runtime: endConversation handler failed", fields: { sessionId: "s1", error: "sandbox release failed" } },
    ]);
  });
});

describe("WatchInvocation", () => {
  function progressJson(p: InvocationProgress): unknown {
    const v = p.progress;
    if (v.case === "ready") return "ready";
    if (v.case === "toolCall") return ["tool_call", v.value.callId, v.value.name];
    if (v.case === "toolResult") return ["tool_result", v.value.callId, v.value.name, v.value.ok, v.value.durationMs];
    return v.case;
  }

  test("ready first, then the invocation's tool events in publish order, then OK", async () => {
    let releaseNow!: () => void;
    const released = new Promise<void>((resolve) => {
      releaseNow = resolve;
    });
    const { client } = await start({
      capabilities: () => ["invoke"],
      async invoke(req) {
        req.progress.toolCall({ callId: "c1", name: "lookup_order" });
        req.progress.toolResult({ callId: "c1", name: "lookup_order", ok: true, durationMs: 12 });
        await released;
        req.progress.publish({ type: "tool_call", callId: "c2", name: "refund" });
        req.progress.publish({ type: "tool_result", callId: "c2", name: "refund", ok: false, durationMs: 3.6 });
        return { outputJson: '{"done":true}' };
      },
    });
    const it = client.runtime.watchInvocation({ invocationId: "inv-7" })[Symbol.asyncIterator]();
    const first = await it.next();
    assert.equal(first.done, false);
    assert.equal(progressJson(first.value as InvocationProgress), "ready");
    const invoke = client.runtime.invoke({ inputJson: "{}", invocationId: "inv-7" });
    const events: unknown[] = [];
    for (let r = await it.next(); r.done !== true; r = await it.next()) {
      events.push(progressJson(r.value));
      if (events.length === 2) releaseNow();
    }
    assert.deepEqual(events, [
      ["tool_call", "c1", "lookup_order"],
      ["tool_result", "c1", "lookup_order", true, 12],
      ["tool_call", "c2", "refund"],
      ["tool_result", "c2", "refund", false, 4],
    ]);
    assert.equal((await invoke).outputJson, '{"done":true}');
  });

  test("the stream also ends OK when the invocation fails; a watcher of another id sees nothing", async () => {
    const { client } = await start({
      invoke(req) {
        req.progress.toolCall({ callId: "c1", name: "t" });
        throw new Error("model exploded");
      },
    });
    const other = new AbortController();
    const otherIt = client.runtime.watchInvocation({ invocationId: "inv-other" }, { signal: other.signal })[Symbol.asyncIterator]();
    assert.equal(progressJson(((await otherIt.next()).value as InvocationProgress)), "ready");
    const it = client.runtime.watchInvocation({ invocationId: "inv-8" })[Symbol.asyncIterator]();
    assert.equal(progressJson(((await it.next()).value as InvocationProgress)), "ready");
    assert.deepEqual(await rejection(client.runtime.invoke({ inputJson: "{}", invocationId: "inv-8" })), [Code.Internal, "invocation failed"]);
    const rest: unknown[] = [];
    for (let r = await it.next(); r.done !== true; r = await it.next()) rest.push(progressJson(r.value));
    assert.deepEqual(rest, [["tool_call", "c1", "t"]]);
    other.abort();
    await assert.rejects(otherIt.next(), (e: unknown) => ConnectError.from(e).code === Code.Canceled);
  });

  test("a watcher that arrives after the invocation finished gets ready, then OK", async () => {
    const { client } = await start({ invoke: () => ({ outputJson: "1" }) });
    await client.runtime.invoke({ inputJson: "{}", invocationId: "inv-9" });
    const frames: unknown[] = [];
    for await (const p of client.runtime.watchInvocation({ invocationId: "inv-9" })) frames.push(progressJson(p));
    assert.deepEqual(frames, ["ready"]);
  });

  test("loopback only: a peer the check refuses gets PermissionDenied (checked with an injected rule; no traffic leaves 127.0.0.1)", async () => {
    const seen: (string | undefined)[] = [];
    const { client } = await start(
      { invoke: () => ({ outputJson: "1" }) },
      {
        isPeerAllowed: (address) => {
          seen.push(address);
          return false;
        },
      },
    );
    const frames: unknown[] = [];
    const err = await rejection(
      (async () => {
        for await (const p of client.runtime.watchInvocation({ invocationId: "inv-1" })) frames.push(p);
      })(),
    );
    assert.deepEqual(err, [Code.PermissionDenied, "peer 127.0.0.1 not allowed"]);
    assert.deepEqual(frames, []);
    assert.deepEqual(seen, ["127.0.0.1"]);
  });

  test("the default rule serves the loopback peer", async () => {
    const { client } = await start({ invoke: () => ({ outputJson: "1" }) });
    const ac = new AbortController();
    const it = client.runtime.watchInvocation({ invocationId: "x" }, { signal: ac.signal })[Symbol.asyncIterator]();
    assert.equal(progressJson((await it.next()).value as InvocationProgress), "ready");
    ac.abort();
    await assert.rejects(it.next());
  });

  test("without invoke Unimplemented; an empty invocation_id InvalidArgument", async () => {
    const bare = await start({});
    const drain = async (c: StartedRuntime, id: string) => {
      for await (const _ of c.client.runtime.watchInvocation({ invocationId: id })) void _;
    };
    assert.deepEqual(await rejection(drain(bare, "x")), [Code.Unimplemented, "invoke is not supported by this runtime"]);
    const full = await start({ invoke: () => ({ outputJson: "1" }) });
    assert.deepEqual(await rejection(drain(full, "")), [Code.InvalidArgument, "invocation_id is required"]);
  });
});
