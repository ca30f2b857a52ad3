// checkBackend and `omnia-tools backend-check` (issue #36 part 3): real backends on
// 127.0.0.1 (node:http through the test kit, connect-node gRPC, the official MCP SDK
// server), each written to break one rule of the tool backend contract, and a
// good one of each that passes every check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadToolRegistry } from "../src/index.js";
import {
  checkBackend,
  createManualClock,
  httpReply,
  mcpResult,
  startGrpcToolBackend,
  startHttpToolBackend,
  startMcpToolBackend,
  type BackendCheckReport,
  type HttpBackendRequest,
} from "../src/testing.js";
import { closedPortUrl, until } from "./helpers/policy-broker.js";
import { omniaTools } from "./helpers/cli.js";
import { startOpenApiServer } from "./helpers/openapi-server.js";

/** The health probe waits 120 s, not 5: a loaded machine must not turn a probe into a failed check. */
const PROBE = "probe: { enabled: true, timeout: 120s }\n";

/** Each result as `STATUS handler/tool check: reason`, latencies as `<n>ms`. */
function lines(report: BackendCheckReport): string[] {
  return report.results.map((r) => `${r.status.toUpperCase()} ${r.handler}${r.tool === undefined ? "" : `/${r.tool}`} ${r.check}: ${r.reason.replace(/\b\d+ms\b/g, "<n>ms")}`);
}

const CITY = "{ type: object, properties: { city: { type: string } }, required: [city] }";

function httpHandler(name: string, url: string, extra = "", tool = name, schema = CITY): string {
  return `  - name: ${name}
    type: http
    tool: { name: ${tool}, description: d, inputSchema: ${schema} }
    httpConfig: { endpoint: "${url}/${name}"${extra} }
`;
}

/** A route that answers a call with a city, and 400 without one. */
function weather(request: HttpBackendRequest) {
  if (request.method === "HEAD") return httpReply({ status: 405 });
  const city = (request.json as { city?: unknown } | null)?.city;
  return typeof city === "string" ? { city, temp: 21 } : httpReply({ status: 400, text: "city is required" });
}

