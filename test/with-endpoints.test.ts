// withEndpoints (issue #36 part 4): one production registry, its handlers
// pointed at loopback test servers of every kind, each call made as production
// would make it (paths, static headers, queries kept), without editing text.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../src/manifest/index.js";
import { withEndpoints } from "../src/testing.js";
import { createToolExecutor } from "../src/executor/index.js";
import { InvalidOptionError } from "../src/core/index.js";
import { createManualClock, startGrpcToolBackend, startHttpToolBackend } from "../src/testing/index.js";
import { startMcpHttpServer } from "./helpers/mcp-server.js";
import { startOpenApiServer } from "./helpers/openapi-server.js";

const PRODUCTION = `apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: support, namespace: agents }
spec:
  handlers:
    - name: weather
      type: http
      tool: { name: get_weather, description: Weather, inputSchema: { type: object } }
      httpConfig:
        endpoint: https://weather.example.com/v2/current?units=metric
        method: GET
        headers: { X-Client: omnia }
    - name: users
      type: http
      tool: { name: get_user, description: A user, inputSchema: { type: object, properties: { id: { type: string } } } }
      httpConfig:
        endpoint: https://users.example.com/v1/users
        urlTemplate: https://users.example.com/v1/users/{id}
        method: GET
    - name: billing
      type: grpc
      tool: { name: charge, description: Charges, inputSchema: { type: object } }
      grpcConfig: { endpoint: billing.internal:50051 }
    - name: files
      type: mcp
      mcpConfig: { transport: streamable-http, endpoint: https://mcp.example.com/mcp }
    - name: pets
      type: openapi
      openAPIConfig: { specURL: https://pets.example.com/openapi.json }
    - name: browser
      type: client
      tool: { name: locate, description: Where the user is, inputSchema: { type: object } }
`;

test("withEndpoints points http, grpc, mcp and openapi handlers at real loopback servers and keeps everything else", async () => {
  const http = await startHttpToolBackend({ routes: { "GET /v2/current": { temp: 21 }, "GET /v1/users/*": (req) => ({ path: req.path }) } });
  const grpc = await startGrpcToolBackend({ charge: { description: "Charges", inputSchema: { type: "object" }, execute: () => ({ charged: true }) } });
  const mcp = await startMcpHttpServer({ transport: "streamable-http", tools: [{ name: "read_file", call: () => ({ content: [{ type: "text", text: "hello" }] }) }] });
  const pets = await startOpenApiServer();
  after(async () => {
    await Promise.all([http.close(), grpc.close(), mcp.close(), pets.close()]);
  });
  const production = loadToolRegistry(PRODUCTION);
  const registry = withEndpoints(production, { weather: http.url, users: http.url, billing: grpc.endpoint, files: mcp.url, pets: pets.url });

  // Everything but the targets is the production registry's.
  assert.equal(registry.name, "support");
  assert.equal(registry.namespace, "agents");
  assert.deepEqual(registry.tools, production.tools);
  const weather = registry.getHandler("weather");
  assert.ok(weather?.type === "http");
  assert.equal(weather.endpoint, `${http.url}/v2/current?units=metric`);
  assert.deepEqual({ ...weather.httpConfig, endpoint: "" }, { ...(production.getHandler("weather") as typeof weather).httpConfig, endpoint: "" });
  assert.equal(Object.isFrozen(weather.httpConfig), true);
  // The production registry is untouched.
  assert.equal(production.getHandler("weather")?.endpoint, "https://weather.example.com/v2/current?units=metric");

  const executor = createToolExecutor({ registry, clock: createManualClock(0) });
  after(() => executor.close());
  const results = [];
  for (const [id, name, args] of [
    ["1", "get_weather", "{}"],
    ["2", "get_user", '{"id":"u 7"}'],
    ["3", "charge", "{}"],
    ["4", "read_file", "{}"],
    ["5", "getPetById", '{"petId":1}'],
  ] as const) {
    if (name === "read_file" || name === "getPetById") await executor.listTools();
    const out = await executor.execute({ id, name, arguments: args });
    results.push(out.status === "success" ? out.resultJson : `${out.status}: ${"message" in out ? out.message : ""}`);
  }
  assert.deepEqual(results.slice(0, 4), ['{"temp":21}', '{"path":"/v1/users/u%207"}', '{"charged":true}', '"hello"']);
  assert.equal(results[4]?.startsWith("{"), true, results[4]);
  assert.deepEqual(http.requests.map((r) => [r.method, r.url, r.headers["x-client"]]), [
    ["GET", "/v2/current?units=metric", "omnia"],
    ["GET", "/v1/users/u%207", undefined],
  ]);
  assert.equal(grpc.calls.length, 1);
  assert.deepEqual(pets.apiRequests().map((r) => r.url), ["/v1/pets/1"]);
});

test("a URL with a path replaces the whole endpoint; a bare host:port is http; the errors name the handler", () => {
  const production = loadToolRegistry(PRODUCTION);
  const r = withEndpoints(production, { weather: "http://127.0.0.1:8080/other?x=1", billing: "127.0.0.1:5050", pets: "http://127.0.0.1:9/spec.yaml" });
  assert.equal(r.getHandler("weather")?.endpoint, "http://127.0.0.1:8080/other?x=1");
  const billing = r.getHandler("billing");
  assert.ok(billing?.type === "grpc");
  assert.equal(billing.grpcConfig.endpoint, "127.0.0.1:5050");
  const petsHandler = r.getHandler("pets");
  assert.ok(petsHandler?.type === "openapi");
  assert.equal(petsHandler.openAPIConfig.specURL, "http://127.0.0.1:9/spec.yaml");
  const bad = (endpoints: unknown, message: string) => assert.throws(() => withEndpoints(production, endpoints as never), (e: unknown) => e instanceof InvalidOptionError && e.message === message);
  bad({ wether: "http://x" }, 'withEndpoints: the registry has no handler "wether"; its handlers are "weather", "users", "billing", "files", "pets", "browser"');
  bad({ browser: "http://x" }, 'withEndpoints: handler "browser" is a client handler; the client runs its tool, there is no endpoint');
  bad({ weather: "file:///etc/passwd" }, 'withEndpoints: the URL of "weather" must be http or https; got "file:"');
  bad({ weather: 5 }, 'withEndpoints: the URL of "weather" must be a string; got number');
  bad({ weather: "http://[::1" }, 'withEndpoints: the URL of "weather" is not a URL; got "http://[::1"');
  bad(null, "withEndpoints: endpoints must be an object of URLs by handler name; got null");
  const stdio = loadToolRegistry("handlers:\n  - name: local\n    type: mcp\n    mcpConfig: { transport: stdio, command: node }\n");
  assert.throws(() => withEndpoints(stdio, { local: "http://x" }), (e: unknown) => e instanceof InvalidOptionError && e.message === 'withEndpoints: handler "local" is a stdio MCP server; it has no endpoint to point elsewhere');
});
