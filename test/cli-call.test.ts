// `omnia-tools call` (issue #12): one call through the real executor against
// loopback backends from omnia-tools/testing, run as a child process; the
// --timeout override and the progress line in-process on a manual clock.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callCommand } from "../src/cli/call-command.js";
import type { CliIo } from "../src/cli/index.js";
import { createManualClock, startGrpcToolBackend, startHttpToolBackend, type GrpcToolBackend, type HttpToolBackend } from "../src/testing.js";
import { startMcpHttpServer, type McpHttpTestServer } from "./helpers/mcp-server.js";
import { STANDARD_TOOLS } from "./helpers/mcp-tools.js";
import { omniaTools } from "./helpers/cli.js";
import type { JsonValue } from "../src/core/index.js";


/** Durations and start times vary from run to run. */
function stable(text: string): string {
  return text
    .replace(/^( {2}(?:duration|durationMs) +)\d+(ms)?$/gm, "$1<n>$2")
    .replace(/^( {2}startedAt +)\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m, "$1<time>");
}

let dir = "";
let http: HttpToolBackend;
let grpc: GrpcToolBackend;
let mcp: McpHttpTestServer;
const file = (name: string): string => join(dir, name);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "omnia-tools-call-"));
  http = await startHttpToolBackend({
    routes: {
      "GET /weather": (req) => ({ city: req.query["city"] ?? null, tempC: 21, user: req.headers["x-omnia-user-id"] ?? null }),
      "/down": {},
      "/slow": {},
      "POST /forecast": (req) => ({ got: req.json as JsonValue }),
    },
    faults: { "/down": { kind: "status", status: 503 }, "/slow": { kind: "hang" } },
  });
  grpc = await startGrpcToolBackend({
    lookup_order: {
      description: "Look up an order",
      inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
      execute: (args: { orderId: string }) => {
        if (args.orderId === "missing") throw new Error("no such order");
        return { orderId: args.orderId, status: "shipped" };
      },
    },
  });
  mcp = await startMcpHttpServer({ transport: "streamable-http", tools: STANDARD_TOOLS.filter((t) => t.name === "echo" || t.name === "fail") });
  await writeFile(
    file("registry.yaml"),
    `apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: loopback }
spec:
  handlers:
    - name: weather-api
      type: http
      tool: { name: get_weather, description: Weather, inputSchema: { type: object } }
      httpConfig: { endpoint: "${http.url}/weather", method: GET }
    - name: flaky
      type: http
      tool: { name: flaky_tool, description: Always 503, inputSchema: { type: object } }
      httpConfig: { endpoint: "${http.url}/down" }
    - name: slow
      type: http
      tool: { name: slow_tool, description: Never answers, inputSchema: { type: object } }
      httpConfig: { endpoint: "${http.url}/slow" }
    - name: orders
      type: grpc
      tool: { name: lookup_order, description: Orders, inputSchema: { type: object } }
      grpcConfig: { endpoint: "${grpc.endpoint}" }
    - name: forecast-api
      type: http
      tool:
        name: forecast
        description: Forecast
        inputSchema: { type: object, properties: { city: { type: string }, days: { type: integer } }, required: [city] }
      httpConfig: { endpoint: "${http.url}/forecast" }
    - name: browser
      type: client
      tool: { name: get_location, description: Location, inputSchema: { type: object } }
    - name: docs
      type: mcp
      mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`,
  );
  await writeFile(file("bad.yaml"), "handlers:\n  - name: h\n    type: http\n    httpConfig: { endpoint: 'http://x' }\n");
  await writeFile(file("identity.json"), JSON.stringify({ userId: "u-42", sessionId: "s-1", claims: { tier: "gold" } }));
  await writeFile(file("bad-identity.json"), JSON.stringify({ userId: "u-42", token: "secret" }));
});

after(async () => {
  await http.close();
  await grpc.close();
  await mcp.close();
  await rm(dir, { recursive: true, force: true });
});

