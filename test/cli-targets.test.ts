// Provider schema rules (#35 item 4): `loadToolRegistry(text, { targets })`,
// `omnia-tools validate --target` and `omnia-tools probe --target` (the latter
// against a real MCP server whose discovered schemas a provider would refuse),
// each problem at its path, with its YAML line where there is one.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkSchemaTargets, InvalidOptionError, loadToolRegistry, createToolExecutor } from "../src/index.js";
import { omniaTools } from "./helpers/cli.js";
import { startMcpHttpServer } from "./helpers/mcp-server.js";

const REGISTRY = `handlers:
  - name: web
    type: http
    tool:
      name: search
      description: Searches
      inputSchema:
        type: object
        properties:
          q: { type: string, format: uri }
          opts:
            type: object
            additionalProperties: true
            properties:
              lang: { type: [string, "null"] }
        required: [q]
    httpConfig: { endpoint: "http://127.0.0.1:1/x" }
`;

const FORMAT = 'openai-strict: "format": "uri" is not supported in strict mode (supported: date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid); remove it or use "pattern"';
const ADDITIONAL = 'gemini: "additionalProperties" is not a field of Gemini\'s Schema (an OpenAPI 3.0 subset); remove it';
const TYPE_LIST = 'gemini: "type" takes one type, not a list; use "type": "string" with "nullable": true';

test("loadToolRegistry(text, { targets }): each problem a warning at its path and line; no targets, no such warning", () => {
  const registry = loadToolRegistry(REGISTRY, { targets: ["openai-strict", "anthropic", "gemini"] });
  assert.deepEqual(registry.warnings, [
    { path: "handlers[0].tool.inputSchema.properties.q.format", message: FORMAT, line: 10 },
    { path: "handlers[0].tool.inputSchema.properties.opts.additionalProperties", message: ADDITIONAL, line: 13 },
    { path: "handlers[0].tool.inputSchema.properties.opts.properties.lang.type", message: TYPE_LIST, line: 15 },
  ]);
  assert.deepEqual(loadToolRegistry(REGISTRY, { targets: ["anthropic"] }).warnings, []);
  assert.deepEqual(loadToolRegistry(REGISTRY).warnings, []);
  assert.deepEqual(loadToolRegistry(REGISTRY, { targets: [] }).warnings, []);
  assert.throws(() => loadToolRegistry(REGISTRY, { targets: ["gpt"] as never }), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith('loadToolRegistry: targets: unknown schema target "gpt"'));
});

test("omnia-tools validate --target: the problems with file and line, exit 1; a bad target is a usage error (exit 2); without --target, exit 0", async () => {
  const dir = await mkdtemp(join(tmpdir(), "omnia-targets-"));
  after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "registry.yaml");
  await writeFile(file, REGISTRY);
  const run = await omniaTools("validate", file, "--target", "openai-strict,gemini");
  assert.equal(run.code, 1, run.stderr);
  assert.equal(
    run.stderr,
    `${file}:10: warning: handlers[0].tool.inputSchema.properties.q.format: ${FORMAT}\n` +
      `${file}:13: warning: handlers[0].tool.inputSchema.properties.opts.additionalProperties: ${ADDITIONAL}\n` +
      `${file}:15: warning: handlers[0].tool.inputSchema.properties.opts.properties.lang.type: ${TYPE_LIST}\n` +
      `${file}: 3 problems a provider would refuse (openai-strict, gemini)\n`,
  );
  const json = await omniaTools("validate", file, "--target", "gemini", "--json");
  assert.equal(json.code, 1);
  const out = JSON.parse(json.stdout) as { valid: boolean; targets: string[]; refused: number };
  assert.deepEqual([out.valid, out.targets, out.refused], [true, ["gemini"], 2]);
  const bad = await omniaTools("validate", file, "--target", "gemni");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^omnia-tools validate: --target: unknown schema target "gemni" \(did you mean "gemini"\?\); expected one of openai-strict, anthropic, gemini\n/);
  const plain = await omniaTools("validate", file);
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stderr, "");
});

// The GitHub MCP server's issue_write input schema shape (github/github-mcp-server,
// pkg/github/__toolsnaps__/issue_write.snap, MIT): a type list and additionalProperties.
const DISCOVERED = {
  type: "object",
  properties: {
    owner: { type: "string" },
    labels: { type: "array", items: { type: "string" } },
    state_reason: { type: ["string", "null"], enum: ["completed", "not_planned", "duplicate", null] },
    fields: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["owner"],
};

test("omnia-tools probe --target: the discovered tools of a real MCP server are checked too; exit 1 when a provider would refuse one", async () => {
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [
      { name: "issue_write", inputSchema: DISCOVERED, call: () => ({ content: [{ type: "text", text: "ok" }] }) },
      { name: "ping", inputSchema: { type: "object", properties: {} }, call: () => ({ content: [{ type: "text", text: "pong" }] }) },
    ],
  });
  after(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), "omnia-targets-"));
  after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "registry.yaml");
  // The probe waits 120 s, not 5: the CLI's cold start and the MCP SDK's first load on a loaded machine are no health verdict.
  await writeFile(file, `probe: { enabled: true, timeout: 120s }\nhandlers:\n  - name: gh\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }\n`);

  // What the CLI prints is what checkSchemaTargets gives for the discovered descriptor.
  const executor = createToolExecutor({ registry: loadToolRegistry(`handlers:\n  - name: gh\n    type: mcp\n    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }\n`) });
  const tools = await executor.listTools();
  await executor.close();
  const expected = tools.flatMap((t) => checkSchemaTargets(t, ["gemini"]).map((i) => ({ tool: t.name, ...i })));
  assert.deepEqual(expected.map((i) => [i.tool, i.path.join("."), i.message.split(";")[0]]), [
    ["issue_write", "properties.state_reason.type", 'gemini: "type" takes one type, not a list'],
    ["issue_write", "properties.state_reason.enum", 'gemini: "enum" takes strings only'],
    ["issue_write", "properties.fields.additionalProperties", 'gemini: "additionalProperties" is not a field of Gemini\'s Schema (an OpenAPI 3.0 subset)'],
  ]);

  const run = await omniaTools("probe", "--registry", file, "--target", "gemini");
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /^HANDLER  TYPE  HEALTH   LATENCY  DETAIL\ngh       mcp   healthy  \d+ms +ping ok\n$/);
  assert.equal(
    run.stderr,
    expected.map((i) => `${file}: handler "gh", tool "issue_write": inputSchema.${i.path.join(".")}: ${i.message}\n`).join("") + `${file}: 3 problems a provider would refuse (gemini)\n`,
  );
  const clean = await omniaTools("probe", "--registry", file, "--target", "anthropic");
  assert.equal(clean.code, 0, clean.stderr);
  assert.equal(clean.stderr, `${file}: 0 problems a provider would refuse (anthropic)\n`);
});
