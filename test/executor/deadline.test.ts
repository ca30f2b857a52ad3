// A deadline per call (issue #23 item 10): ctx.timeoutMs bounds the whole call, attempts and backoff sleeps
// included, and resolves a TimeoutError outcome recorded once; the handler's per-attempt timeout stays as
// Omnia's. Against a real node:http backend on 127.0.0.1 and a real connect-node ToolService, on a ManualClock.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { serveToolService, type ToolServiceServer } from "../../src/grpc/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { AbortedError, InvalidOptionError, TimeoutError, type Logger } from "../../src/core/index.js";
import { oneHttpToolRegistry, startHttpServer, withoutUnhandledRejections, type TestServer } from "../helpers/http-server.js";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers) await close();
});

async function backend(handler: Parameters<typeof startHttpServer>[0]): Promise<TestServer> {
  const s = await startHttpServer(handler);
  closers.push(() => s.close());
  return s;
}

const registry = oneHttpToolRegistry;

/** An executor on a manual clock whose logger counts the retry loop's `retry attempt` lines (logged as each backoff sleep is armed). */
function executor(reg: ReturnType<typeof registry>, options: Partial<ToolExecutorOptions> = {}) {
  const clock = createManualClock(Date.UTC(2026, 11, 1));
  const recorder = new MemoryRecorder();
  const retries: unknown[] = [];
  const noop = (): void => {};
  const logger: Logger = { debug: (m, f) => void (m === "retry attempt" && retries.push(f)), info: noop, warn: noop, error: noop };
  const breakers = createCircuitBreakers({ clock });
  const ex = createToolExecutor({ registry: reg, clock, recorder, random: () => 0.5, logger, breakers, ...options });
  closers.push(() => ex.close());
  return { ex, clock, recorder, retries, breakers };
}

/** Waits, on real I/O turns (never on time), until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/** The outcome as a plain object (the error as class, code, message, scope and ms). */
function shape(out: ToolOutcome): unknown {
  if (out.status !== "error") return out;
  const e = out.error as TimeoutError;
  return { status: out.status, message: out.message, handlerType: out.handlerType, durationMs: out.durationMs, error: [e.name, e.code, e.message, e.scope, e.timeoutMs] };
}

test("retries and backoff past the deadline: the sleep before attempt 3 ends at the deadline, a TimeoutError outcome recorded once", async () => {
  const server = await backend((_req, res) => {
    res.statusCode = 503;
    res.end("down");
  });
  const { ex, clock, recorder, retries, breakers } = executor(
    registry(`${server.url}/x`, "      retryPolicy: { maxAttempts: 5, initialBackoff: 1s, maxBackoff: 10s }"),
  );
  await withoutUnhandledRejections(async () => {
    const pending = ex.execute({ id: "c1", name: "t", arguments: "{}" }, { timeoutMs: 2500 });
    await until(() => retries.length === 1, "attempt 1 failed, its 1 s backoff armed");
    assert.deepEqual(retries[0], { attempt: 1, maxAttempts: 5, delay: 1000, error: "HTTP 503: down" });
    clock.advance(1000);
    await until(() => retries.length === 2, "attempt 2 failed, its 2 s backoff armed");
    assert.deepEqual(retries[1], { attempt: 2, maxAttempts: 5, delay: 2000, error: "HTTP 503: down" });
    // t = 2500: the deadline passes halfway through the 2 s sleep.
    clock.advance(1500);
    const out = await pending;
    assert.deepEqual(shape(out), {
      status: "error",
      message: "timed out after 2500ms",
      handlerType: "http",
      durationMs: 2500,
      error: ["TimeoutError", "ERR_OMNIA_TIMEOUT", "timed out after 2500ms", "call", 2500],
    });
  });
  assert.equal(server.requests.length, 2);
  assert.equal(recorder.records.length, 1);
  const record = recorder.records[0]!;
  assert.deepEqual([record.status, record.errorMessage, record.attempts, record.durationMs, record.handlerType], ["error", "timed out after 2500ms", 2, 2500, "http"]);
  // The two 503s were the breaker's failures; the deadline added none. No timer is left behind.
  assert.equal(breakers.get("t").snapshot().failures, 2);
  assert.equal(clock.pendingTimers(), 0);
});

