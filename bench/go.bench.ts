// The HTTP tool call through executor.execute() against the same call made by
// Go's net/http client, the client Omnia's runtime uses (bench/go/main.go: POST
// with the identity headers, body read through a 10 MiB cap and parsed as
// JSON), 64 in flight each, both against one backend in a separate Go process
// on loopback. Rounds interleave in palindromes (N G G N ...), so that load on
// this shared machine falls on both. The CPU per call is each client process's
// own (user + system). Targets: omnia-tools / Go calls/s >= 1.10, CPU per
// call <= 0.9 x Go's. Then continuous runs, the case a runtime lives in (each client in its own process, 2,000
// calls of warm-up, 20,000 in one run, CPU over the whole run, 3 runs; see the comment there), also against Go
// as Omnia's runtime configures its client (a new http.Client per call on http.DefaultTransport). Needs a Go toolchain (`go` on PATH, Go >= 1.18); without
// one the area prints a line saying so and reports no figure. CI does not run it.
// Run alone: node --expose-gc --import tsx bench/go.bench.ts [--json]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { HttpHandlerConfig } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { buildHttpRequest } from "../src/http/index.js";
import { drive } from "./support.js";
import { identity, agent, ARGS, weatherRegistry } from "./call-fixtures.js";

const JSON_ONLY = process.argv.includes("--json");

// `--node-client <spec.json>`: this file as the Node side of one continuous run (below), in a process of its own.
if (process.argv[2] === "--node-client") {
  const spec = JSON.parse(readFileSync(process.argv[3] as string, "utf8")) as { url: string; calls: number; warmup: number; inFlight: number };
  const ex = createToolExecutor({ registry: weatherRegistry(spec.url), agent });
  const one = async (): Promise<void> => {
    const out = await ex.execute({ id: "call-1", name: "get_weather", arguments: ARGS }, { identity });
    if (out.status !== "success") throw new Error(`go: executor call failed: ${JSON.stringify(out)}`);
  };
  await drive(one, spec.warmup, spec.inFlight);
  const run = await drive(one, spec.calls, spec.inFlight);
  console.log(JSON.stringify({ ms: run.ms, cpuMs: run.cpuMs }));
  await ex.close();
  process.exit(0);
}
const CALLS = 4_000; // per round
const IN_FLIGHT = 64;
const CYCLES = 6;
const TARGET_RATE = 1.1;
const TARGET_CPU = 0.9;

function report(rows: { name: string; value: number | null; unit: string; min?: number; max?: number }[], extra: object, lines: string[]): void {
  if (JSON_ONLY) console.log(JSON.stringify({ area: "go", ...extra, summary: rows }));
  else for (const line of lines) console.log(line);
}

const version = spawnSync("go", ["version"], { encoding: "utf8" });
if (version.error !== undefined || version.status !== 0) {
  const line = "go: skipped: no Go toolchain on PATH (`go version` failed); install Go >= 1.18 (Debian: apt-get install golang-go) to compare with net/http";
  process.stderr.write(`${line}\n`);
  report([{ name: "go: skipped, no Go toolchain", value: null, unit: "" }], { skipped: line }, [line]);
  process.exit(0);
}

// Built from the source next to this file (bench/go/ under the repository, also when run compiled from .bench-out/).
const here = dirname(fileURLToPath(import.meta.url));
const source = [resolve(here, "go/main.go"), resolve(here, "../../bench/go/main.go")].find((p) => existsSync(p));
if (source === undefined) throw new Error("go: bench/go/main.go not found");
const work = mkdtempSync(join(tmpdir(), "omnia-go-bench-"));
const binary = join(work, "go-bench");
const built = spawnSync("go", ["build", "-o", binary, source], { encoding: "utf8", cwd: work });
if (built.status !== 0) throw new Error(`go: go build failed: ${built.stderr}`);

