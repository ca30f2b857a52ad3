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

test("a silent session-api after a 3,000-call burst: flush({ timeoutMs }) and close({ timeoutMs }) settle at their time with { left }; close counts them as dropped", { timeout: 120_000 }, async () => {
  const api = await startHttpServer(() => {}); // never answers
  const clock = createManualClock(0);
  const recorder = createSessionApiRecorder({ url: api.url, clock });
  const writes: Promise<void>[] = [];
  try {
    for (let i = 0; i < 3000; i++) {
      writes.push(recorder.start({ ...ROW, callId: `c${i}` }));
      writes.push(recorder.record({ ...ROW, callId: `c${i}`, status: "success", result: "ok", durationMs: 1, attempts: 1 }));
    }
    await until(() => api.requests.length === 100, "100 writes in flight");
    let flushed: { left: number } | undefined;
    void recorder.flush({ timeoutMs: 2_000 }).then((r) => (flushed = r));
    await clock.advanceAsync(1_999);
    await tick();
    assert.equal(flushed, undefined);
    await clock.advanceAsync(1);
    await until(() => flushed !== undefined);
    assert.deepEqual(flushed, { left: 6000 });
    let closed: { left: number } | undefined;
    const closing = recorder.close({ timeoutMs: 1_000 });
    assert.equal(recorder.close(), closing, "a second close() returns the first one's promise");
    void closing.then((r) => (closed = r));
    await clock.advanceAsync(1_000);
    await until(() => closed !== undefined);
    assert.deepEqual(closed, { left: 6000 });
    await Promise.all(writes);
    assert.deepEqual(recorder.stats(), { written: 0, retried: 0, buffered: 0, expired: 0, dropped: { closed: 6000 } });
    assert.equal(api.requests.length, 100, "nothing sent after close");
  } finally {
    await api.close();
  }
});

test("a row buffered for more than 5 minutes expires, counted and logged once with its reason", async () => {
  const api = await startHttpServer((_req, res) => {
    res.statusCode = 503;
    res.end();
  });
  const clock = createManualClock(0);
  const logger = createCaptureLogger();
  const recorder = createSessionApiRecorder({ url: api.url, clock, logger });
  try {
    let settled = false;
    void recorder.start({ ...ROW, callId: "c1" }).then(() => (settled = true));
    await until(() => api.requests.length === 1);
    await clock.advanceAsync(100);
    await until(() => api.requests.length === 2);
    await clock.advanceAsync(200);
    await until(() => recorder.stats().buffered === 1);
    // Buffered at t=300 ms; replayed (and failing: 3 attempts each) every 5 s; dropped on the first tick past 5 minutes.
    for (let i = 0; i < 3100 && !settled; i++) {
      await tick();
      await tick();
      await clock.advanceAsync(100);
    }
    assert.ok(settled);
    assert.deepEqual({ ...recorder.stats(), retried: 0 }, { written: 0, retried: 0, buffered: 1, expired: 1, dropped: {} });
    assert.deepEqual(logger.lines, [{ level: "error", message: "failed to record tool call", fields: { sessionID: SID, toolName: "t", reason: "expired", error: "not written within 5 minutes", count: 1 } }]);
  } finally {
    await recorder.close({ timeoutMs: 0 });
    await api.close();
  }
});

test("the loss log: the first loss at once, then at most one line a minute, whose count is the rows lost since the previous line", async () => {
  const api = await startSessionApi();
  const clock = createManualClock(0);
  const logger = createCaptureLogger();
  const recorder = createSessionApiRecorder({ url: api.url, clock, logger });
  const missing = "00000000-0000-4000-8000-000000000404";
  const line = (callCount: number) => ({ level: "error", message: "failed to record tool call", fields: { sessionID: missing, toolName: "t", reason: "rejected", error: "session not found", count: callCount } });
  try {
    await recorder.start({ ...ROW, sessionId: missing, callId: "a" });
    await recorder.start({ ...ROW, sessionId: missing, callId: "b" });
    await recorder.start({ ...ROW, sessionId: missing, callId: "c" });
    assert.deepEqual(logger.lines, [line(1)]);
    await clock.advanceAsync(59_999);
    await recorder.start({ ...ROW, sessionId: missing, callId: "d" });
    assert.deepEqual(logger.lines, [line(1)]);
    await clock.advanceAsync(1);
    await recorder.start({ ...ROW, sessionId: missing, callId: "e" });
    assert.deepEqual(logger.lines, [line(1), line(4)]);
    await recorder.start({ ...ROW, sessionId: missing, callId: "f" });
    // close() logs what is left unlogged.
    await recorder.close({ timeoutMs: 0 });
    assert.deepEqual(logger.lines, [line(1), line(4), line(1)]);
    assert.deepEqual(recorder.stats(), { written: 0, retried: 0, buffered: 0, expired: 0, dropped: { rejected: 6 } });
  } finally {
    await api.close();
  }
});

