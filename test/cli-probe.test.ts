// `omnia-tools probe` (issue #20 item 12), run as a child process against real
// loopback backends: a table of every handler's health, exit 1 when one is unhealthy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startGrpcToolBackend } from "../src/testing.js";
import { startHttpServer } from "./helpers/http-server.js";
import { closedPortUrl } from "./helpers/policy-broker.js";
import { omniaTools } from "./helpers/cli.js";


test("probe: a table of every handler, exit 0 when all are healthy and 1 when one is not; --json; usage errors exit 2", async () => {
  const http = await startHttpServer((_req, res) => void res.end());
  const grpc = await startGrpcToolBackend({ t: { description: "d", inputSchema: { type: "object" }, execute: () => ({}) } });
  const refused = await closedPortUrl();
  const dir = await mkdtemp(join(tmpdir(), "omnia-probe-"));
  const handlers = (extra: string) => `handlers:
  - name: web
    type: http
    tool: { name: a, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${http.url}/x" }
  - name: rpc
    type: grpc
    tool: { name: b, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${grpc.endpoint}" }
${extra}`;
  try {
    const good = join(dir, "good.yaml");
    await writeFile(good, handlers(""));
    const ok = await omniaTools("probe", "--registry", good);
    assert.equal(ok.code, 0, ok.stderr);
    const rows = ok.stdout.trimEnd().split("\n");
    assert.equal(rows.length, 3);
    assert.equal(rows[0], "HANDLER  TYPE  HEALTH   LATENCY  DETAIL");
    assert.match(rows[1] ?? "", /^web {6}http {2}healthy {2}\d+ms +HTTP 200$/);
    assert.match(rows[2] ?? "", /^rpc {6}grpc {2}healthy {2}\d+ms +SERVING$/);
    assert.equal(http.requests[0]?.method, "HEAD");

    const bad = join(dir, "bad.yaml");
    await writeFile(bad, handlers(`  - name: gone
    type: http
    tool: { name: c, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${refused}/y" }
`));
    const failed = await omniaTools("probe", "--registry", bad, "--json");
    assert.equal(failed.code, 1);
    const json = JSON.parse(failed.stdout) as { healthy: boolean; handlers: { handler: string; healthy: boolean; detail: string }[] };
    assert.equal(json.healthy, false);
    assert.deepEqual(
      json.handlers.map((h) => [h.handler, h.healthy, h.detail]),
      [
        ["web", true, "HTTP 200"],
        ["rpc", true, "SERVING"],
        ["gone", false, `health check failed: Head "${refused}/y": dial tcp ${refused.slice(7)}: connect: connection refused`],
      ],
    );
    const one = await omniaTools("probe", "--registry", bad, "--handler", "web", "--json");
    assert.equal(one.code, 0);
    assert.deepEqual((JSON.parse(one.stdout) as { handlers: { handler: string }[] }).handlers.map((h) => h.handler), ["web"]);

    const usage = await omniaTools("probe");
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr, "omnia-tools probe: --registry is required\nUsage: omnia-tools probe --registry <registry.yaml> [--handler <name>] [--target <list>] [--json]\n");
    const unknown = await omniaTools("probe", "--registry", good, "--handler", "nope");
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr.split("\n")[0], `omnia-tools probe: no handler named "nope" in ${good}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await http.close();
    await grpc.close();
  }
});
