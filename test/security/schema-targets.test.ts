// Issue #35 item 4: `checkSchemaTargets` reads schemas a peer wrote (an MCP
// server's tools/list, an OpenAPI document) when `probe --target` or a host
// checks discovered tools. Whatever the schema, the check is one pass with an
// explicit stack: no throw, no loop, no recursion the schema can deepen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSchemaTargets, SCHEMA_TARGETS } from "../../src/index.js";

test("a hostile discovered schema (100,000 levels, a cycle, throwing getters and Proxy traps, 200,000 keys) is checked in one pass: issues, never a throw or a loop", () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 100_000; i++) deep = { type: "object", properties: { p: deep } };
  const cyclic: Record<string, unknown> = { type: "object", properties: {} };
  (cyclic["properties"] as Record<string, unknown>)["self"] = cyclic;
  const getter = { type: "object", get properties(): never { throw new Error("getter"); } };
  const trap = new Proxy({}, { ownKeys: () => { throw new Error("trap"); }, get: () => { throw new Error("trap"); } });
  const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, { type: "string", minLength: 1 }])) };
  for (const inputSchema of [deep, cyclic, getter, trap, wide, null, 5, "x", [], true]) {
    const issues = checkSchemaTargets({ name: "t", inputSchema }, SCHEMA_TARGETS);
    assert.ok(Array.isArray(issues));
    for (const issue of issues) assert.ok(SCHEMA_TARGETS.includes(issue.target) && typeof issue.message === "string" && issue.message.startsWith(`${issue.target}: `));
  }
  // The depth cap is one issue per target, not one per level.
  assert.deepEqual(checkSchemaTargets({ name: "t", inputSchema: deep }, ["gemini"]).map((i) => i.message), ["gemini: the schema is nested deeper than 1000 levels here; it is not checked further"]);
  // OpenAI's published totals are reported once each, however many properties there are.
  assert.deepEqual(checkSchemaTargets({ name: "t", inputSchema: wide }, ["openai-strict"]).map((i) => i.message), [
    "openai-strict: the schema has 200000 object properties; strict mode allows 5000 in all",
    "openai-strict: property names, definition names, enum and const values total 1288890 characters; strict mode allows 120000",
  ]);
});

test("a schema with a problem per key lists at most 1,000 per target and counts the rest in one issue", () => {
  const properties = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, { type: "string", const: "x" }]));
  const issues = checkSchemaTargets({ name: "t", inputSchema: { type: "object", properties } }, ["gemini"]);
  assert.equal(issues.length, 1_001);
  assert.equal(issues[1_000]?.message, "gemini: 4000 more problems like the ones above are not listed (at most 1000 per target)");
});
