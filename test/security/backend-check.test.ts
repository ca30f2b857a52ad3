// Issue #36 part 3: checkBackend reads what a backend, an MCP server's tool list
// and an OpenAPI document send, and builds calls from their schemas; none of it
// may cost more than linear time, hold more than a bounded value, put a
// credential into the report, or reach the terminal unescaped.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { checkBackend } from "../../src/backend-check/index.js";
import { exampleArguments, EXAMPLE_MAX_ITEMS } from "../../src/backend-check/example-args.js";
import { errorBodyProblems } from "../../src/backend-check/error-body.js";
import { formatTable } from "../../src/cli/format-table.js";
import { createManualClock, httpReply, startHttpToolBackend, startMcpToolBackend } from "../../src/testing/index.js";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closedPortUrl, until } from "../helpers/policy-broker.js";
import type { JsonObject } from "../../src/core/index.js";
import { omniaTools } from "../helpers/cli.js";

/** The health probe waits 120 s, not 5: a loaded machine must not turn a probe into a failed check. */
const PROBE = "probe: { enabled: true, timeout: 120s }\n";

const dir = mkdtempSync(join(tmpdir(), "omnia-backend-check-sec-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("hostile MCP schemas (a billion items, a terabyte string, a $ref cycle, 100,000 levels, 50,000 required keys) get no example and no call, in bounded work", async () => {
  let deep: JsonObject = { type: "string" };
  for (let i = 0; i < 100_000; i++) deep = { type: "object", properties: { a: deep }, required: ["a"] };
  const many: JsonObject = { type: "object", required: Array.from({ length: 50_000 }, (_, i) => `k${i}`) };
  const hostile: Record<string, JsonObject> = {
    items: { type: "object", properties: { list: { type: "array", minItems: 1e9 } }, required: ["list"] },
    text: { type: "object", properties: { s: { type: "string", minLength: 1e12 } }, required: ["s"] },
    cycle: { type: "object", properties: { self: { $ref: "#" } }, required: ["self"] },
    many,
  };
  // The deep one is judged without a server (the MCP SDK's own JSON limits come first there).
  assert.deepEqual(exampleArguments(deep), { ok: false, reason: "the schema nests deeper than 32 levels" });
  const mcp = await startMcpToolBackend(Object.fromEntries(Object.entries(hostile).map(([name, inputSchema]) => [name, { description: "d", inputSchema, result: { ok: true } }])));
  after(() => mcp.close());
  const registry = loadToolRegistry(`${PROBE}handlers:\n  - name: srv\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }\n`);
  const report = await checkBackend(registry);
  const skipped = report.results.filter((r) => r.check === "valid-call").map((r) => [r.tool, r.status, r.reason]);
  assert.deepEqual(skipped, [
    ["items", "skip", `no example arguments could be built from the input schema: the schema asks for at least 1000000000 items`],
    ["text", "skip", "no example arguments could be built from the input schema: the schema asks for a string of at least 1000000000000 characters"],
    ["cycle", "skip", "no example arguments could be built from the input schema: the schema nests deeper than 32 levels"],
    ["many", "skip", "no example arguments could be built from the input schema: the schema has more than 10000 parts to fill"],
  ]);
  assert.equal(mcp.calls(), 0);
  assert.equal(EXAMPLE_MAX_ITEMS, 64);
});

test("checkBackend's report holds no bearer token, headersFromSecret value or staticQuery value, whatever fails", async () => {
  const backend = await startHttpToolBackend({ routes: { "HEAD /t": httpReply({ status: 200 }), "POST /t": httpReply({ status: 502, text: "bad gateway" }) } });
  after(() => backend.close());
  const registry = loadToolRegistry(`${PROBE}handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object, properties: { q: { type: string } }, required: [q] } }
    auth: { type: bearer, secretRef: { name: s, key: token } }
    httpConfig:
      endpoint: "${backend.url}/t"
      headersFromSecret: { X-Api-Key: { name: s, key: api } }
      staticQuery: { api_key: STATIC-Q-VALUE }
      retryPolicy: { maxAttempts: 2, initialBackoff: 1ms }
  - name: gone
    type: http
    tool: { name: g, description: d, inputSchema: { type: object } }
    auth: { type: bearer, secretRef: { name: s, key: token } }
    httpConfig: { endpoint: "http://127.0.0.1:1/g", staticQuery: { api_key: STATIC-Q-VALUE } }
`);
  const secrets: Record<string, string> = { token: "BEARER-VALUE", api: "HEADER-SECRET-VALUE" };
  const report = await checkBackend(registry, { secrets: (ref) => secrets[ref.key] ?? "" });
  // The secrets did reach the backend the manifest names, and the report has none of them.
  assert.equal(backend.requests.find((r) => r.method === "POST")?.headers["authorization"], "Bearer BEARER-VALUE");
  const text = JSON.stringify(report);
  for (const secret of ["BEARER-VALUE", "HEADER-SECRET-VALUE", "STATIC-Q-VALUE"]) assert.equal(text.includes(secret), false, secret);
  assert.equal(report.results.find((r) => r.handler === "h" && r.check === "valid-call")?.reason, 'HTTP 502, the backend failed: the model sees "2 attempts exhausted: HTTP 502: bad gateway"');
  assert.match(report.results.find((r) => r.handler === "gone" && r.check === "valid-call")?.reason ?? "", /api_key=\*\*\*/);
});