test("a backend that keeps the contract passes every check, over HTTP, gRPC and MCP", async () => {
  const http = await startHttpToolBackend({ routes: { "/weather": weather } });
  const grpc = await startGrpcToolBackend({ lookup: { description: "d", inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, execute: (a: { id: string }) => ({ id: a.id }) } });
  const mcp = await startMcpToolBackend({
    add: { description: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, result: (a) => (typeof a["a"] === "number" ? { sum: (a["a"] as number) + (a["b"] as number) } : mcpResult({ isError: true, content: [{ type: "text", text: "a and b are required" }] })) },
  });
  const registry = loadToolRegistry(`${PROBE}handlers:
  - name: weather
    type: http
    tool: { name: get_weather, description: d, inputSchema: ${CITY}, outputSchema: { type: object, required: [temp] } }
    httpConfig: { endpoint: "${http.url}/weather" }
  - name: orders
    type: grpc
    tool: { name: lookup, description: d, inputSchema: { type: object, properties: { id: { type: string } }, required: [id] } }
    grpcConfig: { endpoint: "${grpc.endpoint}" }
  - name: calc
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
  - name: ui
    type: client
    tool: { name: pick, description: d, inputSchema: { type: object } }
`);
  try {
    const report = await checkBackend(registry);
    assert.deepEqual(lines(report), [
      "PASS weather health: HTTP 405 (<n>ms)",
      "PASS weather/get_weather input-schema: PromptKit compiles it",
      "PASS weather/get_weather valid-call: HTTP 200 with a 28-byte JSON body",
      "PASS weather/get_weather identity-headers: a call carrying 15 x-omnia-* headers was answered",
      "PASS weather/get_weather timeout: answered in <n>ms, inside the handler's timeout of 30s",
      "PASS weather/get_weather output-schema: the result matches the tool's outputSchema",
      'PASS weather/get_weather error-status: HTTP 400 for the required argument "city" left out',
      'PASS weather/get_weather error-body: 16 bytes of plain text; the model sees "HTTP 400: city is required"',
      "PASS orders health: SERVING (<n>ms)",
      'PASS orders list-tools: ListTools lists 1 tool, "lookup" among them',
      "PASS orders/lookup input-schema: PromptKit compiles it",
      "PASS orders/lookup valid-call: Execute answered with a JSON result_json",
      "PASS orders/lookup identity-headers: a call carrying every caller-identity field as metadata was answered",
      "PASS orders/lookup timeout: answered in <n>ms, inside the handler's timeout of 30s",
      'PASS orders/lookup error-status: is_error for the required argument "id" left out',
      `PASS orders/lookup error-body: 88 bytes of plain text; the model sees "tool error: invalid arguments for tool "lookup": (root) must have required property 'id'"`,
      "PASS calc health: ping ok (<n>ms)",
      "PASS calc list-tools: tools/list gave 1 tool: add",
      "PASS calc/add input-schema: PromptKit compiles it",
      "PASS calc/add valid-call: tools/call answered with a result",
      "PASS calc/add timeout: answered in <n>ms, inside the handler's timeout of 30s",
      'PASS calc/add error-status: an error result for the required argument "a" left out',
      'PASS calc/add error-body: 20 bytes of plain text; the model sees "a and b are required"',
      "SKIP ui client: a client tool runs in the user's client; there is no backend to call",
    ]);
    assert.deepEqual([report.ok, report.passed, report.warned, report.failed, report.skipped], [true, 23, 0, 0, 1]);
    // The valid call is the one Omnia makes: the generated arguments, every identity header, the session id.
    const post = http.requests.find((r) => r.method === "POST");
    assert.equal(post?.body, '{"city":"example"}');
    assert.equal(post?.headers["x-omnia-user-email"], "backend-check@example.com");
    assert.equal(post?.headers["x-omnia-claim-tier"], "backend-check");
    assert.equal(post?.headers["x-omnia-session-id"], "backend-check-session");
    assert.equal(post?.headers["x-omnia-tool-name"], "get_weather");
    assert.deepEqual(grpc.calls.map((c) => [c.args, c.headers["x-omnia-user-id"]]), [[{ id: "example" }, "backend-check-user"]]);
  } finally {
    await Promise.all([http.close(), grpc.close(), mcp.close()]);
  }
});

