// Soak (issue #14): SOAK_CALLS tool calls (default 10,000; set SOAK_CALLS=100000
// for the long run) through createToolExecutor at 256 in flight, against a
// loopback node:http backend where 10 % of calls get a 503, 1 % hang and 1 %
// have their connection reset. Asserts:
//   - one record per call: none lost, none doubled (by callId), and every
//     call's outcome is the one its fault dictates (or the handler timeout,
//     see below), recorded exactly as returned;
//   - the heap after a forced GC at the end is within 20 % of the heap after
//     a forced GC at the end of the warm-up (the first 10 % of the calls);
//   - every socket is closed again: after executor.close() the backend holds
//     no connection, and after the backend closes, the process holds exactly
//     the sockets and servers it held before the soak.
//
// Clock: this test runs on the system clock, on purpose. Real concurrency is
// the point (256 sockets, undici's pool, the kernel), so a hang really waits
// for the handler timeout, 1 s (100 hangs × 1 s over 256 slots: under half a
// second of wall time). Why not 200 ms: with 256 calls always in flight, a
// healthy call's latency is 256 / throughput (Little's law), about 120 ms at
// this machine's ~2,200 calls/s and over 200 ms when the box is loaded, so a
// 200 ms timeout failed most healthy calls too. Even at 1 s, a healthy call
// can occasionally time out: client and backend share one event loop, and
// while it is saturated (at start-up, undici compiling llhttp while 256
// connections open; or when the box is loaded) new connections wait in the
// kernel's accept queue, so a burst of requests is not even read for a
// second (undici's pool stats showed 256 "connected" while the backend had
// accepted 5 to 66). Such a healthy call ends as `timed out after 1000ms`. So each call's outcome must be
// the one its fault dictates *or* that timeout, never anything else; a hang
// must always time out; how many timed out is not asserted (no timing
// assertions). For the same reason the breaker set here cannot trip (a stall
// would open a default breaker and turn the rest of the soak into instant
// refusals): every call still goes through admit() and a ticket, and the trip
// rules are covered by test/faults/.
// Which call gets which fault is fixed by its index (stride 37 over 100).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import type { Recorder, ToolCallRecord } from "../../src/records/index.js";
import { withoutUnhandledRejections } from "../helpers/http-server.js";

const CALLS = Number(process.env["SOAK_CALLS"] ?? 10_000);
const IN_FLIGHT = 256;
const WARMUP = Math.floor(CALLS / 10);
const TIMEOUT_MS = 1000;

type Fault = "503" | "hang" | "reset" | "ok";
/** The fault of call `i`: k = 37·i mod 100; k < 10 → 503 (10 %), k = 10 → hang (1 %), k = 11 → reset (1 %). */
function faultOf(i: number): Fault {
  const k = (i * 37) % 100;
  return k < 10 ? "503" : k === 10 ? "hang" : k === 11 ? "reset" : "ok";
}

