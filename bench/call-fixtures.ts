// The tool call the end-to-end benchmarks (http, go, grpc, inflight, profile) make: one
// identity with three claims, the agent, the arguments, and the weather http handler; and the
// stdio MCP server the stdio benches (mcp-stdio, mcp-stdio-calls, profile) start.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import type { Dispatcher } from "undici";
import { loadToolRegistry, type ToolRegistry } from "../src/manifest/index.js";
import type { Identity } from "../src/headers/index.js";

export const identity: Identity = {
  agentName: "support-agent",
  namespace: "prod",
  sessionId: "2f1c9a7e-5b8d-4c3a-9e61-0d2b7f4a8c15",
  requestId: "9b3e6d1a-7c2f-4e8b-a5d0-3f1c6b9e2a47",
  userId: "u-7f3a9c",
  userEmail: "alice@example.com",
  claims: { tier: "gold", region: "eu-west-1", team: "payments" },
};
export const agent = { name: "support-agent", namespace: "prod", provider: "claude", model: "claude-sonnet" };
export const ARGS = '{"city":"Paris","units":"metric","days":3}';

/** The `get_weather` http handler, POST to `url`. */
export function weatherRegistry(url: string): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool: { name: get_weather, description: Current weather and forecast, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${url}
      method: POST
`);
}

/** `get_weather` with a typical schema (a required string, an enum, an integer with bounds), POST to `url`: the turn benchmarks' tool. */
export function turnWeatherRegistry(url: string): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool:
      name: get_weather
      description: Current weather and forecast
      inputSchema:
        type: object
        properties:
          city: { type: string, minLength: 1 }
          units: { type: string, enum: [metric, imperial] }
          days: { type: integer, minimum: 1, maximum: 14 }
          i: { type: integer }
        required: [city]
    httpConfig:
      endpoint: ${url}
      method: POST
`);
}

/** The JSON body the weather backends answer with. */
export const WEATHER_RESPONSE = '{"city":"Paris","temperature":21.5,"unit":"C","forecast":[{"day":1,"high":23},{"day":2,"high":19}]}';

/** A keep-alive node:http backend on 127.0.0.1 that reads each request and answers 200 with {@link WEATHER_RESPONSE}. */
export async function startWeatherBackend(onRequest: () => void = () => {}): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on("end", () => {
      onRequest();
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(WEATHER_RESPONSE) });
      res.end(WEATHER_RESPONSE);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/weather`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `wire` sent through undici's lowest-level API, `dispatch()`, with a bare handler that collects the body's chunks
 * (no cap, no abort, no redirects) and parses the JSON: the floor of any client built on undici.
 */
export function bareDispatch(dispatcher: Dispatcher, wire: { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string | undefined }): () => Promise<void> {
  const target = new URL(wire.url);
  const utf8 = new TextDecoder();
  return () =>
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
            if (status !== 200 || value.city !== "Paris") reject(new Error("bench: dispatch call failed"));
            else resolve();
          },
          onResponseError: (_c, e) => reject(e),
        },
      );
    });
}

/** The repository's root, whether a bench runs from source (bench/) or compiled (.bench-out/bench/). */
const ROOT = fileURLToPath(new URL(import.meta.url.endsWith(".js") ? "../../" : "../", import.meta.url));
const STDIO_ARGS = ["--import", "tsx", `${ROOT}test/fixtures/mcp-stdio-server.ts`];

/**
 * The stdio MCP test server (test/fixtures/mcp-stdio-server.ts) run from the repository's root, from any cwd. The
 * fixture is TypeScript (test/fixtures is not compiled with the benches), so the child runs it through tsx.
 * `spawn` is for the SDK's StdioClientTransport, `mcpConfig` for createMcpToolClient, `manifest` (one handler,
 * "bench") for loadToolRegistry.
 */
export const STDIO_SERVER = {
  spawn: { command: process.execPath, args: STDIO_ARGS, cwd: ROOT },
  mcpConfig: { transport: "stdio" as const, command: process.execPath, args: STDIO_ARGS, workDir: ROOT },
  manifest: `handlers:\n  - name: bench\n    type: mcp\n    mcpConfig: { transport: stdio, command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify(STDIO_ARGS)}, workDir: ${JSON.stringify(ROOT)} }\n`,
};
