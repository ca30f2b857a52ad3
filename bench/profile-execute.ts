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
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { loadToolRegistry, type HttpHandlerConfig } from "../src/manifest/index.js";
import { buildHttpRequest } from "../src/http/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { serveToolService } from "../src/grpc/index.js";
import { drive } from "./support.js";
import { startMcpHttpServer } from "../test/helpers/mcp-server.js";
import { identity, agent, ARGS } from "./call-fixtures.js";

const mode = process.argv[2] ?? "http";
const path = mode === "grpc" ? "grpc" : "http";
const calls = Number(process.argv[3] ?? 40_000);
const RESPONSE = '{"city":"Paris","temperature":21.5,"unit":"C","forecast":[{"day":1,"high":23},{"day":2,"high":19}]}';

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
  const server = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(RESPONSE) });
      res.end(RESPONSE);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/weather`;
  manifest = `handlers:\n  - name: weather-api\n    type: http\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: "${url}", method: POST }\n`;
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
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
  const wire = buildHttpRequest(registry.getHandler("weather-api") as HttpHandlerConfig, ARGS, { identity, agent, auth: {}, headersFromSecret: {} });
  const target = new URL(wire.url);
  const utf8 = new TextDecoder();
  one = () =>
    new Promise<void>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      dispatcher.dispatch(
        { origin: target.origin, path: target.pathname, method: "POST", headers: wire.headers, body: wire.body ?? null },
        {
          onRequestStart: () => {},
          onResponseStart: (_c, s) => void (status = s),
          onResponseData: (_c, chunk) => void chunks.push(chunk),
          onResponseEnd: () => {
            const value = JSON.parse(utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))) as { city?: string };
            if (status !== 200 || value.city !== "Paris") reject(new Error("dispatch call failed"));
            else resolve();
          },
          onResponseError: (_c, e) => reject(e),
        },
      );
    });
}
const cpu0 = process.cpuUsage();
const round = await drive(one, calls, mode === "mcp" ? 16 : 64);
const cpu = process.cpuUsage(cpu0);
console.log(`${mode}: ${Math.round((calls / round.ms) * 1000)} calls/s, CPU ${Math.round((cpu.user + cpu.system) / calls)} µs/call`);
await dispatcher.close();
await executor.close();
await close();
