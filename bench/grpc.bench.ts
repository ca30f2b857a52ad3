// gRPC tool calls end to end, three ways to the same loopback serveToolService
// (64 calls in flight, 20,000 calls each after a warm-up, rounds in palindromes
// R C E E C R … so that drift on this shared 2-core machine hits all three):
//   - raw:      a connect client calling ToolService/Execute by hand;
//   - client:   createToolServiceClient().execute();
//   - executor: createToolExecutor().execute() on a grpc handler (no policy,
//               no recorder): the whole pipeline, metadata built per call.
// All three send the same metadata. Prints throughput, p50/p99 and the ratios
// (target executor/raw >= 0.97, issue #25); then mitata micro-benchmarks of the per-call
// pure work. `--json` prints only a JSON object of the figures.
// Run alone: node --expose-gc --import tsx bench/grpc.bench.ts [--json]
import { bench, run, summary } from "mitata";
import { createClient } from "@connectrpc/connect";
import { Http2SessionManager, createGrpcTransport } from "@connectrpc/connect-node";
import { noopLogger } from "../src/index.js";
import { ToolService, createToolServiceClient, interpretToolResponse, serveToolService } from "../src/grpc.js";
import { outboundMetadata } from "../src/grpc/index.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { buildOmniaGrpcMetadata, mergeGrpcToolMetadata } from "../src/headers/index.js";
import { interleave, ratio, type SummaryRow } from "./support.js";
import { identity, agent } from "./call-fixtures.js";

const JSON_ONLY = process.argv.includes("--json");
const CALLS = 20_000;
const IN_FLIGHT = 64;
const WARMUP_CALLS = 5_000;

const args = '{"city":"Paris","units":"metric","days":3}';
// The metadata the executor sends for this call; the raw and client variants send it ready-made.
const headers = mergeGrpcToolMetadata({ omnia: buildOmniaGrpcMetadata({ identity, agent, toolName: "echo", handlerName: "bench-handler" }) });

const server = await serveToolService({ echo: { description: "Echoes its arguments", inputSchema: true, execute: (a) => a } });
const ours = createToolServiceClient({ endpoint: server.url });
const rawManager = new Http2SessionManager(server.url);
const raw = createClient(ToolService, createGrpcTransport({ baseUrl: server.url, sessionManager: rawManager }));
const registry = loadToolRegistry(`
handlers:
  - name: bench-handler
    type: grpc
    tool: { name: echo, description: Echoes its arguments, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${server.url.slice("http://".length)}" }
`);
const executor = createToolExecutor({ registry, agent });
const call = { id: "call-1", name: "echo", arguments: args };
const ctx = { identity };

const variants = {
  raw: async () => {
    const r = await raw.execute({ toolName: "echo", argumentsJson: args }, { headers, timeoutMs: 30_000 });
    if (r.resultJson.length === 0) throw new Error("empty result");
  },
  client: async () => {
    const r = await ours.execute("echo", args, { headers, timeoutMs: 30_000 });
    if (r.resultJson.length === 0) throw new Error("empty result");
  },
  executor: async () => {
    const out = await executor.execute(call, ctx);
    if (out.status !== "success") throw new Error(`bench: executor call failed: ${JSON.stringify(out)}`);
  },
};

const stats = await interleave(variants, { calls: CALLS, inFlight: IN_FLIGHT, warmupCalls: WARMUP_CALLS });
const executorOverRaw = ratio(stats.executor, stats.raw);
const clientOverRaw = ratio(stats.client, stats.raw);

await executor.close();
await ours.close();
rawManager.abort();
await server.close();

if (!JSON_ONLY) {
  console.log(`gRPC Execute on loopback, ${IN_FLIGHT} in flight, ${CALLS.toLocaleString("en-US")} calls per variant (palindrome rounds)`);
  for (const [name, s] of Object.entries(stats)) {
    console.log(`  ${name.padEnd(10)} ${s.callsPerSec.toLocaleString("en-US").padStart(8)} calls/s   p50 ${s.p50Ms} ms   p99 ${s.p99Ms} ms   CPU ${s.cpuUsPerCall} µs/call`);
  }
  const show = (r: typeof executorOverRaw) => `${r.median} (median of cycles; range ${r.min}-${r.max}; all calls ${r.total}; by CPU per call ${r.cpu})`;
  console.log(`  executor / raw   ${show(executorOverRaw)}   (target >= 0.97)`);
  console.log(`  client / raw     ${show(clientOverRaw)}`);
}

// Per-call pure work, for scale.
const response = { resultJson: '{"city":"Paris","units":"metric","days":3}', isError: false, errorMessage: "" };
summary(() => {
  bench(`outboundMetadata (${Object.keys(headers).length} entries)`, () => outboundMetadata(headers, noopLogger));
  bench("interpretToolResponse (success)", () => interpretToolResponse(response));
});
const micro = await run({ colors: false, format: JSON_ONLY ? "quiet" : "mitata" });

if (JSON_ONLY) {
  const perCall: Record<string, number> = {};
  for (const b of micro.benchmarks) {
    const avg = b.runs[0]?.stats?.avg;
    if (avg !== undefined) perCall[b.alias] = Number(avg.toFixed(1));
  }
  const rows: SummaryRow[] = [
    { name: "gRPC execute / raw connect client", value: executorOverRaw.median, unit: `ratio (cycles ${executorOverRaw.min}-${executorOverRaw.max}; CPU/call ${executorOverRaw.cpu})`, min: 0.97 },
    { name: "gRPC client / raw connect client", value: clientOverRaw.median, unit: `ratio (cycles ${clientOverRaw.min}-${clientOverRaw.max}; CPU/call ${clientOverRaw.cpu})` },
    { name: "gRPC execute calls/s (64 in flight)", value: stats.executor.callsPerSec, unit: "calls/s" },
    { name: "gRPC execute p50 / p99", value: stats.executor.p50Ms, unit: `ms p50 (p99 ${stats.executor.p99Ms})` },
    { name: "gRPC raw p50 / p99", value: stats.raw.p50Ms, unit: `ms p50 (p99 ${stats.raw.p99Ms})` },
  ];
  console.log(JSON.stringify({ area: "grpc", inFlight: IN_FLIGHT, calls: CALLS, ...stats, ratios: { executorOverRaw, clientOverRaw }, microNsPerCall: perCall, summary: rows }));
}
