// Every case of test/fixtures/promptkit-coercion.json (PromptKit's CoerceArgs
// run under Go), then the rules the vectors leave open and hostile input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { goJsonMarshal, type JsonValue } from "../core/index.js";
import { coerceArguments, coercionPossible, type CoercionResult } from "./coerce.js";
import { readGoJson } from "./schema-json.js";
import { random } from "../../test/helpers/json-texts.js";
import { validateArguments } from "./validate.js";

interface CoercionCase {
  readonly id: string;
  readonly note?: string;
  readonly template?: string;
  readonly schema: JsonValue;
  readonly args: string;
  readonly coerced: string;
  readonly changed: boolean;
  readonly aborted?: boolean;
  readonly archDependent?: boolean;
  readonly valid: boolean;
  readonly class?: string;
  readonly text?: string;
  readonly errors?: readonly string[];
  readonly orderFree?: boolean;
}

const vectors = JSON.parse(readFileSync("test/fixtures/promptkit-coercion.json", "utf8")) as { cases: CoercionCase[] };

const AMD64_MIN_INT64 = "-9223372036854775808";
const ARGS_PREFIX = "tool t validation error (args_invalid): argument validation failed: [";

/** The errors of `list` (joined by single spaces, each one of `expected`), sorted. */
function splitErrors(list: string, expected: readonly string[]): string[] {
  const found: string[] = [];
  let rest = list;
  while (rest !== "") {
    const next = expected.filter((e) => rest === e || rest.startsWith(`${e} `)).sort((a, b) => b.length - a.length)[0];
    if (next === undefined) return [...found, rest].sort();
    found.push(next);
    rest = rest.slice(next.length + 1);
  }
  return found.sort();
}

for (const c of vectors.cases) {
  test(`${c.id}: ${c.note ?? c.template ?? ""}`, () => {
    // Omnia hands PromptKit Go's re-encoding of the schema (sorted keys, compact).
    const schema = goJsonMarshal(c.schema);
    const got = coerceArguments(schema, c.args);
    const check = validateArguments("t", schema, got.text);
    if (c.archDependent === true) {
      // Go converted a whole float outside int64 with amd64's conversion (MinInt64);
      // this library treats it as a conversion error instead: nothing changes, and
      // validation reports the string.
      assert.ok(c.coerced.includes(AMD64_MIN_INT64), c.coerced);
      assert.deepEqual(got, { text: c.args, changed: false, aborted: true });
      assert.deepEqual(check, { ok: false, class: "args_invalid", error: `${ARGS_PREFIX}n: Invalid type. Expected: integer, given: string]` });
      return;
    }
    assert.deepEqual(got, { text: c.coerced, changed: c.changed, aborted: c.aborted === true });
    // What validation makes of the bytes coercion handed on.
    if (c.valid) {
      assert.deepEqual(check, { ok: true });
      return;
    }
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.equal(check.class, c.class);
    if (c.orderFree === true) {
      assert.ok(check.error.startsWith(ARGS_PREFIX) && check.error.endsWith("]"), check.error);
      assert.deepEqual(splitErrors(check.error.slice(ARGS_PREFIX.length, -1), c.errors ?? []), [...(c.errors ?? [])].sort());
    } else {
      assert.equal(`Error: ${check.error}`, c.text);
    }
  });
}

test("every coercion vector is exercised, and the arch-dependent ones are exactly the six the README lists", () => {
  assert.equal(vectors.cases.length, 338);
  assert.deepEqual(
    vectors.cases.filter((c) => c.archDependent === true).map((c) => c.id),
    ["coep-0087", "coep-0088", "coep-0089", "coep-0090", "coep-0091", "coep-0092"],
  );
});

const INT = '{"properties":{"n":{"type":"integer"}},"type":"object"}';
const NUM = '{"properties":{"n":{"type":"number"}},"type":"object"}';
const changed = (text: string): CoercionResult => ({ text, changed: true, aborted: false });
const same = (text: string): CoercionResult => ({ text, changed: false, aborted: false });
const aborted = (text: string): CoercionResult => ({ text, changed: false, aborted: true });