test("HTTP backends that break a rule: each check says what is wrong and how to fix it", async () => {
  let counter = 0;
  const longHtml = `<!DOCTYPE html><html><body>${"x".repeat(600)}</body></html>`;
  const http = await startHttpToolBackend({
    routes: {
      "/text": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : httpReply({ status: 200, text: "sunny" })),
      "/down": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : httpReply({ status: 503, text: "upstream down" })),
      "/picky": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : r.headers["x-omnia-user-email"] !== undefined ? httpReply({ status: 400, text: "unexpected header" }) : weather(r)),
      "/shape": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : { celsius: 21 }),
      "/blame": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : (r.json as { city?: unknown } | undefined)?.city === undefined ? httpReply({ status: 500, headers: { "content-type": "text/html" }, text: longHtml }) : { temp: 1 }),
      "/trace": (r) =>
        r.method === "HEAD" ? httpReply({ status: 200 }) : (r.json as { city?: unknown } | undefined)?.city === undefined ? httpReply({ status: 400, text: "TypeError: x is undefined\n    at handler (/srv/app.js:10:5)" }) : { temp: 1 },
      "/lenient": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : { temp: 1 }),
      "/counter": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : (r.json as { city?: unknown } | undefined)?.city === undefined ? httpReply({ status: 400, text: "city?" }) : { id: ++counter }),
      "/same": weather,
      "/get": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : r.query["city"] === undefined ? httpReply({ status: 400, text: "city?" }) : { temp: 1 }),
      "/sick": (r) => (r.method === "HEAD" ? httpReply({ status: 503, text: "" }) : weather(r)),
      "/missing": (r) => (r.method === "HEAD" ? httpReply({ status: 404, text: "" }) : weather(r)),
    },
  });
  const retry = ", retryPolicy: { maxAttempts: 2 }";
  const registry = loadToolRegistry(
    `${PROBE}handlers:\n${httpHandler("text", http.url)}${httpHandler("down", http.url)}${httpHandler("picky", http.url)}` +
      `  - name: shape
    type: http
    tool: { name: shape, description: d, inputSchema: ${CITY}, outputSchema: { type: object, required: [temp] } }
    httpConfig: { endpoint: "${http.url}/shape" }
` +
      `${httpHandler("blame", http.url)}${httpHandler("trace", http.url)}${httpHandler("lenient", http.url)}${httpHandler("counter", http.url, retry)}${httpHandler("same", http.url, retry)}${httpHandler("get", http.url, `, method: GET${retry}`)}${httpHandler("sick", http.url)}${httpHandler("missing", http.url)}`,
  );
  try {
    const report = await checkBackend(registry);
    const of = (handler: string) => lines({ ...report, results: report.results.filter((r) => r.handler === handler && r.check !== "input-schema" && r.check !== "timeout") });
    assert.deepEqual(of("text"), [
      "PASS text health: HTTP 200 (<n>ms)",
      'FAIL text/text valid-call: HTTP 200 with a 5-byte body that is not JSON (Content-Type text/plain; charset=utf-8); the model gets it wrapped as {"result": "..."}',
      "PASS text/text identity-headers: a call carrying 15 x-omnia-* headers was answered",
      'WARN text/text error-status: a call with the required argument "city" left out was answered as a success; the model learns nothing about its mistake',
    ]);
    assert.deepEqual(of("down").slice(1, 3), [
      'FAIL down/down valid-call: HTTP 503, the backend failed: the model sees "HTTP 503: upstream down"',
      "SKIP down/down identity-headers: not judged: the call fails without the caller-identity headers too",
    ]);
    assert.deepEqual(of("picky").slice(1, 3), [
      'FAIL picky/picky valid-call: HTTP 400 for arguments the schema accepts (a 4xx blames the caller): the model sees "HTTP 400: unexpected header"',
      "FAIL picky/picky identity-headers: the call failed with the caller-identity headers and was answered without them",
    ]);
    assert.deepEqual(of("shape").slice(1, 4), [
      "PASS shape/shape valid-call: HTTP 200 with a 14-byte JSON body",
      "PASS shape/shape identity-headers: a call carrying 15 x-omnia-* headers was answered",
      'FAIL shape/shape output-schema: the result does not match the tool\'s outputSchema; the model sees "Tool execution failed: result validation failed: coercion failed: tool shape validation error (result_invalid): result validation failed: [(root): temp is required]"',
    ]);
    assert.deepEqual(of("blame").slice(3), [
      'WARN blame/blame error-status: HTTP 500 for the required argument "city" left out: a 5xx says the backend failed, counts against the circuit breaker and may be retried',
      `WARN blame/blame error-body: at least ${Buffer.byteLength(longHtml)} bytes, cut at 512 for the model; an HTML page; the model sees "HTTP 500: ${longHtml.slice(0, 512)}..."`,
    ]);
    assert.deepEqual(of("trace").slice(4), ['WARN trace/trace error-body: a stack trace; the model sees "HTTP 400: TypeError: x is undefined\n    at handler (/srv/app.js:10:5)"']);
    assert.deepEqual(of("lenient").slice(3), ['WARN lenient/lenient error-status: a call with the required argument "city" left out was answered as a success; the model learns nothing about its mistake']);
    assert.deepEqual(of("counter").slice(5), ["WARN counter/counter retry-policy: POST is not idempotent by HTTP's rules, and the same call was answered differently the second time (8 bytes, then 8 bytes): a retried call may act twice"]);
    assert.deepEqual(of("same").slice(5), ["PASS same/same retry-policy: POST is not idempotent by HTTP's rules, and the same call was answered the same twice: it looks safe to retry"]);
    assert.deepEqual(of("get").slice(5), ["PASS get/get retry-policy: GET is idempotent by HTTP's rules, so a retry is safe"]);
    assert.deepEqual(of("sick")[0], "FAIL sick health: unhealthy: health check: HTTP 503 (<n>ms)");
    assert.deepEqual(of("missing")[0], "WARN missing health: HEAD of the endpoint answered HTTP 404 (<n>ms): healthy as Omnia counts it (below 500), but the path may be wrong");
    const fix = (handler: string, check: string) => report.results.find((r) => r.handler === handler && r.check === check)?.fix;
    assert.equal(fix("text", "valid-call"), "answer a valid call with a JSON body (Content-Type: application/json)");
    assert.equal(fix("picky", "identity-headers"), "accept (or ignore) every x-omnia-* header, whatever its value; check any limit on header count or size");
    assert.equal(fix("blame", "error-status"), "answer 400 or 422 for arguments you cannot use");
    assert.equal(fix("sick", "health"), "answer a HEAD of the endpoint with a status below 500");
    assert.equal(report.ok, false);
  } finally {
    await http.close();
  }
});

