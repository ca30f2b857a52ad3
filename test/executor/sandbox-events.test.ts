// Sandbox conversations (per-claim breakers, the reachability dial) and progress events (issue #8).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createCircuitBreakers, createConversation } from "../../src/breaker/index.js";
import { MemoryRecorder } from "../../src/testing/index.js";
import { startHttpServer } from "../helpers/http-server.js";

const sandboxRegistry = (endpoint: string) =>
  loadToolRegistry(`
handlers:
  - name: code-runner
    type: http
    tool: { name: run_code, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${endpoint}" }
    sandbox: { image: runner }
`);

test("a sandbox handler uses the conversation's per-claim breaker; dispose() drops it", async () => {
  const server = await startHttpServer((_req, res) => {
    res.statusCode = 500;
    res.end("boom");
  });
  const toolBreakers = createCircuitBreakers();
  const ex = createToolExecutor({ registry: sandboxRegistry(`${server.url}/run`), breakers: toolBreakers });
  try {
    const a = createConversation();
    const b = createConversation();
    for (let i = 0; i < 10; i++) await ex.execute({ id: `a${i}`, name: "run_code", arguments: "{}" }, { conversation: a });
    const rejected = await ex.execute({ id: "a10", name: "run_code", arguments: "{}" }, { conversation: a });
    assert.equal(rejected.status === "error" && rejected.message, "circuit breaker [code-runner]: circuit breaker is open");
    assert.equal(server.requests.length, 10);
    // Another conversation's claim is unaffected, and so is the per-tool breaker.
    const other = await ex.execute({ id: "b0", name: "run_code", arguments: "{}" }, { conversation: b });
    assert.equal(other.status === "error" && other.message, "HTTP 500: boom");
    assert.equal(toolBreakers.has("run_code"), false);
    a.dispose();
    const next = createConversation({ reachability: a.reachability });
    const fresh = await ex.execute({ id: "n0", name: "run_code", arguments: "{}" }, { conversation: next });
    assert.equal(fresh.status === "error" && fresh.message, "HTTP 500: boom", "the next stream starts closed");
  } finally {
    await ex.close();
    await server.close();
  }
});

test("a claim proven reachable is dialled before each call; a dead one fails at once with no request and no retry", async () => {
  const server = await startHttpServer((_req, res) => void res.end('{"ok":true}'));
  const url = server.url;
  const reg = loadToolRegistry(`
handlers:
  - name: code-runner
    type: http
    tool: { name: run_code, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: "${url}/run"
      retryPolicy: { maxAttempts: 3 }
    sandbox: { image: runner }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry: reg, recorder });
  const conversation = createConversation();
  try {
    assert.equal(conversation.reachability.isProven("code-runner"), false);
    const ok = await ex.execute({ id: "c1", name: "run_code", arguments: "{}" }, { conversation });
    assert.equal(ok.status, "success");
    assert.equal(conversation.reachability.isProven("code-runner"), true);
    await server.close();
    const dead = await ex.execute({ id: "c2", name: "run_code", arguments: "{}" }, { conversation });
    assert.equal(dead.status === "error" && dead.message, `sandbox code-runner unreachable: dial tcp ${url.slice(7)}: connect: connection refused`);
    assert.equal(dead.status === "error" && dead.error.code, "ERR_OMNIA_SANDBOX_UNREACHABLE");
    assert.equal(recorder.records.at(-1)?.attempts, 0);
    assert.equal(conversation.breakers.get("code-runner").state, "closed", "a failed dial is not a breaker event");
  } finally {
    await ex.close();
  }
});

test("tool_call and tool_result events carry ids, names, ok and duration, never arguments or results", async () => {
  const server = await startHttpServer((_req, res) => void res.end('{"secret":"result"}'));
  const ex = createToolExecutor({ registry: sandboxRegistry(`${server.url}/run`) });
  const seen: unknown[] = [];
  const a = ex.on("tool_call", (e) => seen.push(["call", e]));
  const b = ex.on("tool_result", (e) => seen.push(["result", { ...e, durationMs: typeof e.durationMs }]));
  ex.on("tool_result", () => {
    throw new Error("listener bug");
  });
  try {
    await ex.execute({ id: "e1", name: "run_code", arguments: '{"secret":"arg"}' });
    await ex.execute({ id: "e2", name: "missing", arguments: "{}" });
    a.dispose();
    b.dispose();
    await ex.execute({ id: "e3", name: "run_code", arguments: "{}" });
    assert.deepEqual(seen, [
      ["call", { callId: "e1", name: "run_code" }],
      ["result", { callId: "e1", name: "run_code", ok: true, durationMs: "number" }],
      ["call", { callId: "e2", name: "missing" }],
      ["result", { callId: "e2", name: "missing", ok: false, durationMs: "number" }],
    ]);
  } finally {
    await ex.close();
    await server.close();
  }
});
