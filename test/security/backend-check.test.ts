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
import { httpReply, startHttpToolBackend, startMcpToolBackend } from "../../src/testing/index.js";
import type { JsonObject } from "../../src/core/index.js";
import { omniaTools } from "../helpers/cli.js";

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
  const registry = loadToolRegistry(`handlers:\n  - name: srv\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }\n`);
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
  const registry = loadToolRegistry(`handlers:
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
    `handlers:
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
  assert.ok(run.stdout.includes('the model sees "HTTP 400: \\u001b]52;c;cHduZWQ=\\u0007\\u001b[2Jbad\\u000d"'), run.stdout);
  const report = await checkBackend(loadToolRegistry(readFileSync(file, "utf8")), { handler: "big" });
  const quoted = report.results.find((r) => r.check === "valid-call")?.reason ?? "";
  assert.ok(Buffer.byteLength(quoted) < 1_200, `${Buffer.byteLength(quoted)} bytes`);
  assert.ok(quoted.startsWith(`HTTP 500, the backend failed: the model sees "HTTP 500: ${"y".repeat(512)}...`), quoted.slice(0, 120));
});
