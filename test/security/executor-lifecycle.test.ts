// Issue #19 items 11, 12 and 14: close() ends every call in flight at once with
// ERR_OMNIA_CLOSED (in a backoff sleep, on a host dispatcher, over gRPC, in a
// platform tool), each recorded once; client calls pending at close() are
// recorded as abandoned; a reused client call id is refused; and a call sleeping
// before its next attempt keeps the process alive.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "undici";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { createManualClock, MemoryRecorder, startGrpcToolBackend } from "../../src/testing/index.js";
import type { JsonValue } from "../../src/core/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { closedPortUrl } from "../helpers/policy-broker.js";
import { omniaTools } from "../helpers/cli.js";

const CLOSED = "execute: the executor closed while the call was in flight";
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !predicate(); i++) await tick();
  assert.ok(predicate(), "condition never held");
}
function closedOutcome(out: ToolOutcome): void {
  assert.equal(out.status, "error", JSON.stringify(out));
  assert.equal(out.status === "error" && out.message, CLOSED);
  assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_CLOSED");
}

const httpHandler = (url: string, extra = "") => `
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: "${url}"${extra}
`;

test("close() during a retry's backoff sleep: ERR_OMNIA_CLOSED at once, recorded once, no further attempt", async () => {
  const server = await startHttpServer((_req, res) => {
    res.statusCode = 503;
    res.end("down");
  });
  const clock = createManualClock(0);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({
    registry: loadToolRegistry(httpHandler(`${server.url}/x`, "\n      retryPolicy: { maxAttempts: 3, initialBackoff: 10s }")),
    clock,
    recorder,
    random: () => 0.5,
  });
  const pending = ex.execute({ id: "c", name: "t", arguments: "{}" });
  await until(() => server.requests.length === 1 && clock.pendingTimers() > 0);
  await ex.close();
  closedOutcome(await pending);
  assert.equal(server.requests.length, 1);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.errorMessage, r.attempts]), [["c", "error", CLOSED, 1]]);
  await server.close();
});

test("close() with a host-supplied dispatcher and a backend that never answers: ERR_OMNIA_CLOSED at once", async () => {
  const server = await startHttpServer(() => {
    /* never answers */
  });
  const dispatcher = new Agent();
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry: loadToolRegistry(httpHandler(`${server.url}/x`)), dispatcher, recorder });
  const calls = [ex.execute({ id: "a", name: "t", arguments: "{}" }), ex.execute({ id: "b", name: "t", arguments: "{}" })];
  await until(() => server.requests.length === 2);
  await ex.close();
  for (const out of await Promise.all(calls)) closedOutcome(out);
  assert.deepEqual(recorder.records.map((r) => r.status).sort(), ["error", "error"]);
  await dispatcher.destroy();
  await server.close();
});

test("close() ends a gRPC call and a platform tool call in flight with ERR_OMNIA_CLOSED", async () => {
  const backend = await startGrpcToolBackend({ slow: { description: "d", inputSchema: { type: "object" }, execute: () => new Promise<JsonValue>(() => {}) } });
  const recorder = new MemoryRecorder();
  let platformSignal: AbortSignal | undefined;
  const ex = createToolExecutor({
    registry: loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    tool: { name: slow, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${backend.endpoint}" }
`),
    recorder,
    platformTools: {
      memory__wait: {
        description: "d",
        inputSchema: {},
        execute: (_args, ctx) => {
          platformSignal = ctx.signal;
          return new Promise<JsonValue>(() => {});
        },
      },
    },
  });
  const grpcCall = ex.execute({ id: "g", name: "slow", arguments: "{}" });
  const platformCall = ex.execute({ id: "p", name: "memory__wait", arguments: "{}" });
  await until(() => backend.count() === 1 && platformSignal !== undefined);
  await ex.close();
  closedOutcome(await grpcCall);
  closedOutcome(await platformCall);
  assert.equal(platformSignal?.aborted, true);
  assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]).sort(), [["g", "error"], ["p", "error"]]);
  await backend.close();
});

test("client calls: a reused pending id is refused; calls still pending at close() are recorded once, as abandoned", async () => {
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({
    registry: loadToolRegistry(`
handlers:
  - name: browser
    type: client
    tool: { name: get_location, description: d, inputSchema: { type: object } }
`),
    recorder,
  });
  const ctx = { clientToolsAvailable: true };
  const first = await ex.execute({ id: "c1", name: "get_location", arguments: "{}" }, ctx);
  assert.equal(first.status, "client");
  const again = await ex.execute({ id: "c1", name: "get_location", arguments: '{"x":1}' }, ctx);
  assert.equal(again.status, "error");
  assert.equal(again.status === "error" && again.message, 'tool call id "c1" is already pending a client result');
  assert.equal(again.status === "error" && again.error.code, "ERR_OMNIA_DUPLICATE_CALL_ID");
  await ex.execute({ id: "c2", name: "get_location", arguments: "{}" }, ctx);
  await ex.close();
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status, r.errorMessage, r.arguments]),
    [
      ["c1", "error", 'tool call id "c1" is already pending a client result', { x: 1 }],
      ["c1", "error", "client tool call abandoned: the executor closed before the client answered", {}],
      ["c2", "error", "client tool call abandoned: the executor closed before the client answered", {}],
    ],
  );
});

test("omnia-tools call with a retry policy against a refused port waits out its backoff and prints the outcome", async () => {
  const refused = await closedPortUrl();
  const dir = await mkdtemp(join(tmpdir(), "omnia-alive-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(file, httpHandler(`${refused}/x`, "\n      retryPolicy: { maxAttempts: 3, initialBackoff: 150ms, retryOnNetworkError: true }"));
    const run = await omniaTools("call", "--registry", file, "t", "{}", "--json");
    assert.equal(run.code, 1, run.stdout);
    const printed = JSON.parse(run.stdout) as { outcome: { message: string }; record: { attempts: number } };
    assert.equal(printed.outcome.message, `3 attempts exhausted: Post "${refused}/x": dial tcp ${refused.slice(7)}: connect: connection refused`);
    assert.equal(printed.record.attempts, 3);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
