// examples/registry.yaml and examples/pack.json, through the public entry point:
// a handler of every type, three prompts, one tool declared but not served and
// one served but not declared.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadPromptPack, loadToolRegistry, reconcileTools, type Logger } from "../src/index.js";

const registryText = readFileSync("examples/registry.yaml", "utf8");
const packText = readFileSync("examples/pack.json", "utf8");

test("the example registry loads without warnings and has a handler of every type", () => {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (m) => void warnings.push(m) };
  const registry = loadToolRegistry(registryText, { logger });
  assert.deepEqual(warnings, []);
  assert.deepEqual([...new Set(registry.handlers.map((h) => h.type))].sort(), ["client", "grpc", "http", "mcp", "openapi"]);
  assert.deepEqual(
    registry.tools.map((t) => t.name),
    ["get_weather", "convert_currency", "lookup_order", "get_location"],
  );
});

test("the example pack has three prompts; reconciling finds one mismatch in each direction", () => {
  const registry = loadToolRegistry(registryText);
  const pack = loadPromptPack(packText);
  assert.deepEqual(Object.keys(pack.prompts), ["support", "billing", "store-finder"]);
  const result = reconcileTools(pack, registry);
  assert.deepEqual(result.declaredNotServed, ["search_kb"]);
  assert.deepEqual(result.servedNotDeclared, ["convert_currency"]);
  assert.deepEqual(
    result.mismatches.map((m) => m.kind),
    ["served-not-declared", "declared-not-served"],
  );
});
