// MCP overhead over stdio: executor.execute() (the whole pipeline) and
// createMcpToolClient().callTool() (the client alone), each against the SDK's
// own Client.callTool() over its StdioClientTransport. Each variant talks to
// its own child running the same server (test/fixtures/mcp-stdio-server.ts,
// the SDK's StdioServerTransport), 16 calls in flight, 5,000 calls per round
// after 10,000 warm-up calls each (rounds of 2,000 after 1,000 gave a CPU per
// call that moved by half from run to run; CALLS and WARMUP override them),
// rounds A-B-C-C-B-A twice so that drift on this shared
// machine hits each alike (the pattern of bench/mcp.bench.ts). The figure is
// the ratio of calls/s over all rounds; the per-cycle ratios show the spread.
// Target: execute() / raw >= 0.95 (issue #38). rawSignal is the raw call with a signal of its own, as a host that
// can cancel its calls makes it: its CPU per call beside raw's is what the signal costs (no ratio: it shares raw's
// child, which the rounds' order then favours or not, so its calls/s moved by a third against raw's).
// Run alone: node --expose-gc --import tsx bench/mcp-stdio-calls.bench.ts [--json]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createMcpToolClient } from "../src/mcp/index.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { interleave, ratio, type SummaryRow } from "./support.js";
import { STDIO_SERVER } from "./call-fixtures.js";

const JSON_ONLY = process.argv.includes("--json");
const CALLS = Number(process.env.CALLS ?? 5_000);
const WARMUP = Number(process.env.WARMUP ?? 10_000);
const IN_FLIGHT = 16;
const CYCLES = 2;
const TARGET = 0.95;

const ours = createMcpToolClient({ name: "bench", mcpConfig: STDIO_SERVER.mcpConfig });
const executor = createToolExecutor({ registry: loadToolRegistry(STDIO_SERVER.manifest) });
const raw = new Client({ name: "raw", version: "1.0.0" });
await raw.connect(new StdioClientTransport({ ...STDIO_SERVER.spawn, stderr: "pipe" }));
await ours.listTools();
await executor.listTools();

const args = { text: "Paris, metric, 3 days" };
const argsText = JSON.stringify(args);
let callIds = 0;
const variants = {
  execute: async (): Promise<void> => {
    const r = await executor.execute({ id: `c${++callIds}`, name: "echo", arguments: argsText });
    if (r.status !== "success") throw new Error(`bench: unexpected ${r.status} outcome`);
  },
  callTool: async (): Promise<void> => {
    const r = await ours.callTool("echo", args);
    if (r.status !== "success") throw new Error("bench: unexpected error outcome");
  },
  raw: async (): Promise<void> => {
    const r = await raw.callTool({ name: "echo", arguments: args });
    if (r.isError === true) throw new Error("bench: unexpected error result");
  },
  // The raw call as a host that can cancel it makes it: with a signal of its own (execute() has one per attempt, for
  // its timeout, the caller's abort and close()). The same client and child as raw: rounds never overlap.
  rawSignal: async (): Promise<void> => {
    const r = await raw.callTool({ name: "echo", arguments: args }, undefined, { signal: new AbortController().signal });
    if (r.isError === true) throw new Error("bench: unexpected error result");
  },
};
const names = Object.keys(variants) as (keyof typeof variants)[];

const stats = await interleave(variants, { calls: CALLS * 2 * CYCLES, cycles: CYCLES, inFlight: IN_FLIGHT, warmupCalls: WARMUP });
await executor.close();
await ours.close();
await raw.close();

const execRatio = ratio(stats.execute, stats.raw);
const callRatio = ratio(stats.callTool, stats.raw);
const figures = { area: "mcp-stdio-calls", transport: "stdio", inFlight: IN_FLIGHT, callsPerRound: CALLS, cycles: CYCLES, ...stats, executeRatio: execRatio, callToolRatio: callRatio };
const spread = (r: typeof execRatio): string => `per cycle ${r.min}..${r.max}; CPU/call ${r.cpu}x raw`;
if (JSON_ONLY) {
  const summary: SummaryRow[] = [
    { name: "MCP stdio execute() / SDK Client.callTool (16 in flight)", value: execRatio.total, unit: `ratio of calls/s (${spread(execRatio)})`, min: TARGET },
    { name: "MCP stdio callTool / SDK Client.callTool (16 in flight)", value: callRatio.total, unit: `ratio of calls/s (${spread(callRatio)})` },
  ];
  console.log(JSON.stringify({ ...figures, summary }));
} else {
  console.log(`callTool over stdio (one child per client), ${IN_FLIGHT} in flight, ${stats.raw.calls} calls each:`);
  for (const name of names) {
    const s = stats[name];
    console.log(`  ${name}: ${s.callsPerSec.toLocaleString("en-US")} calls/s, ${s.cpuUsPerCall} us CPU/call (this process), p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms`);
  }
  console.log(`  ratio execute()/raw: ${execRatio.total} (target >= ${TARGET}; ${spread(execRatio)}); callTool/raw: ${callRatio.total} (${spread(callRatio)})`);
}
