import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { turnText } from "./turn-text.js";

// contract.md §1.2.2, 1.9.0 rule: text parts joined with a blank line win over content.
test("turnText: content when no part carries text", () => {
  assert.equal(turnText({ content: "hi", parts: [] }), "hi");
  assert.equal(turnText({ content: "hi", parts: [{ type: "image", url: "http://x" }] }), "hi");
  assert.equal(turnText({ content: "hi", parts: [{ type: "text", text: "" }] }), "hi");
  assert.equal(turnText({ content: "", parts: [] }), "");
});

test("turnText: text parts joined in order with \\n\\n; content ignored; media skipped", () => {
  assert.equal(
    turnText({ content: "ignored", parts: [{ type: "text", text: "a" }, { type: "image", data: "ZGVm" }, { type: "text", text: "b" }] }),
    "a\n\nb",
  );
  assert.equal(turnText({ content: "ignored", parts: [{ type: "text", text: "only" }] }), "only");
  assert.equal(turnText({ content: "x", parts: [{ type: "text", text: "" }, { type: "text", text: "b" }] }), "b");
});

test("turnText: property: equals the non-empty texts joined by \\n\\n, else content (1000 runs)", () => {
  const part = fc.record({ type: fc.constantFrom("text", "image", "audio"), text: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ["type"] });
  fc.assert(
    fc.property(fc.string(), fc.array(part, { maxLength: 6 }), (content, parts) => {
      const texts = parts.map((p) => p.text).filter((t): t is string => t !== undefined && t !== "");
      assert.equal(turnText({ content, parts }), texts.length > 0 ? texts.join("\n\n") : content);
    }),
    { numRuns: 1000 },
  );
});