test("the timeout check: no answer within the handler's timeout fails, one past half of it warns (manual clock)", async () => {
  const clock = createManualClock();
  const http = await startHttpToolBackend({
    clock,
    routes: { "HEAD /hang": httpReply({ status: 200 }), "POST /hang": { temp: 1 }, "HEAD /slow": httpReply({ status: 200 }), "POST /slow": { temp: 1 } },
    faults: { "POST /hang": { kind: "hang", calls: [1] }, "POST /slow": { kind: "latency", ms: 700, calls: [1] } },
  });
  const registry = loadToolRegistry(`${PROBE}handlers:\n${httpHandler("hang", http.url).replace("    type: http", "    type: http\n    timeout: 1s")}${httpHandler("slow", http.url).replace("    type: http", "    type: http\n    timeout: 1s")}`);
  try {
    const posts = (path: string) => http.requests.filter((r) => r.method === "POST" && r.path === path).length;
    const running = checkBackend(registry, { clock });
    await until(() => posts("/hang") === 1, "the first call to /hang");
    await clock.advanceAsync(1000);
    await until(() => posts("/slow") === 1, "the first call to /slow");
    await clock.advanceAsync(700);
    const report = await running;
    const timeouts = report.results.filter((r) => r.check === "timeout" || r.check === "valid-call");
    assert.deepEqual(
      timeouts.map((r) => [r.handler, r.check, r.status, r.reason]),
      [
        ["hang", "valid-call", "fail", `no answer within the handler's timeout: the model sees "timed out after 1000ms"`],
        ["hang", "timeout", "fail", "no answer within the handler's timeout of 1s"],
        ["slow", "valid-call", "pass", "HTTP 200 with a 10-byte JSON body"],
        ["slow", "timeout", "warn", "answered in 700ms, more than half the handler's timeout of 1s"],
      ],
    );
    assert.equal(report.results.find((r) => r.handler === "hang" && r.check === "timeout")?.fix, "answer faster, or raise the handler's timeout");
  } finally {
    await http.close();
  }
});

