import { test } from "node:test";
import assert from "node:assert/strict";
import { goJsonReencode } from "./go-json-text.js";
import { encodeGoJson, goJsonDecode, goJsonIndent, type GoJsonSink } from "./go-json.js";
import { generateJsonText, random } from "../../test/helpers/json-texts.js";

/** The general path: Go's decoder, then Go's encoder over the value. */
function general(text: string, pretty: boolean): string | undefined {
  const decoded = goJsonDecode(text);
  if (!decoded.ok) return undefined;
  let out = "";
  const sink: GoJsonSink = {
    write: (piece) => {
      out += piece;
    },
    newline: (depth) => {
      out += goJsonIndent(depth);
    },
  };
  return encodeGoJson(decoded.value, sink, pretty, false) ? out : undefined;
}

test("goJsonReencode: the texts Go writes for a tool result, compact and pretty", () => {
  const result = '{"city":"Paris","temperature":21.5,"unit":"C","forecast":[{"day":1,"high":23},{"day":2,"high":19}]}';
  assert.equal(goJsonReencode(result, false, Infinity), '{"city":"Paris","forecast":[{"day":1,"high":23},{"day":2,"high":19}],"temperature":21.5,"unit":"C"}');
  assert.equal(
    goJsonReencode(result, true, Infinity),
    '{\n  "city": "Paris",\n  "forecast": [\n    {\n      "day": 1,\n      "high": 23\n    },\n    {\n      "day": 2,\n      "high": 19\n    }\n  ],\n  "temperature": 21.5,\n  "unit": "C"\n}',
  );
  assert.equal(goJsonReencode(' { "b" : [ ] , "a" : { } } ', true, Infinity), '{\n  "a": {},\n  "b": []\n}');
  assert.equal(goJsonReencode('{"s":"a<b>&c\\u00e9\\/\\n","n":[1.0,1E3,-0.0,1e-7,12345678901234567890,0.1]}', false, Infinity), '{"n":[1,1000,-0,1e-7,12345678901234567000,0.1],"s":"a\\u003cb\\u003e\\u0026cé/\\n"}');
  assert.equal(goJsonReencode('"\\ud800x"', false, Infinity), '"\ufffdx"');
  assert.equal(goJsonReencode('{"\\u0062":1,"a\\n":2,"a":3}', false, Infinity), '{"a":3,"a\\n":2,"b":1}');
  assert.equal(goJsonReencode('{"\ue000":1,"\u{1f600}":2}', false, Infinity), '{"\ue000":1,"\u{1f600}":2}');
});

test("goJsonReencode: a decimal is written as Go writes its float64, whether or not it is copied", () => {
  const decimals = ["0.5", "-0.25", "21.5", "0.000001", "0.0000012", "0.0000001", "0.00000012", "99999999999999.9", "999999999999999.9", "9007199254740993.5", "0.123456789012345", "0.1234567890123456", "0.30000000000000004", "1.10", "-0.0", "5e-324", "1.7976931348623157e308", "123456789.123456"];
  for (const d of decimals) {
    const n = Number(d);
    assert.equal(goJsonReencode(`[${d}]`, false, Infinity), `[${Object.is(n, -0) ? "-0" : String(n)}]`, d);
  }
});

test("goJsonReencode: leaves to the general path what it must not decide", () => {
  for (const text of ['{"a":1,"a":2}', '{"b":1,"a":2,"b":3}', '{"\\ud800":1}', "[1e400]", "-", "01", "[1,]", '{"a":1,}', "\ufeff{}", "{} x", "", "tru", '"\u0001"', '"a\\x"', "[" .repeat(65) + "]".repeat(65)]) {
    assert.equal(goJsonReencode(text, false, Infinity), undefined, text);
  }
  // The budget: more characters than allowed is left to the bounded general path.
  assert.equal(goJsonReencode('{"a":"bbbbbbbbbb"}', true, 10), undefined);
  assert.equal(goJsonReencode('{"a":"bbbbbbbbbb"}', true, 100), '{\n  "a": "bbbbbbbbbb"\n}');
});

test("goJsonReencode: where it answers, it answers as Go's decoder and encoder do (50,000 generated texts)", () => {
  const rand = random(25);
  let answered = 0;
  let valid = 0;
  for (let i = 0; i < 50_000; i++) {
    const text = generateJsonText(rand);
    for (const pretty of [false, true]) {
      const expected = general(text, pretty);
      const fast = goJsonReencode(text, pretty, Infinity);
      if (expected !== undefined) valid++;
      if (fast === undefined) continue;
      answered++;
      assert.equal(fast, expected, `${JSON.stringify(text)} pretty=${pretty}`);
    }
  }
  // The fast path answers most valid texts (the rest: repeated keys, keys that are not valid Unicode).
  assert.ok(answered > valid * 0.8, `answered ${answered} of ${valid} valid texts`);
});