const backend = spawn(binary, ["backend"], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise<number>((ok) => createInterface({ input: backend.stdout }).once("line", (l) => ok(Number(l))));
const url = `http://127.0.0.1:${port}/v1/weather`;

const registry = weatherRegistry(url);
const executor = createToolExecutor({ registry, agent });
const call = { id: "call-1", name: "get_weather", arguments: ARGS };
const ctx = { identity };
// The Go client sends exactly the request the executor sends.
const wire = buildHttpRequest(registry.getHandler("weather-api") as HttpHandlerConfig, ARGS, { identity, agent, auth: {}, headersFromSecret: {} });
const specFile = join(work, "spec.json");
writeFileSync(specFile, JSON.stringify({ url: wire.url, headers: wire.headers, body: wire.body ?? "", calls: CALLS, inFlight: IN_FLIGHT, rounds: 2 * CYCLES }));
const goClient = spawn(binary, ["client", specFile], { stdio: ["pipe", "pipe", "inherit"] });
const goLines = createInterface({ input: goClient.stdout })[Symbol.asyncIterator]();

async function goRound(): Promise<{ ms: number; cpuMs: number }> {
  goClient.stdin.write("r");
  const next = await goLines.next();
  if (next.done === true) throw new Error("go: the Go client ended early");
  return JSON.parse(next.value as string) as { ms: number; cpuMs: number };
}
const nodeRound = async (): Promise<{ ms: number; cpuMs: number }> =>
  drive(async () => {
    const out = await executor.execute(call, ctx);
    if (out.status !== "success") throw new Error(`go: executor call failed: ${JSON.stringify(out)}`);
  }, CALLS, IN_FLIGHT);

await drive(async () => void (await executor.execute(call, ctx)), 5_000, IN_FLIGHT); // warm-up
const rates: number[] = [];
let nodeMs = 0, nodeCpu = 0, goMs = 0, goCpu = 0;
for (let c = 0; c < CYCLES; c++) {
  const n1 = await nodeRound();
  const g1 = await goRound();
  const g2 = await goRound();
  const n2 = await nodeRound();
  rates.push((g1.ms + g2.ms) / (n1.ms + n2.ms));
  nodeMs += n1.ms + n2.ms;
  nodeCpu += n1.cpuMs + n2.cpuMs;
  goMs += g1.ms + g2.ms;
  goCpu += g1.cpuMs + g2.cpuMs;
}
goClient.stdin.end();
goClient.kill();

// ---- continuous runs: the case a runtime lives in ----
// The interleaved rounds above are short (4,000 calls), and the Node process idles through each Go round: V8's
// collector can finish there work that the round made, off the clock and off the CPU count. A runtime serves
// without such pauses. So: each client in a process of its own, 2,000 calls of warm-up then 20,000 in one run,
// CPU counted over the whole run; three runs each, alternating (N G R, R G N, N G R). R is Go as Omnia's runtime
// makes a tool call: a new &http.Client{} per call on http.DefaultTransport, at most 2 idle connections per host.
const RUN_CALLS = 20_000;
const RUN_WARMUP = 2_000;
const RUNS = 3;
const runSpec = (runtime: boolean): string => {
  const file = join(work, runtime ? "run-runtime.json" : "run.json");
  writeFileSync(file, JSON.stringify({ url: wire.url, headers: wire.headers, body: wire.body ?? "", calls: RUN_CALLS, warmup: RUN_WARMUP, inFlight: IN_FLIGHT, rounds: 1, runtime }));
  return file;
};
const pooledSpec = runSpec(false);
const runtimeSpec = runSpec(true);
/** Runs one child to its end; resolves with the JSON of its last stdout line. */
function childRun(command: string, argv: readonly string[], go: boolean): Promise<{ ms: number; cpuMs: number }> {
  return new Promise((ok, fail) => {
    const child = spawn(command, argv, { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", fail);
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (last === "") fail(new Error(`go: a continuous run exited ${code} without a figure`));
      else ok(JSON.parse(last) as { ms: number; cpuMs: number });
    });
    if (go) child.stdin.end("r");
    else child.stdin.end();
  });
}
const self = fileURLToPath(import.meta.url);
const nodeRun = () => childRun(process.execPath, [...process.execArgv, self, "--node-client", pooledSpec], false);
const goRun = (runtime: boolean) => childRun(binary, ["client", runtime ? runtimeSpec : pooledSpec], true);
const runs: { node: { ms: number; cpuMs: number }; go: { ms: number; cpuMs: number }; runtime: { ms: number; cpuMs: number } }[] = [];
for (let r = 0; r < RUNS; r++) {
  if (r % 2 === 0) {
    const node = await nodeRun();
    const go = await goRun(false);
    const runtime = await goRun(true);
    runs.push({ node, go, runtime });
  } else {
    const runtime = await goRun(true);
    const go = await goRun(false);
    const node = await nodeRun();
    runs.push({ node, go, runtime });
  }
}
backend.kill();
await executor.close();
rmSync(work, { recursive: true, force: true });

const calls = 2 * CYCLES * CALLS;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const sorted = [...rates].sort((a, b) => a - b);
const median = round3(((sorted[(sorted.length - 1) >> 1] as number) + (sorted[sorted.length >> 1] as number)) / 2);
const nodeCpuUs = round3((nodeCpu * 1000) / calls);
const goCpuUs = round3((goCpu * 1000) / calls);
const cpuRatio = round3(nodeCpuUs / goCpuUs);
const perRun = runs.map(({ node, go, runtime }) => ({
  callsPerSec: { node: Math.round((RUN_CALLS / node.ms) * 1000), go: Math.round((RUN_CALLS / go.ms) * 1000), runtime: Math.round((RUN_CALLS / runtime.ms) * 1000) },
  cpuUsPerCall: { node: round3((node.cpuMs * 1000) / RUN_CALLS), go: round3((go.cpuMs * 1000) / RUN_CALLS), runtime: round3((runtime.cpuMs * 1000) / RUN_CALLS) },
  rate: round3(go.ms / node.ms),
  cpu: round3(node.cpuMs / go.cpuMs),
  rateVsRuntime: round3(runtime.ms / node.ms),
  cpuVsRuntime: round3(node.cpuMs / runtime.cpuMs),
}));
const worst = (pick: (r: (typeof perRun)[number]) => number, better: "high" | "low"): number => (better === "high" ? Math.min : Math.max)(...perRun.map(pick));
const list = (pick: (r: (typeof perRun)[number]) => number): string => perRun.map(pick).join(", ");
const figures = {
  go: version.stdout.trim(),
  inFlight: IN_FLIGHT,
  callsPerRound: CALLS,
  cycles: CYCLES,
  executor: { callsPerSec: Math.round((calls / nodeMs) * 1000), cpuUsPerCall: nodeCpuUs },
  goNetHttp: { callsPerSec: Math.round((calls / goMs) * 1000), cpuUsPerCall: goCpuUs },
  callsPerSecRatio: { median, min: round3(sorted[0] as number), max: round3(sorted[sorted.length - 1] as number) },
  cpuPerCallRatio: cpuRatio,
  continuous: { calls: RUN_CALLS, warmup: RUN_WARMUP, runs: perRun },
};
report(
  [
    { name: "go: execute / Go net/http calls/s", value: median, unit: `ratio (cycles ${figures.callsPerSecRatio.min}-${figures.callsPerSecRatio.max}; ${figures.go})`, min: TARGET_RATE },
    { name: "go: execute CPU per call / Go's", value: cpuRatio, unit: `ratio (${nodeCpuUs} us / ${goCpuUs} us)`, max: TARGET_CPU },
    { name: "go, continuous runs: execute / Go net/http calls/s, worst of 3", value: worst((r) => r.rate, "high"), unit: `ratio (runs ${list((r) => r.rate)})`, min: TARGET_RATE },
    { name: "go, continuous runs: execute CPU per call / Go's, worst of 3", value: worst((r) => r.cpu, "low"), unit: `ratio (runs ${list((r) => r.cpu)})`, max: TARGET_CPU },
    { name: "go, continuous runs: execute / Go as Omnia's runtime calls (DefaultTransport), worst of 3", value: worst((r) => r.rateVsRuntime, "high"), unit: `ratio (runs ${list((r) => r.rateVsRuntime)}; CPU ${list((r) => r.cpuVsRuntime)})` },
  ],
  figures,
  [
    `HTTP tool call, ${IN_FLIGHT} in flight, ${CALLS} calls per round, ${CYCLES} palindrome cycles; backend: a separate Go process (${figures.go})`,
    `  execute()     ${figures.executor.callsPerSec} calls/s, CPU ${nodeCpuUs} us/call`,
    `  Go net/http   ${figures.goNetHttp.callsPerSec} calls/s, CPU ${goCpuUs} us/call`,
    `  calls/s ratio ${median} (median of cycles; range ${figures.callsPerSecRatio.min}-${figures.callsPerSecRatio.max}; target >= ${TARGET_RATE})`,
    `  CPU per call ratio ${cpuRatio} (target <= ${TARGET_CPU})`,
    `Continuous runs: each client in its own process, ${RUN_WARMUP} calls of warm-up, then ${RUN_CALLS} calls; ${RUNS} runs`,
    ...perRun.map(
      (r, i) =>
        `  run ${i + 1}: execute() ${r.callsPerSec.node} calls/s ${r.cpuUsPerCall.node} us/call; Go ${r.callsPerSec.go} calls/s ${r.cpuUsPerCall.go} us/call; Go as the runtime ${r.callsPerSec.runtime} calls/s ${r.cpuUsPerCall.runtime} us/call; ratios ${r.rate} (CPU ${r.cpu}), vs the runtime's ${r.rateVsRuntime} (CPU ${r.cpuVsRuntime})`,
    ),
  ],
);
