// The frame every fault test runs in: a resource baseline, a guard against
// unhandled rejections, cleanups run in reverse (executor before server), then
// a check that nothing the test opened is still alive. Plus the executor set-up
// (manual clock, fresh breaker set, memory recorder, capture logger) and the
// breaker-accounting assertions the fault matrix repeats.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry, type ToolRegistry } from "../../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../../src/executor/index.js";
import { createCircuitBreakers, type BreakerSnapshot, type CircuitBreakers } from "../../../src/breaker/index.js";
import { createManualClock, MemoryRecorder, type ManualClock } from "../../../src/testing/index.js";
import { withoutUnhandledRejections } from "../../helpers/http-server.js";
import { createCaptureLogger, type LogLine } from "../../helpers/capture-logger.js";
import { settle } from "../../helpers/settle.js";
import { settledLeaks } from "../../helpers/resources.js";

/** Epoch of every manual clock here (2026-11-29T00:00:00Z). */
export const T0 = Date.UTC(2026, 10, 29);

export interface FaultContext {
  /** Runs `fn` at the end, after the client side has closed: servers, fixtures. The last deferred runs first. */
  defer(fn: () => unknown): void;
  /** Runs `fn` at the end, first: executors, dispatchers, clients. The last deferred runs first. */
  deferClient(fn: () => unknown): void;
}

/** The live resources left beyond a baseline, after the event loop settles (one helper for every live-handle check). */
export { settledLeaks };

/**
 * A node:test test with the fault frame. When the body ends (or throws):
 * 1. the client side closes (`deferClient`: executor.close(), dispatchers);
 * 2. then only the backends' listening handles may be alive: every socket is
 *    gone on both ends, which proves the client closed its own connections
 *    (the servers are still up, so they did not close them);
 * 3. the backends close (`defer`), and nothing at all may be left.
 * No unhandled rejection may happen meanwhile.
 */
export function faultTest(name: string, body: (ctx: FaultContext) => Promise<void>): void {
  test(name, async () => {
    const baseline = process.getActiveResourcesInfo();
    const clients: (() => unknown)[] = [];
    const servers: (() => unknown)[] = [];
    let listening: string[] = [];
    await withoutUnhandledRejections(async () => {
      try {
        await body({ defer: (fn) => servers.push(fn), deferClient: (fn) => clients.push(fn) });
      } finally {
        for (const fn of clients.reverse()) await fn();
        listening = await settledLeaks(baseline, Array.from({ length: 8 }, () => "TCPServerWrap"));
        for (const fn of servers.reverse()) await fn();
      }
    });
    assert.deepEqual(listening, [], "after executor.close(), a connection is still open while the backend is up");
    assert.deepEqual(await settledLeaks(baseline), [], "a handle is still alive after executor.close() and the backend's close()");
  });
}

export interface HttpHandlerOptions {
  /** The handler's per-attempt timeout, a Go duration. Default `2s`. */
  readonly timeout?: string;
  /** Extra httpConfig lines (YAML, indented 6 spaces). */
  readonly httpConfig?: string;
}

/** A registry with one http handler `h` serving tool `t`. */
export function httpRegistry(endpoint: string, options: HttpHandlerOptions = {}): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: h
    type: http
    timeout: ${options.timeout ?? "2s"}
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${endpoint}
${options.httpConfig ?? ""}
`);
}

export interface GrpcHandlerOptions {
  readonly timeout?: string;
  /** Extra grpcConfig lines (YAML, indented 6 spaces). */
  readonly grpcConfig?: string;
}

/** A registry with one grpc handler `g` serving tool `t`. */
export function grpcRegistry(endpoint: string, options: GrpcHandlerOptions = {}): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    timeout: ${options.timeout ?? "2s"}
    tool: { name: t, description: d, inputSchema: { type: object } }
    grpcConfig:
      endpoint: ${endpoint}
${options.grpcConfig ?? ""}
`);
}

export interface Rig {
  readonly ex: ToolExecutor;
  readonly clock: ManualClock;
  readonly breakers: CircuitBreakers;
  readonly recorder: MemoryRecorder;
  readonly logs: LogLine[];
  /** One call of tool `t` with id `id`, driven to its outcome on the manual clock. */
  call(id: string, args?: string): Promise<ToolOutcome>;
}

