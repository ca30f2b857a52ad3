// gRPC client overhead: createToolServiceClient().execute() against a raw
// connect client calling ToolService/Execute, both on the same loopback
// serveToolService, 64 calls in flight, 20,000 calls each (after a warm-up).
// Rounds run A-B-B-A so that drift on this shared 2-core machine hits both.
// Prints throughput, the ratio (ours / raw; target >= 0.90) and p50/p99 latency;
// then mitata micro-benchmarks of the per-call pure work (metadata rules and
// the response mapping). `--json` prints only a JSON object of the figures.
//
// The executor-level ratio (executor.execute() through the whole pipeline)
// comes with the executor integration.
import { bench, run, summary } from "mitata";
import { createClient } from "@connectrpc/connect";
import { Http2SessionManager, createGrpcTransport } from "@connectrpc/connect-node";
import { ToolService, createToolServiceClient, interpretToolResponse, noopLogger, serveToolService } from "../src/index.js";
import { outboundMetadata } from "../src/grpc/index.js";

const JSON_ONLY = process.argv.includes("--json");
const CALLS = 20_000;
const IN_FLIGHT = 64;
const WARMUP_CALLS = 10_000;

const headers: Record<string, string> = {
  "x-omnia-tool-name": "echo",
  "x-omnia-tool-registry": "bench-handler",
  "x-omnia-agent-name": "bench-agent",
  "x-omnia-session-id": "sess-1",
  "x-omnia-request-id": "req-1",
  "x-omnia-user-id": "user-1",
  "x-omnia-namespace": "bench",
  authorization: "Bearer bench-token",
};
const args = '{"city":"Paris","units":"metric","days":3}';

const server = await serveToolService({ echo: { description: "Echoes its arguments", inputSchema: true, execute: (a) => a } });
const ours = createToolServiceClient({ endpoint: server.url });
const rawManager = new Http2SessionManager(server.url);
const raw = createClient(ToolService, createGrpcTransport({ baseUrl: server.url, sessionManager: rawManager }));

const callOurs = async () => {
  const r = await ours.execute("echo", args, { headers, timeoutMs: 30_000 });
  if (r.resultJson.length === 0) throw new Error("empty result");
};
const callRaw = async () => {
  const r = await raw.execute({ toolName: "echo", argumentsJson: args }, { headers, timeoutMs: 30_000 });
  if (r.resultJson.length === 0) throw new Error("empty result");
};

interface Round {
  readonly ms: number;
  readonly latenciesNs: bigint[];
}

/** `total` calls through `IN_FLIGHT` lanes; each lane starts its next call when its last one ends. */
async function drive(call: () => Promise<void>, total: number): Promise<Round> {
  const latenciesNs: bigint[] = [];
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      const t0 = process.hrtime.bigint();
      await call();
      latenciesNs.push(process.hrtime.bigint() - t0);
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, latenciesNs };
}

function percentileMs(sorted: readonly bigint[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Number(sorted[i] ?? 0n) / 1e6;
}

function summarise(rounds: readonly Round[]) {
  const ms = rounds.reduce((a, r) => a + r.ms, 0);
  const all = rounds.flatMap((r) => r.latenciesNs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    calls: all.length,
    callsPerSec: Math.round((all.length / ms) * 1000),
    p50Ms: Number(percentileMs(all, 50).toFixed(3)),
    p99Ms: Number(percentileMs(all, 99).toFixed(3)),
  };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

await drive(callRaw, WARMUP_CALLS);
await drive(callOurs, WARMUP_CALLS);
const rawRounds: Round[] = [];
const ourRounds: Round[] = [];
for (const [who, call] of [
  ["raw", callRaw],
  ["ours", callOurs],
  ["ours", callOurs],
  ["raw", callRaw],
] as const) {
  gc();
  (who === "raw" ? rawRounds : ourRounds).push(await drive(call, CALLS / 2));
}
const rawStats = summarise(rawRounds);
const ourStats = summarise(ourRounds);
const ratio = Number((ourStats.callsPerSec / rawStats.callsPerSec).toFixed(3));

await ours.close();
rawManager.abort();
await server.close();

if (!JSON_ONLY) {
  console.log(`gRPC Execute on loopback, ${IN_FLIGHT} in flight, ${CALLS} calls each (A-B-B-A rounds of ${CALLS / 2})`);
  console.log(`  raw connect client        ${rawStats.callsPerSec} calls/s   p50 ${rawStats.p50Ms} ms   p99 ${rawStats.p99Ms} ms`);
  console.log(`  createToolServiceClient   ${ourStats.callsPerSec} calls/s   p50 ${ourStats.p50Ms} ms   p99 ${ourStats.p99Ms} ms`);
  console.log(`  ratio (ours / raw)        ${ratio}   (target >= 0.90)`);
}

// Per-call pure work, for scale.
const response = { resultJson: '{"city":"Paris","units":"metric","days":3}', isError: false, errorMessage: "" };
summary(() => {
  bench("outboundMetadata (8 entries)", () => outboundMetadata(headers, noopLogger));
  bench("interpretToolResponse (success)", () => interpretToolResponse(response));
});
const micro = await run({ colors: false, format: JSON_ONLY ? "quiet" : "mitata" });

if (JSON_ONLY) {
  const perCall: Record<string, number> = {};
  for (const b of micro.benchmarks) {
    const avg = b.runs[0]?.stats?.avg;
    if (avg !== undefined) perCall[b.alias] = Number(avg.toFixed(1));
  }
  console.log(JSON.stringify({ grpc: { inFlight: IN_FLIGHT, calls: CALLS, raw: rawStats, client: ourStats, ratio, microNsPerCall: perCall } }));
}