test("gRPC backends: is_error for a valid call, an empty result_json (null, as Omnia reads it), INTERNAL for the caller's mistake; an endpoint where nothing listens", async () => {
  const schema = { type: "object", properties: { id: { type: "string" } } };
  const { ConnectError, Code } = await import("@connectrpc/connect");
  const grpc = await startGrpcToolBackend(
    {
      refuses: { description: "d", inputSchema: schema, execute: () => ({ ok: true }) },
      empty: { description: "d", inputSchema: schema, execute: () => undefined },
      internal: {
        description: "d",
        inputSchema: schema,
        execute: (a: { id?: string }) => {
          if (a.id === undefined) throw new ConnectError("nil pointer dereference", Code.Internal);
          return { id: a.id };
        },
      },
    },
    { faults: { refuses: { kind: "is-error", message: "order not found" } } },
  );
  const closed = await closedPortUrl();
  const tool = (name: string, endpoint: string) => `  - name: ${name}
    type: grpc
    tool: { name: ${name}, description: d, inputSchema: { type: object, properties: { id: { type: string } }, required: [id] } }
    grpcConfig: { endpoint: "${endpoint}" }
`;
  const registry = loadToolRegistry(`${PROBE}handlers:\n${tool("refuses", grpc.endpoint)}${tool("empty", grpc.endpoint)}${tool("internal", grpc.endpoint)}${tool("gone", closed.replace("http://", ""))}`);
  try {
    const report = await checkBackend(registry);
    const pick = (handler: string, check: string) => {
      const r = report.results.find((x) => x.handler === handler && x.check === check);
      return r === undefined ? undefined : `${r.status} ${r.reason}`;
    };
    assert.equal(pick("refuses", "valid-call"), 'fail Execute answered is_error for arguments the schema accepts: the model sees "tool error: order not found"');
    assert.equal(pick("empty", "valid-call"), "pass Execute answered with a JSON result_json");
    assert.equal(pick("internal", "error-status"), 'warn status INTERNAL for the required argument "id" left out: it says the backend failed, and counts against the circuit breaker');
    assert.equal(pick("internal", "error-body"), 'pass 23 bytes of plain text; the model sees "gRPC tool execution failed: rpc error: code = Internal desc = nil pointer dereference"');
    assert.match(pick("gone", "health") ?? "", /^fail unhealthy: .*ECONNREFUSED|^fail unhealthy: .*connection refused/);
    assert.match(pick("gone", "valid-call") ?? "", /^fail Execute failed: the model sees "gRPC tool execution failed: rpc error: code = Unavailable desc = /);
    assert.equal(report.results.find((x) => x.handler === "gone" && x.check === "health")?.fix, 'serve grpc.health.v1.Health/Check answering SERVING for the service ""');
  } finally {
    await grpc.close();
  }
});

test("MCP servers: a schema PromptKit cannot compile, an error result for a valid call, a server that is down", async () => {
  const mcp = await startMcpToolBackend({
    broken_schema: { description: "d", inputSchema: { type: "object", properties: { x: { type: "strnig" } } }, result: { ok: true } },
    refuses: { description: "d", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, result: mcpResult({ isError: true, content: [{ type: "text", text: "no such item" }] }) },
  });
  const closed = await closedPortUrl();
  const registry = loadToolRegistry(`${PROBE}handlers:
  - name: srv
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
  - name: gone
    type: mcp
    timeout: 2s
    mcpConfig: { transport: streamable-http, endpoint: "${closed}/mcp" }
`);
  try {
    const report = await checkBackend(registry);
    assert.deepEqual(
      lines(report).filter((l) => !l.includes(" timeout: ") && !l.includes(" error-")),
      [
        "PASS srv health: ping ok (<n>ms)",
        "PASS srv list-tools: tools/list gave 2 tools: broken_schema, refuses",
        'FAIL srv/broken_schema input-schema: PromptKit cannot compile it, so every call fails before it reaches the backend: invalid input schema for tool broken_schema: has a primitive type that is NOT VALID -- given: /strnig/ Expected valid values are:[array boolean integer number null object string]',
        "PASS srv/refuses input-schema: PromptKit compiles it",
        'FAIL srv/refuses valid-call: tools/call answered an error result for arguments the schema accepts: the model sees "no such item"',
        lines(report).find((l) => l.startsWith("FAIL gone health: ")) ?? "missing",
        lines(report).find((l) => l.startsWith("FAIL gone list-tools: ")) ?? "missing",
      ],
    );
    assert.match(lines(report).find((l) => l.startsWith("FAIL gone list-tools: ")) ?? "", /^FAIL gone list-tools: tools\/list failed: /);
    assert.equal(report.ok, false);
  } finally {
    await mcp.close();
  }
});

test("args: given arguments are sent as they are; ones the schema refuses fail; arguments for a tool nobody serves fail", async () => {
  const http = await startHttpToolBackend({ routes: { "/weather": weather } });
  const registry = loadToolRegistry(`${PROBE}handlers:\n${httpHandler("weather", http.url)}`);
  try {
    const report = await checkBackend(registry, { args: { weather: '{"city":"Lisbon"}', nope: {} } });
    assert.equal(http.requests.find((r) => r.method === "POST")?.body, '{"city":"Lisbon"}');
    assert.deepEqual(report.results.at(-1), { handler: "", handlerType: "", tool: "nope", check: "arguments", status: "fail", reason: "arguments were given for a tool that none of the checked handlers serves", fix: "name a tool the handlers serve (omnia-tools probe --target lists discovered tools)" });
    const bad = await checkBackend(registry, { args: { weather: { city: 7 } } });
    assert.deepEqual(lines(bad).slice(2), ["FAIL weather/weather arguments: the arguments given fail the tool's schema, so PromptKit would not send them: tool weather validation error (args_invalid): argument validation failed: [city: Invalid type. Expected: string, given: integer]"]);
    await assert.rejects(checkBackend(registry, { handler: "other" }), { code: "ERR_OMNIA_INVALID_OPTION", message: 'checkBackend: the registry has no handler "other"; its handlers are "weather"' });
    await assert.rejects(checkBackend(registry, { bogus: 1 } as never), { code: "ERR_OMNIA_INVALID_OPTION", message: 'checkBackend: unknown option "bogus"; the options are handler, args, identity, agent, secrets, workloadIdentity, dispatcher, clock, logger' });
  } finally {
    await http.close();
  }
});

test("omnia-tools backend-check: a table with the fixes, exit 0 when nothing fails and 1 when something does; --handler, --args, --json; usage errors exit 2", async () => {
  const http = await startHttpToolBackend({ routes: { "/weather": weather, "/text": (r) => (r.method === "HEAD" ? httpReply({ status: 200 }) : httpReply({ status: 200, text: "sunny" })) } });
  const dir = await mkdtemp(join(tmpdir(), "omnia-backend-check-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(file, `${PROBE}handlers:\n${httpHandler("weather", http.url)}${httpHandler("text", http.url)}`);
    // Six runs of the CLI at once: each is a child process; the handlers they check are their own.
    const [good, bad, json, usage, badJson, noHandler] = await Promise.all([
      omniaTools("backend-check", "--registry", file, "--handler", "weather", "--args", 'weather={"city":"Oslo"}'),
      omniaTools("backend-check", "--registry", file, "--handler", "text"),
      omniaTools("backend-check", "--registry", file, "--handler", "text", "--json"),
      omniaTools("backend-check", "--registry", file, "--args", "weather"),
      omniaTools("backend-check", "--registry", file, "--args", "weather={"),
      omniaTools("backend-check", "--registry", file, "--handler", "zzz"),
    ]);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(
      good.stdout.replace(/\b\d+ms\b/g, "<n>ms").replace(/ +\n/g, "\n"),
      [
        "RESULT  HANDLER  TOOL     CHECK             REASON",
        "PASS    weather           health            HTTP 405 (<n>ms)",
        "PASS    weather  weather  input-schema      PromptKit compiles it",
        "PASS    weather  weather  valid-call        HTTP 200 with a 25-byte JSON body",
        "PASS    weather  weather  identity-headers  a call carrying 15 x-omnia-* headers was answered",
        "PASS    weather  weather  timeout           answered in <n>ms, inside the handler's timeout of 30s",
        'PASS    weather  weather  error-status      HTTP 400 for the required argument "city" left out',
        'PASS    weather  weather  error-body        16 bytes of plain text; the model sees "HTTP 400: city is required"',
        "",
        "7 passed, 0 warned, 0 failed, 0 skipped",
        "",
      ].join("\n"),
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /\nFixes:\n {2}FAIL text text valid-call: answer a valid call with a JSON body \(Content-Type: application\/json\)\n {2}WARN text text error-status: answer arguments you cannot use with an error that says what is wrong \(HTTP 400 or 422, is_error, an MCP error result\)\n\n4 passed, 1 warned, 1 failed, 0 skipped\n$/);
    assert.equal(json.code, 1);
    const parsed = JSON.parse(json.stdout) as BackendCheckReport & { file: string };
    assert.deepEqual([parsed.file, parsed.ok, parsed.passed, parsed.warned, parsed.failed, parsed.skipped, parsed.results.length], [file, false, 4, 1, 1, 0, 6]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--args takes <tool>=<json>; got "weather"/);
    assert.equal(badJson.code, 2);
    assert.match(badJson.stderr, /--args weather: not valid JSON: /);
    assert.equal(noHandler.code, 2);
    assert.match(noHandler.stderr, /no handler named "zzz" in /);
  } finally {
    await http.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("OpenAPI: every operation the document gives is called as Omnia calls it, and judged", async () => {
  const pets = await startOpenApiServer();
  const registry = loadToolRegistry(`${PROBE}handlers:
  - name: pets
    type: openapi
    openAPIConfig: { specURL: "${pets.specURL}", operationFilter: [getPetById, addPet] }
`);
  try {
    const report = await checkBackend(registry);
    assert.deepEqual(lines(report), [
      "PASS pets health: HTTP 200 (<n>ms)",
      "PASS pets list-tools: the OpenAPI document gave 2 tools: getPetById, addPet",
      "PASS pets/getPetById input-schema: PromptKit compiles it",
      "PASS pets/getPetById valid-call: HTTP 200 with a 23-byte JSON body",
      "PASS pets/getPetById identity-headers: a call carrying 15 x-omnia-* headers was answered",
      "PASS pets/getPetById timeout: answered in <n>ms, inside the handler's timeout of 30s",
      'WARN pets/getPetById error-status: a call with the required argument "petId" left out was answered as a success; the model learns nothing about its mistake',
      "PASS pets/addPet input-schema: PromptKit compiles it",
      "PASS pets/addPet valid-call: HTTP 201 with a 30-byte JSON body",
      "PASS pets/addPet identity-headers: a call carrying 15 x-omnia-* headers was answered",
      "PASS pets/addPet timeout: answered in <n>ms, inside the handler's timeout of 30s",
      'WARN pets/addPet error-status: a call with the required argument "name" left out was answered as a success; the model learns nothing about its mistake',
    ]);
    // The example arguments went where the document puts them: the path parameter, the JSON body.
    // Without petId the placeholder stays in the path, escaped, as Omnia sends it; an empty object sends no body.
    assert.deepEqual(
      pets.apiRequests().map((r) => `${r.method} ${r.url} ${r.body.toString("utf8")}`),
      ["GET /v1/pets/1 ", "GET /v1/pets/%7BpetId%7D ", 'POST /v1/pets {"name":"example"}', "POST /v1/pets "],
    );
  } finally {
    await pets.close();
  }
});

test("MCP: a JSON-RPC error for arguments the schema refuses warns (Omnia retries it and counts it against the breaker); on a valid call it is named as such", async () => {
  const mcp = await startMcpToolBackend(
    {
      add: { description: "d", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] }, result: { sum: 1 } },
      rpc: { description: "d", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] }, result: { sum: 1 } },
    },
    { faults: { add: { kind: "error", code: -32602, message: "Invalid params: a is required", calls: [2] }, rpc: { kind: "error", code: -32603, message: "boom" } } },
  );
  const registry = loadToolRegistry(`${PROBE}handlers:\n  - name: srv\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }\n`);
  try {
    const report = await checkBackend(registry);
    const pick = (tool: string, check: string) => report.results.find((r) => r.tool === tool && r.check === check);
    assert.deepEqual([pick("add", "error-status")?.status, pick("add", "error-status")?.reason], [
      "warn",
      'a JSON-RPC error (-32602) for the required argument "a" left out: Omnia reads it as a transport failure, so it counts against the circuit breaker and a retryPolicy retries it',
    ]);
    assert.equal(pick("add", "error-status")?.fix, "answer arguments you cannot use with a CallToolResult with isError: true and a short text");
    assert.deepEqual([pick("rpc", "valid-call")?.status, pick("rpc", "valid-call")?.reason], ["fail", 'tools/call answered a JSON-RPC error (-32603) for arguments the schema accepts: the model sees "MCP tool call failed: MCP error -32603: boom"']);
  } finally {
    await mcp.close();
  }
});

test("HTTP: a 204 fails the valid call but its identity headers were accepted; the timeout is judged on the last attempt, not the retry's backoff (manual clock)", async () => {
  const clock = createManualClock();
  const http = await startHttpToolBackend({
    clock,
    routes: { "HEAD /empty": httpReply({ status: 200 }), "POST /empty": httpReply({ status: 204 }), "HEAD /retry": httpReply({ status: 200 }), "POST /retry": weather },
    faults: { "POST /retry": { kind: "status", status: 503, calls: [1] } },
  });
  const registry = loadToolRegistry(
    `${PROBE}handlers:\n${httpHandler("empty", http.url)}${httpHandler("retry", http.url, ", retryPolicy: { maxAttempts: 2, initialBackoff: 1500ms, maxBackoff: 1500ms }").replace("    type: http", "    type: http\n    timeout: 2s")}`,
  );
  try {
    const running = checkBackend(registry, { clock });
    const attempts = () => http.requests.filter((r) => r.path === "/retry" && r.method === "POST").length;
    await until(() => attempts() === 1, "the first attempt");
    // Through the backoff 10 ms at a time: the second attempt starts within 10 ms of the clock's time and is answered at once.
    for (let i = 0; i < 200 && attempts() < 2; i++) {
      await clock.advanceAsync(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = await running;
    const of = (handler: string, check: string) => report.results.filter((r) => r.handler === handler && r.check === check).map((r) => `${r.status} ${r.reason}`);
    assert.deepEqual(of("empty", "valid-call"), ['fail HTTP 204 with a 0-byte body that is not JSON (no Content-Type); the model gets it wrapped as {"result": "..."}']);
    assert.deepEqual(of("empty", "identity-headers"), ["pass a call carrying 15 x-omnia-* headers was answered"]);
    assert.deepEqual(of("retry", "valid-call"), ["pass HTTP 200 with a 28-byte JSON body"]);
    const [timeout] = of("retry", "timeout");
    const ms = Number(/^pass answered in (\d+)ms, inside the handler's timeout of 2s$/.exec(timeout ?? "")?.[1] ?? "NaN");
    assert.ok(ms <= 10, timeout);
  } finally {
    await http.close();
  }
});

test("omnia-tools backend-check: a tool name with line breaks prints as one escaped cell, and a long one is cut to 64 characters", async () => {
  const long = "n".repeat(200);
  const mcp = await startMcpToolBackend({ ["ok\nPASS  srv  fake  valid-call  all good"]: { description: "d", inputSchema: { type: "object" }, result: { ok: true } }, [long]: { description: "d", inputSchema: { type: "object" }, result: { ok: true } } });
  const dir = await mkdtemp(join(tmpdir(), "omnia-backend-check-names-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(file, `${PROBE}handlers:\n  - name: srv\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }\n`);
    const run = await omniaTools("backend-check", "--registry", file);
    const rows = run.stdout.split("\n").filter((l) => /^(PASS|WARN|FAIL|SKIP) /.test(l));
    assert.equal(rows.filter((l) => l.includes("fake")).every((l) => l.includes("ok\\nPASS  srv  fake  valid-call  all good")), true, run.stdout);
    assert.equal(rows.filter((l) => /^PASS +srv +fake/.test(l)).length, 0);
    assert.equal(rows.filter((l) => l.includes(`${"n".repeat(61)}...`)).length > 0, true);
    // The TOOL column is no wider than 64: the header's CHECK starts right after it.
    const header = run.stdout.split("\n")[0] ?? "";
    assert.equal(header.indexOf("CHECK"), "RESULT  HANDLER  ".length + 64 + 2, header);
  } finally {
    await mcp.close();
    await rm(dir, { recursive: true, force: true });
  }
});
