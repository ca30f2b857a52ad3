// The Go-compatible JSON reader: Go's messages in both of its modes, and the
// values it builds (numbers as literal text, the last of repeated keys).
import { test } from "node:test";
import assert from "node:assert/strict";
import { GoNumber, readGoJson, scanGoJson } from "./schema-json.js";
import { generateJsonText, random } from "../../test/helpers/json-texts.js";
import { decCmp, formatBigFloat, parseDec } from "./schema-number.js";

test("json.Decoder messages: the first value only, EOF and unexpected EOF", () => {
  const decode = (t: string): string => {
    const r = readGoJson(t, "decoder");
    return r.ok ? "ok" : r.message;
  };
  assert.equal(decode("{} trailing"), "ok");
  assert.equal(decode("12x"), "ok");
  assert.equal(decode(" \n\t"), "EOF");
  assert.equal(decode('{"a":'), "unexpected EOF");
  assert.equal(decode("-"), "unexpected EOF");
  assert.equal(decode("{bad"), "invalid character 'b' looking for beginning of object key string");
  assert.equal(decode('{"a" 1}'), "invalid character '1' after object key");
  assert.equal(decode('{"a":1 "b"}'), "invalid character '\"' after object key:value pair");
  assert.equal(decode("[1 2]"), "invalid character '2' after array element");
  assert.equal(decode('"\u0001"'), "invalid character '\\x01' in string literal");
  assert.equal(decode('"\\x"'), "invalid character 'x' in string escape code");
  assert.equal(decode('"\\u12g4"'), "invalid character 'g' in \\u hexadecimal character escape");
  assert.equal(decode("1.x"), "invalid character 'x' after decimal point in numeric literal");
  assert.equal(decode("1e+"), "unexpected EOF");
  assert.equal(decode("[1e+]"), "invalid character ']' in exponent of numeric literal");
  assert.equal(decode("[-x]"), "invalid character 'x' in numeric literal");
  assert.equal(decode("nul!"), "invalid character '!' in literal null (expecting 'l')");
  assert.equal(decode("\u00a0{}"), "invalid character 'Â' looking for beginning of value");
  assert.equal(decode("'a'"), "invalid character '\\'' looking for beginning of value");
});

test("json.Unmarshal messages: the whole text is one value", () => {
  const unmarshal = (t: string): string => {
    const r = readGoJson(t, "unmarshal");
    return r.ok ? "ok" : r.message;
  };
  assert.equal(unmarshal(""), "unexpected end of JSON input");
  assert.equal(unmarshal("  "), "unexpected end of JSON input");
  assert.equal(unmarshal('{"a":1} x'), "invalid character 'x' after top-level value");
  assert.equal(unmarshal("12x"), "invalid character 'x' after top-level value");
  assert.equal(unmarshal("tru"), "invalid character ' ' in literal true (expecting 'e')");
  assert.equal(unmarshal(" 12 "), "ok");
});

test("values: numbers keep their text, a repeated key keeps its last value, escapes decode as Go does", () => {
  const r = readGoJson('{"n":1.50,"a":1,"a":2,"s":"\\ud83d\\ude00\\ud800x","e":[]}', "decoder");
  assert.ok(r.ok);
  if (!r.ok) return;
  const m = r.value as Map<string, unknown>;
  assert.deepEqual([...m.keys()], ["n", "a", "s", "e"]);
  assert.deepEqual(m.get("n"), new GoNumber("1.50"));
  assert.deepEqual(m.get("a"), new GoNumber("2"));
  assert.equal(m.get("s"), "😀\ufffdx");
  assert.deepEqual(m.get("e"), []);
});

test("bounds print as Go's %v of a big.Float, and compare exactly", () => {
  const cases: [string, string][] = [
    ["1000000", "1e+06"],
    ["999999", "999999"],
    ["1234567.5", "1.2345675e+06"],
    ["12345678901", "1.2345678901e+10"],
    ["9007199254740992", "9.007199254740992e+15"],
    ["1e-7", "1e-07"],
    ["-2.5e-5", "-2.5e-05"],
    ["0.0001", "0.0001"],
    ["0.1", "0.1"],
    ["0.3", "0.3"],
    ["-1.5", "-1.5"],
    ["0", "0"],
    ["1e+21", "1e+21"],
  ];
  for (const [text, want] of cases) assert.equal(formatBigFloat(parseDec(text)), want, text);
  assert.equal(decCmp(parseDec("0.10000000000000000001"), parseDec("0.1")), 1);
  assert.equal(decCmp(parseDec("-0.0"), parseDec("0")), 0);
  assert.equal(decCmp(parseDec("1e400"), parseDec("1.7976931348623157e308")), 1);
  assert.equal(decCmp(parseDec("-3"), parseDec("-2.5")), -1);
});

test("readGoJson: the same outcome as Go's scanner alone, in both modes (20,000 generated texts)", () => {
  const rand = random(21);
  const texts = ['{"a":1,"a":2,"b":3}', '{"b":[1.0,-0,1e400]} trailing', '[1,2] [3]', ' {"k":"\\ud800\\u0041\\n"} ', '{"a":1}}', "[" .repeat(70) + "]".repeat(70)];
  for (let i = 0; i < 20_000; i++) texts.push(generateJsonText(rand));
  for (const text of texts) {
    for (const mode of ["decoder", "unmarshal"] as const) assert.deepStrictEqual(readGoJson(text, mode), scanGoJson(text, mode), `${JSON.stringify(text)} ${mode}`);
  }
});