test("no schema, an empty schema text, or a schema that is not JSON: the arguments pass untouched", () => {
  assert.deepEqual(coerceArguments(undefined, '{"n":"5"}'), same('{"n":"5"}'));
  assert.deepEqual(coerceArguments("", '{"n":"5"}'), same('{"n":"5"}'));
  assert.deepEqual(coerceArguments('{"properties":', '{"n":"5"}'), same('{"n":"5"}'));
  assert.deepEqual(coerceArguments("null", '{"n":"5"}'), same('{"n":"5"}'));
  assert.deepEqual(coerceArguments("true", '{"n":"5"}'), same('{"n":"5"}'));
});

test("integer: int64 bounds exact, one past them is a conversion error (the documented divergence from amd64)", () => {
  assert.deepEqual(coerceArguments(INT, '{"n":"-9223372036854775808"}'), changed('{"n":-9223372036854775808}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"-9223372036854775809"}'), changed('{"n":-9223372036854775808}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"-9.223372036854775808e18"}'), changed('{"n":-9223372036854775808}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"9223372036854775807"}'), changed('{"n":9223372036854775807}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"9223372036854775807.0"}'), aborted('{"n":"9223372036854775807.0"}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"9223372036854775296.5"}'), aborted('{"n":"9223372036854775296.5"}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"9223372036854774784.0"}'), changed('{"n":9223372036854774784}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"0000000000000000000000000000042"}'), changed('{"n":42}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"+"}'), aborted('{"n":"+"}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"-"}'), aborted('{"n":"-"}'));
  assert.deepEqual(coerceArguments(INT, '{"n":"1_0"}'), changed('{"n":10}'));
});

test("integer array elements outside int64 stay strings (no abort), the others convert", () => {
  const schema = '{"properties":{"t":{"items":{"type":"integer"},"type":"array"}},"type":"object"}';
  assert.deepEqual(coerceArguments(schema, '{"t":["1e20","7","inf"]}'), changed('{"t":["1e20",7,"inf"]}'));
  assert.deepEqual(coerceArguments(schema, '{"t":["1e20"]}'), same('{"t":["1e20"]}'));
});

test("number: Go's float syntax in full: signs, underscores, exponents, hex mantissas, specials", () => {
  const cases: [string, string | undefined][] = [
    ["0x1.8p1", "3"],
    ["0x.8p1", "1"],
    ["0x1p-1074", "5e-324"],
    ["0x1p-1075", "0"], // halfway to the smallest subnormal: ties to even (0)
    ["0x1.0000000000001p-1075", "5e-324"], // just above halfway
    ["0x3p-1075", "1e-323"], // 1.5 × the smallest subnormal: ties to even (2×)
    ["0x3p-1076", "5e-324"], // 0.75 × the smallest subnormal
    ["0x1.fffffffffffff8p0", "2"], // a tie, rounds to even
    ["0x1.fffffffffffff7ffffp0", "1.9999999999999998"], // below the tie, kept by the sticky digits
    ["0x1.00000000000008p0", "1"], // a tie at an even mantissa
    ["0x1.000000000000080000001p0", "1.0000000000000002"], // just above the tie, past 16 digits
    ["0x1.fffffffffffffp1023", "1.7976931348623157e+308"],
    ["0x1p1024", undefined],
    ["0x1.fffffffffffff8p1023", undefined], // rounds up to 2^1024
    ["0x0p99999", "0"],
    ["0x_1p0", "1"],
    ["0x1_0p0", "16"],
    ["0x1p1_0", "1024"],
    ["0x1__0p0", undefined],
    ["0x1p", undefined],
    ["0x1", undefined],
    ["0x", undefined],
    ["0xp1", undefined],
    ["0x1.2.3p0", undefined],
    ["1.2.3", undefined],
    ["1e+", undefined],
    ["1e_1", undefined],
    ["1e1_0", "10000000000"],
    ["1._5", undefined],
    ["1_.5", undefined],
    ["+-1", undefined],
    ["--1", undefined],
    ["-.5", "-0.5"],
    ["-", undefined],
    ["+", undefined],
    [".", undefined],
    ["e5", undefined],
    ["1.7976931348623157e308", "1.7976931348623157e+308"],
    ["1.7976931348623159e308", undefined],
    ["4.9e-324", "5e-324"],
    ["2e-324", "0"],
    ["1e-99999999999", "0"],
    ["1e99999999999", undefined],
    ["0e99999999999", "0"],
    // Go stops reading an exponent's digits once it reaches 10000: 1e-99999999 is 1e-99999.
    [`1${"0".repeat(200_000)}e-200000`, undefined],
    [`1${"0".repeat(200)}e-200`, "1"],
    ["0x1p-99999999", "0"],
    ["infinit", undefined],
    ["infinityy", undefined],
    ["+nan", undefined],
    ["-nan", undefined],
    ["NAN", undefined], // NaN converts, then Go's encoder refuses it
    ["1p3", undefined],
    ["\u0661", undefined], // an Arabic-Indic digit
    ["1\u00a0", undefined],
    ["Infinity", undefined], // +Inf converts, then Go's encoder refuses it
  ];
  for (const [literal, want] of cases) {
    const args = JSON.stringify({ n: literal });
    const got = coerceArguments(NUM, args);
    assert.deepEqual(got, want === undefined ? aborted(args) : changed(`{"n":${want}}`), literal);
  }
});

