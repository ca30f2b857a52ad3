// Every vector of test/fixtures/promptkit-validation.json (PromptKit's
// validator run against gojsonschema v1.2.0 under Go), plus the limits that
// keep hostile input linear and typed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { goJsonMarshal, type JsonValue } from "../core/index.js";
import { schemaCacheSize, validateArguments, validateResult } from "./validate.js";

interface ArgCase {
  readonly id: string;
  readonly note: string;
  readonly tool: string;
  readonly schema: JsonValue;
  readonly args: string;
  readonly coercedArgs?: string;
  readonly valid: boolean;
  readonly class?: "args_invalid" | "not_json" | "schema_invalid";
  readonly text: string | null;
  readonly errors: readonly string[];
  readonly orderFree?: boolean;
}

interface ResultCase {
  readonly id: string;
  readonly note: string;
  readonly tool: string;
  readonly outputSchema: JsonValue;
  readonly result: string;
  readonly valid: boolean;
  readonly text: string;
  readonly errors: readonly string[];
  readonly orderFree?: boolean;
}

const vectors = JSON.parse(readFileSync("test/fixtures/promptkit-validation.json", "utf8")) as {
  cases: ArgCase[];
  results: ResultCase[];
};

const ARGS_PREFIX = "tool t validation error (args_invalid): argument validation failed: [";
const RESULT_PREFIX = "result validation failed: coercion failed: tool t validation error (result_invalid): result validation failed: [";

/** The error list inside `[...]` as a multiset: the expected elements, each removed once, must leave nothing. */
function assertSameMultiset(list: string, expected: readonly string[]): void {
  let rest = list;
  for (const e of expected) {
    const at = rest.startsWith(e) ? 0 : rest.indexOf(` ${e}`) + 1;
    assert.ok(at >= 0 && rest.slice(at, at + e.length) === e, `missing ${JSON.stringify(e)} in ${JSON.stringify(list)}`);
    rest = (rest.slice(0, at) + rest.slice(at + e.length)).replace(/^ | (?= )/, "");
  }
  assert.equal(rest.trim(), "");
}

for (const c of vectors.cases) {
  test(`${c.id}: ${c.note}`, () => {
    // The stage validates the coerced bytes when coercion changed them.
    const got = validateArguments(c.tool, goJsonMarshal(c.schema), c.coercedArgs ?? c.args);
    if (c.valid) {
      assert.deepEqual(got, { ok: true });
      return;
    }
    assert.equal(got.ok, false);
    if (got.ok) return;
    assert.equal(got.class, c.class);
    const text = `Error: ${got.error}`;
    if (c.orderFree === true) {
      assert.ok(got.error.startsWith(ARGS_PREFIX) && got.error.endsWith("]"), text);
      assert.equal(text.length, (c.text as string).length);
      assertSameMultiset(got.error.slice(ARGS_PREFIX.length, -1), c.errors);
    } else {
      assert.equal(text, c.text);
    }
  });
}

for (const c of vectors.results) {
  test(`${c.id}: ${c.note}`, () => {
    const got = validateResult(c.tool, goJsonMarshal(c.outputSchema), c.result);
    if (c.valid) {
      // A result that validates as it is goes on unchanged (the formatter then renders it).
      assert.deepEqual(got, { ok: true, result: c.result });
      return;
    }
    assert.equal(got.ok, false);
    if (got.ok) return;
    const text = `Tool execution failed: ${got.error}`;
    if (c.orderFree === true) {
      assert.equal(text.length, c.text.length);
      assert.ok(got.error.startsWith(RESULT_PREFIX), text);
      assertSameMultiset(got.error.slice(RESULT_PREFIX.length, -1), c.errors);
    } else {
      assert.equal(text, c.text);
    }
  });
}

test("the tool's name goes into every prefix", () => {
  const schema = '{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}';
  assert.deepEqual(validateArguments("get_weather", schema, "{}"), {
    ok: false,
    class: "args_invalid",
    error: "tool get_weather validation error (args_invalid): argument validation failed: [(root): city is required]",
  });
  assert.deepEqual(validateArguments("get_weather", schema, '{"city":"Par'), {
    ok: false,
    class: "not_json",
    error: "validation error for tool get_weather: unexpected EOF",
  });
  assert.deepEqual(validateArguments("get_weather", '{"type":"strin"}', "{}"), {
    ok: false,
    class: "schema_invalid",
    error:
      "invalid input schema for tool get_weather: has a primitive type that is NOT VALID -- given: /strin/ Expected valid values are:[array boolean integer number null object string]",
  });
  assert.deepEqual(validateResult("get_weather", '{"properties":{"temp":{"type":"number"}},"required":["temp"],"type":"object"}', '{"tmp":21}'), {
    ok: false,
    error:
      "result validation failed: coercion failed: tool get_weather validation error (result_invalid): result validation failed: [(root): temp is required]",
  });
});

