// SECURITY.md, the rows of the peers that are not tool backends: the OpenAPI document's host, the policy broker and
// session-api. A peer that never answers is bounded by its timeout on the injected clock; one that answers too much
// is cut at its cap; each ends as a typed outcome (or a counted, dropped row), and a tool call is recorded once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { createSessionApiRecorder } from "../../src/records/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { startHttpServer } from "../helpers/http-server.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !predicate(); i++) await tick();
  assert.ok(predicate(), "condition never held");
}

test("OpenAPI spec host: one that never answers fails discovery at the handler timeout; a spec over 10 MiB is refused unread", async () => {
  const big = `{"openapi":"3.0.0","x":"${"x".repeat(11 * 1024 * 1024)}"}`;
  const host = await startHttpServer((req, res) => {
    if (req.url === "/hang.json") return; // never answers
    res.setHeader("content-type", "application/json");
    res.end(big);
  });
  const clock = createManualClock(0);
  const hang = createToolExecutor({ registry: loadToolRegistry(`handlers:\n  - { name: hang, type: openapi, timeout: 2s, openAPIConfig: { specURL: "${host.url}/hang.json" } }\n`), clock });
  const huge = createToolExecutor({ registry: loadToolRegistry(`handlers:\n  - { name: huge, type: openapi, openAPIConfig: { specURL: "${host.url}/huge.json" } }\n`) });
  const message = (p: Promise<void>): Promise<string> =>
    p.then(
      () => "resolved",
      (e: unknown) => (e as Error).message,
    );
  try {
    const refreshed = message(hang.refresh());
    await until(() => host.requests.length === 1);
    clock.advance(2000);
    assert.equal(await refreshed, 'handler "hang": failed to fetch OpenAPI spec: timed out after 2000ms');
    assert.equal(await message(huge.refresh()), 'handler "huge": failed to fetch OpenAPI spec: the spec is larger than 10485760 bytes');
    assert.deepEqual([hang.tools, huge.tools], [[], []]);
  } finally {
    await hang.close();
    await huge.close();
    await host.close();
  }
});

test("policy broker: one that never answers, or answers more than 1 MiB, denies (fail closed); each call recorded once, nothing sent", async () => {
  const broker = await startHttpServer((req, res) => {
    if (req.headers["x-case"] === undefined && broker.requests.length === 1) return; // the first decision never answers
    res.setHeader("content-type", "application/json");
    res.end(`{"allow":true,"message":"${"x".repeat(2 * 1024 * 1024)}"}`);
  });
  const backend = await startHttpServer();
  const clock = createManualClock(0);
  const registry = loadToolRegistry(`
handlers:
  - { name: h, type: http, tool: { name: t, description: d, inputSchema: { type: object } }, httpConfig: { endpoint: "${backend.url}/x" } }
`);
  const policy = createPolicyBrokerClient({ url: broker.url, clock, timeoutMs: 2000 });
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder, clock, policy });
  try {
    const hung = ex.execute({ id: "hang", name: "t", arguments: "{}" });
    await until(() => broker.requests.length === 1);
    clock.advance(2000);
    const huge = await (async () => {
      const first = await hung;
      return [first, await ex.execute({ id: "huge", name: "t", arguments: "{}" })];
    })();
    const DENIED = 'tool call denied by policy: policy broker unreachable; failing closed (rule "policy-broker-unreachable")';
    assert.deepEqual(huge.map((o) => [o.status, o.status === "denied" && o.message]), [
      ["denied", DENIED],
      ["denied", DENIED],
    ]);
    assert.deepEqual(recorder.records.map((r) => `${r.callId} ${r.status}`), ["hang denied", "huge denied"]);
    assert.equal(backend.requests.length, 0);
  } finally {
    await ex.close();
    await policy.close();
    await broker.close();
    await backend.close();
  }
});

test("session-api: one that never answers costs the call nothing; each write ends at its 30 s timeout and is buffered; close() drops what is left, counted", async () => {
  const api = await startHttpServer(() => {}); // never answers
  const backend = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const clock = createManualClock(0);
  const registry = loadToolRegistry(`
handlers:
  - { name: h, type: http, tool: { name: t, description: d, inputSchema: { type: object } }, httpConfig: { endpoint: "${backend.url}/x" } }
`);
  const recorder = createSessionApiRecorder({ url: api.url, clock });
  const ex = createToolExecutor({ registry, recorder });
  try {
    const out = await ex.execute({ id: "c1", name: "t", arguments: "{}" }, { identity: { sessionId: "s1" } });
    assert.deepEqual([out.status, out.status === "success" && out.resultJson], ["success", '{"ok":true}']);
    // The terminal row waits for the pending row, which ends at its 30 s timeout and goes to the buffer.
    await until(() => api.requests.length === 1);
    clock.advance(30_000);
    await until(() => recorder.stats().buffered === 1);
    assert.equal(api.requests.length, 1);
    // close() replays the buffer within its grace (the same silence), then drops both rows.
    const closing = recorder.close({ timeoutMs: 1_000 });
    await until(() => api.requests.length === 2);
    clock.advance(1_000);
    assert.deepEqual(await closing, { left: 2 });
    assert.deepEqual(recorder.stats(), { written: 0, retried: 0, buffered: 1, expired: 0, dropped: { closed: 2 } });
  } finally {
    await ex.close();
    await api.close();
    await backend.close();
  }
});

test("session-api: with 100 writes stuck, rows past maxBufferedBytes are dropped and counted, never held without bound", { timeout: 60_000 }, async () => {
  const api = await startHttpServer(() => {}); // never answers
  const clock = createManualClock(0);
  const row = { toolName: "t", handlerName: "h", handlerType: "http" as const, execution: "server" as const, arguments: "{}", startedAt: 0 };
  // Every row has the same size: a fixed-width call id and row id.
  const bytes = Buffer.byteLength('{"id":"r-0000","sessionId":"s1","callId":"c0000","name":"t","status":"pending","createdAt":"1970-01-01T00:00:00Z"}');
  let n = 0;
  const recorder = createSessionApiRecorder({ url: api.url, clock, maxBufferedBytes: 1100 * bytes, newId: () => `r-${String(n++).padStart(4, "0")}` });
  try {
    for (let i = 0; i < 1150; i++) void recorder.start({ ...row, callId: `c${String(i).padStart(4, "0")}`, sessionId: "s1" });
    await until(() => api.requests.length === 100);
    assert.equal(api.requests[0]?.body.length, bytes);
    assert.deepEqual(recorder.stats(), { written: 0, retried: 0, buffered: 0, expired: 0, dropped: { "buffer-full": 50 } });
    assert.deepEqual(await recorder.close({ timeoutMs: 0 }), { left: 1100 });
    assert.deepEqual(recorder.stats(), { written: 0, retried: 0, buffered: 0, expired: 0, dropped: { "buffer-full": 50, closed: 1100 } });
    assert.equal(api.requests.length, 100);
  } finally {
    await api.close();
  }
});
