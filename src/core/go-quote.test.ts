import { test } from "node:test";
import assert from "node:assert/strict";
import { goQuote } from "./go-quote.js";

test("goQuote follows strconv.Quote", () => {
  const cases: [string, string][] = [
    ["", '""'],
    ["v1", '"v1"'],
    ["1.3.0-rc1", '"1.3.0-rc1"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ["\x07\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'],
    ["\x00\x1b\x7f", '"\\x00\\x1b\\x7f"'],
    ["caf\u00e9 \u4e16", '"caf\u00e9 \u4e16"'],
    ["\u00a0", '"\\u00a0"'], // no-break space: not printable for Go (only U+0020 is)
    ["\u200b", '"\\u200b"'], // zero-width space (Cf)
    ["\u{1f600}", '"\u{1f600}"'],
    ["\u{e0001}", '"\\U000e0001"'], // language tag (Cf), above the BMP
    ["\ufffd", '"\ufffd"'],
  ];
  for (const [input, want] of cases) assert.equal(goQuote(input), want, JSON.stringify(input));
});