test("boolean: Go's ParseBool forms exactly, then yes/no after Go's TrimSpace", () => {
  const schema = '{"properties":{"b":{"type":"boolean"}},"type":"object"}';
  const cases: [string, boolean | undefined][] = [
    ["\u0085yes\u2029", true], // NEL and the paragraph separator are Go spaces
    ["\ufeffyes", undefined], // the byte order mark is not
    ["\u200byes", undefined],
    ["y\u0435s", undefined], // a Cyrillic e
    ["YeS", true],
    ["nO", false],
    ["t ", undefined],
    ["tRue", undefined],
  ];
  for (const [value, want] of cases) {
    const args = JSON.stringify({ b: value });
    assert.deepEqual(coerceArguments(schema, args), want === undefined ? aborted(args) : changed(`{"b":${want}}`), JSON.stringify(value));
  }
});

test("enum normalisation: Go's simple case folding (σ/ς/Σ, µ/μ, ß/ẞ), not JavaScript's full case mapping", () => {
  const schema = (entries: string[]): string => goJsonMarshal({ properties: { u: { enum: entries, type: "string" } }, type: "object" });
  assert.deepEqual(coerceArguments(schema(["ΣΟΦΟΣ"]), '{"u":"σοφος"}'), changed('{"u":"ΣΟΦΟΣ"}'));
  assert.deepEqual(coerceArguments(schema(["ΣΟΦΟΣ"]), '{"u":"σοφoς"}'), same('{"u":"σοφoς"}')); // a Latin o
  assert.deepEqual(coerceArguments(schema(["\u00b5s"]), '{"u":"\u039cS"}'), changed('{"u":"\u00b5s"}'));
  assert.deepEqual(coerceArguments(schema(["stra\u00dfe"]), '{"u":"STRA\u1e9eE"}'), changed('{"u":"stra\u00dfe"}'));
  assert.deepEqual(coerceArguments(schema(["strasse"]), '{"u":"STRA\u00dfE"}'), same('{"u":"STRA\u00dfE"}')); // ß is not ss
  assert.deepEqual(coerceArguments(schema(["i"]), '{"u":"\u0130"}'), same('{"u":"\u0130"}')); // İ does not fold to i
  assert.deepEqual(coerceArguments(schema(["\ud801\udc28"]), '{"u":"\ud801\udc00"}'), changed('{"u":"\ud801\udc28"}')); // Deseret
  assert.deepEqual(coerceArguments(schema(["ab"]), '{"u":"a"}'), same('{"u":"a"}'));
  // "" in the enum (from a null entry) takes a value that trims to nothing.
  assert.deepEqual(coerceArguments('{"properties":{"u":{"enum":["a",null],"type":"string"}}}', '{"u":" \\t"}'), changed('{"u":""}'));
});