test("a hanging backend, a deadline shorter than the attempt timeout: the attempt is abandoned at the deadline, its socket closed", async () => {
  let closed = 0;
  const server = await backend((_req, res) => {
    res.on("close", () => closed++);
  });
  // The handler's timeout is 30 s (the default); the call's deadline is 5 s.
  const { ex, clock, recorder, breakers } = executor(registry(`${server.url}/x`));
  const pending = ex.execute({ id: "c2", name: "t", arguments: "{}" }, { timeoutMs: 5000 });
  await until(() => server.requests.length === 1, "the request arrived");
  clock.advance(4999);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(recorder.records.length, 0);
  clock.advance(1);
  const out = await pending;
  assert.deepEqual(shape(out), {
    status: "error",
    message: "timed out after 5000ms",
    handlerType: "http",
    durationMs: 5000,
    error: ["TimeoutError", "ERR_OMNIA_TIMEOUT", "timed out after 5000ms", "call", 5000],
  });
  await until(() => closed === 1, "the backend saw the request go");
  assert.deepEqual(
    recorder.records.map((r) => [r.status, r.errorMessage, r.attempts]),
    [["error", "timed out after 5000ms", 1]],
  );
  // An attempt cut short by the caller's deadline is not the backend's failure.
  assert.equal(breakers.get("t").snapshot().failures, 0);
  assert.equal(clock.pendingTimers(), 0);
});

test("the handler's timeout still bounds each attempt (Omnia's); the deadline then ends the retried call", async () => {
  const server = await backend(() => {});
  const { ex, clock, recorder, retries, breakers } = executor(
    registry(`${server.url}/x`, "      retryPolicy: { maxAttempts: 3, initialBackoff: 100ms }", "    timeout: 2s"),
  );
  const pending = ex.execute({ id: "c3", name: "t", arguments: "{}" }, { timeoutMs: 3000 });
  await until(() => server.requests.length === 1, "attempt 1 sent");
  clock.advance(2000);
  await until(() => retries.length === 1, "attempt 1 timed out, its backoff armed");
  assert.deepEqual(retries[0], { attempt: 1, maxAttempts: 3, delay: 100, error: "timed out after 2000ms" });
  clock.advance(100);
  await until(() => server.requests.length === 2, "attempt 2 sent");
  clock.advance(900);
  const out = await pending;
  assert.deepEqual(shape(out), {
    status: "error",
    message: "timed out after 3000ms",
    handlerType: "http",
    durationMs: 3000,
    error: ["TimeoutError", "ERR_OMNIA_TIMEOUT", "timed out after 3000ms", "call", 3000],
  });
  assert.deepEqual(
    recorder.records.map((r) => [r.errorMessage, r.attempts]),
    [["timed out after 3000ms", 2]],
  );
  // Attempt 1's own timeout was a breaker failure; attempt 2, cut by the deadline, was not.
  assert.equal(breakers.get("t").snapshot().failures, 1);
});

test("a call that ends before its deadline is unchanged, and leaves no timer", async () => {
  const server = await backend((_req, res) => void res.end('{"ok":true}'));
  const { ex, clock, recorder } = executor(registry(`${server.url}/x`));
  const out = await ex.execute({ id: "c4", name: "t", arguments: "{}" }, { timeoutMs: 1000 });
  assert.equal(out.status === "success" && out.resultJson, '{"ok":true}');
  assert.equal(clock.pendingTimers(), 0);
  clock.advance(5000);
  assert.deepEqual(
    recorder.records.map((r) => r.status),
    ["success"],
  );
});

test("the caller's abort before the deadline still rejects with AbortedError (the call was abandoned), recorded once", async () => {
  const server = await backend(() => {});
  const { ex, clock, recorder } = executor(registry(`${server.url}/x`));
  const controller = new AbortController();
  const pending = ex.execute({ id: "c5", name: "t", arguments: "{}" }, { timeoutMs: 5000, signal: controller.signal });
  await until(() => server.requests.length === 1, "the request arrived");
  clock.advance(1000);
  controller.abort(new Error("conversation ended"));
  await assert.rejects(pending, (e: unknown) => e instanceof AbortedError && e.message === "attempt: the caller's signal aborted" && (e.cause as Error).message === "conversation ended");
  assert.deepEqual(
    recorder.records.map((r) => [r.errorMessage, r.durationMs]),
    [["attempt: the caller's signal aborted", 1000]],
  );
  assert.equal(clock.pendingTimers(), 0);
});

test("a deadline passing during the policy decision ends the call as a timeout, with no backend call", async () => {
  const server = await backend((_req, res) => void res.end("{}"));
  const decisions: AbortSignal[] = [];
  const { ex, clock, recorder } = executor(registry(`${server.url}/x`), {
    policy: (_request, signal) =>
      new Promise((_resolve, reject) => {
        decisions.push(signal!);
        signal!.addEventListener("abort", () => reject(signal!.reason as Error));
      }),
  });
  const pending = ex.execute({ id: "c6", name: "t", arguments: "{}" }, { timeoutMs: 750 });
  await until(() => decisions.length === 1, "the policy was asked");
  clock.advance(750);
  const out = await pending;
  assert.equal(out.status === "error" && out.message, "timed out after 750ms");
  assert.ok(decisions[0]!.reason instanceof TimeoutError);
  assert.equal(server.requests.length, 0);
  assert.deepEqual(
    recorder.records.map((r) => [r.status, r.errorMessage, r.attempts]),
    [["error", "timed out after 750ms", 0]],
  );
});