test("a backend's error text with terminal escapes reaches the terminal escaped, and a 10 MiB one is quoted at 1,024 bytes", async () => {
  const backend = await startHttpToolBackend({
    routes: {
      "HEAD /t": httpReply({ status: 200 }),
      "POST /t": (r) => ((r.json as { q?: unknown } | undefined)?.q === undefined ? httpReply({ status: 400, text: "\u001b]52;c;cHduZWQ=\u0007\u001b[2Jbad\r" }) : { ok: true }),
      "HEAD /big": httpReply({ status: 200 }),
      "POST /big": () => httpReply({ status: 500, text: "y".repeat(10 * 1024 * 1024) }),
    },
  });
  after(() => backend.close());
  const schema = "{ type: object, properties: { q: { type: string } }, required: [q] }";
  const file = join(dir, "registry.yaml");
  writeFileSync(
    file,
    `${PROBE}handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: ${schema} }
    httpConfig: { endpoint: "${backend.url}/t" }
  - name: big
    type: http
    tool: { name: b, description: d, inputSchema: ${schema} }
    httpConfig: { endpoint: "${backend.url}/big" }
`,
  );
  const run = await omniaTools("backend-check", "--registry", file);
  assert.equal(run.code, 1);
  assert.equal(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(run.stdout), false);
  assert.ok(run.stdout.includes('the model sees "HTTP 400: \\u001b]52;c;cHduZWQ=\\u0007\\u001b[2Jbad\\r"'), run.stdout);
  const report = await checkBackend(loadToolRegistry(readFileSync(file, "utf8")), { handler: "big" });
  const quoted = report.results.find((r) => r.check === "valid-call")?.reason ?? "";
  assert.ok(Buffer.byteLength(quoted) < 1_200, `${Buffer.byteLength(quoted)} bytes`);
  assert.ok(quoted.startsWith(`HTTP 500, the backend failed: the model sees "HTTP 500: ${"y".repeat(512)}...`), quoted.slice(0, 120));
});

test("a malformed $ref, a large const reused through $ref, and a wide schema reached through many $refs get no example, and the next tool is still checked", async () => {
  const wide: Record<string, JsonObject> = {};
  for (let i = 0; i < 20_000; i++) wide[`w${i}`] = { type: "string" };
  const refs = (n: number, target: string) => {
    const properties: Record<string, JsonObject> = {};
    for (let i = 0; i < n; i++) properties[`p${i}`] = { $ref: `#/definitions/${target}` };
    return { properties, required: Object.keys(properties) };
  };
  const mcp = await startMcpToolBackend({
    bad_ref: { description: "d", inputSchema: { type: "object", properties: { a: { $ref: "#/definitions/%E0%A4%A" } }, required: ["a"], definitions: {} }, result: { ok: true } },
    big_const: { description: "d", inputSchema: { type: "object", ...refs(1_000, "C"), definitions: { C: { const: "x".repeat(100_000) } } }, result: { ok: true } },
    wide: { description: "d", inputSchema: { type: "object", ...refs(2_000, "X"), definitions: { X: { type: "object", required: Object.keys(wide), properties: wide } } }, result: { ok: true } },
    fine: { description: "d", inputSchema: { type: "object" }, result: { ok: true } },
  });
  after(() => mcp.close());
  const registry = loadToolRegistry(`${PROBE}handlers:\n  - name: srv\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }\n`);
  const report = await checkBackend(registry);
  assert.deepEqual(
    report.results.filter((r) => r.check === "valid-call").map((r) => [r.tool, r.status, r.reason]),
    [
      ["bad_ref", "skip", 'no example arguments could be built from the input schema: the schema\'s $ref "#/definitions/%E0%A4%A" is not a valid reference'],
      ["big_const", "skip", "no example arguments could be built from the input schema: the example would be larger than 65536 bytes"],
      ["wide", "skip", "no example arguments could be built from the input schema: the schema has more than 10000 parts to fill"],
      ["fine", "pass", "tools/call answered with a result"],
    ],
  );
  assert.equal(mcp.calls("fine") > 0, true);
  assert.equal(mcp.calls("big_const") + mcp.calls("wide") + mcp.calls("bad_ref"), 0);
});

