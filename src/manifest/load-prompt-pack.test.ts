// loadPromptPack: the promptpack.org shape (runtime-tools.md §6.4), typed where
// reconciliation reads it, every other field kept.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../core/index.js";
import { loadPromptPack } from "./load-prompt-pack.js";

const PACK = {
  $schema: "https://promptpack.org/schema/latest/promptpack.schema.json",
  id: "customer-support",
  name: "Customer support",
  version: "1.2.0",
  template_engine: { version: "v1", syntax: "{{variable}}", features: ["basic_substitution"] },
  prompts: {
    support: {
      id: "support",
      name: "Support",
      version: "1.0.0",
      system_template: "You help {{company}} customers.",
      tools: ["get_weather", "search"],
      tool_policy: { tool_choice: "auto", max_rounds: 5, blocklist: ["search"] },
      variables: [{ name: "company", type: "string" }],
    },
    billing: { id: "billing", name: "Billing", version: "1.0.0", system_template: "Billing.", tools: null },
  },
  tools: { get_weather: { name: "get_weather", description: "D1", parameters: { type: "object", properties: {} } } },
  fragments: { greeting: "Hello" },
  metadata: { domain: "support", tags: ["x"] },
};

describe("loadPromptPack", () => {
  test("a compiled pack.json: typed fields readable, unknown fields kept, tools: null dropped", () => {
    const pack = loadPromptPack(JSON.stringify(PACK));
    assert.equal(pack.id, "customer-support");
    assert.equal(pack.version, "1.2.0");
    assert.deepEqual(pack.prompts.support?.tools, ["get_weather", "search"]);
    assert.deepEqual(pack.prompts.support?.tool_policy, { tool_choice: "auto", max_rounds: 5, blocklist: ["search"] });
    assert.equal("tools" in (pack.prompts.billing ?? {}), false);
    assert.equal(pack.tools?.get_weather?.description, "D1");
    assert.deepEqual(pack.fragments, { greeting: "Hello" });
    assert.deepEqual(pack.metadata, { domain: "support", tags: ["x"] });
    assert.equal(pack.$schema, "https://promptpack.org/schema/latest/promptpack.schema.json");
  });

  test("the result is deeply frozen and the caller's object is untouched", () => {
    const input = structuredClone(PACK);
    const pack = loadPromptPack(input);
    assert.ok(Object.isFrozen(pack));
    assert.ok(Object.isFrozen(pack.prompts));
    assert.ok(Object.isFrozen(pack.prompts.support?.tools));
    assert.equal(Object.isFrozen(input), false);
    assert.equal(input.prompts.billing.tools, null);
  });

  test("YAML source and a minimal { prompts } pack load too", () => {
    const pack = loadPromptPack("prompts:\n  a:\n    tools: [x, y]\n  b: {}\n");
    assert.deepEqual(pack, { prompts: { a: { tools: ["x", "y"] }, b: {} } });
  });

  const bad: [string, unknown, string][] = [
    ["no prompts", { id: "p" }, "prompts: is required"],
    ["prompts not an object", { prompts: ["a"] }, "prompts: expected an object; got an array"],
    ["a prompt that is not an object", { prompts: { a: "x" } }, 'prompts.a: expected an object; got "x"'],
    ["tools not a list", { prompts: { a: { tools: "x" } } }, 'prompts.a.tools: expected an array; got "x"'],
    ["a tool name that is not a string", { prompts: { a: { tools: ["x", 42] } } }, "prompts.a.tools[1]: expected a string; got 42"],
    ["an id that is not a string", { id: 7, prompts: {} }, "id: expected a string; got 7"],
    ["a version that is not a string", { version: 1.2, prompts: {} }, "version: expected a string; got 1.2"],
  ];
  for (const [name, input, message] of bad) {
    test(`rejects ${name}`, () => {
      assert.throws(() => loadPromptPack(input as object), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.message, message);
        return true;
      });
    });
  }

  test("a syntax error reports its line; several documents are refused", () => {
    assert.throws(() => loadPromptPack("prompts:\n  a: {tools: [x}\n"), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^invalid YAML at line 2, column \d+: /);
      return true;
    });
    assert.throws(() => loadPromptPack("prompts: {}\n---\nprompts: {}\n"), { message: "expected exactly one PromptPack document; got 2" });
    assert.throws(() => loadPromptPack("[1, 2]"), { message: "expected a PromptPack object; got an array" });
  });
});
