// createToolExecutor against a real node:http backend on 127.0.0.1 (issue #6).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { ClosedError, InvalidOptionError, AbortedError } from "../../src/core/index.js";
import { oneHttpToolRegistry, startHttpServer, withoutUnhandledRejections, type TestServer } from "../helpers/http-server.js";
import { settle } from "../helpers/settle.js";

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) {
    try {
      await s.close();
    } catch (e) {
      console.error(String(e), s.requests.map((r) => r.url));
      throw e;
    }
  }
});
async function backend(handler?: Parameters<typeof startHttpServer>[0]): Promise<TestServer> {
  const s = await startHttpServer(handler);
  servers.push(s);
  return s;
}

const registry = oneHttpToolRegistry;

function executor(reg: ReturnType<typeof registry>, options: Partial<ToolExecutorOptions> = {}) {
  const clock = createManualClock(Date.UTC(2026, 10, 29));
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry: reg, clock, recorder, random: () => 0.5, ...options });
  return { ex, clock, recorder };
}

function expectError(outcome: ToolOutcome, message: string, code: string) {
  assert.equal(outcome.status, "error", JSON.stringify(outcome));
  if (outcome.status !== "error") return;
  assert.equal(outcome.message, message);
  assert.equal(outcome.error.code, code);
}

test("a POST call: the backend gets the exact request, the model the exact body", async () => {
  const server = await backend((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(' {"ok": true} ');
  });
  const { ex, recorder } = executor(registry(`${server.url}/t`));
  const out = await ex.execute(
    { id: "c1", name: "t", arguments: '{"b":1,"a":"x"}' },
    { identity: { agentName: "agent-a", userId: "u1", claims: { tier: "gold" }, authorization: "Bearer caller" } as never },
  );
  assert.equal(out.status, "success");
  assert.equal(out.status === "success" && out.resultJson, ' {"ok": true} ');
  assert.deepEqual(out.status === "success" && out.result, { ok: true });
  assert.deepEqual([out.toolName, out.callId, out.handlerType], ["t", "c1", "http"]);
  const got = server.requests[0];
  assert.ok(got);
  assert.equal(got.method, "POST");
  assert.equal(got.url, "/t");
  assert.equal(got.body.toString(), '{"b":1,"a":"x"}');
  assert.equal(got.headers["content-type"], "application/json");
  assert.equal(got.headers["x-omnia-tool-name"], "t");
  assert.equal(got.headers["x-omnia-tool-registry"], "h");
  assert.equal(got.headers["x-omnia-agent-name"], "agent-a");
  assert.equal(got.headers["x-omnia-user-id"], "u1");
  assert.equal(got.headers["x-omnia-claim-tier"], "gold");
  assert.equal(got.headers["x-omnia-param-b"], "1");
  assert.equal(got.headers["authorization"], undefined, "the caller's Authorization never leaves the process");
  assert.equal(recorder.records.length, 1);
  const r = recorder.records[0];
  assert.deepEqual(
    { callId: r?.callId, toolName: r?.toolName, handlerName: r?.handlerName, handlerType: r?.handlerType, execution: r?.execution, status: r?.status, attempts: r?.attempts, result: r?.result, arguments: r?.arguments },
    { callId: "c1", toolName: "t", handlerName: "h", handlerType: "http", execution: "server", status: "success", attempts: 1, result: { ok: true }, arguments: { b: 1, a: "x" } },
  );
  await ex.close();
});

test("P20–P24 end to end: a non-2xx is an error outcome with the body cut at 512 bytes", async () => {
  const bodies = ["a".repeat(511), "a".repeat(512), "a".repeat(513), "a".repeat(600), `a${"é".repeat(300)}`];
  const server = await backend((req, res) => {
    res.statusCode = 500;
    res.end(bodies[Number(new URL(req.url ?? "/", "http://x").searchParams.get("i"))]);
  });
  const { ex } = executor(registry(`${server.url}/e`, "      method: GET"));
  for (let i = 0; i < bodies.length; i++) {
    const out = await ex.execute({ id: `c${i}`, name: "t", arguments: `{"i":${i}}` });
    assert.equal(out.status, "error");
    if (out.status !== "error") continue;
    const body = Buffer.from(bodies[i] ?? "", "utf8");
    const expected = body.length <= 512 ? body.toString() : `${new TextDecoder().decode(body.subarray(0, 512))}...`;
    assert.equal(out.message, `HTTP 500: ${expected}`);
    assert.equal(out.error.code, "ERR_OMNIA_HTTP_STATUS");
  }
  await ex.close();
});