/** An executor on a manual clock with its own breaker set, recorder and capture logger; closed by the test's cleanups. */
export function rig(ctx: FaultContext, registry: ToolRegistry, options: Partial<ToolExecutorOptions> = {}): Rig {
  const clock = createManualClock(T0);
  const breakers = createCircuitBreakers({ clock });
  const recorder = new MemoryRecorder();
  const logger = createCaptureLogger();
  const ex = createToolExecutor({ registry, clock, breakers, recorder, logger, random: () => 0.5, ...options });
  ctx.deferClient(() => ex.close());
  return {
    ex,
    clock,
    breakers,
    recorder,
    logs: logger.lines,
    call: (id, args = "{}") => settle(ex.execute({ id, name: "t", arguments: args }), clock),
  };
}

/** The outcome is an error with exactly this message and code. */
export function expectError(outcome: ToolOutcome, message: string, code: string): void {
  assert.equal(outcome.status, "error", JSON.stringify(outcome));
  if (outcome.status !== "error") return;
  assert.equal(outcome.message, message);
  assert.equal(outcome.error.code, code);
}

/** The full snapshot of a closed breaker holding `calls` calls of which `failures` failed, the last `consecutive` in a row. */
export function closedSnapshot(name: string, calls: number, failures: number, consecutive = failures): BreakerSnapshot {
  return { name, state: "closed", calls, failures, consecutiveFailures: consecutive, openedAt: undefined, trialsAdmitted: 0, trialSuccesses: 0 };
}

/** The full snapshot of a breaker that opened at `openedAt` and is still open. */
export function openSnapshot(name: string, openedAt: number): BreakerSnapshot {
  return { name, state: "open", calls: 0, failures: 0, consecutiveFailures: 0, openedAt, trialsAdmitted: 0, trialSuccesses: 0 };
}

export const CIRCUIT_OPEN = "circuit breaker [t]: circuit breaker is open";

/**
 * The breaker of tool `t` is open, with every counter reset, and it opened
 * during the last recorded call. (settle() may move the manual clock by one
 * 50 ms step after the breaker opened and before the outcome is seen, so the
 * exact opening time is read back, and bounded.)
 */
export function expectOpen(r: Rig): void {
  const snapshot = r.breakers.get("t").snapshot();
  const last = r.recorder.records.at(-1);
  assert.ok(last !== undefined && snapshot.openedAt !== undefined, JSON.stringify(snapshot));
  assert.ok(snapshot.openedAt >= last.startedAt && snapshot.openedAt <= r.clock.now(), `openedAt ${snapshot.openedAt} outside the last call`);
  assert.deepEqual(snapshot, openSnapshot("t", snapshot.openedAt));
}

/**
 * The accounting every failing fault must show: calls 1–9 fail with `message`
 * and leave the breaker closed with 9 consecutive failures; call 10 opens it;
 * call 11 is refused without reaching the backend (`reached()` unchanged).
 * Every call is recorded once, with its message; the ten that reached the
 * backend with 1 attempt. (The refused call's `attempts` is left out: the
 * record documents 0 for "breaker open" and the executor records 1; see
 * test/faults/defects/.)
 */
export async function expectTenFailuresOpen(r: Rig, message: string, code: string, reached: () => number): Promise<void> {
  for (let i = 0; i < 10; i++) {
    expectError(await r.call(`f${i}`), message, code);
    if (i === 8) assert.deepEqual(r.breakers.get("t").snapshot(), closedSnapshot("t", 9, 9));
  }
  expectOpen(r);
  const before = reached();
  expectError(await r.call("f10"), CIRCUIT_OPEN, "ERR_OMNIA_CIRCUIT_OPEN");
  assert.equal(reached(), before, "the refused call never reached the backend");
  assert.deepEqual(
    r.recorder.records.map((x) => [x.callId, x.status, x.errorMessage, x.callId === "f10" ? "-" : x.attempts]),
    [...Array.from({ length: 10 }, (_, i) => [`f${i}`, "error", message, 1]), ["f10", "error", CIRCUIT_OPEN, "-"]],
  );
}