test("ctx.timeoutMs must be a positive finite number: anything else rejects before anything is recorded", async () => {
  const { ex, recorder } = executor(registry("http://127.0.0.1:9/x"));
  for (const [bad, shown] of [
    [0, "0"],
    [-5, "-5"],
    [Number.NaN, "NaN"],
    [Infinity, "Infinity"],
    ["30s", '"30s"'],
    [null, "null"],
  ] as const) {
    await assert.rejects(
      ex.execute({ id: "bad", name: "t", arguments: "{}" }, { timeoutMs: bad as never }),
      (e: unknown) => e instanceof InvalidOptionError && e.message === `execute: ctx.timeoutMs must be a positive finite number of ms; got ${shown}`,
    );
  }
  assert.equal(recorder.records.length, 0);
});

test("gRPC: a hanging Execute ends at the deadline; the server sees the call cancelled", async () => {
  let release: () => void = () => {};
  let calls = 0;
  let cancelled = 0;
  const server: ToolServiceServer = await serveToolService({
    slow: {
      description: "never answers in time",
      inputSchema: { type: "object" },
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          calls++;
          ctx.signal.addEventListener("abort", () => cancelled++);
          release = () => resolve({});
        }),
    },
  });
  closers.push(async () => {
    release();
    await server.close();
  });
  const reg = loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    tool: { name: slow, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "127.0.0.1:${server.port}" }
    timeout: 30s
    retryPolicy: { maxAttempts: 3, initialBackoff: 100ms }
`);
  const { ex, clock, recorder, breakers } = executor(reg);
  const pending = ex.execute({ id: "g1", name: "slow", arguments: "{}" }, { timeoutMs: 1500 });
  await until(() => calls === 1, "the server got the call");
  clock.advance(1500);
  const out = await pending;
  assert.deepEqual(shape(out), {
    status: "error",
    message: "timed out after 1500ms",
    handlerType: "grpc",
    durationMs: 1500,
    error: ["TimeoutError", "ERR_OMNIA_TIMEOUT", "timed out after 1500ms", "call", 1500],
  });
  await until(() => cancelled === 1, "the server saw the call cancelled");
  assert.deepEqual(
    recorder.records.map((r) => [r.handlerType, r.errorMessage, r.attempts]),
    [["grpc", "timed out after 1500ms", 1]],
  );
  assert.equal(breakers.get("slow").snapshot().failures, 0);
  assert.equal(clock.pendingTimers(), 0);
});

test("a platform tool that ignores its signal ends at the deadline; a client tool's hand-off is not bound by it", async () => {
  const reg = loadToolRegistry(`
handlers:
  - name: browser
    type: client
    tool: { name: get_location, description: d, inputSchema: { type: object } }
`);
  const { ex, clock, recorder } = executor(reg, {
    platformTools: { remember: { description: "d", inputSchema: { type: "object" }, execute: () => new Promise(() => {}) } },
  });
  const pending = ex.execute({ id: "p1", name: "remember", arguments: "{}" }, { timeoutMs: 400 });
  await until(() => clock.pendingTimers() === 2, "the deadline and the tool's 30 s timeout armed");
  clock.advance(400);
  const out = await pending;
  assert.deepEqual(shape(out), {
    status: "error",
    message: "timed out after 400ms",
    handlerType: "platform",
    durationMs: 400,
    error: ["TimeoutError", "ERR_OMNIA_TIMEOUT", "timed out after 400ms", "call", 400],
  });
  const handedOff = await ex.execute({ id: "c1", name: "get_location", arguments: "{}" }, { timeoutMs: 400, clientToolsAvailable: true });
  assert.equal(handedOff.status, "client");
  assert.equal(clock.pendingTimers(), 0);
  clock.advance(1000);
  const done = ex.completeClientCall({ callId: "c1", resultJson: "{\"lat\":1}" });
  assert.equal(done.status, "success");
  assert.deepEqual(
    recorder.records.map((r) => [r.toolName, r.status, r.errorMessage ?? null, r.durationMs]),
    [
      ["remember", "error", "timed out after 400ms", 400],
      ["get_location", "success", null, 1000],
    ],
  );
});
