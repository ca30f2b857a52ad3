// HTTP tool calls end to end: executor.execute() on an http handler (no policy,
// no recorder) against the same request sent by hand with undici.request (an
// Agent with the executor's own pool settings), the same with the per-attempt
// semantics the executor must keep (signal, timeout timer, capped streaming
// read: "undiciAttempt", for reference), and with the global fetch(),
// all to one loopback node:http JSON backend in this process. 64 calls in
// flight, 20,000 calls per variant after a warm-up, rounds in palindromes
// (E U F F U E …) so that drift on this shared 2-core machine hits all three.
// Prints calls/s, p50/p99 and the ratios executor/undici (target >= 1.05),
// executor/bare dispatch (>= 0.92), executor/fetch (>= 1.2), and the executor with
// the OpenTelemetry API (no SDK) over the executor with telemetry off (>= 0.98). `--json` prints only a JSON object.
// Run alone: node --expose-gc --import tsx bench/http.bench.ts [--json]
import { bench, do_not_optimize, run, summary as mitataSummary } from "mitata";
import { Agent, request, type Dispatcher } from "undici";
import type { HttpHandlerConfig } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { buildHttpRequest } from "../src/http/index.js";
import { interleave, ratio, type SummaryRow } from "./support.js";
import { identity, agent, ARGS, weatherRegistry, WEATHER_RESPONSE, startWeatherBackend, bareDispatch } from "./call-fixtures.js";

const JSON_ONLY = process.argv.includes("--json");
const CALLS = 20_000;
const IN_FLIGHT = 64;
const WARMUP_CALLS = 5_000;

// ---- the backend: reads the request, answers a small JSON object ----
const RESPONSE = WEATHER_RESPONSE;
let served = 0;
const backend = await startWeatherBackend(() => void served++);
const url = backend.url;

// ---- the executor ----
const registry = weatherRegistry(url);
const executor = createToolExecutor({ registry, agent });
// The same executor with telemetry off: @opentelemetry/api is installed here (a dev dependency) with no SDK,
// so `executor` runs the no-op API; the ratio of the two is what the API costs per call (#25 item 7: <= 2 %).
const executorNoTelemetry = createToolExecutor({ registry, agent, telemetry: false });
const call = { id: "call-1", name: "get_weather", arguments: ARGS };
const ctx = { identity };

// ---- the baselines send exactly the request the executor sends ----
const handler = registry.getHandler("weather-api") as HttpHandlerConfig;
const wire = buildHttpRequest(handler, ARGS, { identity, agent, auth: {}, headersFromSecret: {} });
const dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 256 }); // createDefaultDispatcher's settings
const target = new URL(wire.url);
const utf8 = new TextDecoder();

const variants = {
  executor: async () => {
    const out = await executor.execute(call, ctx);
    if (out.status !== "success") throw new Error(`bench: executor call failed: ${JSON.stringify(out)}`);
  },
  executorNoTelemetry: async () => {
    const out = await executorNoTelemetry.execute(call, ctx);
    if (out.status !== "success") throw new Error(`bench: executor call failed: ${JSON.stringify(out)}`);
  },
  undici: async () => {
    const res = await request(wire.url, { dispatcher, method: "POST", headers: wire.headers, body: wire.body ?? null });
    const value = (await res.body.json()) as { city?: string };
    if (res.statusCode !== 200 || value.city !== "Paris") throw new Error("bench: undici call failed");
  },
  // undici's lowest-level API, which the executor's transport drives: the same request, the
  // body's chunks collected by a bare handler (no cap, no abort, no redirects). The floor.
  dispatch: bareDispatch(dispatcher, wire),
  // What the executor must do per attempt besides the request: an AbortController
  // for the attempt's signal, a timeout timer, and a capped streaming read of the body.
  // The gap between this and `undici` is the cost of those semantics, not of the pipeline.
  undiciAttempt: async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    timer.unref();
    const res = await dispatcher.request({ origin: target.origin, path: target.pathname, method: "POST", headers: wire.headers, body: wire.body ?? null, signal: controller.signal });
    const chunks: Buffer[] = [];
    for await (const chunk of res.body as AsyncIterable<Buffer>) chunks.push(chunk);
    if (!res.body.destroyed) res.body.destroy();
    clearTimeout(timer);
    const value = JSON.parse(utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))) as { city?: string };
    if (res.statusCode !== 200 || value.city !== "Paris") throw new Error("bench: undici attempt failed");
  },
  fetch: async () => {
    const res = await fetch(wire.url, { method: "POST", headers: wire.headers, body: wire.body ?? null });
    const value = (await res.json()) as { city?: string };
    if (res.status !== 200 || value.city !== "Paris") throw new Error("bench: fetch call failed");
  },
};

const stats = await interleave(variants, { calls: CALLS, inFlight: IN_FLIGHT, warmupCalls: WARMUP_CALLS });
const executorOverUndici = ratio(stats.executor, stats.undici);
const executorOverFetch = ratio(stats.executor, stats.fetch);
const executorOverAttempt = ratio(stats.executor, stats.undiciAttempt);
const executorOverDispatch = ratio(stats.executor, stats.dispatch);
const telemetryOverNone = ratio(stats.executor, stats.executorNoTelemetry);

await executor.close();
await executorNoTelemetry.close();
await dispatcher.close();
await backend.close();

