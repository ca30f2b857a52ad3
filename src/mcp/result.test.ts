import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { JsonValue } from "../core/index.js";
import { McpToolError } from "./errors.js";
import { interpretMcpResult, type McpCallToolResultFields } from "./result.js";

const text = (t: string) => ({ type: "text", text: t });
const image = { type: "image", data: "aGk=", mimeType: "image/png" };

// runtime-tools.md §7.4 result shaping and §1.5's isError text, input → exact output.
const SUCCESS: readonly [string, McpCallToolResultFields, JsonValue, string][] = [
  ["one text item: its text", { content: [text("hello <world>")] }, "hello <world>", '"hello \\u003cworld\\u003e"'],
  ["one text item wins over structuredContent", { content: [text("t")], structuredContent: { a: 1 } }, "t", '"t"'],
  ["one non-text item: the item", { content: [image] }, image, '{"data":"aGk=","mimeType":"image/png","type":"image"}'],
  ["one non-text item wins over structuredContent", { content: [image], structuredContent: { a: 1 } }, image, '{"data":"aGk=","mimeType":"image/png","type":"image"}'],
  ["two items and structuredContent: structuredContent", { content: [text("a"), text("b")], structuredContent: { z: 1, a: [true, null] } }, { z: 1, a: [true, null] }, '{"a":[true,null],"z":1}'],
  ["no content, structuredContent", { content: [], structuredContent: { k: "v" } }, { k: "v" }, '{"k":"v"}'],
  ["content missing, structuredContent", { structuredContent: { k: "&" } }, { k: "&" }, '{"k":"\\u0026"}'],
  ["two items, no structuredContent: the array", { content: [text("a"), image] }, [text("a"), image], '[{"text":"a","type":"text"},{"data":"aGk=","mimeType":"image/png","type":"image"}]'],
  ["two items, structuredContent null: the array", { content: [text("a"), text("b")], structuredContent: null }, [text("a"), text("b")], '[{"text":"a","type":"text"},{"text":"b","type":"text"}]'],
  ["nothing: null", { content: [] }, null, "null"],
  ["nothing at all: null", {}, null, "null"],
  ["isError false is a success", { content: [text("ok")], isError: false }, "ok", '"ok"'],
  ["an empty text item", { content: [text("")] }, "", '""'],
];

for (const [name, input, result, resultJson] of SUCCESS) {
  test(`interpretMcpResult: ${name}`, () => {
    assert.deepEqual(interpretMcpResult("t", input), { status: "success", result, resultJson });
  });
}

const ERRORS: readonly [string, McpCallToolResultFields, string][] = [
  ["isError with a first text item: that text", { isError: true, content: [text("boom"), text("second")] }, "boom"],
  ["isError with no content: the fallback", { isError: true, content: [] }, "MCP tool returned error"],
  ["isError with content missing: the fallback", { isError: true }, "MCP tool returned error"],
  ["isError whose first item is an image: the fallback (only Content[0] is read)", { isError: true, content: [image, text("later")] }, "MCP tool returned error"],
  ["isError whose first text is empty: the fallback", { isError: true, content: [text(""), text("later")] }, "MCP tool returned error"],
  ["isError wins over structuredContent", { isError: true, content: [text("bad")], structuredContent: { a: 1 } }, "bad"],
];

for (const [name, input, message] of ERRORS) {
  test(`interpretMcpResult: ${name}`, () => {
    const out = interpretMcpResult("get_weather", input);
    assert.equal(out.status, "error");
    if (out.status !== "error") return;
    assert.equal(out.message, message);
    assert.ok(out.error instanceof McpToolError);
    assert.equal(out.error.code, "ERR_OMNIA_MCP_TOOL_ERROR");
    assert.equal(out.error.message, message);
    assert.equal(out.error.toolName, "get_weather");
  });
}

const json: fc.Arbitrary<JsonValue> = fc.jsonValue() as fc.Arbitrary<JsonValue>;

test("property: resultJson parses back to result, for any structuredContent behind two or more items", () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), json, { noNullPrototype: true }), fc.array(fc.string(), { minLength: 2, maxLength: 4 }), (structured, texts) => {
      const out = interpretMcpResult("t", { content: texts.map(text), structuredContent: structured });
      assert.equal(out.status, "success");
      if (out.status !== "success") return;
      assert.deepEqual(JSON.parse(out.resultJson), structured);
      assert.equal(out.result, structured);
    }),
    { numRuns: 300 },
  );
});

test("property: a single text item's resultJson is a JSON string of exactly that text, with no raw <, > or &", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme" }), (t) => {
      const out = interpretMcpResult("t", { content: [text(t)] });
      assert.equal(out.status, "success");
      if (out.status !== "success") return;
      assert.equal(JSON.parse(out.resultJson), t);
      assert.doesNotMatch(out.resultJson, /[<>&]/);
    }),
    { numRuns: 300 },
  );
});
