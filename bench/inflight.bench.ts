// Heap per HTTP call in flight: N calls started through executor.execute() and
// held open by a node:http backend in this process (it answers only once all N
// have been sent or queued), against the same N through undici.request with the
// same headers and body, both on one undici Agent without a connection limit
// (each call holds its own socket, as N concurrent conversations would).
// The heap is read after a full GC with every call pending; the backend's own
// per-request objects count in both variants. Target: execute / undici.request
// <= 1.15 at 2,000 and at 8,000 calls (so the cost is flat in the count).
// Each size runs 3 times per variant, alternating; the figure is the median.
// Run alone: node --expose-gc --import tsx bench/inflight.bench.ts [--json]
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { loadToolRegistry, type HttpHandlerConfig } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { buildHttpRequest } from "../src/http/index.js";
import { identity, agent, ARGS } from "./call-fixtures.js";
import { heapAfterFullGc, heapPerCallMedians } from "./support.js";

const JSON_ONLY = process.argv.includes("--json");
const SIZES = [2_000, 8_000];
const REPEATS = 3;
const TARGET = 1.15;
if ((globalThis as { gc?: () => void }).gc === undefined) throw new Error("inflight: run with --expose-gc");

const RESPONSE = '{"city":"Paris","temperature":21.5,"unit":"C"}';
let held: ServerResponse[] = [];
let arrived = 0;
const server = createServer({ keepAlive: true }, (req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on("end", () => {
    arrived++;
    held.push(res);
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/weather`;

function release(): void {
  const now = held;
  held = [];
  for (const res of now) {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(RESPONSE) });
    res.end(RESPONSE);
  }
}

const registry = loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool: { name: get_weather, description: Current weather, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${url}
      method: POST
`);
const dispatcher = new Agent({ keepAliveTimeout: 4_000 });
const executor = createToolExecutor({ registry, agent, dispatcher });
const ctx = { identity };
const handler = registry.getHandler("weather-api") as HttpHandlerConfig;
const wire = buildHttpRequest(handler, ARGS, { identity, agent, auth: {}, headersFromSecret: {} });

const variants: Record<"executor" | "undici", (i: number) => Promise<void>> = {
  executor: async (i) => {
    // Each call its own id and argument text, as real calls have.
    const out = await executor.execute({ id: `call-${i}`, name: "get_weather", arguments: ARGS.slice(0, -1) + `,"n":${i}}` }, ctx);
    if (out.status !== "success") throw new Error(`inflight: executor call failed: ${JSON.stringify(out)}`);
  },
  undici: async (i) => {
    const body = (wire.body as string).slice(0, -1) + `,"n":${i}}`;
    const res = await request(wire.url, { dispatcher, method: "POST", headers: wire.headers, body });
    const value = (await res.body.json()) as { city?: string };
    if (res.statusCode !== 200 || value.city !== "Paris") throw new Error("inflight: undici call failed");
  },
};

/** Heap bytes per pending call of one variant at n calls in flight. */
async function measure(name: keyof typeof variants, n: number): Promise<number> {
  const before = await heapAfterFullGc();
  arrived = 0;
  const calls: Promise<void>[] = [];
  for (let i = 0; i < n; i++) calls.push(variants[name](i));
  while (arrived < n) await new Promise((resolve) => setTimeout(resolve, 5));
  const during = await heapAfterFullGc();
  release();
  await Promise.all(calls);
  return (during - before) / n;
}

// Warm-up: both paths compiled and the pools' sockets open before any figure.
for (const name of ["executor", "undici"] as const) await measure(name, 2_000);

const { perCall, median } = await heapPerCallMedians(["executor", "undici"], SIZES, REPEATS, measure);
await executor.close();
await dispatcher.close();
server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));

const kb = (bytes: number): number => Math.round(bytes / 102.4) / 10;
const figures = SIZES.map((n) => {
  const e = median("executor", n);
  const u = median("undici", n);
  return { inFlight: n, executorKB: kb(e), undiciKB: kb(u), ratio: Math.round((e / u) * 1000) / 1000 };
});
const summary = figures.map((f) => ({
  name: `inflight: heap per call, execute / undici.request (${f.inFlight.toLocaleString("en-US")} in flight)`,
  value: f.ratio,
  unit: `ratio (${f.executorKB} KB / ${f.undiciKB} KB per call)`,
  max: TARGET,
}));
if (JSON_ONLY) {
  console.log(JSON.stringify({ area: "inflight", repeats: REPEATS, figures, perCallBytes: perCall, summary }));
} else {
  console.log(`heap per HTTP call in flight (median of ${REPEATS}; backend in this process; one socket per call)`);
  for (const f of figures) {
    console.log(`  ${String(f.inFlight).padStart(5)} in flight: execute ${f.executorKB} KB, undici.request ${f.undiciKB} KB, ratio ${f.ratio} (target <= ${TARGET})`);
  }
}
