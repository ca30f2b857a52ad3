// No peers, no crash (issue #33 item 8): with the gRPC peers absent (a project installed with
// --legacy-peer-deps), every CLI command and `omnia-tools/testing` load, HTTP tools work, and a gRPC
// call or backend fails with an error naming the packages to install and no filesystem path; the
// same for toAiSdkTools without `ai`. Child processes whose resolver refuses those packages
// (test/fixtures/no-peers.mjs), as Node's refuses a package that is not installed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNode, type CliRun } from "./helpers/cli.js";

const INSTALL = "npm install @bufbuild/protobuf @connectrpc/connect @connectrpc/connect-node";

function run(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runNode(["--import", "tsx", "--import", "./test/fixtures/no-peers.mjs", ...args], env);
}

test("without the gRPC peers: the package and omnia-tools/testing load, HTTP works, gRPC names the packages", async () => {
  const r = await run(["test/fixtures/no-peers-probe.ts"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    testing: "function",
    grpcBackend: {
      name: "MissingPeerError",
      code: "ERR_OMNIA_MISSING_PEER",
      message: `startGrpcToolBackend needs packages that are not installed: ${INSTALL}`,
      packages: ["@bufbuild/protobuf", "@connectrpc/connect", "@connectrpc/connect-node"],
    },
    http: '{"ok":true}',
    grpc: { message: `the gRPC backend needs packages that are not installed: ${INSTALL}`, code: "ERR_OMNIA_MISSING_PEER" },
  });
});

test("without ai: toAiSdkTools fails with MissingPeerError naming ai", async () => {
  const r = await run(["test/fixtures/no-peers-probe.ts"], { OMNIA_TEST_ABSENT: "ai" });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { aiSdk: unknown }).aiSdk, { code: "ERR_OMNIA_MISSING_PEER", message: "toAiSdkTools needs packages that are not installed: npm install ai" });
});

test("without the gRPC peers: omnia-tools --help, validate and call run; a gRPC tool's outcome names the packages", async () => {
  const dir = await mkdtemp(join(tmpdir(), "omnia-no-peers-"));
  try {
    const registry = join(dir, "registry.yaml");
    await writeFile(registry, "handlers:\n  - name: rpc\n    type: grpc\n    tool: { name: rpc_tool, description: d, inputSchema: { type: object } }\n    grpcConfig: { endpoint: \"127.0.0.1:1\" }\n");
    const help = await run(["src/cli/omnia-tools.ts", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: omnia-tools <command>/);
    const validate = await run(["src/cli/omnia-tools.ts", "validate", registry]);
    assert.equal(validate.code, 0, validate.stderr);
    const call = await run(["src/cli/omnia-tools.ts", "call", "--registry", registry, "rpc_tool", "{}", "--json"]);
    assert.equal(call.code, 1, call.stderr);
    const out = JSON.parse(call.stdout) as { outcome: { message: string; error: { code: string } }; modelSees: { content: string } };
    assert.equal(out.outcome.message, `the gRPC backend needs packages that are not installed: ${INSTALL}`);
    assert.equal(out.outcome.error.code, "ERR_OMNIA_MISSING_PEER");
    // No filesystem path reaches the model: the cause's `imported from <file>` stays on the cause.
    assert.equal(out.modelSees.content, `Tool execution failed: the gRPC backend needs packages that are not installed: ${INSTALL}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
