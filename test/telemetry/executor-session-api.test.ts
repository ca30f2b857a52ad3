// The session-api recorder as createToolExecutor's `recorder` (issue #22): each call through
// the executor writes the `pending` row when it starts and the terminal row when it ends,
// against a loopback session-api that validates every body against the ToolCall schema of
// Omnia's session-api OpenAPI document; a session-api that fails never changes an outcome.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "undici";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions } from "../../src/executor/index.js";
import { createSessionApiRecorder, type SessionApiRecorder } from "../../src/records/index.js";
import { createManualClock, type ManualClock } from "../../src/testing/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startHttpServer, type TestServer } from "../helpers/http-server.js";
import { SID_DOWN, startSessionApi, type SessionApiServer } from "../helpers/session-api.js";
import { settle } from "../helpers/settle.js";

const SID = "6f1c2a9e-3b7d-4c1e-9a2f-5d8e7b6c4a31";
const T0 = Date.UTC(2026, 11, 1, 22, 0, 0, 120); // 2026-12-01T22:00:00.12Z

let api: SessionApiServer;
let backend: TestServer;
let dispatcher: Agent;
let clock: ManualClock;
const closers: (() => Promise<void>)[] = [];

before(async () => {
  api = await startSessionApi();
  dispatcher = new Agent();
  // The backend takes 42 ms on the executor's clock; /fail answers 503.
  backend = await startHttpServer((req, res) => {
    clock.advance(42);
    if (req.url === "/fail") {
      res.statusCode = 503;
      return void res.end("down");
    }
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true,"q":"<b>"}');
  });
});

after(async () => {
  for (const close of closers.reverse()) await close();
  await dispatcher.close();
  await backend.close();
  await api.close();
});

beforeEach(() => {
  clock = createManualClock(T0);
  api.server.requests.length = 0;
  api.invalid.length = 0;
});

