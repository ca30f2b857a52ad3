// Drives executor.execute() alone (no baseline) on the http or the grpc path,
// for a CPU profile of the hot path. Not part of `npm run bench`'s table, but
// compiled with it: profile the compiled file, which is what dist/ runs
// (through tsx, every closure also gets a naming call).
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js http [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js grpc [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js http-dispatch [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js mcp [calls]   (streamable-http)
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js mcp-stdio [calls]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js mcp-stdio-client [calls]   (createMcpToolClient().callTool)
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .bench-out/bench/profile-execute.js mcp-stdio-raw [calls]   (the SDK's Client.callTool)
// (http-dispatch: the floor of the http bench, the same request through undici's dispatch() with a bare
// handler, to set beside the http profile.)
// then: node bench/profile-summary.mjs /tmp/prof/<file>.cpuprofile
import { Agent } from "undici";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { loadToolRegistry, type HttpHandlerConfig } from "../src/manifest/index.js";
import { buildHttpRequest } from "../src/http/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { serveToolService } from "../src/grpc/index.js";
import { createMcpToolClient } from "../src/mcp/index.js";
import type { JsonValue } from "../src/core/index.js";
import { drive } from "./support.js";
import { startMcpHttpServer } from "../test/helpers/mcp-server.js";
import { identity, agent, ARGS, WEATHER_RESPONSE, startWeatherBackend, bareDispatch, STDIO_SERVER } from "./call-fixtures.js";

const mode = process.argv[2] ?? "http";
const path = mode === "grpc" ? "grpc" : "http";
const calls = Number(process.argv[3] ?? 40_000);
const RESPONSE = WEATHER_RESPONSE;

let close: () => Promise<void>;
let manifest: string;
let toolName = "get_weather";
let toolArgs = ARGS;
if (mode.startsWith("mcp-stdio")) {
  manifest = STDIO_SERVER.manifest;
  toolName = "echo";
  toolArgs = '{"text":"Paris, metric, 3 days"}';
  close = () => Promise.resolve();
} else if (mode === "mcp") {
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
if (mode.startsWith("mcp-stdio")) await executor.listTools();
if (mode === "mcp-stdio-raw") {
  const raw = new Client({ name: "raw", version: "1.0.0" });
  await raw.connect(new StdioClientTransport({ ...STDIO_SERVER.spawn, stderr: "pipe" }));
  const args = JSON.parse(toolArgs) as Record<string, unknown>;
  one = async () => {
    const r = await raw.callTool({ name: "echo", arguments: args });
    if (r.isError === true) throw new Error("unexpected error result");
  };
  close = () => raw.close();
}
if (mode === "mcp-stdio-client") {
  const client = createMcpToolClient({ name: "bench", mcpConfig: STDIO_SERVER.mcpConfig });
  await client.listTools();
  const args = JSON.parse(toolArgs) as JsonValue;
  one = async () => {
    const r = await client.callTool("echo", args);
    if (r.status !== "success") throw new Error("unexpected error outcome");
  };
  close = () => client.close();
}
const cpu0 = process.cpuUsage();
const round = await drive(one, calls, mode.startsWith("mcp") ? 16 : 64);
const cpu = process.cpuUsage(cpu0);
console.log(`${mode}: ${Math.round((calls / round.ms) * 1000)} calls/s, CPU ${Math.round((cpu.user + cpu.system) / calls)} µs/call`);
await dispatcher.close();
await executor.close();
await close();
