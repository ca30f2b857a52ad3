import { test } from "node:test";
import assert from "node:assert/strict";
import { boundedText } from "./gen-ai.js";

test("boundedText replaces controls with U+FFFD and cuts at max code units, ending in '...'", () => {
  assert.equal(boundedText("a\u0000b\nc\u2028", 16), "a\uFFFDb\uFFFDc\uFFFD");
  assert.equal(boundedText("abcdefghij", 10), "abcdefghij");
  // Cut: 10 units become 7 kept + "...". A control before the cut is replaced, one after it is dropped with the rest.
  assert.equal(boundedText("abc\u0007efghij\u0001k", 10), "abc\uFFFDefg...");
  // A high surrogate at the cut goes rather than be split from its pair.
  assert.equal(boundedText("abcdef\uD83D\uDE00xyz", 10), "abcdef...");
  // A megabyte of controls past the cut: only the kept part is in the result.
  assert.equal(boundedText(`${"x".repeat(6)}\u0000${"\u0000".repeat(1 << 20)}`, 10), "xxxxxx\uFFFD...");
});