test("no schema, or an empty schema text, means no validation", () => {
  assert.deepEqual(validateArguments("t", undefined, "{bad"), { ok: true });
  assert.deepEqual(validateArguments("t", "", "{bad"), { ok: true });
});

test("a result that validates only after Go's re-encoding goes on re-encoded", () => {
  // 9007199254740993 is above the maximum exactly, but not after the float64 round trip.
  const got = validateResult("t", '{"properties":{"n":{"maximum":9007199254740992}},"type":"object"}', '{"n":9007199254740993, "b":"<x>"}');
  assert.deepEqual(got, { ok: true, result: '{"b":"\\u003cx\\u003e","n":9007199254740992}' });
});

test("numbers compare exactly against bounds, and bounds print as Go's %v of a big.Float", () => {
  const schema = '{"properties":{"n":{"exclusiveMinimum":0.1,"maximum":12345678901,"multipleOf":1e-7}},"type":"object"}';
  assert.deepEqual(validateArguments("t", schema, '{"n":0.1}'), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [n: Must be greater than 0.1]",
  });
  assert.deepEqual(validateArguments("t", schema, '{"n":0.10000000000000000001}'), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [n: Must be a multiple of 1e-07]",
  });
  assert.deepEqual(validateArguments("t", schema, '{"n":12345678902}'), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [n: Must be less than or equal to 1.2345678901e+10]",
  });
});

test("nesting beyond Go's 10000 levels is Go's decoder error, without exhausting the stack", () => {
  const deep = "[".repeat(20000) + "]".repeat(20000);
  assert.deepEqual(validateArguments("t", '{"type":"object"}', deep), {
    ok: false,
    class: "not_json",
    error: "validation error for tool t: invalid character '[' exceeded max depth",
  });
  const ok = `${"[".repeat(9999)}${"]".repeat(9999)}`;
  assert.deepEqual(validateArguments("t", '{"type":"object"}', ok), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [(root): Invalid type. Expected: object, given: array]",
  });
});

test("a recursive $ref over deeply nested arguments stops with a typed failure", () => {
  const schema = '{"properties":{"c":{"$ref":"#"}},"type":"object"}';
  const args = `${'{"c":'.repeat(3000)}{}${"}".repeat(3000)}`;
  const got = validateArguments("t", schema, args);
  assert.equal(got.ok, false);
  if (got.ok) return;
  assert.equal(got.class, "args_invalid");
  assert.match(got.error, /^tool t validation error \(args_invalid\): argument validation failed: \[(c\.)+c: Nesting deeper than 1000 schema levels is not validated\]$/);
  assert.deepEqual(validateArguments("t", schema, `${'{"c":'.repeat(50)}{"c":5}${"}".repeat(50)}`), {
    ok: false,
    class: "args_invalid",
    error: `tool t validation error (args_invalid): argument validation failed: [${"c.".repeat(50)}c: Invalid type. Expected: object, given: integer]`,
  });
});

test("a schema nested deeper than 512 levels does not compile", () => {
  const schema = `${'{"items":'.repeat(600)}{}${"}".repeat(600)}`;
  assert.deepEqual(validateArguments("t", schema, "[]"), {
    ok: false,
    class: "schema_invalid",
    error: "invalid input schema for tool t: schema is nested deeper than 512 levels",
  });
});

test("remote references are never fetched", () => {
  assert.deepEqual(validateArguments("t", '{"$ref":"http://example.invalid/s.json"}', "{}"), {
    ok: false,
    class: "schema_invalid",
    error: "invalid input schema for tool t: Reference http://example.invalid/s.json is remote; remote references are not loaded",
  });
  assert.deepEqual(validateArguments("t", '{"$ref":"other.json#/x"}', "{}"), {
    ok: false,
    class: "schema_invalid",
    error: "invalid input schema for tool t: Reference other.json#/x must be canonical",
  });
});

