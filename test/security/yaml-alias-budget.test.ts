// YAML alias amplification: one anchor repeated by aliases must not make a small
// manifest, pack or OpenAPI spec expand into a huge value. yaml's maxAliasCount
// does not bound this (an anchor without aliases inside may be repeated 1000 times
// at full size), so the loaders count the expanded nodes first and refuse past
// 50,000 added by aliases, as a ConfigError with the line of the alias.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../../src/core/index.js";
import { loadPromptPack, loadToolRegistry } from "../../src/manifest/index.js";

/** A 200-byte flow map (64 YAML nodes). */
const NODE = `{${Array.from({ length: 20 }, (_, i) => `k${i}: v${i}`).join(", ")}, pad: ${"x".repeat(13)}}`;
const BOMB_MESSAGE = "YAML aliases expand the document by more than 50000 nodes (alias *a); refusing it as a resource exhaustion attack";

function registryWithCopies(copies: number, node = NODE): string {
  return [
    "apiVersion: omnia.altairalabs.ai/v1alpha1",
    "kind: ToolRegistry",
    "metadata: {name: bomb}",
    "spec:",
    "  handlers:",
    "    - name: h",
    "      type: client",
    "      tool:",
    "        name: t",
    "        description: d",
    "        inputSchema:",
    "          type: object",
    `          x-anchor: &a ${node}`,
    "          x-copies:",
    ...Array.from({ length: copies }, () => "            - *a"),
    "",
  ].join("\n");
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail("no ConfigError");
}

test("one anchor of a 200-byte node x 999 aliases: a ConfigError at the alias that crossed the bound", () => {
  assert.equal(NODE.length, 200);
  const text = registryWithCopies(999);
  const error = configError(() => loadToolRegistry(text));
  assert.equal(error.code, "ERR_OMNIA_CONFIG");
  // 64 nodes per alias: the 782nd alias (line 15 + 781) crosses 50,000.
  assert.deepEqual(error.issues, [{ path: "", message: `invalid YAML at line 796: ${BOMB_MESSAGE}`, line: 796 }]);
  assert.equal(error.message, `invalid YAML at line 796: ${BOMB_MESSAGE}`);
});

test("a 490 KiB manifest of aliases is refused the same way, and the process stays healthy", () => {
  const text = registryWithCopies(32_000);
  assert.ok(text.length > 490 * 1024, String(text.length));
  const before = process.memoryUsage().heapUsed;
  const error = configError(() => loadToolRegistry(text));
  assert.equal(error.issues[0]?.message, `invalid YAML at line 796: ${BOMB_MESSAGE}`);
  // The expansion was never built: far less than the 32,000 x 64 nodes it stood for.
  globalThis.gc?.();
  assert.ok(process.memoryUsage().heapUsed - before < 64 * 2 ** 20);
});

test("nested anchors (each a list of aliases of the one before) count their full expansion", () => {
  const level = (x: string): string => `[${Array(10).fill(`*${x}`).join(", ")}]`;
  const text = `a: &a ${NODE}\nb: &b ${level("a")}\nc: &c ${level("b")}\nd: &d ${level("c")}\nhandlers: []\n`;
  const error = configError(() => loadToolRegistry(text));
  assert.deepEqual(error.issues, [
    { path: "", message: "invalid YAML at line 4: YAML aliases expand the document by more than 50000 nodes (alias *c); refusing it as a resource exhaustion attack", line: 4 },
  ]);
});

test("aliases below the bound load as before: 999 copies of a small node", () => {
  const registry = loadToolRegistry(registryWithCopies(999, "{type: string}"));
  const copies = registry.tools[0]?.inputSchema["x-copies"] as unknown[];
  assert.equal(copies.length, 999);
  assert.deepEqual(copies[998], { type: "string" });
});

test("loadPromptPack refuses the same bomb", () => {
  const text = `id: p\nx-anchor: &a ${NODE}\nx-copies:\n${"  - *a\n".repeat(999)}prompts:\n  main: {tools: []}\n`;
  const error = configError(() => loadPromptPack(text));
  assert.deepEqual(error.issues, [{ path: "", message: `invalid YAML at line 785: ${BOMB_MESSAGE}`, line: 785 }]);
});
