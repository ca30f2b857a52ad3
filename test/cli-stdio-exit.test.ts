// The CLI says why a stdio MCP server failed (issue #33 item 9) and what a probe cannot vouch for
// (item 14): the child's exit code and the end of its stderr in `probe` and `call`; a client handler
// is "not probed"; a 404 gets a hint that the path may be wrong. Real child processes and a real
// node:http server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHttpServer } from "./helpers/http-server.js";
import { omniaTools } from "./helpers/cli.js";

const MISSING = "/nonexistent/omnia-mcp-server.js";
// The probe's limit is raised from 5 s: spawning node under a loaded CI run can take longer, and this test is about the child's exit.
const registry = `probe: { enabled: true, timeout: 120s }
handlers:
  - name: local
    type: mcp
    mcpConfig: { transport: stdio, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(MISSING)}] }
`;

test("probe: a stdio MCP server that exits is UNHEALTHY with its exit code and the end of its stderr", async () => {
  const dir = await mkdtemp(join(tmpdir(), "omnia-stdio-exit-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(file, registry);
    const run = await omniaTools("probe", "--registry", file, "--json");
    assert.equal(run.code, 1, run.stderr);
    const [local] = (JSON.parse(run.stdout) as { handlers: { handler: string; healthy: boolean; detail: string }[] }).handlers;
    assert.equal(local?.healthy, false);
    const prefix = 'handler "local": failed to connect MCP: MCP error -32000: Connection closed (the server exited with code 1; its stderr ended: ';
    assert.ok(local!.detail.startsWith(prefix), local!.detail);
    const stderrLines = local!.detail.slice(prefix.length, -1).split(" | ");
    assert.ok(stderrLines.includes(`Error: Cannot find module '${MISSING}'`), local!.detail);
    assert.match(stderrLines[stderrLines.length - 1]!, /^Node\.js v\d+\.\d+\.\d+$/);
    assert.ok(local!.detail.endsWith(")"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("call: a stdio MCP server that exits during discovery prints its exit code and its stderr's last lines, indented", async () => {
  const dir = await mkdtemp(join(tmpdir(), "omnia-stdio-exit-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(file, registry);
    const run = await omniaTools("call", "--registry", file, "search_docs", "{}");
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines[0], 'omnia-tools call: discovering the tools of the mcp and openapi handlers failed: handler "local": failed to connect MCP: MCP error -32000: Connection closed');
    assert.equal(lines[1], "the MCP server exited with code 1; the end of its stderr:");
    assert.ok(lines.includes(`  Error: Cannot find module '${MISSING}'`), run.stderr);
    assert.match(lines[lines.length - 1]!, /^ {2}Node\.js v\d+\.\d+\.\d+$/);
    assert.ok(lines.slice(2).every((l) => l === "" || l.startsWith("  ")), run.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("probe: a client handler is `not probed`, not healthy; a 404 to HEAD is healthy with a hint about the path", async () => {
  const http = await startHttpServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const dir = await mkdtemp(join(tmpdir(), "omnia-probe-hints-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(
      file,
      `handlers:
  - name: web
    type: http
    tool: { name: a, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${http.url}/wrong/path" }
  - name: browser
    type: client
    tool: { name: b, description: d, inputSchema: { type: object } }
`,
    );
    const run = await omniaTools("probe", "--registry", file);
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trimEnd().split("\n");
    assert.equal(rows[0], "HANDLER  TYPE    HEALTH      LATENCY  DETAIL");
    assert.match(rows[1]!, /^web {6}http {4}healthy {5}\d+ms +HTTP 404 \(healthy as Omnia counts it, below 500; is the endpoint's path right\?\)$/);
    assert.match(rows[2]!, /^browser {2}client {2}not probed {2}\d+ms +not probed: client tools run in the client$/);
    assert.equal(http.requests[0]?.url, "/wrong/path");
    // --json keeps the executor's HandlerHealth as it is.
    const json = await omniaTools("probe", "--registry", file, "--json");
    assert.deepEqual(
      (JSON.parse(json.stdout) as { handlers: { handler: string; healthy: boolean; detail: string }[] }).handlers.map((h) => [h.handler, h.healthy, h.detail]),
      [
        ["web", true, "HTTP 404"],
        ["browser", true, "not probed: client tools run in the client"],
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
    await http.close();
  }
});
