// A stdio MCP server's stderr is a peer channel (issue #33 item 9): how the child ended and the end
// of its stderr ride on McpTransportError.stdioExit, the probe's detail and the CLI, never on the
// text the model reads; the kept tail is bounded (4 KiB, 20 lines) however much the child writes;
// the CLI prints it escaped. Real child processes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolExecutor, loadToolRegistry } from "../../src/index.js";
import { omniaTools } from "../helpers/cli.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";

// 5 MiB of stderr (a "secret" early, terminal controls at the end), then exit 7 before answering initialize.
const SCRIPT = `
const line = "x".repeat(1023) + "\\n";
process.stderr.write("OMNIA_SECRET=hunter2\\n");
for (let i = 0; i < 5 * 1024; i++) process.stderr.write(line);
process.stderr.write("last words \\u001b]0;pwned\\u0007\\n");
process.stderr.end(() => process.exit(7));
`;
const registry = `handlers:
  - name: noisy
    type: mcp
    mcpConfig: { transport: stdio, command: ${JSON.stringify(process.execPath)}, args: ["-e", ${JSON.stringify(SCRIPT)}] }
`;

test("a child that writes 5 MiB of stderr and exits: the model's text has none of it; stdioExit keeps the last 20 lines of 4 KiB", async () => {
  const logger = createCaptureLogger();
  const executor = createToolExecutor({ registry: loadToolRegistry(registry), logger });
  try {
    const health = await executor.checkHealth("noisy");
    assert.equal(health[0]?.healthy, false);
    await assert.rejects(executor.refresh(), (e: unknown) => {
      const error = e as Error & { cause?: unknown };
      assert.equal(error.message.includes("hunter2"), false);
      assert.equal(error.message.includes("last words"), false);
      return true;
    });
    const detail = health[0]!.detail;
    assert.equal(detail.includes("hunter2"), false, "the start of the stream is not kept");
    assert.ok(detail.endsWith(`last words \u001b]0;pwned\u0007)`), detail);
    const tail = detail.slice(detail.indexOf("its stderr ended: ") + "its stderr ended: ".length, -1).split(" | ");
    assert.equal(tail.length, 4, "4 KiB holds three whole 1 KiB lines and the last one; the piece of a line before them is dropped");
    assert.deepEqual(tail.slice(0, 3), ["x".repeat(1023), "x".repeat(1023), "x".repeat(1023)]);
    assert.ok(detail.startsWith('handler "noisy": failed to connect MCP: MCP error -32000: Connection closed (the server exited with code 7; '), detail);
    // Two children (the probe's and discovery's), one warning each, with the same bounded tail.
    const warnings = logger.lines.filter((l) => l.message === "mcp: the stdio server exited");
    assert.deepEqual(warnings.map((w) => [w.level, w.fields?.["exitCode"], (w.fields?.["stderr"] as string).split("\n").length]), [["warn", 7, 4], ["warn", 7, 4]]);
  } finally {
    await executor.close();
  }
});

test("the CLI prints the child's stderr with its terminal controls escaped", async () => {
  const dir = await mkdtemp(join(tmpdir(), "omnia-stdio-stderr-"));
  try {
    const file = join(dir, "registry.yaml");
    await writeFile(file, registry);
    const run = await omniaTools("probe", "--registry", file);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stdout.includes("\u001b"), false);
    assert.equal(run.stdout.includes("\u0007"), false);
    assert.match(run.stdout, /last words \\u001b\]0;pwned\\u0007\)\n$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
