import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { LOADER, sourcePath } from "../../test/helpers/source.js";
import { ConfigError } from "../core/index.js";
import { loadPromptPack } from "./load-prompt-pack.js";

const fixture = (name: string): string => readFileSync(new URL(`../../test/fixtures/real-world/omnia/${name}`, import.meta.url), "utf8");

function infoLogger() {
  const infos: string[] = [];
  const logger = { debug() {}, info: (m: string) => void infos.push(m), warn() {}, error() {} };
  return { infos, logger };
}

test("Omnia's sample PromptPack + ConfigMap file loads the ConfigMap's pack.json, and says which", () => {
  const { infos, logger } = infoLogger();
  const pack = loadPromptPack(fixture("omnia_v1alpha1_promptpack.yaml"), { logger });
  assert.equal(pack.id, "customer-support");
  assert.deepEqual(infos, ['PromptPack: read the pack from data."pack.json" of ConfigMap "customer-support-prompts" (documents[1]), named by PromptPack "customer-support" spec.source.configMapRef']);
});

test("the echo-function example (PromptPack + ConfigMap) loads", () => {
  const { infos, logger } = infoLogger();
  const pack = loadPromptPack(fixture("echo-function-promptpack.yaml"), { logger });
  assert.ok(Object.keys(pack.prompts).length > 0);
  assert.equal(infos.length, 1);
  assert.match(infos[0] ?? "", /^PromptPack: read the pack from data\."pack\.json" of ConfigMap "echo-pack-contents" \(documents\[1\]\), named by PromptPack "echo-pack"/);
});

test("a bare ConfigMap works; no pack found says where it looked", () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\ndata:\n  pack.json: \'{"id":"x","prompts":{"a":{"tools":["t"]}}}\'\n';
  assert.deepEqual(loadPromptPack(cm).prompts, { a: { tools: ["t"] } });
  const wrong = `apiVersion: omnia.altairalabs.ai/v1alpha1\nkind: PromptPack\nmetadata: {name: pp}\nspec: {source: {type: configmap, configMapRef: {name: missing}}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\ndata: {x: y}\n`;
  assert.throws(
    () => loadPromptPack(wrong),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.message === 'no pack found: no ConfigMap "missing" with a data."pack.json" key, as PromptPack "pp" spec.source.configMapRef names; looked at ConfigMaps "other" (documents[1])',
  );
});

test("omnia-tools reconcile --pack reads the two-document file and names the ConfigMap on stderr", async () => {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "omnia-pack-"));
  const registry = join(dir, "registry.yaml");
  writeFileSync(registry, "handlers:\n  - {name: h, type: client, tool: {name: lookup_order, description: d, inputSchema: {type: object}}}\n");
  const cli = sourcePath("src/cli/omnia-tools.ts");
  const packFile = resolve("test/fixtures/real-world/omnia/omnia_v1alpha1_promptpack.yaml");
  const { spawnSync } = await import("node:child_process");
  const r = spawnSync(process.execPath, [...LOADER, cli, "reconcile", "--pack", packFile, "--registry", registry], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stderr,
    `${packFile}: PromptPack: read the pack from data."pack.json" of ConfigMap "customer-support-prompts" (documents[1]), named by PromptPack "customer-support" spec.source.configMapRef\n`,
  );
  assert.match(r.stdout, /^Offered tools per prompt:\n/);
});
