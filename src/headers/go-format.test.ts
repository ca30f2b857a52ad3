import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { goStdlib } from "../../test/helpers/go-stdlib.js";
import { goFormat, goFormatFloat } from "./go-format.js";
import { compareUtf8 } from "../core/index.js";

test("goFormat (%v) and goFormatFloat (%g): every go-stdlib.json format row", () => {
  assert.equal(goStdlib.format.length, 33);
  for (const row of goStdlib.format) {
    const value: unknown = JSON.parse(row.json);
    assert.equal(goFormat(value), row.v, `%v of ${row.json}`);
    if (typeof value === "number") assert.equal(goFormatFloat(value), row.g, `%g of ${row.json}`);
    else assert.equal(row.g, "", `%g row of a non-number ${row.json} is empty`);
  }
});

test("goFormatFloat: http.md §2.10.1 examples", () => {
  const rows: Array<[number, string]> = [
    [1e6, "1e+06"],
    [2.5e6, "2.5e+06"],
    [12345678, "1.2345678e+07"],
    [123456789, "1.23456789e+08"],
    [9007199254740993, "9.007199254740992e+15"],
    [1e21, "1e+21"],
    [1e-5, "1e-05"],
    [1e-7, "1e-07"],
    [2.5e-8, "2.5e-08"],
    [0, "0"],
    [1, "1"],
    [100, "100"],
    [999999, "999999"],
    [123456, "123456"],
    [1.5, "1.5"],
    [0.1, "0.1"],
    [0.0001, "0.0001"],
    [3.14, "3.14"],
    [123456.789, "123456.789"],
    [-0, "-0"],
    [-0.5, "-0.5"],
    [19.99, "19.99"],
    [12345678901, "1.2345678901e+10"],
    [1700000000, "1.7e+09"],
    [1e100, "1e+100"],
    [-1e-100, "-1e-100"],
  ];
  for (const [n, out] of rows) assert.equal(goFormatFloat(n), out, String(n));
});

test("goFormatFloat: the non-finite values print as Go does", () => {
  assert.equal(goFormatFloat(Number.NaN), "NaN");
  assert.equal(goFormatFloat(Infinity), "+Inf");
  assert.equal(goFormatFloat(-Infinity), "-Inf");
});

test("goFormat: http.md §2.10.1 arrays and maps", () => {
  assert.equal(goFormat(["a b", 1, true, null]), "[a b 1 true <nil>]");
  assert.equal(goFormat([]), "[]");
  assert.equal(goFormat({ z: 1, a: { k: "v" } }), "map[a:map[k:v] z:1]");
  assert.equal(goFormat({}), "map[]");
  assert.equal(goFormat(undefined), "<nil>");
  assert.equal(goFormat({ o: { a: 1 } }), "map[o:map[a:1]]");
});

test("goFormat: map keys sort by UTF-8 bytes, not UTF-16 code units", () => {
  // U+FF5E (3 UTF-8 bytes EF BD 9E) sorts before U+1F600 (F0 9F 98 80) in Go;
  // JavaScript's default sort puts the surrogate pair (0xD83D) first.
  assert.equal(goFormat({ "\u{1F600}": 1, "\uFF5E": 2 }), "map[\uFF5E:2 \u{1F600}:1]");
});

/** The contract.md §4.8 recipe, from `toExponential()`: the reference for the fast path. */
function referenceGoFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const [mantissa, exp] = x.toExponential().split("e") as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  return String(x);
}

test("property: goFormatFloat equals the toExponential recipe of contract.md §4.8", () => {
  const edges = fc.constantFrom(1e6, 999999.9999999999, 1e-4, 9.999999999999999e-5, 1e-6, 9.99e-7, 1e21, 1e20, 5e-324, Number.MAX_VALUE, -1e-5, 2 ** 53 + 2);
  fc.assert(
    fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), edges), (x) => {
      assert.equal(goFormatFloat(x), referenceGoFloat(x));
    }),
    { numRuns: 10_000 },
  );
});

test("property: goFormatFloat equals the recipe where JavaScript prints plain digits but Go an exponent", () => {
  // [1e-6, 1e-4) and [1e6, 1e21), both signs, integers included: the rewritten path.
  const large = fc.double({ min: 1e6, max: 1e21, noNaN: true, maxExcluded: true });
  const small = fc.double({ min: 1e-6, max: 1e-4, noNaN: true, maxExcluded: true });
  const integers = fc.bigInt({ min: 1_000_000n, max: 10n ** 21n - 1n }).map((n) => Number(n));
  fc.assert(
    fc.property(fc.oneof(large, small, integers), fc.boolean(), (x, negative) => {
      const v = negative ? -x : x;
      assert.equal(goFormatFloat(v), referenceGoFloat(v));
    }),
    { numRuns: 10_000 },
  );
});

test("property: goFormatFloat round-trips and uses exponent form exactly outside [1e-4, 1e6)", () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      const s = goFormatFloat(x);
      assert.ok(Object.is(Number(s), x), `${s} does not round-trip ${x}`);
      const a = Math.abs(x);
      const exponent = /e[+-]\d{2,}$/.test(s);
      assert.equal(exponent, a !== 0 && (a < 1e-4 || a >= 1e6), s);
      if (!exponent) assert.ok(!s.includes("e"), s);
    }),
    { numRuns: 10_000 },
  );
});

test("property: compareUtf8 orders as the UTF-8 bytes do", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
      const bytes = Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
      assert.equal(Math.sign(compareUtf8(a, b)), bytes);
    }),
    { numRuns: 10_000 },
  );
});