/** `gc()`: the runner passes --expose-gc; run alone without it, the flag is set now and gc taken from a fresh context. */
function forcedGc(): () => void {
  if (typeof global.gc === "function") return global.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

async function heapAfterGc(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

function sockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap" || r === "TCPServerWrap" || r === "TCPWrap").length;
}

/** A backend that keeps nothing per request (a recording server would grow the heap we measure). */
async function startBackend() {
  const open = new Set<Socket>();
  const hung = new Set<ServerResponse>();
  let served = 0;
  const server = createServer((req, res) => {
    served++;
    const fault = faultOf(Number(req.headers["x-omnia-param-i"]));
    req.resume();
    if (fault === "reset") return void req.socket.resetAndDestroy();
    if (fault === "hang") {
      hung.add(res);
      res.once("close", () => hung.delete(res));
      return;
    }
    res.statusCode = fault === "503" ? 503 : 200;
    res.end(fault === "503" ? "busy" : `{"i":${req.headers["x-omnia-param-i"]}}`);
  });
  server.on("connection", (s: Socket) => {
    open.add(s);
    s.once("close", () => open.delete(s));
    s.on("error", () => {});
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    served: () => served,
    connections: () => open.size,
    async waitForNoConnections() {
      for (let i = 0; i < 5000 && open.size > 0; i++) await new Promise((resolve) => setImmediate(resolve));
      return open.size;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const ending = [...open].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
      for (const s of open) s.destroy();
      await Promise.all(ending);
      await closed;
    },
  };
}

/** Counts records per call index; keeps nothing else. */
class CountingRecorder implements Recorder {
  readonly counts = new Uint8Array(CALLS);
  /** 1 = success, 2 = error, 3 = denied, per call index (of its last record). */
  readonly statuses = new Uint8Array(CALLS);
  readonly messages = new Map<string, number>();
  foreign = 0;
  record(r: ToolCallRecord): void {
    const i = Number(r.callId.slice(1));
    if (!r.callId.startsWith("s") || !Number.isInteger(i) || i < 0 || i >= CALLS) {
      this.foreign++;
      return;
    }
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.statuses[i] = r.status === "success" ? 1 : r.status === "error" ? 2 : 3;
    if (r.errorMessage !== undefined) this.messages.set(r.errorMessage, (this.messages.get(r.errorMessage) ?? 0) + 1);
  }
}

test(`soak: ${CALLS} calls at ${IN_FLIGHT} in flight, 10 % 503, 1 % hangs (${TIMEOUT_MS} ms timeout), 1 % resets: nothing lost, doubled, retained or left open`, async () => {
  await withoutUnhandledRejections(async () => {
    const gc = forcedGc();
    const socketBaseline = sockets();
    const backend = await startBackend();
    const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    timeout: ${TIMEOUT_MS}ms
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${backend.url}/soak
`);
    const breakers = createCircuitBreakers({ consecutiveFailures: 1_000_000_000, minimumCalls: 1_000_000_000 });
    let breaks = 0;
    breakers.on("break", () => breaks++);
    const recorder = new CountingRecorder();
    const ex = createToolExecutor({ registry, breakers, recorder });

    const resetMessage = `Post "${backend.url}/soak": read tcp 127.0.0.1:${backend.port}: connection reset by peer`;
    const expected: Record<Fault, { status: "success" | "error"; message?: string }> = {
      ok: { status: "success" },
      "503": { status: "error", message: "HTTP 503: busy" },
      hang: { status: "error", message: `timed out after ${TIMEOUT_MS}ms` },
      reset: { status: "error", message: resetMessage },
    };
    const timedOut = `timed out after ${TIMEOUT_MS}ms`;
    const mismatches: string[] = [];
    let late = 0;
    const check = (i: number, out: ToolOutcome) => {
      const want = expected[faultOf(i)];
      const message = out.status === "error" ? out.message : undefined;
      const asDictated = out.status === want.status && message === want.message && (out.status !== "success" || out.resultJson === `{"i":${i}}`);
      if (!asDictated && message === timedOut && faultOf(i) === "ok") late++;
      const ok =
        (asDictated || message === timedOut) &&
        out.callId === `s${i}` &&
        recorder.counts[i] === 1 &&
        recorder.statuses[i] === (out.status === "success" ? 1 : 2);
      if (!ok && mismatches.length < 5) mismatches.push(`s${i} (${faultOf(i)}): ${JSON.stringify(out).slice(0, 200)}`);
    };

    // Diagnostics for SOAK_REPORT only: a stall this long explains healthy calls that timed out.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const startedAt = Date.now();
    let next = 0;
    const run = async (end: number) => {
      const worker = async () => {
        for (let i = next++; i < end; i = next++) check(i, await ex.execute({ id: `s${i}`, name: "t", arguments: `{"i":${i}}` }));
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      next = end;
    };

    await run(WARMUP);
    const warmHeap = await heapAfterGc(gc);
    await run(CALLS);
    const endHeap = await heapAfterGc(gc);
    const wallMs = Date.now() - startedAt;
    loopDelay.disable();

    await ex.close();
    const leftOnBackend = await backend.waitForNoConnections();
    const served = backend.served();
    await backend.close();
    let socketsAfter = sockets();
    for (let i = 0; i < 2000 && socketsAfter !== socketBaseline; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      socketsAfter = sockets();
    }

    // Nothing lost, nothing doubled.
    let lost = 0;
    let doubled = 0;
    for (const n of recorder.counts) {
      if (n === 0) lost++;
      else if (n > 1) doubled++;
    }
    assert.deepEqual({ lost, doubled, foreign: recorder.foreign }, { lost: 0, doubled: 0, foreign: 0 });
    assert.deepEqual(mismatches, [], "every call's outcome is the one its fault dictates (or the timeout), recorded as returned");
    const count = (f: Fault) => Array.from({ length: CALLS }, (_, i) => faultOf(i)).filter((x) => x === f).length;
    const messages = Object.fromEntries(recorder.messages);
    assert.deepEqual(Object.keys(messages).sort(), ["HTTP 503: busy", resetMessage, timedOut].filter((m) => m !== resetMessage || (messages[resetMessage] ?? 0) > 0).sort());
    assert.ok((messages[timedOut] ?? 0) >= count("hang"), "every hang timed out");
    assert.equal((messages[timedOut] ?? 0) + (messages["HTTP 503: busy"] ?? 0) + (messages[resetMessage] ?? 0), count("hang") + count("503") + count("reset") + late);
    assert.ok(served <= CALLS, `the backend saw ${served} requests for ${CALLS} calls: one was sent twice`);
    assert.equal(breaks, 0);
    assert.equal(breakers.get("t").state, "closed");

    // Memory: the heap after the soak is within 20 % of the heap after warm-up.
    const drift = (endHeap - warmHeap) / warmHeap;
    assert.ok(Math.abs(drift) <= 0.2, `heap after warm-up ${(warmHeap / 1048576).toFixed(1)} MiB, after ${CALLS} calls ${(endHeap / 1048576).toFixed(1)} MiB (${(drift * 100).toFixed(1)} %)`);

    // Sockets: the client closed every connection, then the process is back to its baseline.
    assert.equal(leftOnBackend, 0, "connections still open on the backend after executor.close()");
    assert.equal(socketsAfter, socketBaseline, "sockets and servers alive after the soak");

    if (process.env["SOAK_REPORT"] !== undefined) {
      process.stderr.write(`soak: ${CALLS} calls in ${wallMs} ms, ${late} healthy calls timed out (longest event-loop stall ${(loopDelay.max / 1e6).toFixed(0)} ms); heap warm ${(warmHeap / 1048576).toFixed(2)} MiB, end ${(endHeap / 1048576).toFixed(2)} MiB (${(drift * 100).toFixed(2)} %)\n`);
    }
  });
});