test("narrow view: Go's key folding matches ſ and ı to s and I (Go 1.21+), nothing else non-ASCII", () => {
  assert.deepEqual(coerceArguments('{"propertieſ":{"n":{"type":"integer"}}}', '{"n":"5"}'), changed('{"n":5}'));
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type":"ınteger","tYpe":"integer"}}}', '{"n":"5"}'), changed('{"n":5}'));
  assert.deepEqual(coerceArguments('{"properties":{"n":{"ıtems":{"type":"integer"},"type":"array"}}}', '{"n":["5"]}'), changed('{"n":[5]}'));
  assert.deepEqual(coerceArguments('{"propertıes":{"n":{"type":"integer"}}}', '{"n":"5"}'), changed('{"n":5}'));
  assert.deepEqual(coerceArguments('{"prop\u0435rties":{"n":{"type":"integer"}}}', '{"n":"5"}'), same('{"n":"5"}'));
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type ":"integer"}}}', '{"n":"5"}'), same('{"n":"5"}'));
});

test("narrow view: a later null properties resets the map; a later null required keeps nothing; null elements keep the slice's old values", () => {
  assert.deepEqual(coerceArguments('{"Properties":{"n":{"type":"integer"}},"properties":null}', '{"n":"5"}'), same('{"n":"5"}'));
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type":"integer"}},"Required":["n"],"required":null}', '{"n":null}'), changed("{}"));
  // Go decodes the second array into the same slice: its null element keeps "n".
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type":"integer"}},"Required":["n"],"required":[null]}', '{"n":null}'), same('{"n":null}'));
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type":"integer"}},"Required":["x","n"],"required":["y"],"requireD":[null,null]}', '{"n":null}'), same('{"n":null}'));
  // A later items object merges into the earlier one: "type" survives an items without it.
  assert.deepEqual(coerceArguments('{"properties":{"t":{"Items":{"type":"integer"},"items":{},"type":"array"}}}', '{"t":["5"]}'), changed('{"t":[5]}'));
  // A property named twice in one properties object: the later schema replaces the earlier one whole.
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type":"integer"},"n":{}}}', '{"n":"5"}'), same('{"n":"5"}'));
  // Schema numbers outside float64 sit in fields the view skips: coercion still runs.
  assert.deepEqual(coerceArguments('{"properties":{"n":{"maximum":1e400,"type":"integer"}}}', '{"n":"5"}'), changed('{"n":5}'));
  assert.deepEqual(coerceArguments('{"properties":{"n":{"type":1e400}}}', '{"n":"5"}'), same('{"n":"5"}'));
});

test("arguments Go's decoder rejects pass untouched: numbers beyond float64, nesting past 10000, a byte order mark", () => {
  assert.deepEqual(coerceArguments(INT, '{"n":"5","x":1e400}'), same('{"n":"5","x":1e400}'));
  const deep = `{"n":"5","x":${"[".repeat(10000)}${"]".repeat(10000)}}`;
  assert.deepEqual(coerceArguments(INT, deep), same(deep));
  const ok = `{"n":"5","x":${"[".repeat(9999)}${"]".repeat(9999)}}`;
  assert.deepEqual(coerceArguments(INT, ok), changed(`{"n":5,"x":${"[".repeat(9999)}${"]".repeat(9999)}}`));
  assert.deepEqual(coerceArguments(INT, '\ufeff{"n":"5"}'), same('\ufeff{"n":"5"}'));
  const hostile = "[".repeat(1_000_000);
  assert.deepEqual(coerceArguments(INT, hostile), same(hostile));
});

test("an object property from text nested past Go's limit is a conversion error; an array property wraps it", () => {
  const deep = "[".repeat(10001) + "]".repeat(10001);
  const o = JSON.stringify({ o: `{"a":${deep}}` });
  assert.deepEqual(coerceArguments('{"properties":{"o":{"type":"object"}}}', o), aborted(o));
  const a = JSON.stringify({ a: deep });
  assert.deepEqual(coerceArguments('{"properties":{"a":{"type":"array"}}}', a), changed(`{"a":[${JSON.stringify(deep)}]}`));
});

test("keys named like Object.prototype members are ordinary keys", () => {
  const schema = '{"properties":{"__proto__":{"type":"integer"},"constructor":{"type":"boolean"},"toString":{"type":"integer"}}}';
  assert.deepEqual(coerceArguments(schema, '{"__proto__":"5","constructor":"yes"}'), changed('{"__proto__":5,"constructor":true}'));
  assert.deepEqual(coerceArguments(schema, '{"__proto__":null,"z":"<"}'), changed('{"z":"\\u003c"}'));
  assert.deepEqual(coerceArguments(schema, '{"a":"1"}'), same('{"a":"1"}'));
});