test("an 11 MiB response is cut at 10 MiB and wrapped", async () => {
  const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
  const server = await backend((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(big);
  });
  const { ex, recorder } = executor(registry(`${server.url}/big`));
  const out = await ex.execute({ id: "b", name: "t", arguments: "{}" });
  assert.equal(out.status, "success");
  if (out.status !== "success") return;
  assert.equal(out.truncated, true);
  assert.equal((out.result as { result: string }).result, "a".repeat(10 * 1024 * 1024));
  assert.equal(recorder.records[0]?.status, "success");
  await ex.close();
});

test("the read stops at the cap: a 64 MiB body is never buffered, and memory per concurrent call is bounded by the cap", async () => {
  const chunk = Buffer.alloc(256 * 1024, 0x62);
  const written: number[] = [];
  const server = await backend((_req, res, i) => {
    res.writeHead(200, { "content-type": "text/plain" });
    let sent = 0;
    const total = 64 * 1024 * 1024;
    res.on("close", () => (written[i] = sent));
    const pump = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  const { ex } = executor(registry(`${server.url}/huge`));
  // Full collections across a few turns, so freed external buffers are really released.
  const settledMemory = async () => {
    for (let i = 0; i < 3; i++) {
      global.gc?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return process.memoryUsage();
  };
  // One call first, dropped: the modules an executor loads on its first HTTP call (compiled by tsx on a cold
  // cache) are then in the baseline, not counted as memory the calls retain.
  assert.equal((await ex.execute({ id: "warm", name: "t", arguments: "{}" })).status, "success");
  const base = await settledMemory();
  const outcomes = await Promise.all([0, 1, 2, 3].map((i) => ex.execute({ id: `h${i}`, name: "t", arguments: "{}" })));
  const held = await settledMemory();
  for (const out of outcomes) assert.equal(out.status === "success" && out.truncated, true);
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (const n of written) assert.ok(n < 24 * 1024 * 1024, `the backend wrote ${(n / 1048576).toFixed(1)} MiB before the client stopped the transfer`);
  // What each outcome retains is its 10 MiB result twice (the value and the JSON text the model sees);
  // nothing scales with the 64 MiB body.
  const perCallMiB = (held.heapUsed + held.external - base.heapUsed - base.external) / 4 / 1048576;
  assert.ok(perCallMiB < 24, `retained ${perCallMiB.toFixed(1)} MiB per call`);
  assert.ok(perCallMiB > 9, `the outcome must hold the 10 MiB result; measured ${perCallMiB.toFixed(1)} MiB`);
  await ex.close();
});

test("a backend that never answers gives a timeout error on the clock", async () => {
  await withoutUnhandledRejections(async () => {
    const server = await backend(() => {
      /* never answers */
    });
    const { ex, clock, recorder } = executor(registry(`${server.url}/hang`, "", "    timeout: 250ms"));
    const out = await settle(ex.execute({ id: "h1", name: "t", arguments: "{}" }), clock);
    expectError(out, "timed out after 250ms", "ERR_OMNIA_TIMEOUT");
    assert.equal(recorder.records[0]?.status, "error");
    assert.equal(clock.pendingTimers(), 0, "no timer is left behind");
    await ex.close();
  });
});

test("503 with Retry-After: 0, then 200: success on attempt 2, recorded with 2 attempts", async () => {
  const server = await backend((_req, res, i) => {
    if (i === 0) {
      res.writeHead(503, { "retry-after": "0" });
      res.end("busy");
    } else res.end('{"ok":true}');
  });
  const { ex, clock, recorder } = executor(
    registry(
      `${server.url}/r`,
      `      retryPolicy:
        maxAttempts: 3
        initialBackoff: 100ms`,
    ),
  );
  const out = await settle(ex.execute({ id: "r1", name: "t", arguments: "{}" }), clock);
  assert.equal(out.status, "success");
  assert.equal(server.requests.length, 2);
  assert.equal(recorder.records[0]?.attempts, 2);
  await ex.close();
});

test("T4: every attempt failing ends as '<N> attempts exhausted: HTTP 502: bad gateway'", async () => {
  const server = await backend((_req, res) => {
    res.statusCode = 502;
    res.end("bad gateway");
  });
  const { ex, clock } = executor(registry(`${server.url}/x`, "      retryPolicy: { maxAttempts: 3, retryOn: [502], initialBackoff: 1ms }"));
  const out = await settle(ex.execute({ id: "x", name: "t", arguments: "{}" }), clock);
  expectError(out, "3 attempts exhausted: HTTP 502: bad gateway", "ERR_OMNIA_RETRIES_EXHAUSTED");
  assert.equal(server.requests.length, 3);
  await ex.close();
});

test("T19: 10 consecutive 500s open the breaker; the 11th call never reaches the server", async () => {
  const server = await backend((_req, res) => {
    res.statusCode = 500;
    res.end("down");
  });
  const { ex, recorder } = executor(registry(`${server.url}/down`));
  for (let i = 0; i < 10; i++) expectError(await ex.execute({ id: `d${i}`, name: "t", arguments: "{}" }), "HTTP 500: down", "ERR_OMNIA_HTTP_STATUS");
  assert.equal(server.requests.length, 10);
  const out = await ex.execute({ id: "d10", name: "t", arguments: "{}" });
  expectError(out, "circuit breaker [t]: circuit breaker is open", "ERR_OMNIA_CIRCUIT_OPEN");
  assert.equal(server.requests.length, 10, "the rejected call sent nothing");
  assert.equal(recorder.records.at(-1)?.attempts, 0, "a rejected call made no attempt");
  await ex.close();
});

test("T20: twelve 4xx responses never open the breaker", async () => {
  const server = await backend((_req, res) => {
    res.statusCode = 400;
    res.end("bad request");
  });
  const { ex } = executor(registry(`${server.url}/bad`));
  for (let i = 0; i < 12; i++) expectError(await ex.execute({ id: `b${i}`, name: "t", arguments: "{}" }), "HTTP 400: bad request", "ERR_OMNIA_HTTP_STATUS");
  assert.equal(server.requests.length, 12);
  await ex.close();
});

test("P31: a refused connection is an error outcome, never a rejection", async () => {
  await withoutUnhandledRejections(async () => {
    const server = await startHttpServer();
    const url = server.url;
    await server.close();
    const { ex } = executor(registry(`${url}/x`));
    const out = await ex.execute({ id: "p", name: "t", arguments: "{}" });
    assert.equal(out.status, "error");
    assert.ok(out.status === "error" && out.message.endsWith("connect: connection refused"), JSON.stringify(out));
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_TRANSPORT");
    await ex.close();
  });
});

test("an unknown tool and malformed arguments are error outcomes; the backend is never called", async () => {
  const server = await backend();
  const { ex, recorder } = executor(registry(`${server.url}/x`));
  expectError(await ex.execute({ id: "u", name: "nope", arguments: "{}" }), 'tool "nope" not found', "ERR_OMNIA_UNKNOWN_TOOL");
  const bad = await ex.execute({ id: "m", name: "t", arguments: '{"a":' });
  assert.equal(bad.status, "error");
  assert.ok(bad.status === "error" && bad.message.startsWith('invalid arguments for tool "t": '), JSON.stringify(bad));
  assert.equal(bad.status === "error" && bad.error.code, "ERR_OMNIA_INVALID_ARGUMENTS");
  assert.equal(server.requests.length, 0);
  assert.deepEqual(
    recorder.records.map((r) => [r.callId, r.status, r.handlerName, r.attempts]),
    [
      ["u", "error", "", 0],
      ["m", "error", "h", 0],
    ],
  );
  assert.equal(recorder.records[1]?.arguments, '{"a":');
  await ex.close();
});

test("H25/H26: a bearer token file is re-read on every call; a missing file fails before sending", async () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-auth-"));
  try {
    const server = await backend();
    const path = join(dir, "token");
    const reg = loadToolRegistry({
      handlers: [{ name: "h", type: "http", tool: { name: "t", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${server.url}/a` }, auth: { type: "bearer", secretRef: { name: "s", key: "token" } } }],
    });
    const { ex } = executor(reg, { secrets: async () => (await import("node:fs/promises")).readFile(path, "utf8").then((t) => t.replace(/\n+$/, "")) });
    writeFileSync(path, "tok-A\n");
    await ex.execute({ id: "1", name: "t", arguments: "{}" });
    writeFileSync(path, "tok-B");
    await ex.execute({ id: "2", name: "t", arguments: "{}" });
    assert.deepEqual(server.requests.map((r) => r.headers["authorization"]), ["Bearer tok-A", "Bearer tok-B"]);
    rmSync(path);
    const out = await ex.execute({ id: "3", name: "t", arguments: "{}" });
    assert.equal(out.status, "error");
    assert.ok(out.status === "error" && out.message.startsWith('handler "h" auth: '), JSON.stringify(out));
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_AUTH");
    assert.equal(server.requests.length, 2);
    await ex.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("H22/H23: basic auth from the secrets resolver, and its errors", async () => {
  const server = await backend();
  const reg = loadToolRegistry({
    handlers: [{ name: "h", type: "http", tool: { name: "t", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${server.url}/a` }, auth: { type: "basic", secretRef: { name: "s", key: "k" } } }],
  });
  let secret = "user:pa:ss";
  const { ex } = executor(reg, { secrets: () => secret });
  await ex.execute({ id: "1", name: "t", arguments: "{}" });
  assert.equal(server.requests[0]?.headers["authorization"], "Basic dXNlcjpwYTpzcw==");
  secret = "";
  expectError(await ex.execute({ id: "2", name: "t", arguments: "{}" }), 'handler "h" auth: basic auth requires credentials', "ERR_OMNIA_AUTH");
  secret = "no-colon";
  expectError(await ex.execute({ id: "3", name: "t", arguments: "{}" }), "handler \"h\" auth: basic auth token must be 'username:password'", "ERR_OMNIA_AUTH");
  assert.equal(server.requests.length, 1);
  await ex.close();
});

test("the caller's abort rejects with AbortedError, is recorded, and is never a breaker failure", async () => {
  await withoutUnhandledRejections(async () => {
    const server = await backend(() => {
      /* never answers */
    });
    const breakers = createCircuitBreakers();
    const { ex, recorder } = executor(registry(`${server.url}/slow`), { breakers });
    for (let i = 0; i < 12; i++) {
      const controller = new AbortController();
      const pending = ex.execute({ id: `a${i}`, name: "t", arguments: "{}" }, { signal: controller.signal });
      setImmediate(() => controller.abort(new Error("conversation ended")));
      await assert.rejects(pending, (e: unknown) => e instanceof AbortedError);
    }
    assert.equal(breakers.get("t").state, "closed");
    assert.equal(recorder.records.length, 12);
    await ex.close();
  });
});

test("options are validated eagerly; close() is idempotent; use after close throws", async () => {
  assert.throws(() => createToolExecutor({} as never), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith("createToolExecutor: registry must be a ToolRegistry"));
  const reg = registry("http://127.0.0.1:9/x");
  assert.throws(() => createToolExecutor({ registry: reg, retries: 3 } as never), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith('createToolExecutor: unknown option "retries"'));
  assert.throws(() => createToolExecutor({ registry: reg, recoder: {} } as never), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith('createToolExecutor: unknown option "recoder" (did you mean "recorder"?); expected one of registry, '));
  assert.throws(
    () => createToolExecutor({ registry: reg, dispatcher: { request: async () => ({}) } as never }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === "createToolExecutor: dispatcher must be an undici Dispatcher (Agent, Pool, Client or compose()) with a dispatch() method; got object",
  );
  const { ex } = executor(reg);
  await ex.close();
  await ex.close();
  await assert.rejects(ex.execute({ id: "x", name: "t", arguments: "{}" }), (e: unknown) => e instanceof ClosedError && e.message === "execute: the executor is closed");
});

test("a recorder that throws is logged and the outcome is unchanged", async () => {
  const server = await backend();
  const logged: string[] = [];
  const reg = registry(`${server.url}/x`);
  const ex = createToolExecutor({
    registry: reg,
    recorder: {
      record() {
        throw new Error("db down");
      },
    },
    logger: { debug() {}, info() {}, warn() {}, error: (m) => logged.push(m) },
  });
  const out = await ex.execute({ id: "r", name: "t", arguments: "{}" });
  assert.equal(out.status, "success");
  assert.deepEqual(logged, ["failed to record tool call"]);
  await ex.close();
});
