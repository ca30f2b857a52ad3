// A tool call's latency does not depend on session-api's (issue #32 item 6). The same HTTP tool
// calls through createToolExecutor at 64 in flight, interleaved: without a recorder (the
// baseline), with the session-api recorder writing to an instant session-api, and with it
// writing to one that answers each write after 200 ms (so that rows pile up in the recorder:
// 100 writes at once over 200 ms is 500 rows/s, well under the two rows of each call). Every
// server is a node:http server on loopback in this process. Figures: p50 and p99 call latency
// and throughput of each, and the ratios in the same run. Target: p99 with the 200 ms session-api
// over p99 with the instant one <= 1.25, and over p99 with no recorder at all <= 1.2 (issue #38; the
// recorder's own cost, rows written over HTTP by this process to a server in this process, is the
// instant variant over the baseline, reported).
// Run alone: node --expose-gc --import tsx bench/recorder.bench.ts [--json]
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { createSessionApiRecorder } from "../src/records/index.js";
import { interleave, round3, type SummaryRow } from "./support.js";
import { ARGS } from "./call-fixtures.js";

const JSON_ONLY = process.argv.includes("--json");
const CALLS = 40_000;
const IN_FLIGHT = 64;
const TARGET_P99 = 1.25;
const TARGET_P99_OVER_NONE = 1.2;

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer({ keepAlive: true }, handler);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const RESPONSE = '{"city":"Paris","temperature":21.5,"unit":"C"}';
const backend = await listen((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(RESPONSE) });
    res.end(RESPONSE);
  });
});
const answer = (res: ServerResponse) => {
  res.statusCode = 201;
  res.end();
};
const instantApi = await listen((req, res) => {
  req.resume();
  req.on("end", () => answer(res));
});
const slowApi = await listen((req, res) => {
  req.resume();
  req.on("end", () => setTimeout(() => answer(res), 200));
});

const registry = loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool: { name: get_weather, description: Current weather, inputSchema: { type: object } }
    httpConfig: { endpoint: ${backend}/v1/weather, method: POST }
`);
const dispatcher = new Agent({ keepAliveTimeout: 4_000 });
const instant = createSessionApiRecorder({ url: instantApi });
const slow = createSessionApiRecorder({ url: slowApi });
const executors = {
  none: createToolExecutor({ registry, dispatcher }),
  instant: createToolExecutor({ registry, dispatcher, recorder: instant }),
  slow: createToolExecutor({ registry, dispatcher, recorder: slow }),
};
let n = 0;
function caller(executor: (typeof executors)["none"]): () => Promise<void> {
  return async () => {
    const i = n++;
    const out = await executor.execute({ id: `call-${i}`, name: "get_weather", arguments: ARGS }, { identity: { sessionId: "6f1c2a9e-3b7d-4c1e-9a2f-5d8e7b6c4a31" } });
    if (out.status !== "success") throw new Error(`recorder bench: call failed: ${JSON.stringify(out)}`);
  };
}

const stats = await interleave({ none: caller(executors.none), instant: caller(executors.instant), slow: caller(executors.slow) }, { calls: CALLS, inFlight: IN_FLIGHT, warmupCalls: 2_000 });
const slowStats = slow.stats();
const instantStats = instant.stats();
await Promise.all([instant.close({ timeoutMs: 0 }), slow.close({ timeoutMs: 0 })]);
for (const ex of Object.values(executors)) await ex.close();
await dispatcher.close();

const p99Slow = round3(stats.slow.p99Ms / stats.instant.p99Ms);
const p99Instant = round3(stats.instant.p99Ms / stats.none.p99Ms);
const p99SlowOverNone = round3(stats.slow.p99Ms / stats.none.p99Ms);
const summary: SummaryRow[] = [
  { name: "recorder: call p99, 200 ms session-api / instant session-api", value: p99Slow, unit: "x", max: TARGET_P99 },
  { name: "recorder: call p99, 200 ms session-api / no recorder", value: p99SlowOverNone, unit: "x", max: TARGET_P99_OVER_NONE },
  { name: "recorder: call p99, instant session-api / no recorder", value: p99Instant, unit: "x" },
  { name: "recorder: calls/s, 200 ms session-api / instant session-api", value: round3(stats.slow.callsPerSec / stats.instant.callsPerSec), unit: "x" },
];
if (JSON_ONLY) {
  console.log(JSON.stringify({ area: "recorder", stats, recorders: { instant: instantStats, slow: slowStats }, summary }));
} else {
  console.log(`tool-call latency with a session-api recorder (${CALLS} calls per variant at ${IN_FLIGHT} in flight, interleaved)`);
  for (const [name, s] of Object.entries(stats)) console.log(`  ${name.padEnd(8)} ${s.callsPerSec} calls/s, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms`);
  console.log(`  p99: 200 ms session-api / instant ${p99Slow} (target <= ${TARGET_P99}); 200 ms session-api / no recorder ${p99SlowOverNone} (target <= ${TARGET_P99_OVER_NONE}); instant / no recorder ${p99Instant}`);
  console.log(`  rows: instant ${JSON.stringify(instantStats)}; 200 ms ${JSON.stringify(slowStats)}`);
}