describe("omnia-tools call, as a child process", { concurrency: true }, () => {
  test("success over HTTP: exit 0, the outcome and the record", async () => {
    const run = await omniaTools("call", "--registry", file("registry.yaml"), "get_weather", '{"city":"Paris"}');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.equal(
      stable(run.stdout),
      [
        "Outcome: success",
        "  tool          get_weather",
        "  handler type  http",
        "  duration      <n>ms",
        '  result        {"city":"Paris","tempC":21,"user":null}',
        "",
        "Model sees:",
        "  {",
        '    "city": "Paris",',
        '    "tempC": 21,',
        '    "user": null',
        "  }",
        "",
        "Record:",
        "  callId       call-1",
        "  toolName     get_weather",
        "  handlerName  weather-api",
        "  handlerType  http",
        "  execution    server",
        "  status       success",
        '  arguments    {"city":"Paris"}',
        // The record holds what the model was shown, as Omnia's session row does under the turn stage.
        '  result       "{\\n  \\"city\\": \\"Paris\\",\\n  \\"tempC\\": 21,\\n  \\"user\\": null\\n}"',
        "  startedAt    <time>",
        "  durationMs   <n>",
        "  attempts     1",
        "",
      ].join("\n"),
    );
  });

  test("success over gRPC with --json and --identity: the identity reaches the backend", async () => {
    const run = await omniaTools("call", "--registry", file("registry.yaml"), "--identity", file("identity.json"), "--json", "lookup_order", '{"orderId":"A-1"}');
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { outcome: Record<string, unknown>; record: Record<string, unknown>; modelSees: unknown };
    const shown = '{\n  "orderId": "A-1",\n  "status": "shipped"\n}';
    assert.deepEqual(out.modelSees, { content: shown, isError: false });
    const { durationMs: d1, ...outcome } = out.outcome;
    const { durationMs: d2, startedAt, ...record } = out.record;
    assert.equal(typeof d1, "number");
    assert.equal(typeof d2, "number");
    assert.equal(typeof startedAt, "number");
    assert.deepEqual(outcome, {
      status: "success",
      result: { orderId: "A-1", status: "shipped" },
      resultJson: '{"orderId":"A-1","status":"shipped"}',
      toolName: "lookup_order",
      callId: "call-1",
      handlerType: "grpc",
    });
    assert.deepEqual(record, {
      callId: "call-1",
      sessionId: "s-1",
      toolName: "lookup_order",
      handlerName: "orders",
      handlerType: "grpc",
      execution: "server",
      registryName: "loopback",
      status: "success",
      arguments: { orderId: "A-1" },
      result: shown,
      resultJson: shown,
      attempts: 1,
    });
    const seen = grpc.calls.find((c) => (c.args as { orderId?: string }).orderId === "A-1");
    assert.equal(seen?.headers["x-omnia-user-id"], "u-42");
    assert.equal(seen?.headers["x-omnia-claim-tier"], "gold");
  });

  test("a tool error: exit 1 with the model-visible message (HTTP 503, gRPC is_error)", async () => {
    const down = await omniaTools("call", "--registry", file("registry.yaml"), "flaky_tool", "{}");
    assert.equal(down.code, 1);
    assert.equal(down.stderr, "");
    const lines = stable(down.stdout).split("\n");
    assert.deepEqual(lines.slice(0, 6), [
      "Outcome: error",
      "  tool          flaky_tool",
      "  handler type  http",
      "  duration      <n>ms",
      "  message       HTTP 503: Service Unavailable",
      "  error         HttpStatusError (ERR_OMNIA_HTTP_STATUS)",
    ]);
    assert.ok(lines.includes("  errorMessage  HTTP 503: Service Unavailable"), down.stdout);

    const missing = await omniaTools("call", "--registry", file("registry.yaml"), "lookup_order", '{"orderId":"missing"}', "--json");
    assert.equal(missing.code, 1);
    const out = JSON.parse(missing.stdout) as { outcome: { status: string; message: string; error: { code: string } }; record: { status: string } };
    assert.equal(out.outcome.message, "tool error: no such order");
    assert.equal(out.outcome.error.code, "ERR_OMNIA_TOOL_ERROR");
    assert.equal(out.record.status, "error");
  });

  test("a tool discovered from an MCP server: exit 0, or 1 for its isError", async () => {
    const run = await omniaTools("call", "--registry", file("registry.yaml"), "echo", '{"text":"hello"}', "--json");
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { outcome: Record<string, unknown>; record: Record<string, unknown> };
    assert.deepEqual([out.outcome["status"], out.outcome["handlerType"], out.outcome["resultJson"]], ["success", "mcp", '"hello"']);
    assert.deepEqual([out.record["handlerName"], out.record["attempts"]], ["docs", 1]);
    const fail = await omniaTools("call", "--registry", file("registry.yaml"), "fail");
    assert.equal(fail.code, 1);
    assert.match(fail.stdout, /\n {2}message {7}boom: the widget is broken\n/);
  });

  test("a client tool is denied (no client is connected): exit 1", async () => {
    const run = await omniaTools("call", "--registry", file("registry.yaml"), "get_location");
    assert.equal(run.code, 1);
    const lines = stable(run.stdout).split("\n");
    assert.deepEqual(lines.slice(0, 6), [
      "Outcome: denied",
      "  tool          get_location",
      "  handler type  client",
      "  duration      <n>ms",
      "  message       Tool rejected: no client available to execute client-side tools",
      "  reason        no client available to execute client-side tools",
    ]);
  });

  test("the turn stage's checks run first: arguments the schema refuses are not sent (exit 1, the model's text); --raw sends them", async () => {
    const before = http.count("POST /forecast");
    const refused = await omniaTools("call", "--registry", file("registry.yaml"), "forecast", '{"town":"Paris"}');
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.stderr, "");
    assert.equal(
      refused.stdout,
      [
        "Outcome: refused",
        "  tool  forecast",
        "  sent  nothing: the arguments failed the turn stage's checks (--raw sends them to the executor as they are)",
        "",
        "Model sees (an error):",
        "  Error: tool forecast validation error (args_invalid): argument validation failed: [(root): city is required]",
        "",
      ].join("\n"),
    );
    const json = await omniaTools("call", "--registry", file("registry.yaml"), "forecast", '{"town":"Paris"}', "--json");
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stdout), { outcome: null, record: null, modelSees: { content: "Error: tool forecast validation error (args_invalid): argument validation failed: [(root): city is required]", isError: true } });
    assert.equal(http.count("POST /forecast"), before, "nothing was sent");

    // Coerced as PromptKit coerces: "3" for an integer reaches the backend as 3.
    const coerced = await omniaTools("call", "--registry", file("registry.yaml"), "forecast", '{"city":"Paris","days":"3"}', "--json");
    assert.equal(coerced.code, 0, coerced.stderr);
    const out = JSON.parse(coerced.stdout) as { outcome: { result: unknown }; record: { arguments: unknown } };
    assert.deepEqual(out.outcome.result, { got: { city: "Paris", days: 3 } });
    assert.deepEqual(out.record.arguments, { city: "Paris", days: 3 });

    const raw = await omniaTools("call", "--registry", file("registry.yaml"), "forecast", '{"town":"Paris"}', "--raw", "--json");
    assert.equal(raw.code, 0, raw.stderr);
    const rawOut = JSON.parse(raw.stdout) as Record<string, unknown> & { outcome: { result: unknown } };
    assert.deepEqual(rawOut.outcome.result, { got: { town: "Paris" } });
    assert.equal("modelSees" in rawOut, false);
    assert.equal(http.count("POST /forecast"), before + 2);
  });

  test("config and usage errors: exit 2 with the reason on stderr, nothing on stdout", async () => {
    const registry = file("registry.yaml");
    const usage = "Usage: omnia-tools call --registry <registry.yaml> <tool> ['<json args>'] [--identity <file>] [--timeout 5s] [--json] [--raw]\n";
    const jsonProblem = (() => {
      try {
        JSON.parse("{city:1}");
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    })();
    const cases: [string[], string][] = [
      [["call", "get_weather"], `omnia-tools call: --registry is required\n${usage}`],
      [["call", "--registry", registry], `omnia-tools call: expected a tool name\n${usage}`],
      [["call", "--registry", registry, "get_weather", "{city:1}"], `omnia-tools call: the arguments are not valid JSON: ${jsonProblem}; got {city:1}\n${usage}`],
      [["call", "--registry", registry, "get_weathr"], `omnia-tools call: tool "get_weathr" is not served by ${registry}; it serves get_weather, flaky_tool, slow_tool, lookup_order, forecast, get_location, echo, fail\n${usage}`],
      [["call", "--registry", registry, "--timeout", "5", "get_weather"], `omnia-tools call: --timeout: invalid duration "5": missing unit; valid units are ns, us, ms, s, m, h\n${usage}`],
      [["call", "--registry", registry, "--timeout", "0s", "get_weather"], `omnia-tools call: --timeout: must be positive; got 0s\n${usage}`],
      [["call", "--registry", registry, "--identity", file("bad-identity.json"), "get_weather"], `${file("bad-identity.json")}: invalid identity: token: unknown field; expected agentName, namespace, sessionId, requestId, userId, subjectId, userEmail, origin, workspace, provider, model, claims\n`],
      [["call", "--registry", file("nope.yaml"), "get_weather"], `omnia-tools call: cannot read ${file("nope.yaml")}: ENOENT: no such file or directory, open '${file("nope.yaml")}'\n`],
      [["call", "--registry", registry, "--bogus", "get_weather"], `omnia-tools call: Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus"\n${usage}`],
    ];
    const runs = await Promise.all(cases.map(([args]) => omniaTools(...args)));
    runs.forEach((run, i) => {
      assert.equal(run.code, 2, `case ${i}: ${run.stderr}`);
      assert.equal(run.stdout, "", `case ${i}`);
      assert.equal(run.stderr, cases[i]?.[1], `case ${i}`);
    });
  });

  test("an invalid registry: exit 2 with every problem", async () => {
    const run = await omniaTools("call", "--registry", file("bad.yaml"), "t");
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, new RegExp(`^${file("bad.yaml").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid ToolRegistry: 1 problem \\(ERR_OMNIA_CONFIG\\)\n`));
  });

  test("--help: exit 0, the help on stdout", async () => {
    const run = await omniaTools("call", "--help");
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: omnia-tools call --registry <registry.yaml> <tool>/);
    assert.match(run.stdout, /--timeout <d> {6}replaces every handler's per-attempt timeout/);
  });
});