test("lone surrogate escapes in keys and values are U+FFFD, as Go decodes them; equal keys then keep the later value", () => {
  assert.deepEqual(coerceArguments(INT, '{"n":"1","\\ud800":1,"\\udc00":2}'), changed('{"n":1,"\ufffd":2}'));
  assert.deepEqual(coerceArguments('{"properties":{"\\udfff":{"type":"integer"}}}', '{"\\ud800":"7"}'), changed('{"\ufffd":7}'));
});

test("10 MB values coerce in one pass", () => {
  const big = "7".repeat(10_000_000);
  const number = coerceArguments(NUM, JSON.stringify({ n: big }));
  assert.deepEqual(number, aborted(JSON.stringify({ n: big }))); // beyond float64
  const zeros = `${"0".repeat(10_000_000)}5`;
  assert.deepEqual(coerceArguments(INT, JSON.stringify({ n: zeros })), changed('{"n":5}'));
  const hex = `0x${"f".repeat(10_000_000)}p-40000000`; // Go reads the exponent as -40000: +Inf
  assert.deepEqual(coerceArguments(NUM, JSON.stringify({ n: hex })), aborted(JSON.stringify({ n: hex })));
  const fraction = `0x0.${"0".repeat(10_000_000)}1p40000004`; // Go reads the exponent as 40000: 0
  assert.deepEqual(coerceArguments(NUM, JSON.stringify({ n: fraction })), changed('{"n":0}'));
  const text = "<".repeat(10_000_000);
  const got = coerceArguments('{"properties":{"t":{"type":"array"}}}', JSON.stringify({ t: text }));
  assert.equal(got.changed, true);
  assert.equal(got.text, `{"t":["${"\\u003c".repeat(10_000_000)}"]}`);
  const word = ` ${"x".repeat(10_000_000)} `;
  const enumSchema = '{"properties":{"u":{"enum":["a","b"],"type":"string"}}}';
  assert.deepEqual(coerceArguments(enumSchema, JSON.stringify({ u: word })), same(JSON.stringify({ u: word })));
});

test("coercionPossible: false only where coerceArguments leaves the text as it is (every pairing of 6 schemas and 4,096 generated arguments)", () => {
  const schemas = [
    { type: "object", properties: { city: { type: "string", minLength: 1 }, units: { type: "string", enum: ["metric", "imperial"] }, days: { type: "integer" } }, required: ["city"] },
    { type: "object", properties: { on: { type: "boolean" }, n: { type: "number" }, tags: { type: "array", items: { type: "integer" } }, o: { type: "object" } } },
    { type: "object", properties: { s: { type: "string" }, list: { type: "array" }, e: { type: "string", enum: ["A", "b"] } }, required: ["s", "e"] },
    { properties: { Units: { Type: "string", ENUM: ["x"] }, city: null } },
    { type: "object", properties: { a: { type: ["string", "null"] } } },
    { type: "object" },
  ].map((s) => goJsonMarshal(s as JsonValue));
  const keys = ["city", "units", "days", "on", "n", "tags", "o", "s", "list", "e", "Units", "a"];
  const values = ['null', '""', '"3"', '"yes"', '"x"', "0", "1", "2.5", "[]", '["1","a"]', "{}", '"metric"', '" Metric "', '"IMPERIAL"', '"[1]"', '"{}"', '"B"', "true"];
  const rand = random(7);
  let skipped = 0;
  for (let i = 0; i < 4_096; i++) {
    const members: string[] = [];
    for (const key of keys) if (rand() < 0.3) members.push(`"${key}":${values[Math.floor(rand() * values.length)] as string}`);
    const text = `{${members.join(",")}}`;
    for (const schema of schemas) {
      const read = readGoJson(text, "decoder");
      assert.ok(read.ok, text);
      if (coercionPossible(schema, read.value)) continue;
      skipped++;
      assert.deepEqual(coerceArguments(schema, text), { text, changed: false, aborted: false }, `${schema} ${text}`);
    }
  }
  assert.ok(skipped > 4_096, `skipped ${skipped}`);
});
