// `npm run demo` (examples/demo.ts, issue #12) as a child process: it exits 0,
// shows every handler type with the expected status, a retry, a client round
// trip, a policy denial and a breaker opening, and closes everything (the
// process exits on its own).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
// Type-only: makes tsc check the demo and its backends with the rest of the tests.
import type { runDemo } from "../examples/demo.js";

const DEMO_TIMEOUT_MS = 30_000;

function runDemoProcess(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/demo.ts"], { stdio: ["ignore", "pipe", "pipe"], timeout: DEMO_TIMEOUT_MS });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

test("the demo exits 0 on its own and prints the outcome of every handler type", async () => {
  const _typecheck: typeof runDemo | undefined = undefined;
  void _typecheck;
  const run = await runDemoProcess();
  assert.equal(run.signal, null, `the demo did not finish within ${DEMO_TIMEOUT_MS} ms (a handle left open?)\n${run.stdout}`);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const lines = run.stdout.split("\n");
  const has = (re: RegExp): void => assert.ok(lines.some((l) => re.test(l)), `no line matches ${re}\n${run.stdout}`);

  assert.equal(lines[0], "omnia-tools demo: examples/registry.yaml + examples/pack.json, every backend on 127.0.0.1");
  // The endpoint rewrite, one line per handler.
  has(/^ {2}weather-api +http +http:\/\/127\.0\.0\.1:\d+\/v1\/current +https:\/\/weather\.example\.com\/v1\/current$/);
  has(/^ {2}currency +http +http:\/\/127\.0\.0\.1:\d+\/convert\/\{from\}\/\{to\} +https:\/\/fx\.example\.com\/convert$/);
  has(/^ {2}orders +grpc +127\.0\.0\.1:\d+ \(plaintext, no auth\) +orders\.support\.svc\.cluster\.local:9090 \(TLS\)$/);
  has(/^ {2}docs-fs +mcp +http:\/\/127\.0\.0\.1:\d+\/mcp \(streamable-http\) +stdio: npx -y @modelcontextprotocol\/server-filesystem \/srv\/docs$/);
  has(/^ {2}petstore +openapi +http:\/\/127\.0\.0\.1:\d+\/openapi\.json +https:\/\/petstore3\.swagger\.io\/api\/v3\/openapi\.json$/);

  // The reconciliation report.
  for (const line of [
    'Reconciliation: pack "customer-support" against the 8 tools served (get_weather, convert_currency, lookup_order, get_location, read_file, list_directory, getPetById, findPetsByStatus)',
    "  offered to support: get_weather, lookup_order",
    "  offered to billing: lookup_order",
    "  offered to store-finder: get_location",
    "  served-not-declared: ToolRegistry tools are not declared by any pack prompt and will not be offered to the model: convert_currency, findPetsByStatus, getPetById, list_directory, read_file; fix: add the name to the prompt's tools list and republish the pack",
    "  declared-not-served: pack prompts declare tools the ToolRegistry does not serve, so they will not be offered to the model: search_kb (support); fix: expose the tool from the attached ToolRegistry",
  ]) {
    assert.ok(lines.includes(line), `missing: ${line}\n${run.stdout}`);
  }

  // One call of every handler type, with its status, attempts and result or message.
  has(/^ {2}1 +http GET, query, redact +get_weather +http +success +1 +\{"apiKeyEcho":"\[REDACTED\]","city":"Paris","sky":"light rain","tempC":18,"units":"metric"\}$/);
  has(/^ {2}2 +http urlTemplate, JMESPath +convert_currency +http +success +1 +\{"amount":92\}$/);
  has(/^ {2}3 +grpc, UNAVAILABLE then OK: a retry +lookup_order +grpc +success +2 +\{"orderId":"A-1001","status":"shipped","carrier":"DHL","eta":"2026-01-05"\}$/);
  has(/^ {2}4 +mcp tools\/call +read_file +mcp +success +1 +"Returns are free within 30 days\. Start one from the Orders page\."$/);
  has(/^ {2}5 +openapi operation +getPetById +openapi +success +1 +\{"id":3,"name":"Rex","status":"available"\}$/);
  has(/^ {2}6a +client tool: execute\(\) asks the client +get_location +client +client +- +forward to the client: get_location \(consent: "Share your location so the assistant can find nearby stores\?"\)$/);
  has(/^ {2}6b +client tool: the client's answer +get_location +client +success +- +\{"lat":48\.8566,"lon":2\.3522,"accuracyM":35\}$/);
  has(/^ {2}7 +policy denial +convert_currency +http +denied +0 +tool call denied by policy: amounts over 10000 need a human approver$/);
  has(/^ {2}8 +fx backend down +convert_currency +http +error +1 +HTTP 503: fx service down$/);
  has(/^ {2}9-17 +fx backend down \(same, 9 more\) +convert_currency +http +error +1 +HTTP 503: fx service down$/);
  has(/^ {2}18 +fx backend down +convert_currency +http +error +0 +circuit breaker \[convert_currency\]: circuit breaker is open$/);

  // Records and breakers.
  assert.ok(lines.includes("Records (18, one per call):"), run.stdout);
  has(/^ {2}call-6 +get_location +browser-location +client +client +success +- +demo-session$/);
  has(/^ {2}call-7 +convert_currency +currency +http +server +denied +0 +demo-session$/);
  // Every number agrees: 11 attempts reached the fx backend (call 2 and calls 8-17), 10 failed, call 17 opened it.
  has(/^ {2}convert_currency +open +11 +10 +opened at call 17 \(consecutive-failures\); later calls are refused$/);
  has(/^ {2}lookup_order +closed +2 +1$/);
  assert.ok(lines.includes("  convert_currency opened (consecutive-failures: 10 failed of 11 attempts)"), run.stdout);
  assert.ok(lines.includes("  the fx backend received 11 convert_currency requests; the call after the breaker opened never reached it"), run.stdout);
  assert.equal(lines.filter((l) => /^ {2}6/.test(l)).length, 2, "the client call's two steps, 6a and 6b, once each");
  const read = lines.indexOf("Read the code:");
  assert.deepEqual(lines.slice(read + 1, read + 5).map((l) => l.trim().split(/ +/)[0]), ["examples/demo.ts", "examples/demo-backends.ts", "examples/registry.yaml", "examples/quickstart/"]);
  assert.equal(lines.at(-2), "Closed the executor and every backend.");
  assert.equal(lines.at(-1), "");
});
