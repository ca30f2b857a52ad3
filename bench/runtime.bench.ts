// Runtime SDK overhead on loopback HTTP/2: serveRuntime() (our Converse session:
// hello, heartbeat timer, frame queue, identity rehydration) against a minimal
// hand-written connect RuntimeService doing the same frames, on identical
// servers. 16 streams in flight; rounds A-B-B-A so that machine drift hits both.
// Figures: Converse turns/s with one turn per stream, with 50 turns per stream,
// Invoke calls/s, and the ratios ours/raw. `--json` prints only a JSON object.
// Run alone: node --expose-gc --import tsx bench/runtime.bench.ts [--json]
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type ServiceImpl } from "@connectrpc/connect";
import { Http2SessionManager, connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import { RuntimeService, type ClientMessage, type ClientMessageSchema, type ServerMessageSchema } from "../src/contract/index.js";
import { serveRuntime, turnText } from "../src/runtime/index.js";

const JSON_ONLY = process.argv.includes("--json");
const IN_FLIGHT = 16;
const STREAMS = 4_000;
const LONG_STREAMS = 200;
const TURNS_PER_LONG_STREAM = 50;
const INVOKES = 10_000;
const HEADERS = { "x-omnia-agent-name": "bench", "x-omnia-user-id": "u-1", "x-omnia-session-id": "s-1", "x-omnia-claim-tier": "gold", "x-omnia-client-tools": "true" };

type ServerFrame = MessageInitShape<typeof ServerMessageSchema>;
type ClientInit = MessageInitShape<typeof ClientMessageSchema>;

// The baseline: the same frames, no SDK.
const raw: Partial<ServiceImpl<typeof RuntimeService>> = {
  async *converse(requests: AsyncIterable<ClientMessage>): AsyncGenerator<ServerFrame> {
    let hello = false;
    for await (const m of requests) {
      if (!hello) {
        hello = true;
        yield { message: { case: "runtimeHello", value: { capabilities: ["client_tools", "invoke"] } } };
      }
      yield { message: { case: "chunk", value: { content: m.content } } };
      yield { message: { case: "done", value: { finalContent: m.content, finishReason: "stop" } } };
    }
  },
  invoke: (req) => ({ outputJson: req.inputJson, invocationId: req.invocationId }),
};

async function startRaw(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http2.createServer(connectNodeAdapter({ routes: (r) => r.service(RuntimeService, raw), grpc: true, connect: false, grpcWeb: false }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => sessions.add(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.close();
        server.close(() => resolve());
      }),
  };
}

const ours = await serveRuntime(
  {
    capabilities: () => ["client_tools", "invoke"],
    async converse(turn, emit) {
      const text = turnText(turn);
      await emit.chunk(text);
      await emit.done({ finalContent: text, finishReason: "stop" });
    },
    invoke: (req) => ({ outputJson: req.inputJson }),
  },
  { port: 0 },
);
const baseline = await startRaw();

function client(url: string) {
  const sessionManager = new Http2SessionManager(url);
  return { rpc: createClient(RuntimeService, createGrpcTransport({ baseUrl: url, sessionManager })), close: () => sessionManager.abort() };
}
const clients = { ours: client(ours.url), raw: client(baseline.url) };
type Side = keyof typeof clients;

async function oneStream(side: Side, turns: number): Promise<void> {
  async function* requests(): AsyncGenerator<ClientInit> {
    for (let i = 0; i < turns; i++) yield { sessionId: "s-1", content: "hello runtime" };
  }
  let dones = 0;
  for await (const f of clients[side].rpc.converse(requests(), { headers: HEADERS })) if (f.message.case === "done") dones++;
  if (dones !== turns) throw new Error(`${side}: ${dones} dones for ${turns} turns`);
}

async function oneInvoke(side: Side): Promise<void> {
  const r = await clients[side].rpc.invoke({ inputJson: '{"q":1}', invocationId: "inv" }, { headers: HEADERS });
  if (r.outputJson !== '{"q":1}') throw new Error("bad output");
}

async function drive(call: () => Promise<void>, total: number): Promise<number> {
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function abba(name: string, units: number, run: (side: Side) => () => Promise<void>, total: number) {
  await drive(run("ours"), Math.ceil(total / 4)); // warm-up
  await drive(run("raw"), Math.ceil(total / 4));
  const ms: Record<Side, number> = { ours: 0, raw: 0 };
  for (const side of ["ours", "raw", "raw", "ours"] as const) {
    (globalThis as { gc?: () => void }).gc?.();
    ms[side] += await drive(run(side), total);
  }
  const perSec = (side: Side) => Math.round(((2 * total * units) / ms[side]) * 1000);
  return { name, ours: perSec("ours"), raw: perSec("raw"), ratio: Number((perSec("ours") / perSec("raw")).toFixed(3)) };
}

const results = [
  await abba("Converse turns/s, 1 turn per stream", 1, (side) => () => oneStream(side, 1), STREAMS),
  await abba(`Converse turns/s, ${TURNS_PER_LONG_STREAM} turns per stream`, TURNS_PER_LONG_STREAM, (side) => () => oneStream(side, TURNS_PER_LONG_STREAM), LONG_STREAMS),
  await abba("Invoke calls/s", 1, (side) => () => oneInvoke(side), INVOKES),
];

clients.ours.close();
clients.raw.close();
await ours.close();
await baseline.close();

if (JSON_ONLY) {
  const summary = results.map((r) => ({ name: `runtime: ${r.name}, ours / raw`, value: r.ratio, unit: "ratio" }));
  console.log(JSON.stringify({ area: "runtime", unit: "per second", inFlight: IN_FLIGHT, results, summary }));
} else {
  console.log(`loopback HTTP/2, ${IN_FLIGHT} in flight, rounds A-B-B-A (ours = serveRuntime, raw = hand-written connect service)\n`);
  for (const r of results) {
    console.log(`${r.name.padEnd(42)} ours ${r.ours.toLocaleString("en-US").padStart(9)}  raw ${r.raw.toLocaleString("en-US").padStart(9)}  ratio ${r.ratio}`);
  }
}