test("the compiled-schema cache holds at most 128 texts", () => {
  for (let i = 0; i < 300; i++) validateArguments("t", `{"maxLength":${i},"type":"string"}`, '"x"');
  assert.equal(schemaCacheSize(), 128);
  // An evicted text compiles again with the same verdict.
  assert.deepEqual(validateArguments("t", '{"maxLength":0,"type":"string"}', '"x"'), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [(root): String length must be less than or equal to 0]",
  });
});

test("a reference through the document's own $id resolves inside it", () => {
  const schema = '{"$id":"http://example.com/s.json","definitions":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"http://example.com/s.json#/definitions/n"},"b":{"$ref":"#/definitions/n"},"c":{"$ref":"s.json#/definitions/n"}},"type":"object"}';
  assert.deepEqual(validateArguments("t", schema, '{"a":1,"b":2,"c":3}'), { ok: true });
  assert.deepEqual(validateArguments("t", schema, '{"a":"x"}'), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [a: Invalid type. Expected: integer, given: string]",
  });
});

test("formats follow Go's checkers", () => {
  const check = (format: string, value: string): boolean =>
    validateArguments("t", `{"properties":{"v":{"format":${JSON.stringify(format)}}}}`, JSON.stringify({ v: value })).ok;
  assert.equal(check("email", "Name <a@b.c>"), true);
  assert.equal(check("email", '"a b"@c.d'), true);
  assert.equal(check("email", "a @b.c"), false);
  assert.equal(check("email", "a..b@c.d"), false);
  assert.equal(check("date-time", "2024-02-29T10:00:00.5+01:00"), true);
  assert.equal(check("date-time", "2023-02-29T10:00:00Z"), false);
  assert.equal(check("date-time", "9:04:05"), true); // Go's hour field takes one digit
  assert.equal(check("date", "2024-1-01"), false);
  assert.equal(check("time", "24:00:00"), false);
  assert.equal(check("ipv4", "1.2.3.256"), false);
  assert.equal(check("ipv6", "::1"), true);
  assert.equal(check("ipv6", "1:2:3:4:5:6:7:8:9"), false);
  assert.equal(check("uri", "http://[::1]:80/x"), true);
  assert.equal(check("uri", "http://a b/"), false);
  assert.equal(check("uri-reference", "a:b/c"), true);
  assert.equal(check("uri-reference", "%zz"), false);
  assert.equal(check("uri-template", "/a/{b}/c"), true);
  assert.equal(check("uri-template", "/a/{b"), false);
  assert.equal(check("hostname", "a-b.example"), true);
  assert.equal(check("regex", "(?<=a)"), false);
  assert.equal(check("relative-json-pointer", "1/a"), true);
});

test("enum, const and uniqueItems compare the deepest accepted values without exhausting the stack", () => {
  const deep = `${"[".repeat(9990)}1${"]".repeat(9990)}`;
  assert.deepEqual(validateArguments("t", '{"properties":{"a":{"enum":[1]}}}', `{"a":${deep}}`), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [a: a must be one of the following: 1]",
  });
  assert.deepEqual(validateArguments("t", '{"properties":{"a":{"uniqueItems":true}}}', `{"a":[${deep},${deep}]}`), {
    ok: false,
    class: "args_invalid",
    error: "tool t validation error (args_invalid): argument validation failed: [a: array items[0,1] must be unique]",
  });
  assert.deepEqual(validateResult("t", '{"required":["x"]}', `{"a":${deep}}`), {
    ok: false,
    error: "result validation failed: coercion failed: tool t validation error (result_invalid): result validation failed: [(root): x is required]",
  });
});

test("a $ref to the draft 4, 6 or 7 meta-schema uses gojsonschema's bundled copy, with that draft's rules", () => {
  const schema = '{"properties":{"s":{"$ref":"http://json-schema.org/draft-07/schema#"}},"type":"object"}';
  assert.deepEqual(validateArguments("t", schema, '{"s":{"type":"string","minLength":1}}'), { ok: true });
  assert.deepEqual(validateArguments("t", schema, '{"s":{"minLength":-1}}'), {
    ok: false,
    class: "args_invalid",
    error:
      "tool t validation error (args_invalid): argument validation failed: [s.minLength: Must be greater than or equal to 0 s.minLength: Must validate all the schemas (allOf)]",
  });
});