// ---- per-call CPU cost of the pipeline alone: execute() through a dispatcher that answers at once (no I/O) ----
const body = Buffer.from(RESPONSE);
// Answers every dispatch at once, through the handler interface undici calls (no socket, no parser).
const stubController = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, reason: null };
const stubDispatcher = {
  dispatch(_options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
    const c = stubController as unknown as Dispatcher.DispatchController;
    handler.onRequestStart?.(c, {});
    handler.onResponseStart?.(c, 200, { "content-type": "application/json" }, "OK");
    handler.onResponseData?.(c, body);
    handler.onResponseEnd?.(c, {});
    return true;
  },
  close: async () => {},
  destroy: async () => {},
} as unknown as Dispatcher;
const stubExecutor = createToolExecutor({ registry, agent, dispatcher: stubDispatcher });
// The same with telemetry off: the difference is what @opentelemetry/api installed with no SDK costs per call.
const stubExecutorNoTelemetry = createToolExecutor({ registry, agent, dispatcher: stubDispatcher, telemetry: false });
const NO_IO = "execute() with a stub dispatcher (no I/O)";
const NO_IO_NO_OTEL = "execute() with a stub dispatcher, telemetry: false";
mitataSummary(() => {
  bench(NO_IO, async () => do_not_optimize(await stubExecutor.execute(call, ctx)));
  bench(NO_IO_NO_OTEL, async () => do_not_optimize(await stubExecutorNoTelemetry.execute(call, ctx)));
  bench("buildHttpRequest (the same call)", () => do_not_optimize(buildHttpRequest(handler, ARGS, { identity, agent, auth: {}, headersFromSecret: {} })));
});
const micro = await run(JSON_ONLY ? { format: "quiet" } : { colors: false });
const microNs: Record<string, number> = {};
for (const trial of micro.benchmarks) {
  const avg = trial.runs[0]?.stats?.avg;
  if (avg !== undefined) microNs[trial.alias] = Math.round(avg);
}
await stubExecutor.close();
await stubExecutorNoTelemetry.close();

const summary: SummaryRow[] = [
  { name: "HTTP execute / undici.request", value: executorOverUndici.median, unit: `ratio (cycles ${executorOverUndici.min}-${executorOverUndici.max}; CPU/call ${executorOverUndici.cpu})`, min: 1.05 },
  { name: "HTTP execute / fetch", value: executorOverFetch.median, unit: `ratio (cycles ${executorOverFetch.min}-${executorOverFetch.max}; CPU/call ${executorOverFetch.cpu})`, min: 1.2 },
  { name: "HTTP execute / undici + attempt semantics", value: executorOverAttempt.median, unit: `ratio (cycles ${executorOverAttempt.min}-${executorOverAttempt.max}; CPU/call ${executorOverAttempt.cpu})` },
  { name: "HTTP execute / undici dispatch (bare handler)", value: executorOverDispatch.median, unit: `ratio (cycles ${executorOverDispatch.min}-${executorOverDispatch.max}; CPU/call ${executorOverDispatch.cpu})`, min: 0.92 },
  { name: "HTTP execute, OpenTelemetry API with no SDK / telemetry: false", value: telemetryOverNone.median, unit: `ratio (cycles ${telemetryOverNone.min}-${telemetryOverNone.max}; CPU/call ${telemetryOverNone.cpu})`, min: 0.98 },
  { name: "HTTP execute calls/s (64 in flight)", value: stats.executor.callsPerSec, unit: "calls/s" },
  { name: "HTTP execute p50 / p99", value: stats.executor.p50Ms, unit: `ms p50 (p99 ${stats.executor.p99Ms})` },
  { name: "HTTP undici p50 / p99", value: stats.undici.p50Ms, unit: `ms p50 (p99 ${stats.undici.p99Ms})` },
  { name: "HTTP execute, stub dispatcher (no I/O)", value: microNs[NO_IO] ?? null, unit: "ns/call" },
  { name: "HTTP execute, stub dispatcher, telemetry: false", value: microNs[NO_IO_NO_OTEL] ?? null, unit: "ns/call" },
];

if (JSON_ONLY) {
  console.log(JSON.stringify({ area: "http", inFlight: IN_FLIGHT, calls: CALLS, served, ...stats, ratios: { executorOverUndici, executorOverFetch, executorOverAttempt, executorOverDispatch, telemetryOverNone }, microNsPerCall: microNs, summary }));
} else {
  console.log(`HTTP POST on loopback, ${IN_FLIGHT} in flight, ${CALLS.toLocaleString("en-US")} calls per variant (palindrome rounds)`);
  for (const [name, s] of Object.entries(stats)) {
    console.log(`  ${name.padEnd(14)} ${s.callsPerSec.toLocaleString("en-US").padStart(8)} calls/s   p50 ${s.p50Ms} ms   p99 ${s.p99Ms} ms   CPU ${s.cpuUsPerCall} µs/call`);
  }
  const show = (r: typeof executorOverUndici) => `${r.median} (median of cycles; range ${r.min}-${r.max}; all calls ${r.total}; by CPU per call ${r.cpu})`;
  console.log(`  execute / undici.request  ${show(executorOverUndici)}   (target >= 1.05)`);
  console.log(`  execute / fetch           ${show(executorOverFetch)}   (target >= 1.2)`);
  console.log(`  execute / undici+attempt  ${show(executorOverAttempt)}`);
  console.log(`  execute / undici dispatch ${show(executorOverDispatch)}   (target >= 0.92)`);
  console.log(`  OTel API, no SDK / off    ${show(telemetryOverNone)}   (target >= 0.98)`);
  console.log(`  ${NO_IO}: ${microNs[NO_IO]} ns/call`);
}
