// MCP overhead: executor.execute() (the whole pipeline: resolve, breaker,
// headers, record, outcome) and createMcpToolClient().callTool() (the client
// alone), each against the SDK's own Client.callTool(), all three over
// streamable-http to the same loopback MCP server (test/helpers/mcp-server.ts),
// 16 calls in flight, 2,000 calls per round after a warm-up, rounds
// A-B-C-C-B-A twice so drift on this shared machine hits each alike. Prints
// throughput, the ratios (ours / raw) and p50/p99 latency, then mitata
// micro-benchmarks of the pure result mapping. `--json` prints only a JSON
// object of the figures. Target: execute() / raw >= 0.95 (issue #38).
// Run alone: node --expose-gc --import tsx bench/mcp.bench.ts [--json]
import { bench, do_not_optimize, run, summary } from "mitata";
import { countListenerWarnings, opsPerSecond } from "./support.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createMcpToolClient, interpretMcpResult } from "../src/mcp/index.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { startMcpHttpServer } from "../test/helpers/mcp-server.js";

const JSON_ONLY = process.argv.includes("--json");

// The baseline's abort listeners make Node warn on every request past 1,500; createMcpToolClient gives each
// request a signal of its own and makes none: counted, printed once.
const listenerWarnings = countListenerWarnings();
const CALLS = 2_000;
const WARMUP = 1_000;
const IN_FLIGHT = 16;

const server = await startMcpHttpServer({ transport: "streamable-http" });
const ours = createMcpToolClient(
  { name: "bench", mcpConfig: { transport: "streamable-http", endpoint: server.url } },
  { headers: () => ({ Authorization: "Bearer bench-token" }) },
);
const raw = new Client({ name: "raw", version: "1.0.0" });
const rawTransport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: "Bearer bench-token" } } });
await raw.connect(rawTransport);
await ours.listTools();
const executor = createToolExecutor({
  registry: loadToolRegistry(`handlers:\n  - name: bench\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }\n`),
});
await executor.listTools();

const args = { text: "Paris, metric, 3 days" };
const callOurs = async () => {
  const r = await ours.callTool("echo", args, { headers: { "X-Injected": "1" } });
  if (r.status !== "success") throw new Error("bench: unexpected error outcome");
};
let callIds = 0;
const argsText = JSON.stringify(args);
const callExec = async () => {
  const r = await executor.execute({ id: `c${++callIds}`, name: "echo", arguments: argsText });
  if (r.status !== "success") throw new Error(`bench: unexpected ${r.status} outcome`);
};
const callRaw = async () => {
  const r = await raw.callTool({ name: "echo", arguments: args });
  if (r.isError === true) throw new Error("bench: unexpected error result");
};

interface Round {
  readonly ms: number;
  readonly latenciesNs: bigint[];
}

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

function summarise(rounds: readonly Round[]) {
  const ms = rounds.reduce((a, r) => a + r.ms, 0);
  const all = rounds.flatMap((r) => r.latenciesNs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const pct = (p: number) => Number(all[Math.min(all.length - 1, Math.max(0, Math.ceil((p / 100) * all.length) - 1))] ?? 0n) / 1e6;
  return { calls: all.length, callsPerSec: Math.round((all.length / ms) * 1000), p50Ms: Number(pct(50).toFixed(2)), p99Ms: Number(pct(99).toFixed(2)) };
}

await drive(callOurs, WARMUP);
await drive(callRaw, WARMUP);
await drive(callExec, WARMUP);
const oursRounds: Round[] = [];
const rawRounds: Round[] = [];
const execRounds: Round[] = [];
for (let i = 0; i < 2; i++) {
  execRounds.push(await drive(callExec, CALLS));
  oursRounds.push(await drive(callOurs, CALLS));
  rawRounds.push(await drive(callRaw, CALLS));
  rawRounds.push(await drive(callRaw, CALLS));
  oursRounds.push(await drive(callOurs, CALLS));
  execRounds.push(await drive(callExec, CALLS));
}
const oursStats = summarise(oursRounds);
const rawStats = summarise(rawRounds);
const execStats = summarise(execRounds);
const ratio = Number((oursStats.callsPerSec / rawStats.callsPerSec).toFixed(3));
const execRatio = Number((execStats.callsPerSec / rawStats.callsPerSec).toFixed(3));

await executor.close();
await ours.close();
await raw.close();
await server.close();

const image = { type: "image", data: "aGk=", mimeType: "image/png" };
const structured = { content: [{ type: "text", text: "a" }, image], structuredContent: { temperature: 21.5, unit: "C", days: [1, 2, 3], city: "Paris <FR>" } };
summary(() => {
  bench("interpretMcpResult: one text item", () => do_not_optimize(interpretMcpResult("t", { content: [{ type: "text", text: "Sunny, 21 °C" }] })));
  bench("interpretMcpResult: structuredContent (4 keys)", () => do_not_optimize(interpretMcpResult("t", structured)));
  bench("interpretMcpResult: isError", () => do_not_optimize(interpretMcpResult("t", { isError: true, content: [{ type: "text", text: "boom" }] })));
});
const micro = await run(JSON_ONLY ? { format: "quiet" } : { colors: false });
const microFigures = opsPerSecond(micro);

listenerWarnings.report("mcp.bench");
const figures = { area: "mcp", transport: "streamable-http", inFlight: IN_FLIGHT, execute: execStats, ours: oursStats, raw: rawStats, executeRatio: execRatio, ratio, microOpsPerSec: microFigures };
if (JSON_ONLY) {
  const summary = [
    { name: "MCP execute() / SDK Client.callTool (16 in flight)", value: execRatio, unit: "ratio", min: 0.95 },
    { name: "MCP callTool / SDK Client.callTool (16 in flight)", value: ratio, unit: "ratio" },
  ];
  console.log(JSON.stringify({ ...figures, summary }));
} else {
  console.log(`\ncallTool over loopback streamable-http, ${IN_FLIGHT} in flight, ${oursStats.calls} calls each:`);
  console.log(`  execute(): ${execStats.callsPerSec.toLocaleString("en-US")} calls/s, p50 ${execStats.p50Ms} ms, p99 ${execStats.p99Ms} ms`);
  console.log(`  ours: ${oursStats.callsPerSec.toLocaleString("en-US")} calls/s, p50 ${oursStats.p50Ms} ms, p99 ${oursStats.p99Ms} ms`);
  console.log(`  raw SDK client: ${rawStats.callsPerSec.toLocaleString("en-US")} calls/s, p50 ${rawStats.p50Ms} ms, p99 ${rawStats.p99Ms} ms`);
  console.log(`  ratio execute()/raw: ${execRatio} (target >= 0.95); callTool/raw: ${ratio}`);
}
