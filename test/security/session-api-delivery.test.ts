// SECURITY.md, the session-api row: every record arrives, or is counted. A loopback session-api (every body
// validated against the ToolCall schema of Omnia's session-api OpenAPI document) that is healthy, down for a
// minute, or silent; the recorder's delivery (retries, breaker, buffer, replay, expiry, bounds, shutdown) as
// Omnia's session client (`pkg/session/httpclient/store.go`) does it, and its counts on a real OpenTelemetry SDK.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Socket } from "node:net";
import { MeterProvider, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createSessionApiRecorder, type ToolCallStart } from "../../src/records/index.js";
import { createManualClock } from "../../src/testing/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startSessionApi } from "../helpers/session-api.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function until(predicate: () => boolean, what = "condition"): Promise<void> {
  for (let i = 0; i < 200_000 && !predicate(); i++) await tick();
  assert.ok(predicate(), `${what} never held`);
}

const SID = "6f1c2a9e-3b7d-4c1e-9a2f-5d8e7b6c4a31";
const ROW: Omit<ToolCallStart, "callId"> = { sessionId: SID, toolName: "t", handlerName: "h", handlerType: "http", execution: "server", arguments: {}, startedAt: 0 };

/** The rows session-api took, as `<callId>:<status>`, in arrival order; each call's pending row must come first. */
function rowsByCall(bodies: readonly Buffer[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const body of bodies) {
    const row = JSON.parse(body.toString("utf8")) as { callId: string; status: string };
    out.set(row.callId, [...(out.get(row.callId) ?? []), row.status]);
  }
  return out;
}

test("2,000 calls in flight with a healthy session-api: all 4,000 rows written, none dropped, each call's pending row first", { timeout: 120_000 }, async () => {
  const api = await startSessionApi();
  const backend = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const registry = loadToolRegistry(`
handlers:
  - { name: h, type: http, tool: { name: t, description: d, inputSchema: { type: object } }, httpConfig: { endpoint: "${backend.url}/x" } }
`);
  const recorder = createSessionApiRecorder({ url: api.url });
  const ex = createToolExecutor({ registry, recorder });
  try {
    const outcomes = await Promise.all(Array.from({ length: 2000 }, (_, i) => ex.execute({ id: `c${i}`, name: "t", arguments: "{}" }, { identity: { sessionId: SID } })));
    assert.equal(outcomes.filter((o) => o.status === "success").length, 2000);
    assert.deepEqual(await recorder.flush(), { left: 0 });
    assert.deepEqual(recorder.stats(), { written: 4000, retried: 0, buffered: 0, expired: 0, dropped: {} });
    assert.deepEqual(api.invalid, []);
    const byCall = rowsByCall(api.server.requests.map((r) => r.body));
    assert.equal(byCall.size, 2000);
    for (const [callId, statuses] of byCall) assert.deepEqual([callId, statuses], [callId, ["pending", "success"]]);
  } finally {
    await ex.close();
    await recorder.close();
    await api.close();
    await backend.close();
  }
});

test("a 60 s outage of session-api: the breaker opens, the rows wait in the buffer, and all are replayed in order when it is back; none lost", { timeout: 120_000 }, async () => {
  const clock = createManualClock(0);
  let down = true;
  const api = await startSessionApi();
  api.server.handle((req, res, index) => {
    if (!down) return api.handler(req, res, index);
    res.statusCode = 503;
    res.end();
  });
  // One write at a time, so that the order session-api sees is the order the recorder sent (the replay keeps it).
  const recorder = createSessionApiRecorder({ url: api.url, clock, maxConcurrentWrites: 1 });
  const writes: Promise<void>[] = [];
  try {
    // 5 calls a second for 60 s: each call's pending row, then its terminal row, while session-api answers 503.
    for (let second = 0; second < 60; second++) {
      for (let i = 0; i < 5; i++) {
        const callId = `c${second * 5 + i}`;
        writes.push(recorder.start({ ...ROW, callId, startedAt: clock.now() }));
        writes.push(recorder.record({ ...ROW, callId, startedAt: clock.now(), status: "success", result: "ok", durationMs: 1, attempts: 1 }));
      }
      for (let step = 0; step < 10; step++) {
        await tick();
        await tick();
        await clock.advanceAsync(100);
      }
    }
    const duringOutage = api.server.requests.length;
    // The breaker kept session-api from most of them: 300 pending rows would be 900 attempts without it. It opens
    // after 10 failed writes (30 attempts); every 10 s half-open lets one write through (3 attempts), which fails.
    assert.ok(duringOutage >= 30 && duringOutage <= 60, `${duringOutage} requests during the outage`);
    assert.equal(recorder.stats().written, 0);
    assert.deepEqual(recorder.stats().dropped, {});
    down = false;
    // Back: the next replay (every 5 s; the breaker lets 5 through, which close it) writes everything.
    let all = false;
    void Promise.all(writes).then(() => (all = true));
    for (let i = 0; i < 100_000 && !all; i++) {
      await tick();
      if (i % 20 === 0) await clock.advanceAsync(100);
    }
    assert.ok(all, "every row settled");
    const stats = recorder.stats();
    assert.deepEqual({ ...stats, retried: 0 }, { written: 600, retried: 0, buffered: 300, expired: 0, dropped: {} });
    assert.deepEqual(api.invalid, []);
    const written = api.server.requests.slice(duringOutage);
    assert.equal(written.length, 600, "each row sent once after the outage");
    const byCall = rowsByCall(written.map((r) => r.body));
    assert.equal(byCall.size, 300);
    for (const [callId, statuses] of byCall) assert.deepEqual([callId, statuses], [callId, ["pending", "success"]]);
    // Replayed in order: the pending rows arrive in the order the calls started.
    const pendingOrder = written.map((r) => JSON.parse(r.body.toString("utf8")) as { callId: string; status: string }).filter((r) => r.status === "pending");
    assert.deepEqual(
      pendingOrder.map((r) => r.callId),
      Array.from({ length: 300 }, (_, i) => `c${i}`),
    );
  } finally {
    await recorder.close({ timeoutMs: 0 });
    await api.close();
  }
});