test("an MCP server that never answers tools/list, and an HTTP backend that never answers a handler with no timeout: each ends on the checker's bound (manual clock)", async () => {
  // A streamable-http MCP server by hand: initialize and ping are answered, tools/list never is.
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST") {
        res.writeHead(405).end();
        return;
      }
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === "tools/list") {
        held.push(res);
        return;
      }
      const result = message.method === "initialize" ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "silent", version: "1" } } : {};
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  after(() => new Promise<void>((resolve) => { for (const r of held) r.destroy(); server.close(() => resolve()); }));
  const http = await startHttpToolBackend({ routes: { "HEAD /t": httpReply({ status: 200 }), "POST /t": { ok: true } }, faults: { "POST /t": { kind: "hang" } } });
  after(() => http.close());
  const registry = loadToolRegistry(`${PROBE}handlers:
  - name: silent
    type: mcp
    timeout: 2s
    mcpConfig: { transport: streamable-http, endpoint: "http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp" }
  - name: forever
    type: http
    timeout: 0s
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${http.url}/t" }
`);
  const clock = createManualClock();
  const running = checkBackend(registry, { clock });
  await until(() => held.length === 1, "tools/list to arrive");
  await clock.advanceAsync(2_000);
  await until(() => http.requests.some((r) => r.method === "POST"), "the call to the backend with no timeout");
  await clock.advanceAsync(30_000);
  const report = await running;
  const pick = (check: string) => report.results.filter((r) => r.check === check).map((r) => [r.handler, r.status, r.reason]);
  assert.deepEqual(pick("list-tools"), [["silent", "fail", "tools/list was not answered within 2s"]]);
  assert.deepEqual(pick("timeout"), [["forever", "fail", "no answer within 30s, the checker's wait; the handler sets no timeout, so Omnia would wait for ever"]]);
});

test("the report shows no userinfo and no endpoint query value of an http, openapi or mcp handler that cannot be reached", async () => {
  const closed = (await closedPortUrl()).replace("http://", "");
  const registry = loadToolRegistry(`${PROBE}handlers:
  - name: web
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "http://user:USERINFO-SECRET@${closed}/x?api_key=ENDPOINT-Q" }
  - name: spec
    type: openapi
    openAPIConfig: { specURL: "http://u:SPEC-USERINFO@${closed}/spec?token=SPEC-Q" }
  - name: tools
    type: mcp
    timeout: 2s
    mcpConfig: { transport: streamable-http, endpoint: "http://u:MCP-USERINFO@${closed}/mcp?token=MCP-Q" }
`);
  const report = await checkBackend(registry);
  const text = JSON.stringify(report);
  for (const secret of ["USERINFO-SECRET", "ENDPOINT-Q", "SPEC-USERINFO", "SPEC-Q", "MCP-USERINFO", "MCP-Q"]) assert.equal(text.includes(secret), false, `${secret} in ${text}`);
  assert.deepEqual(
    report.results.filter((r) => r.check === "health").map((r) => [r.handler, r.status]),
    [["web", "fail"], ["spec", "fail"], ["tools", "fail"]],
  );
});

test("error texts that would be quadratic for a backtracking pattern (64,000 newlines, one 70,000-character frame line) get the right verdicts; formatTable takes 200,000 rows", () => {
  assert.deepEqual(errorBodyProblems("\n".repeat(64_000), 64_000, true, false), ["64000 bytes, cut at 512 for the model"]);
  assert.deepEqual(errorBodyProblems(`\n at ${"a".repeat(70_000)}`, 70_005, false, false), ["at least 70005 bytes, cut at 512 for the model"]);
  assert.deepEqual(errorBodyProblems("boom\n    at handler (/srv/app.js:10:5)", 36, true, false), ["a stack trace"]);
  assert.deepEqual(errorBodyProblems("Traceback (most recent call last):\n  File x", 40, true, false), ["a stack trace"]);
  assert.deepEqual(errorBodyProblems("city is required", 16, true, false), []);
  const table = formatTable(["A", "B"], Array.from({ length: 200_000 }, (_, i) => [`r${i}`, "x"]));
  assert.equal(table.split("\n").length, 200_002);
});
