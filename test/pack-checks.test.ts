// The pack is checked like the registry (issue #33 item 12): a field the PromptPack schema does not
// define warns with a did-you-mean (it is kept: Go's JSON reader ignores it too), and a pack.json is
// JSON: a trailing comma is an error with its line, as packc and Omnia's Go reader make it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../src/core/index.js";
import { loadPromptPack } from "../src/manifest/index.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { omniaTools } from "./helpers/cli.js";

const MISSPELT = `{
  "id": "support-pack",
  "name": "Support",
  "version": "1.0.0",
  "descripton": "typo at the top",
  "template_engine": { "version": "v1", "syntax": "{{variable}}" },
  "prompts": {
    "support": {
      "id": "support",
      "name": "Support",
      "version": "1.0.0",
      "system_template": "You help.",
      "tool": ["get_weather"]
    }
  },
  "tools": { "get_weather": { "name": "get_weather", "description": "d", "parameter": {} } }
}
`;

test("loadPromptPack: each unknown field warns once with its path, line and a did-you-mean; the pack still loads with the field kept", () => {
  const logger = createCaptureLogger();
  const pack = loadPromptPack(MISSPELT, { logger });
  assert.deepEqual(pack.prompts["support"]?.["tool"], ["get_weather"]);
  assert.equal(pack.prompts["support"]?.tools, undefined);
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["warn", 'PromptPack: descripton: unknown field; it is ignored (did you mean "description"?)', { path: "descripton", line: 5 }],
      ["warn", 'PromptPack: prompts.support.tool: unknown field; it is ignored (did you mean "tools"?)', { path: "prompts.support.tool", line: 13 }],
      ["warn", 'PromptPack: tools.get_weather.parameter: unknown field; it is ignored (did you mean "parameters"?)', { path: "tools.get_weather.parameter", line: 16 }],
    ],
  );
});

test("loadPromptPack: the real packs in the fixtures warn only for what the schema lacks (Omnia's compositions is known)", () => {
  const cases: [string, string[]][] = [
    ["test/fixtures/real-world/omnia/omnia_v1alpha1_promptpack.yaml", []],
    ["test/fixtures/real-world/omnia/composition-demo.yaml", []],
    ["test/fixtures/real-world/omnia/echo-function-promptpack.yaml", ["PromptPack: prompts.default.user_template: unknown field; it is ignored"]],
    ["test/fixtures/real-world/promptpack-spec/examples_L978.pack.json", []],
    ["test/fixtures/real-world/promptpack-spec/setup-agents_L164.pack.json", []],
  ];
  for (const [file, expected] of cases) {
    const logger = createCaptureLogger();
    loadPromptPack(readFileSync(file, "utf8"), { logger, ...(file.endsWith(".json") ? { format: "json" as const } : {}) });
    assert.deepEqual(logger.lines.filter((l) => l.level === "warn").map((l) => l.message), expected, file);
  }
});

test("loadPromptPack: format json refuses a trailing comma with its line and column; YAML (the default) reads it", () => {
  const text = '{\n  "prompts": {\n    "a": { "tools": ["x"] },\n  }\n}\n';
  assert.throws(
    () => loadPromptPack(text, { format: "json" }),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.deepEqual(e.issues, [{ path: "", message: "invalid JSON at line 4, column 3: Expected double-quoted property name", line: 4 }]);
      return true;
    },
  );
  assert.deepEqual(loadPromptPack(text).prompts["a"]?.tools, ["x"]);
  // No position from V8: its message quotes the whole text, which is not repeated.
  assert.throws(() => loadPromptPack('{"prompts": {"a": {"tools": ["x",]}}}', { format: "json" }), (e: unknown) => {
    assert.ok(e instanceof ConfigError);
    assert.deepEqual(e.issues, [{ path: "", message: "invalid JSON: Unexpected token ']'" }]);
    return true;
  });
});

test("loadPromptPack: the pack.json of a ConfigMap is JSON, whatever the outer format", () => {
  const configMap = `apiVersion: v1
kind: ConfigMap
metadata: { name: packs }
data:
  pack.json: |
    { "prompts": { "a": { "tools": ["x"], } } }
`;
  assert.throws(
    () => loadPromptPack(configMap),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.issues.length, 1);
      assert.equal(e.issues[0]?.message, `data."pack.json" of ConfigMap "packs" (the document): invalid JSON at line 1, column 39: Expected double-quoted property name`);
      return true;
    },
  );
});

test("reconcile: a misspelt pack field is a warning line with the file and line; a .json pack with a trailing comma exits 2", async () => {
  const dir = await mkdtemp(join(tmpdir(), "omnia-pack-checks-"));
  try {
    const registry = join(dir, "registry.yaml");
    await writeFile(registry, "handlers:\n  - name: w\n    type: http\n    tool: { name: get_weather, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: http://127.0.0.1:1/w }\n");
    const misspelt = join(dir, "pack.json");
    await writeFile(misspelt, MISSPELT);
    const run = await omniaTools("reconcile", "--pack", misspelt, "--registry", registry);
    const warnings = run.stderr.split("\n").filter((l) => l.includes("warning:"));
    assert.deepEqual(warnings, [
      `${misspelt}:5: warning: descripton: unknown field; it is ignored (did you mean "description"?)`,
      `${misspelt}:13: warning: prompts.support.tool: unknown field; it is ignored (did you mean "tools"?)`,
      `${misspelt}:16: warning: tools.get_weather.parameter: unknown field; it is ignored (did you mean "parameters"?)`,
    ]);
    const comma = join(dir, "comma.json");
    await writeFile(comma, '{\n  "prompts": { "a": { "tools": ["get_weather"] }, }\n}\n');
    const bad = await omniaTools("reconcile", "--pack", comma, "--registry", registry);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, `${comma}: invalid PromptPack: 1 problem (ERR_OMNIA_CONFIG)\n${comma}:2: invalid JSON at line 2, column 51: Expected double-quoted property name\n`);
    // The same text in a .yaml file is YAML, which allows the comma.
    const yamlPack = join(dir, "pack.yaml");
    await writeFile(yamlPack, '{\n  "prompts": { "a": { "tools": ["get_weather"] }, }\n}\n');
    const ok = await omniaTools("reconcile", "--pack", yamlPack, "--registry", registry);
    assert.equal(ok.code, 0, ok.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