function ordersRegistry(path: string): ToolRegistry {
  return loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: "orders", namespace: "agents" },
    spec: {
      handlers: [
        { name: "lookup-h", type: "http", tool: { name: "lookup", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${backend.url}${path}` } },
        { name: "geo", type: "client", tool: { name: "get_location", description: "d", inputSchema: { type: "object" } } },
      ],
    },
  });
}

function setup(path: string, options: Partial<ToolExecutorOptions> = {}) {
  let n = 0;
  const logger = createCaptureLogger();
  const recorder: SessionApiRecorder = createSessionApiRecorder({
    url: api.url,
    dispatcher,
    clock,
    logger,
    headers: { Authorization: "Bearer sa-token" },
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
  });
  const ex = createToolExecutor({ registry: ordersRegistry(path), clock, recorder, telemetry: false, ...options });
  closers.push(() => ex.close());
  return { ex, recorder, logger };
}

/** The bodies session-api received, in order; every one was a valid ToolCall. */
function rows(): string[] {
  assert.deepEqual(api.invalid, []);
  for (const req of api.server.requests) {
    assert.equal(req.method, "POST");
    assert.equal(req.headers["content-type"], "application/json");
    assert.equal(req.headers["x-omnia-source"], "runtime");
    assert.equal(req.headers.authorization, "Bearer sa-token");
  }
  return api.server.requests.map((r) => `${r.url} ${r.body.toString("utf8")}`);
}

const PATH = `/api/v1/sessions/${SID}/tool-calls`;
const identity = { sessionId: SID, userId: "u-1" };
const LABELS = '"labels":{"handler_name":"lookup-h","handler_type":"http","registry_name":"orders","registry_namespace":"agents"}';
const GEO_LABELS = '"labels":{"handler_name":"geo","handler_type":"client","registry_name":"orders","registry_namespace":"agents"}';

test("a success: the pending row with the arguments, then the success row with the result text and the duration", async () => {
  const { ex, recorder } = setup("/ok");
  const out = await ex.execute({ id: "call-1", name: "lookup", arguments: '{"id":1}' }, { identity });
  assert.equal(out.status === "success" && out.resultJson, '{"ok":true,"q":"<b>"}');
  await recorder.flush();
  assert.deepEqual(rows(), [
    `${PATH} {"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call-1","name":"lookup","arguments":{"id":1},"status":"pending",${LABELS},"createdAt":"2026-12-01T22:00:00.12Z"}`,
    `${PATH} {"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call-1","name":"lookup","result":"{\\"ok\\":true,\\"q\\":\\"\\u003cb\\u003e\\"}","status":"success","durationMs":42,${LABELS},"createdAt":"2026-12-01T22:00:00.162Z"}`,
  ]);
});

test("an error (HTTP 503): the pending row, then an error row with the model-visible text", async () => {
  const { ex, recorder } = setup("/fail");
  const out = await ex.execute({ id: "call-2", name: "lookup", arguments: '{"id":2}' }, { identity });
  assert.equal(out.status === "error" && out.message, "HTTP 503: down");
  await recorder.flush();
  assert.deepEqual(rows(), [
    `${PATH} {"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call-2","name":"lookup","arguments":{"id":2},"status":"pending",${LABELS},"createdAt":"2026-12-01T22:00:00.12Z"}`,
    `${PATH} {"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call-2","name":"lookup","status":"error","durationMs":42,"errorMessage":"HTTP 503: down",${LABELS},"createdAt":"2026-12-01T22:00:00.162Z"}`,
  ]);
});

test("a policy denial: the pending row, then an error row with the denial's text (session-api has no denied status); no backend request", async () => {
  const { ex, recorder } = setup("/ok", { policy: () => ({ allow: false, reason: 'nope (rule "rule1")' }) });
  const before = backend.requests.length;
  const out = await ex.execute({ id: "call-3", name: "lookup", arguments: '{"id":3}' }, { identity });
  assert.equal(out.status === "denied" && out.message, 'tool call denied by policy: nope (rule "rule1")');
  assert.equal(backend.requests.length, before);
  await recorder.flush();
  assert.deepEqual(rows(), [
    `${PATH} {"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call-3","name":"lookup","arguments":{"id":3},"status":"pending",${LABELS},"createdAt":"2026-12-01T22:00:00.12Z"}`,
    `${PATH} {"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call-3","name":"lookup","status":"error","errorMessage":"tool call denied by policy: nope (rule \\"rule1\\")",${LABELS},"createdAt":"2026-12-01T22:00:00.12Z"}`,
  ]);
});

test("a client call: the pending row when it is handed to the client, the success row when completeClientCall brings the result", async () => {
  const { ex, recorder } = setup("/ok");
  const out = await ex.execute({ id: "call-4", name: "get_location", arguments: '{"precise":true}' }, { identity, clientToolsAvailable: true });
  assert.equal(out.status, "client");
  await recorder.flush();
  assert.deepEqual(rows(), [
    `${PATH} {"id":"00000000-0000-4000-8000-000000000001","sessionId":"${SID}","callId":"call-4","name":"get_location","arguments":{"precise":true},"status":"pending",${GEO_LABELS},"createdAt":"2026-12-01T22:00:00.12Z"}`,
  ]);
  clock.advance(1_500);
  assert.equal(ex.completeClientCall({ callId: "call-4", resultJson: '{"lat":1}' }).status, "success");
  await recorder.flush();
  assert.deepEqual(rows().slice(1), [
    `${PATH} {"id":"00000000-0000-4000-8000-000000000002","sessionId":"${SID}","callId":"call-4","name":"get_location","result":"{\\"lat\\":1}","status":"success","durationMs":1500,${GEO_LABELS},"createdAt":"2026-12-01T22:00:01.62Z"}`,
  ]);
});

test("a session-api answering 500 never changes the outcome: the pending row is tried three times, then buffered; the terminal row waits behind it; close() drops both, counted", async () => {
  const fine = setup("/ok");
  const expected = await fine.ex.execute({ id: "call-5", name: "lookup", arguments: '{"id":5}' }, { identity });
  await fine.recorder.flush();
  clock = createManualClock(T0);
  api.server.requests.length = 0;
  const { ex, recorder, logger } = setup("/ok");
  const out = await ex.execute({ id: "call-5", name: "lookup", arguments: '{"id":5}' }, { identity: { ...identity, sessionId: SID_DOWN } });
  assert.deepEqual(out, expected);
  for (let i = 0; i < 100 && recorder.stats().buffered === 0; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    await clock.advanceAsync(50);
  }
  const sent = rows();
  assert.deepEqual(sent.map((r) => JSON.parse(r.slice(r.indexOf(" ") + 1)).status), ["pending", "pending", "pending"]);
  assert.deepEqual(logger.lines, [], "buffered, not lost");
  assert.deepEqual(await recorder.close({ timeoutMs: 0 }), { left: 2 });
  assert.deepEqual(recorder.stats(), { written: 0, retried: 2, buffered: 1, expired: 0, dropped: { closed: 2 } });
  assert.deepEqual(logger.lines, [
    { level: "error", message: "failed to record tool call", fields: { sessionID: SID_DOWN, toolName: "lookup", reason: "closed", error: "the recorder closed before session-api took the row", count: 1 } },
    { level: "error", message: "failed to record tool call", fields: { sessionID: SID_DOWN, toolName: "lookup", reason: "closed", error: "the recorder is closed", count: 1 } },
  ]);
});