test("the breaker: 10 failed writes with 60 % failures open it; open, rows go to the buffer unsent; 10 s later 5 writes close it and the buffer is replayed", { timeout: 60_000 }, async () => {
  let down = true;
  const api = await startHttpServer((_req, res) => {
    res.statusCode = down ? 503 : 201;
    res.end();
  });
  const clock = createManualClock(0);
  const recorder = createSessionApiRecorder({ url: api.url, clock, maxConcurrentWrites: 1 });
  try {
    const writes = Array.from({ length: 20 }, (_, i) => recorder.start({ ...ROW, callId: `c${i}` }));
    // Ten writes of three attempts each (100 + 200 ms apart), one at a time.
    for (let n = 1; n <= 10; n++) {
      await until(() => api.requests.length === 3 * n - 2, `write ${n}`);
      await clock.advanceAsync(100);
      await until(() => api.requests.length === 3 * n - 1);
      await clock.advanceAsync(200);
      await until(() => recorder.stats().buffered >= n);
    }
    // Open: the ten rows still waiting go to the buffer without a request.
    await until(() => recorder.stats().buffered === 20);
    assert.equal(api.requests.length, 30);
    down = false;
    // The 5 s replay ticks find it open (no request) until 10 s have passed; then 5 trial writes close it and the rest follow.
    await clock.advanceAsync(5_000);
    await tick();
    assert.equal(api.requests.length, 30);
    await clock.advanceAsync(5_000);
    await tick();
    assert.equal(api.requests.length, 30);
    await clock.advanceAsync(5_000);
    await Promise.all(writes);
    assert.equal(api.requests.length, 50);
    assert.deepEqual(recorder.stats(), { written: 20, retried: 20, buffered: 20, expired: 0, dropped: {} });
    // Replayed in order.
    assert.deepEqual(
      api.requests.slice(30).map((r) => (JSON.parse(r.body.toString("utf8")) as { callId: string }).callId),
      Array.from({ length: 20 }, (_, i) => `c${i}`),
    );
  } finally {
    await recorder.close({ timeoutMs: 0 });
    await api.close();
  }
});

class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function counterValues(metrics: ResourceMetrics): Record<string, number> {
  const out: Record<string, number> = {};
  for (const scope of metrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const point of metric.dataPoints) {
        const reason = point.attributes["reason"];
        out[reason === undefined ? metric.descriptor.name : `${metric.descriptor.name}{reason=${String(reason)}}`] = point.value as number;
      }
    }
  }
  return out;
}

test("meter: the counts of stats() as OpenTelemetry counters on the real SDK", async () => {
  const api = await startSessionApi();
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  const recorder = createSessionApiRecorder({ url: api.url, meter: provider.getMeter("omnia-tools") });
  try {
    await recorder.start({ ...ROW, callId: "ok" });
    await recorder.start({ ...ROW, sessionId: "00000000-0000-4000-8000-000000000404", callId: "missing" });
    await recorder.start({ ...ROW, sessionId: "..", callId: "dots" });
    const { resourceMetrics, errors } = await reader.collect();
    assert.deepEqual(errors, []);
    assert.deepEqual(counterValues(resourceMetrics), {
      omnia_tools_session_api_rows_written_total: 1,
      "omnia_tools_session_api_rows_dropped_total{reason=rejected}": 1,
      "omnia_tools_session_api_rows_dropped_total{reason=invalid-session-id}": 1,
    });
    assert.deepEqual(recorder.stats(), { written: 1, retried: 0, buffered: 0, expired: 0, dropped: { rejected: 1, "invalid-session-id": 1 } });
  } finally {
    await recorder.close();
    await provider.shutdown();
    await api.close();
  }
});

test("connections are reused: 400 rows over the recorder's own pool of maxConcurrentWrites (4) keep-alive connections, closed by close()", async () => {
  const api = await startSessionApi();
  const sockets = new Set<Socket>();
  const recorder = createSessionApiRecorder({ url: api.url, maxConcurrentWrites: 4 });
  const seen = new Set<string>();
  api.server.handle((req, res, index) => {
    seen.add(`${req.socket.remotePort}`);
    sockets.add(req.socket);
    return api.handler(req, res, index);
  });
  try {
    await Promise.all(Array.from({ length: 400 }, (_, i) => recorder.start({ ...ROW, callId: `c${i}` })));
    assert.deepEqual(recorder.stats(), { written: 400, retried: 0, buffered: 0, expired: 0, dropped: {} });
    assert.equal(seen.size, 4);
    assert.deepEqual(await recorder.close(), { left: 0 });
    await until(() => [...sockets].every((s) => s.destroyed || s.readyState === "closed"), "the pool's sockets closed");
  } finally {
    await api.close();
  }
});

test("the host's callbacks: a logger and a meter that throw, and a headers callback that never settles, hold nothing and lose no count", async () => {
  const api = await startSessionApi();
  const clock = createManualClock(0);
  const throwing = () => {
    throw new Error("host callback failed");
  };
  const meter = { createCounter: () => ({ add: throwing }), createHistogram: () => ({ record: throwing }) };
  const logger = { debug: throwing, info: throwing, warn: throwing, error: throwing };
  const loud = createSessionApiRecorder({ url: api.url, clock, meter, logger });
  const stuck = createSessionApiRecorder({ url: api.url, clock, headers: () => new Promise<Record<string, string>>(() => {}) });
  try {
    await loud.start({ ...ROW, sessionId: "00000000-0000-4000-8000-000000000404", callId: "missing" });
    await loud.start({ ...ROW, callId: "ok" });
    assert.deepEqual(await loud.flush(), { left: 0 });
    assert.deepEqual(loud.stats(), { written: 1, retried: 0, buffered: 0, expired: 0, dropped: { rejected: 1 } });
    // The headers never come: the write ends at its 30 s timeout and is buffered; close() drops it, counted.
    void stuck.start({ ...ROW, callId: "stuck" });
    await tick();
    await clock.advanceAsync(30_000);
    await until(() => stuck.stats().buffered === 1, "buffered after the write timeout");
    assert.deepEqual(await stuck.close({ timeoutMs: 0 }), { left: 1 });
    assert.deepEqual(stuck.stats(), { written: 0, retried: 0, buffered: 1, expired: 0, dropped: { closed: 1 } });
    assert.equal(api.server.requests.length, 2);
  } finally {
    await loud.close();
    await stuck.close();
    await api.close();
  }
});
