// executor.execute() of this build against another build's, in one process, on the same servers, interleaved:
// what a range of commits costs on the http, grpc and mcp paths with none of the new options configured.
// Not part of `npm run bench`'s table (it needs a second build), but compiled with it:
//   git worktree add /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   (cd /tmp/base && npx tsc -p tsconfig.bench.json)
//   npm run bench -- none; node --expose-gc .bench-out/bench/ab-execute.js /tmp/base/.bench-out [http|grpc|mcp|mcp-stdio ...]
// Prints, per path, calls/s of each and the ratio this / other (median of palindrome cycles, and by CPU per call);
// `stub` adds the http pipeline alone in mitata (ns per call of each build, no I/O).
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serveToolService } from "../src/grpc/index.js";
import { startMcpHttpServer } from "../test/helpers/mcp-server.js";
import { bench, do_not_optimize, run, summary } from "mitata";
import { interleave, ratio } from "./support.js";
import { identity, agent, ARGS, WEATHER_RESPONSE, startWeatherBackend, STDIO_SERVER } from "./call-fixtures.js";

interface Build {
  createToolExecutor(options: object): { execute(call: object, ctx?: object): Promise<{ status: string }>; close(): Promise<void> };
  loadToolRegistry(text: string): object;
}
const other = process.argv[2];
if (other === undefined) throw new Error("ab-execute: name the other build's .bench-out folder");
const paths = process.argv.slice(3).length > 0 ? process.argv.slice(3) : ["http", "grpc", "mcp"];
async function load(root: string): Promise<Build> {
  const url = (p: string) => pathToFileURL(join(root, "src", p)).href;
  const [{ createToolExecutor }, { loadToolRegistry }] = await Promise.all([import(url("executor/index.js")), import(url("manifest/index.js"))]);
  return { createToolExecutor, loadToolRegistry } as Build;
}
const builds = { this: await load(resolve(import.meta.dirname, "..")), other: await load(resolve(other)) };

const RESPONSE = WEATHER_RESPONSE;
async function manifestFor(path: string): Promise<{ manifest: string; name: string; args: string; close: () => Promise<void> }> {
  if (path === "http") {
    const backend = await startWeatherBackend();
    return {
      manifest: `handlers:\n  - name: weather-api\n    type: http\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: "${backend.url}", method: POST }\n`,
      name: "get_weather",
      args: ARGS,
      close: () => backend.close(),
    };
  }
  if (path === "grpc") {
    const server = await serveToolService({ get_weather: { description: "d", inputSchema: true, execute: () => JSON.parse(RESPONSE) } });
    return {
      manifest: `handlers:\n  - name: weather-api\n    type: grpc\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    grpcConfig: { endpoint: "${server.url.replace("http://", "")}" }\n`,
      name: "get_weather",
      args: ARGS,
      close: () => server.close(),
    };
  }
  // Each build's executor spawns its own child.
  if (path === "mcp-stdio") return { manifest: STDIO_SERVER.manifest, name: "echo", args: '{"text":"Paris"}', close: () => Promise.resolve() };
  const server = await startMcpHttpServer({ transport: "streamable-http" });
  return { manifest: `handlers:\n  - name: bench\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }\n`, name: "echo", args: '{"text":"Paris"}', close: () => server.close() };
}

// "stub": the http pipeline alone, each build's execute() through a dispatcher that answers at once (no I/O), in
// mitata: the steadiest view of what a range of commits costs per call.
if (paths.includes("stub")) {
  const body = Buffer.from(RESPONSE);
  const controller = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, reason: null };
  const stub = {
    dispatch(_options: unknown, handler: Record<string, ((...a: unknown[]) => void) | undefined>) {
      handler["onRequestStart"]?.(controller, {});
      handler["onResponseStart"]?.(controller, 200, { "content-type": "application/json" }, "OK");
      handler["onResponseData"]?.(controller, body);
      handler["onResponseEnd"]?.(controller, {});
      return true;
    },
    close: async () => {},
    destroy: async () => {},
  };
  const manifest = `handlers:\n  - name: weather-api\n    type: http\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: "http://127.0.0.1:9/v1/weather", method: POST }\n`;
  const call = { id: "c1", name: "get_weather", arguments: ARGS };
  const ex = { this: builds.this.createToolExecutor({ registry: builds.this.loadToolRegistry(manifest), agent, dispatcher: stub }), other: builds.other.createToolExecutor({ registry: builds.other.loadToolRegistry(manifest), agent, dispatcher: stub }) };
  summary(() => {
    bench("this: execute(), stub dispatcher", async () => do_not_optimize(await ex.this.execute(call, { identity })));
    bench("other: execute(), stub dispatcher", async () => do_not_optimize(await ex.other.execute(call, { identity })));
  });
  await run({ colors: false });
}

for (const path of paths.filter((p) => p !== "stub")) {
  const { manifest, name, args, close } = await manifestFor(path);
  const executors = { this: builds.this.createToolExecutor({ registry: builds.this.loadToolRegistry(manifest), agent }), other: builds.other.createToolExecutor({ registry: builds.other.loadToolRegistry(manifest), agent }) };
  const caller = (ex: (typeof executors)["this"]) => async () => {
    const out = await ex.execute({ id: "c1", name, arguments: args }, { identity });
    if (out.status !== "success") throw new Error(`ab-execute: ${path} call failed: ${JSON.stringify(out)}`);
  };
  const mcp = path.startsWith("mcp");
  const inFlight = mcp ? 16 : 64;
  const calls = path === "mcp" ? 8_000 : 20_000;
  const stats = await interleave({ this: caller(executors.this), other: caller(executors.other) }, { calls, inFlight, warmupCalls: calls / 4 });
  const r = ratio(stats.this, stats.other);
  console.log(`${path}: this ${stats.this.callsPerSec} calls/s, other ${stats.other.callsPerSec} calls/s; this/other ${r.median} (cycles ${r.min}-${r.max}; all calls ${r.total}; by CPU per call ${r.cpu})`);
  await executors.this.close();
  await executors.other.close();
  await close();
}
