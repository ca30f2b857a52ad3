// Drives executor.execute() alone (no baseline) on the http or the grpc path,
// for a CPU profile of the hot path. Not part of `npm run bench`'s table, but
// compiled with it: profile the compiled file, which is what dist/ runs
// (through tsx, every closure also gets a naming call).
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js http [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js grpc [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js http-dispatch [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js mcp [calls]   (streamable-http)
// (http-dispatch: the floor of the http bench, the same request through undici's dispatch() with a bare
// handler, to set beside the http profile.)
// then: node bench/profile-summary.mjs /tmp/prof/<file>.cpuprofile
import { Agent } from "undici";
import { loadToolRegistry, type HttpHandlerConfig } from "../src/manifest/index.js";
import { buildHttpRequest } from "../src/http/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { serveToolService } from "../src/grpc/index.js";
import { drive } from "./support.js";
import { startMcpHttpServer } from "../test/helpers/mcp-server.js";
import { identity, agent, ARGS, WEATHER_RESPONSE, startWeatherBackend, bareDispatch } from "./call-fixtures.js";

const mode = process.argv[2] ?? "http";
const path = mode === "grpc" ? "grpc" : "http";
const calls = Number(process.argv[3] ?? 40_000);
const RESPONSE = WEATHER_RESPONSE;

let close: () => Promise<void>;
let manifest: string;
let toolName = "get_weather";
let toolArgs = ARGS;
if (mode === "mcp") {
  const server = await startMcpHttpServer({ transport: "streamable-http" });
  manifest = `handlers:\n  - name: bench\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }\n`;
  toolName = "echo";
  toolArgs = '{"text":"Paris, metric, 3 days"}';
  close = () => server.close();
} else if (path === "http") {
  const backend = await startWeatherBackend();
  manifest = `handlers:\n  - name: weather-api\n    type: http\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: "${backend.url}", method: POST }\n`;
  close = () => backend.close();
} else {
  const server = await serveToolService({ get_weather: { description: "d", inputSchema: true, execute: () => JSON.parse(RESPONSE) } });
  manifest = `handlers:\n  - name: weather-api\n    type: grpc\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    grpcConfig: { endpoint: "${server.url.replace("http://", "")}" }\n`;
  close = () => server.close();
}
const registry = loadToolRegistry(manifest);
const executor = createToolExecutor({ registry, agent });
const call = { id: "call-1", name: toolName, arguments: toolArgs };
let one: () => Promise<void> = async () => {
  const out = await executor.execute(call, { identity });
  if (out.status !== "success") throw new Error(JSON.stringify(out));
};
const dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 256 });
if (mode === "http-dispatch") {
  one = bareDispatch(dispatcher, buildHttpRequest(registry.getHandler("weather-api") as HttpHandlerConfig, ARGS, { identity, agent, auth: {}, headersFromSecret: {} }));
}
const cpu0 = process.cpuUsage();
const round = await drive(one, calls, mode === "mcp" ? 16 : 64);
const cpu = process.cpuUsage(cpu0);
console.log(`${mode}: ${Math.round((calls / round.ms) * 1000)} calls/s, CPU ${Math.round((cpu.user + cpu.system) / calls)} µs/call`);
await dispatcher.close();
await executor.close();
await close();
