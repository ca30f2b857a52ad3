// Shared by the model-SDK adapter tests: a real HTTP tool backend on 127.0.0.1
// (get_weather: {"temp":21} for Paris, 503 "down" for Oslo), a client tool
// (get_location), an executor over both, and a loopback "model API" server
// that answers each request with the next canned JSON body.
import { after } from "node:test";
import type { IncomingHttpHeaders } from "node:http";
import { createToolExecutor, loadPromptPack, loadToolRegistry, type ToolExecutor } from "../../src/index.js";
import { MemoryRecorder, httpReply, startHttpToolBackend, type HttpToolBackend } from "../../src/testing/index.js";
import { startHttpServer, type TestServer } from "../helpers/http-server.js";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

export const WEATHER_SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

export interface Tools {
  readonly backend: HttpToolBackend;
  readonly executor: ToolExecutor;
  readonly recorder: MemoryRecorder;
}

/**
 * The pack the snippets pass: prompt `support` declares get_weather and get_location; convert_currency is
 * served but declared only by `billing`, so a `support` turn never offers it.
 */
export const PACK = loadPromptPack({ prompts: { support: { tools: ["get_weather", "get_location"] }, billing: { tools: ["convert_currency"] } } });

/** What the snippets' `answer` takes besides the client: the pack, the prompt and the caller. */
export const SESSION = { pack: PACK, prompt: "support", identity: { userId: "u-1" } };

/** The weather backend and an executor serving get_weather (http), get_location (client) and convert_currency (http, not in `support`). */
export async function weatherTools(options: { readonly backend?: Parameters<typeof startHttpToolBackend>[0] } = {}): Promise<Tools> {
  const backend = await startHttpToolBackend(
    options.backend ?? {
      routes: {
        "POST /weather": (req) => ((req.json as { city?: string }).city === "Oslo" ? httpReply({ status: 503, text: "down" }) : { temp: 21, city: (req.json as { city?: string }).city ?? "" }),
      },
    },
  );
  return weatherExecutor(backend, true);
}

export interface ModelApi {
  readonly server: TestServer;
  readonly url: string;
  /** The JSON bodies of the requests received, in order. */
  bodies(): unknown[];
  readonly headers: IncomingHttpHeaders[];
}

/** A loopback model API: request n gets `replies[n]` as a JSON 200 (a 500 past the end). */
export async function modelApi(replies: readonly unknown[]): Promise<ModelApi> {
  const headers: IncomingHttpHeaders[] = [];
  const server = await startHttpServer((req, res, index) => {
    headers.push(req.headers);
    const reply = replies[index];
    res.statusCode = reply === undefined ? 500 : 200;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(reply ?? { error: { message: `no canned reply ${index}` } }));
  });
  closers.push(() => server.close());
  return { server, url: server.url, headers, bodies: () => server.requests.map((r) => JSON.parse(r.body.toString("utf8")) as unknown) };
}

/** An executor whose one tool, get_weather, always fails (HTTP 503 "down"): two failures and the turn offers nothing. */
export async function failingWeather(): Promise<Tools> {
  return weatherExecutor(await startHttpToolBackend({ routes: { "POST /weather": () => httpReply({ status: 503, text: "down" }) } }), false);
}

/** An executor serving get_weather on `backend`, and the client tool get_location when `withLocation`. */
async function weatherExecutor(backend: HttpToolBackend, withLocation: boolean): Promise<Tools> {
  closers.push(() => backend.close());
  const registry = loadToolRegistry(`handlers:
  - name: weather
    type: http
    tool:
      name: get_weather
      description: Current weather for a city.
      inputSchema: { type: object, properties: { city: { type: string } }, required: [city] }
    httpConfig: { endpoint: "${backend.url}/weather", method: POST }
${
  withLocation
    ? `  - name: location
    type: client
    tool: { name: get_location, description: The user's location., inputSchema: { type: object } }
  - name: currency
    type: http
    tool: { name: convert_currency, description: Converts money., inputSchema: { type: object } }
    httpConfig: { endpoint: "${backend.url}/fx", method: POST }
`
    : ""
}`);
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry, recorder, random: () => 0.5 });
  closers.push(() => executor.close());
  return { backend, executor, recorder };
}