describe("omnia-tools call in-process: --timeout and the progress line", () => {
  function io(terminal: boolean) {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const out = { stdout: "", stderr: "" };
    const cli: CliIo = {
      stdout: (t) => void (out.stdout += t),
      stderr: (t) => void (out.stderr += t),
      readFile: (p) => readFile(p, "utf8"),
      stderrIsTerminal: terminal,
      clock,
    };
    return { cli, clock, out };
  }
  async function until(cond: () => boolean): Promise<void> {
    for (let i = 0; i < 5000 && !cond(); i++) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(cond(), "condition not reached");
  }

  test("--timeout 2s replaces the handler's 30s; a terminal gets a progress line after 1s, erased at the end", async () => {
    const { cli, clock, out } = io(true);
    const before = http.count("/slow");
    const running = callCommand.run(["--registry", file("registry.yaml"), "--timeout", "2s", "slow_tool"], cli);
    await until(() => http.count("/slow") === before + 1);
    clock.advance(999);
    assert.equal(out.stderr, "");
    clock.advance(1);
    assert.equal(out.stderr, "\r| calling slow_tool... 1s");
    clock.advance(1000);
    assert.equal(await running, 1);
    assert.equal(out.stderr, "\r| calling slow_tool... 1s\r/ calling slow_tool... 2s\r\x1b[2K");
    assert.match(out.stdout, /\n {2}message {7}timed out after 2000ms\n/);
    assert.match(out.stdout, /\n {2}durationMs +2000\n/);
    assert.equal(clock.pendingTimers(), 0);
  });

  test("stderr not a terminal: no progress line", async () => {
    const { cli, clock, out } = io(false);
    const before = http.count("/slow");
    const running = callCommand.run(["--registry", file("registry.yaml"), "--timeout", "1500ms", "slow_tool", "{}"], cli);
    await until(() => http.count("/slow") === before + 1);
    clock.advance(1500);
    assert.equal(await running, 1);
    assert.equal(out.stderr, "");
    assert.match(out.stdout, /\n {2}message {7}timed out after 1500ms\n/);
  });
});
