// The PromptKit stage's cost: one round of 10 HTTP tool calls through
// createTurn().run() (lookup, coercion, validation, the 10-call limit, results
// formatted and size-limited, loop guards) against the same 10 calls through
// executor.execute() with Promise.all, to one loopback node:http JSON backend in
// this process. 4 rounds in flight (40 calls), 1,500 rounds per variant after a
// warm-up, palindrome cycles. Then the stage alone per call: a round of 10
// through a turn over an in-memory executor (no I/O), by mitata.
// Prints the ratio turn/execute (rounds per second, median of cycles).
// `--json` prints only a JSON object.
// Run alone: node --expose-gc --import tsx bench/turn.bench.ts [--json]
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bench, do_not_optimize, run, summary as mitataSummary } from "mitata";
import { createToolExecutor } from "../src/executor/index.js";
import { createTurn, type TurnExecutor } from "../src/turn/index.js";
import { interleave, opsPerSecond, ratio, type SummaryRow } from "./support.js";
import { turnWeatherRegistry } from "./call-fixtures.js";

const JSON_ONLY = process.argv.includes("--json");
const ROUNDS = 1_500;
const IN_FLIGHT = 4;
const WARMUP_ROUNDS = 300;
const CALLS_PER_ROUND = 10;

const RESPONSE = '{"city":"Paris","temperature":21.5,"unit":"C","forecast":[{"day":1,"high":23},{"day":2,"high":19}]}';
const server = createServer({ keepAlive: true }, (req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(RESPONSE) });
    res.end(RESPONSE);
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/weather`;

const registry = turnWeatherRegistry(url);
const executor = createToolExecutor({ registry });
// Distinct arguments per call, as a model's parallel calls have (identical ones would meet the repeat guard).
const calls = Array.from({ length: CALLS_PER_ROUND }, (_, i) => ({ id: `call-${i}`, name: "get_weather", arguments: `{"city":"Paris","units":"metric","days":3,"i":${i}}` }));

const variants = {
  turn: async () => {
    const round = await createTurn(executor).run(calls);
    if (round.messages.length !== CALLS_PER_ROUND || round.messages.some((m) => m.isError)) throw new Error(`bench: turn round failed: ${JSON.stringify(round.messages[0])}`);
  },
  execute: async () => {
    const outcomes = await Promise.all(calls.map((c) => executor.execute(c)));
    if (outcomes.some((o) => o.status !== "success")) throw new Error(`bench: execute failed: ${JSON.stringify(outcomes[0])}`);
  },
};
const stats = await interleave(variants, { calls: ROUNDS, inFlight: IN_FLIGHT, warmupCalls: WARMUP_ROUNDS });
const turnOverExecute = ratio(stats.turn, stats.execute);
await executor.close();
server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));

// ---- the stage alone: an in-memory executor that answers at once ----
const memory: TurnExecutor = {
  tools: registry.tools,
  execute: async () => ({ status: "success", resultJson: RESPONSE }),
  completeClientCall: () => ({ status: "success", resultJson: "{}" }),
};
const STAGE = "turn.run, 10 calls, in-memory executor";
// The round-2 options (#35) set but not triggered: an approval list naming another tool, a budget the result fits,
// PromptKit 1.5.11 with a call limit far away. Beside the defaults, to show what they cost a round that needs none.
const CONFIGURED = "turn.run, 10 calls, in-memory executor, approval + resultBudget + promptkit 1.5.11 set";
const configured = { approval: ["delete_everything"], resultBudget: { maxBytes: 1_000_000, cut: "json-aware" as const }, promptkit: "1.5.11" as const, maxToolCalls: 1_000_000_000 };
mitataSummary(() => {
  bench(STAGE, async () => do_not_optimize(await createTurn(memory).run(calls)));
  bench(CONFIGURED, async () => do_not_optimize(await createTurn(memory, configured).run(calls)));
});
const micro = opsPerSecond(await run(JSON_ONLY ? { format: "quiet" } : { colors: false }));
const stageNsPerCall = micro[STAGE] === undefined ? null : Math.round(1e9 / micro[STAGE] / CALLS_PER_ROUND);
const configuredNsPerCall = micro[CONFIGURED] === undefined ? null : Math.round(1e9 / micro[CONFIGURED] / CALLS_PER_ROUND);
const configuredOverDefaults = stageNsPerCall === null || configuredNsPerCall === null ? null : Math.round((stageNsPerCall / configuredNsPerCall) * 1000) / 1000;

const summary: SummaryRow[] = [
  { name: "turn.run(10 HTTP calls) / Promise.all(10 execute())", value: turnOverExecute.median, unit: `ratio (cycles ${turnOverExecute.min}-${turnOverExecute.max}; CPU/call ${turnOverExecute.cpu})` },
  { name: "turn round of 10 HTTP calls p50 / p99", value: stats.turn.p50Ms, unit: `ms p50 (p99 ${stats.turn.p99Ms})` },
  { name: "Promise.all(10 execute()) p50 / p99", value: stats.execute.p50Ms, unit: `ms p50 (p99 ${stats.execute.p99Ms})` },
  { name: "turn stage per call, in-memory executor", value: stageNsPerCall, unit: "ns/call" },
  { name: "turn stage with approval, resultBudget and promptkit 1.5.11 set but not triggered", value: configuredNsPerCall, unit: "ns/call" },
  { name: "turn stage: defaults / round-2 options set (speed; 1 = no cost)", value: configuredOverDefaults, unit: "ratio" },
];

if (JSON_ONLY) {
  console.log(JSON.stringify({ area: "turn", inFlightRounds: IN_FLIGHT, rounds: ROUNDS, callsPerRound: CALLS_PER_ROUND, ...stats, ratios: { turnOverExecute, configuredOverDefaults }, stageNsPerCall, configuredNsPerCall, summary }));
} else {
  console.log(`Rounds of ${CALLS_PER_ROUND} HTTP POSTs on loopback, ${IN_FLIGHT} rounds in flight, ${ROUNDS.toLocaleString("en-US")} rounds per variant (palindrome cycles)`);
  for (const [name, s] of Object.entries(stats)) {
    console.log(`  ${name.padEnd(8)} ${s.callsPerSec.toLocaleString("en-US").padStart(7)} rounds/s   p50 ${s.p50Ms} ms   p99 ${s.p99Ms} ms   CPU ${s.cpuUsPerCall} µs/round`);
  }
  console.log(`  turn / execute  ${turnOverExecute.median} (median of cycles; range ${turnOverExecute.min}-${turnOverExecute.max}; all rounds ${turnOverExecute.total}; by CPU per round ${turnOverExecute.cpu})`);
  console.log(`  ${STAGE}: ${stageNsPerCall} ns/call`);
  console.log(`  ${CONFIGURED}: ${configuredNsPerCall} ns/call (defaults / configured ${configuredOverDefaults})`);
}
