// Heap per MCP call in flight: N calls started through executor.execute() and
// held open by the loopback MCP server in this process (test/helpers/mcp-server.ts
// over streamable-http; its `hold` tool waits until every call of the round
// has arrived and the heap was read), against the same N through the SDK's own
// Client.callTool() over its StreamableHTTPClientTransport. Each client has its
// own session on the server; each call is its own POST (the SDK's global fetch
// and the executor's undici Agent, given here without a connection limit, both
// open a socket per request in flight).
// The heap is read after a full GC with every call pending, minus the heap
// before the calls started, over N; the server's own per-request objects
// count in both variants. Target: execute / SDK Client <= 1.15 at 500 and at
// 2,000 calls. Each size runs 3 times per variant, alternating; the figure is
// the median (the pattern of bench/inflight.bench.ts).
// Run alone: node --expose-gc --import tsx bench/mcp-inflight.bench.ts [--json]
import { Agent } from "undici";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { startMcpHttpServer } from "../test/helpers/mcp-server.js";
import { STANDARD_TOOLS, type TestTool } from "../test/helpers/mcp-tools.js";
import { countListenerWarnings, heapAfterFullGc, heapPerCallMedians, type SummaryRow } from "./support.js";

const JSON_ONLY = process.argv.includes("--json");
const SIZES = [500, 2_000];
const REPEATS = 3;
const TARGET = 1.15;
if ((globalThis as { gc?: () => void }).gc === undefined) throw new Error("mcp-inflight: run with --expose-gc");

const listenerWarnings = countListenerWarnings();

// The `hold` tool: counts its arrival, then waits for the round's gate.
let arrived = 0;
let gate: Promise<void> = Promise.resolve();
let openGate: () => void = () => undefined;
const hold: TestTool = {
  name: "hold",
  description: "Answers once the bench releases the round",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  call: async (args) => {
    arrived++;
    await gate;
    return { content: [{ type: "text", text: String(args["text"]) }] };
  },
};
// Connections sit idle for seconds between rounds (full GCs, the other variant's round): past Node's 5 s the
// server would close them while a client reuses one (an ECONNRESET now and then); the clients close them first.
const server = await startMcpHttpServer({ transport: "streamable-http", tools: [...STANDARD_TOOLS, hold], keepAliveTimeoutMs: 120_000 });

// The executor's default dispatcher allows 256 connections per origin (the rest wait in undici and never reach
// the server); this one has no limit, as the SDK's global fetch has none (the pattern of bench/inflight.bench.ts).
const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
const executor = createToolExecutor({
  dispatcher,
  registry: loadToolRegistry(`handlers:\n  - name: bench\n    type: mcp\n    timeout: 300s\n    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }\n`),
});
await executor.listTools();
const raw = new Client({ name: "raw", version: "1.0.0" });
await raw.connect(new StreamableHTTPClientTransport(new URL(server.url)));

const variants: Record<"executor" | "sdk", (i: number) => Promise<void>> = {
  executor: async (i) => {
    // Each call its own id and argument text, as real calls have.
    const out = await executor.execute({ id: `call-${i}`, name: "hold", arguments: `{"text":"Paris, metric, 3 days #${i}"}` });
    if (out.status !== "success") throw new Error(`mcp-inflight: executor call failed: ${JSON.stringify(out)}`);
  },
  sdk: async (i) => {
    const out = await raw.callTool({ name: "hold", arguments: { text: `Paris, metric, 3 days #${i}` } }, undefined, { timeout: 300_000 });
    if (out.isError === true) throw new Error("mcp-inflight: SDK call failed");
  },
};

/** Heap bytes per pending call of one variant at n calls in flight. */
async function measure(name: keyof typeof variants, n: number): Promise<number> {
  // The server's request log grows with every request: emptied so that it is no part of either figure.
  server.requests.length = 0;
  server.calls.length = 0;
  gate = new Promise<void>((resolve) => (openGate = resolve));
  arrived = 0;
  const before = await heapAfterFullGc();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < n; i++) calls.push(variants[name](i));
  let seen = -1;
  let stalledSince = performance.now();
  while (arrived < n) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (arrived !== seen) [seen, stalledSince] = [arrived, performance.now()];
    else if (performance.now() - stalledSince > 10_000) throw new Error(`mcp-inflight: ${name}: only ${arrived} of ${n} calls reached the server`);
  }
  const during = await heapAfterFullGc();
  openGate();
  await Promise.all(calls);
  return (during - before) / n;
}

// Warm-up: both paths compiled and the sockets of a round opened once before any figure.
for (const name of ["executor", "sdk"] as const) await measure(name, SIZES[SIZES.length - 1] as number);

const { perCall, median } = await heapPerCallMedians(["executor", "sdk"], SIZES, REPEATS, measure);
await executor.close();
await dispatcher.close();
await raw.close();
await server.close();

const kb = (bytes: number): number => Math.round(bytes / 102.4) / 10;
const figures = SIZES.map((n) => {
  const e = median("executor", n);
  const s = median("sdk", n);
  return { inFlight: n, executorKB: kb(e), sdkKB: kb(s), ratio: Math.round((e / s) * 1000) / 1000 };
});
listenerWarnings.report("mcp-inflight.bench");
const summary: SummaryRow[] = figures.map((f) => ({
  name: `mcp inflight: heap per call, execute / SDK Client (${f.inFlight.toLocaleString("en-US")} in flight, streamable-http)`,
  value: f.ratio,
  unit: `ratio (${f.executorKB} KB / ${f.sdkKB} KB per call)`,
  max: TARGET,
}));
if (JSON_ONLY) {
  console.log(JSON.stringify({ area: "mcp-inflight", transport: "streamable-http", repeats: REPEATS, figures, perCallBytes: perCall, summary }));
} else {
  console.log(`heap per MCP call in flight over streamable-http (median of ${REPEATS}; server in this process; one socket per call)`);
  for (const f of figures) {
    console.log(`  ${String(f.inFlight).padStart(5)} in flight: execute ${f.executorKB} KB, SDK Client ${f.sdkKB} KB, ratio ${f.ratio} (target <= ${TARGET})`);
  }
}
