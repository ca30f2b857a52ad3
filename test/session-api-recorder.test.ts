// The session-api recorder against a loopback session-api: every body is validated
// against the ToolCall schema of Omnia's session-api OpenAPI document, and the server
// answers as session-api does (201, 404, 413, 500).
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "undici";
import { createSessionApiRecorder, type SessionApiRecorder, type ToolCallRecord, type ToolCallStart } from "../src/records/index.js";
import { createManualClock } from "../src/testing/index.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { startHttpServer, type TestServer } from "./helpers/http-server.js";
import { SID_DOWN, SID_MISSING, SID_TOO_LARGE, startSessionApi, type SessionApiServer } from "./helpers/session-api.js";

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function until(predicate: () => boolean, maxTurns = 20_000): Promise<void> {
  for (let i = 0; i < maxTurns && !predicate(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(predicate(), "condition not reached");
}

const SID = "6f1c2a9e-3b7d-4c1e-9a2f-5d8e7b6c4a31";
const T0 = Date.UTC(2026, 11, 1, 21, 16, 36, 120); // 2026-12-01T21:16:36.12Z

let api: SessionApiServer;
let server: TestServer;
let agent: Agent;
let invalid: string[];

before(async () => {
  api = await startSessionApi();
  server = api.server;
  invalid = api.invalid;
  agent = new Agent();
});

after(async () => {
  await agent.close();
  await api.close();
});

beforeEach(() => {
  server.requests.length = 0;
  invalid.length = 0;
});

function recorder(extra: { clock?: ReturnType<typeof createManualClock>; logger?: ReturnType<typeof createCaptureLogger>; url?: string } = {}): SessionApiRecorder {
  let n = 0;
  return createSessionApiRecorder({
    url: extra.url ?? `${server.url}/`,
    dispatcher: agent,
    headers: { Authorization: "Bearer sa-token" },
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    ...(extra.clock === undefined ? {} : { clock: extra.clock }),
    ...(extra.logger === undefined ? {} : { logger: extra.logger }),
  });
}

function bodies(): string[] {
  assert.deepEqual(invalid, []);
  return server.requests.map((r) => r.body.toString("utf8"));
}

const LOOKUP: Omit<ToolCallStart, "arguments"> = {
  callId: "call_1",
  sessionId: SID,
  toolName: "lookup",
  handlerName: "lookup-h",
  handlerType: "http",
  execution: "server",
  registryName: "orders",
  registryNamespace: "agents",
  startedAt: T0,
};
const LABELS = '"labels":{"handler_name":"lookup-h","handler_type":"http","registry_name":"orders","registry_namespace":"agents"}';

test("success: the pending row, then the success row with the result text (Omnia's body shape, headers and path)", async () => {
  const r = recorder();
  await r.start({ ...LOOKUP, arguments: { id: 1, q: "<b>" } });
  // What the executor records for a success: the record of finish(), plus the registry identity and the result text.
  const record: ToolCallRecord = {
    ...LOOKUP,
    status: "success",
    arguments: { id: 1, q: "<b>" },
    result: { ok: true },
    resultJson: '{"ok":true}',
    durationMs: 42.7,
    attempts: 1,
  };
  await r.record(record);
  assert.deepEqual(bodies(), [
    `{"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call_1","name":"lookup","arguments":{"id":1,"q":"\\u003cb\\u003e"},"status":"pending",${LABELS},"createdAt":"2026-12-01T21:16:36.12Z"}`,
    `{"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call_1","name":"lookup","result":"{\\"ok\\":true}","status":"success","durationMs":42,${LABELS},"createdAt":"2026-12-01T21:16:36.162Z"}`,
  ]);
  for (const req of server.requests) {
    assert.equal(req.method, "POST");
    assert.equal(req.url, `/api/v1/sessions/${SID}/tool-calls`);
    assert.equal(req.headers["content-type"], "application/json");
    assert.equal(req.headers["x-omnia-source"], "runtime");
    assert.equal(req.headers.authorization, "Bearer sa-token");
  }
});

test("a call with a record position (ctx.recordSequence): both rows carry the same sequenceNum after the labels", async () => {
  const r = recorder();
  await r.start({ ...LOOKUP, arguments: {}, sequenceNum: 42 });
  await r.record({ ...LOOKUP, arguments: {}, sequenceNum: 42, status: "success", resultJson: "1", result: 1, durationMs: 3, attempts: 1 });
  assert.deepEqual(bodies(), [
    `{"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call_1","name":"lookup","status":"pending",${LABELS},"sequenceNum":42,"createdAt":"2026-12-01T21:16:36.12Z"}`,
    `{"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call_1","name":"lookup","result":"1","status":"success","durationMs":3,${LABELS},"sequenceNum":42,"createdAt":"2026-12-01T21:16:36.123Z"}`,
  ]);
});

test("an error (HTTP 503 after retries): the terminal row is error with the model-visible text; no arguments on it", async () => {
  const r = recorder();
  await r.start({ ...LOOKUP, arguments: { id: 1 } });
  await r.record({ ...LOOKUP, status: "error", arguments: { id: 1 }, errorMessage: "3 attempts exhausted: HTTP 503: down", durationMs: 1000, attempts: 3 });
  assert.equal(
    bodies()[1],
    `{"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call_1","name":"lookup","status":"error","durationMs":1000,"errorMessage":"3 attempts exhausted: HTTP 503: down",${LABELS},"createdAt":"2026-12-01T21:16:37.12Z"}`,
  );
});

test("a policy denial: pending, then an error row with the denial's text (session-api has no denied status)", async () => {
  const r = recorder();
  await r.start({ ...LOOKUP, arguments: {} });
  await r.record({ ...LOOKUP, status: "denied", arguments: {}, errorMessage: 'tool call denied by policy: nope (rule "rule1")', durationMs: 0, attempts: 0 });
  assert.deepEqual(bodies(), [
    `{"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call_1","name":"lookup","status":"pending",${LABELS},"createdAt":"2026-12-01T21:16:36.12Z"}`,
    `{"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call_1","name":"lookup","status":"error","errorMessage":"tool call denied by policy: nope (rule \\"rule1\\")",${LABELS},"createdAt":"2026-12-01T21:16:36.12Z"}`,
  ]);
});

test("a client call: pending when handed to the client, success with the client's result text when it answers", async () => {
  const r = recorder();
  const client = { ...LOOKUP, callId: "call_c", toolName: "get_location", handlerName: "geo", handlerType: "client" as const, execution: "client" as const };
  await r.start({ ...client, arguments: { precise: true } });
  await r.record({ ...client, status: "success", arguments: { precise: true }, result: { lat: 1 }, durationMs: 5000, attempts: 0 });
  const geo = '"labels":{"handler_name":"geo","handler_type":"client","registry_name":"orders","registry_namespace":"agents"}';
  assert.deepEqual(bodies(), [
    `{"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call_c","name":"get_location","arguments":{"precise":true},"status":"pending",${geo},"createdAt":"2026-12-01T21:16:36.12Z"}`,
    `{"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call_c","name":"get_location","result":"{\\"lat\\":1}","status":"success","durationMs":5000,${geo},"createdAt":"2026-12-01T21:16:41.12Z"}`,
  ]);
});

test("an unknown tool or a registry without a name: no labels; arguments that are not an object are left out", async () => {
  const r = recorder();
  await r.start({ callId: "c9", sessionId: SID, toolName: "nope", handlerName: "", handlerType: "", execution: "server", arguments: "{bad", startedAt: T0 });
  await r.start({ ...LOOKUP, callId: "c10", registryName: undefined as never, arguments: [1, 2] });
  await r.record({ callId: "c9", sessionId: SID, toolName: "nope", handlerName: "", handlerType: "", execution: "server", status: "error", arguments: "{bad", errorMessage: "", startedAt: T0, durationMs: 0, attempts: 0 });
  assert.deepEqual(bodies(), [
    `{"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"c9","name":"nope","status":"pending","createdAt":"2026-12-01T21:16:36.12Z"}`,
    `{"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"c10","name":"lookup","status":"pending","createdAt":"2026-12-01T21:16:36.12Z"}`,
    `{"id":"00000000-0000-4000-8000-000000000003","sessionId":"${SID}","callId":"c9","name":"nope","status":"error","errorMessage":"unknown error","createdAt":"2026-12-01T21:16:36.12Z"}`,
  ]);
});

test("a call without a session id writes nothing", async () => {
  const r = recorder();
  const { sessionId: _none, ...noSession } = LOOKUP;
  await r.start({ ...noSession, arguments: {} });
  await r.record({ ...noSession, status: "success", arguments: {}, result: null, durationMs: 1, attempts: 1 });
  await r.flush();
  assert.deepEqual(bodies(), []);
});

test("the terminal row waits for the pending row: one request at a time per call, pending first", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let concurrent = 0;
  let maxConcurrent = 0;
  server.handle(async (req, res, index) => {
    concurrent++;
    maxConcurrent = Math.max(maxConcurrent, concurrent);
    if (index === 0) await held;
    concurrent--;
    res.statusCode = 201;
    res.end();
    void req;
  });
  try {
    const r = recorder();
    const pending = r.start({ ...LOOKUP, arguments: { id: 1 } });
    const terminal = r.record({ ...LOOKUP, status: "success", arguments: { id: 1 }, result: "ok", durationMs: 1, attempts: 1 });
    for (let i = 0; i < 20 && server.requests.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(server.requests.length, 1);
    release();
    await Promise.all([pending, terminal]);
    assert.equal(maxConcurrent, 1);
    assert.deepEqual(server.requests.map((q) => JSON.parse(q.body.toString("utf8")).status), ["pending", "success"]);
    assert.equal(JSON.parse(server.requests[1]?.body.toString("utf8") ?? "{}").result, "ok");
  } finally {
    server.handle(api.handler);
  }
});

test("404: dropped as rejected, logged once as failed to record tool call / session not found, not retried, never thrown", async () => {
  const logger = createCaptureLogger();
  const r = recorder({ logger });
  await r.start({ ...LOOKUP, sessionId: SID_MISSING, arguments: {} });
  assert.equal(bodies().length, 1);
  assert.deepEqual(logger.lines, [{ level: "error", message: "failed to record tool call", fields: { sessionID: SID_MISSING, toolName: "lookup", reason: "rejected", error: "session not found", count: 1 } }]);
  assert.deepEqual(r.stats(), { written: 0, retried: 0, buffered: 0, expired: 0, dropped: { rejected: 1 } });
});

test("413: dropped as rejected with session-api's error text, not retried", async () => {
  const logger = createCaptureLogger();
  const r = recorder({ logger });
  await r.record({ ...LOOKUP, sessionId: SID_TOO_LARGE, status: "success", arguments: {}, result: "x", durationMs: 1, attempts: 1 });
  assert.equal(bodies().length, 1);
  assert.deepEqual(logger.lines, [{ level: "error", message: "failed to record tool call", fields: { sessionID: SID_TOO_LARGE, toolName: "lookup", reason: "rejected", error: "HTTP 413: request body too large", count: 1 } }]);
});

test("500 on every attempt: three attempts, 100 ms then 200 ms apart on the clock, then buffered (not lost) and replayed 5 s later", async () => {
  const clock = createManualClock(T0);
  const logger = createCaptureLogger();
  let down = true;
  server.handle((_req, res) => {
    res.statusCode = down ? 500 : 201;
    res.end();
  });
  try {
    const r = recorder({ clock, logger });
    let settled = false;
    const write = r.start({ ...LOOKUP, arguments: {} }).then(() => (settled = true));
    await until(() => server.requests.length === 1);
    await clock.advanceAsync(99);
    await turns(20);
    assert.equal(server.requests.length, 1, "no second attempt before 100 ms");
    await clock.advanceAsync(1);
    await until(() => server.requests.length === 2);
    await clock.advanceAsync(199);
    await turns(20);
    assert.equal(server.requests.length, 2, "no third attempt before 200 ms more");
    await clock.advanceAsync(1);
    await until(() => r.stats().buffered === 1);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(r.stats(), { written: 0, retried: 2, buffered: 1, expired: 0, dropped: {} });
    assert.deepEqual([settled, logger.lines], [false, []], "a buffered row is neither settled nor logged");
    down = false;
    await clock.advanceAsync(4_999);
    await turns(20);
    assert.equal(server.requests.length, 3, "the replay waits for the 5 s tick");
    await clock.advanceAsync(1);
    await write;
    assert.equal(server.requests.length, 4);
    assert.deepEqual(r.stats(), { written: 1, retried: 2, buffered: 1, expired: 0, dropped: {} });
    assert.deepEqual(logger.lines, []);
  } finally {
    server.handle(api.handler);
  }
});

test("session-api unreachable: three attempts, then buffered; close({ timeoutMs: 0 }) drops it as closed, logged once, { left: 1 }", async () => {
  const down = await startHttpServer();
  const url = down.url;
  await down.close();
  const clock = createManualClock(T0);
  const logger = createCaptureLogger();
  const r = recorder({ clock, logger, url });
  const write = r.start({ ...LOOKUP, arguments: {} });
  await until(() => r.stats().retried === 1);
  await clock.advanceAsync(100);
  await until(() => r.stats().retried === 2);
  await clock.advanceAsync(200);
  await until(() => r.stats().buffered === 1);
  assert.deepEqual(await r.close({ timeoutMs: 0 }), { left: 1 });
  await write;
  assert.deepEqual(r.stats(), { written: 0, retried: 2, buffered: 1, expired: 0, dropped: { closed: 1 } });
  assert.deepEqual(logger.lines, [
    { level: "error", message: "failed to record tool call", fields: { sessionID: SID, toolName: "lookup", reason: "closed", error: "the recorder closed before session-api took the row", count: 1 } },
  ]);
  // Closed: a new row is dropped at once, and close() returns its first promise.
  await r.start({ ...LOOKUP, callId: "later", arguments: {} });
  assert.deepEqual(r.stats().dropped, { closed: 2 });
  assert.equal(r.close(), r.close({ timeoutMs: 1 }));
});

test("options: url must be http(s); unknown options are typed errors", () => {
  assert.throws(() => createSessionApiRecorder({ url: "ftp://x" }), { code: "ERR_OMNIA_INVALID_OPTION", message: 'createSessionApiRecorder: url must be session-api\'s http(s) base URL; got "ftp://x"' });
  assert.throws(() => createSessionApiRecorder({ url: "http://x", retries: 5 } as never), { code: "ERR_OMNIA_INVALID_OPTION", message: /unknown option "retries"/ });
});
