// Issue #19 item 21: many calls sharing one conversation signal add no
// MaxListenersExceededWarning, and every listener is gone once they settle.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { createToolServiceClient, serveToolService } from "../../src/grpc/index.js";
import { startHttpServer } from "../helpers/http-server.js";

test("50 concurrent calls on one AbortController's signal: no MaxListenersExceededWarning, no listener left", async () => {
  const server = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    timeout: 30s
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/x", method: POST }
    retryPolicy: { maxAttempts: 2, retryOnNetworkError: true }
`);
  const executor = createToolExecutor({ registry });
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on("warning", onWarning);
  const conversation = new AbortController();
  try {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => executor.execute({ id: `c${i}`, name: "t", arguments: "{}" }, { signal: conversation.signal })),
    );
    assert.deepEqual(
      outcomes.map((o) => o.status),
      Array.from({ length: 50 }, () => "success"),
    );
    assert.equal(server.requests.length, 50);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, []);
    assert.equal(getEventListeners(conversation.signal, "abort").length, 0);
  } finally {
    process.off("warning", onWarning);
    await executor.close();
    await server.close();
  }
});

test("aborting the shared signal ends all 20 calls in flight, each once, and leaves no listener", async () => {
  const held: (() => void)[] = [];
  const server = await startHttpServer((_req, res) => void held.push(() => res.end("{}")));
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/x", method: POST }
`);
  const executor = createToolExecutor({ registry });
  const conversation = new AbortController();
  try {
    const calls = Array.from({ length: 20 }, (_, i) => executor.execute({ id: `c${i}`, name: "t", arguments: "{}" }, { signal: conversation.signal }));
    while (server.requests.length < 20) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(getEventListeners(conversation.signal, "abort").length, 1);
    conversation.abort(new Error("user left"));
    const settled = await Promise.allSettled(calls);
    // An abandoned call rejects with the executor's AbortedError.
    assert.deepEqual(
      settled.map((s) => (s.status === "rejected" ? `${(s.reason as { code?: string }).code}: ${(s.reason as Error).message}` : "fulfilled")),
      Array.from({ length: 20 }, () => "ERR_OMNIA_ABORTED: attempt: the caller's signal aborted"),
    );
    assert.equal(getEventListeners(conversation.signal, "abort").length, 0);
  } finally {
    for (const release of held) release();
    await executor.close();
    await server.close();
  }
});

test("50 concurrent calls with a policy broker on one signal: one abort listener while the decisions wait, no warning", async () => {
  const held: (() => void)[] = [];
  const broker = await startHttpServer((_req, res) => {
    held.push(() => {
      res.setHeader("content-type", "application/json");
      res.end('{"allow":true}');
    });
  });
  const server = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/x", method: POST }
`);
  const policy = createPolicyBrokerClient({ url: broker.url });
  const executor = createToolExecutor({ registry, policy });
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on("warning", onWarning);
  const conversation = new AbortController();
  try {
    const calls = Array.from({ length: 50 }, (_, i) => executor.execute({ id: `c${i}`, name: "t", arguments: "{}" }, { signal: conversation.signal }));
    while (broker.requests.length < 50) await new Promise((resolve) => setImmediate(resolve));
    // Every call is waiting on its policy decision: the broker client shares one listener too.
    assert.equal(getEventListeners(conversation.signal, "abort").length, 1);
    for (const release of held.splice(0)) release();
    const outcomes = await Promise.all(calls);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      Array.from({ length: 50 }, () => "success"),
    );
    assert.equal(server.requests.length, 50);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, []);
    assert.equal(getEventListeners(conversation.signal, "abort").length, 0);
  } finally {
    process.off("warning", onWarning);
    for (const release of held) release();
    await executor.close();
    await policy.close();
    await broker.close();
    await server.close();
  }
});

test("30 concurrent createToolServiceClient calls on one signal: one abort listener while they wait, no warning, none left (#32 item 11)", async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on("warning", onWarning);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const server = await serveToolService({ wait: { description: "d", inputSchema: { type: "object" }, execute: async () => (await gate, { ok: true }) } }, { port: 0 });
  const client = createToolServiceClient({ endpoint: server.url });
  const controller = new AbortController();
  try {
    const calls = Array.from({ length: 30 }, () => client.execute("wait", "{}", { signal: controller.signal }));
    for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(getEventListeners(controller.signal, "abort").length, 1);
    release();
    const results = await Promise.all(calls);
    assert.deepEqual(new Set(results.map((r) => r.resultJson)), new Set(['{"ok":true}']));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([getEventListeners(controller.signal, "abort").length, warnings], [0, []]);
  } finally {
    process.off("warning", onWarning);
    release();
    await client.close();
    await server.close();
  }
});
