import { test } from "node:test";
import assert from "node:assert/strict";
import { compareUtf8, encodeGoJson, goJsonDecode, goJsonEncode, goJsonIndent, goJsonMarshal, goJsonString, type GoJsonSink } from "./index.js";

test("goJsonDecode: one value with whitespace around it; trailing text, a BOM, whitespace only and empty text fail", () => {
  assert.deepEqual(goJsonDecode(' \t\r\n{"a":[1,"x",null,true]}\n'), { ok: true, value: { a: [1, "x", null, true] } });
  assert.deepEqual(goJsonDecode('{"a":1} x'), { ok: false });
  assert.deepEqual(goJsonDecode("{}{}"), { ok: false });
  assert.deepEqual(goJsonDecode('\ufeff{"a":1}'), { ok: false });
  assert.deepEqual(goJsonDecode("   "), { ok: false });
  assert.deepEqual(goJsonDecode(""), { ok: false });
  assert.deepEqual(goJsonDecode("NaN"), { ok: false });
});

test("goJsonDecode: 10000 levels of nesting decode, 10001 fail; brackets inside strings do not count", () => {
  assert.equal(goJsonDecode(`${"[".repeat(10000)}${"]".repeat(10000)}`).ok, true);
  assert.equal(goJsonDecode(`${"{\"a\":".repeat(5000)}${"[".repeat(5000)}${"]".repeat(5000)}${"}".repeat(5000)}`).ok, true);
  assert.deepEqual(goJsonDecode(`${"[".repeat(10001)}${"]".repeat(10001)}`), { ok: false });
  assert.deepEqual(goJsonDecode(`${"{\"a\":".repeat(5001)}${"[".repeat(5000)}${"]".repeat(5000)}${"}".repeat(5001)}`), { ok: false });
  const quoted = `["${"[".repeat(30000)}\\"${"{".repeat(30000)}"]`;
  assert.deepEqual(goJsonDecode(quoted), { ok: true, value: [`${"[".repeat(30000)}"${"{".repeat(30000)}`] });
  assert.deepEqual(goJsonDecode("[".repeat(5_000_000)), { ok: false });
});

test("goJsonDecode: a number outside float64 fails unless allowed; underflow is 0", () => {
  assert.deepEqual(goJsonDecode("1e400"), { ok: false });
  assert.deepEqual(goJsonDecode('{"a":[-1e400]}'), { ok: false });
  assert.deepEqual(goJsonDecode('{"a":[-1e400]}', { allowOverflow: true }), { ok: true, value: { a: [-Infinity] } });
  assert.deepEqual(goJsonDecode("1e-400"), { ok: true, value: 0 });
});

test("goJsonDecode: lone surrogate escapes become U+FFFD in strings and keys; equal keys keep the later value; __proto__ is a key", () => {
  assert.deepEqual(goJsonDecode('"a\\ud800b\\udc00\\ud83d\\ude00"'), { ok: true, value: "a\ufffdb\ufffd\ud83d\ude00" });
  const decoded = goJsonDecode('{"\\ud800":1,"x":{"\\udbff":2,"\\udfff":3}}');
  assert.deepEqual(decoded, { ok: true, value: { "\ufffd": 1, x: { "\ufffd": 3 } } });
  const proto = goJsonDecode('{"__proto__":{"polluted":1}}');
  assert.equal(proto.ok, true);
  if (proto.ok) {
    assert.deepEqual(Object.keys(proto.value as object), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(proto.value), Object.prototype);
  }
});

test("goJsonEncode: int64 as bigint, ±Inf and NaN refused, Go's escapes and key order", () => {
  assert.equal(goJsonEncode({ n: 9007199254740993n, m: -9223372036854775808n }), '{"m":-9223372036854775808,"n":9007199254740993}');
  assert.equal(goJsonEncode({ a: [1, { b: Infinity }] }), undefined);
  assert.equal(goJsonEncode(NaN), undefined);
  assert.equal(goJsonEncode("<a>&\u2028\u2029\b\f\u000b\u001f\u007f\ud800"), '"\\u003ca\\u003e\\u0026\\u2028\\u2029\\b\\f\\u000b\\u001f\u007f\ufffd"');
  assert.equal(goJsonEncode([-0, 1e21, 1e-7, 0.000001, 123456789012345680000, 1.5]), "[-0,1e+21,1e-7,0.000001,123456789012345680000,1.5]");
  // UTF-8 byte order: U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80), unlike UTF-16 order.
  assert.equal(goJsonEncode({ "\ud83d\ude00": 1, "\ufffd": 2, Z: 3, a: 4, "": 5 }), '{"":5,"Z":3,"a":4,"\ufffd":2,"\ud83d\ude00":1}');
  assert.ok(compareUtf8("\ufffd", "\ud83d\ude00") < 0);
  assert.equal(goJsonEncode({ __proto__: null, b: 1 } as unknown as { b: number }), '{"b":1}');
  assert.equal(goJsonEncode(JSON.parse('{"__proto__":1,"a":2}') as { a: number }), '{"__proto__":1,"a":2}');
});

test("goJsonMarshal: deep values encode without recursion; non-finite numbers are null; lone-surrogate keys merge", () => {
  let deep: unknown = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(goJsonMarshal(deep as never), `${"[".repeat(200_001)}${"]".repeat(200_001)}`);
  assert.equal(goJsonMarshal({ a: Infinity, b: [NaN] }), '{"a":null,"b":[null]}');
  assert.equal(goJsonMarshal({ "\ud800": 1, "\udc00": 2 }), '{"\ufffd":2}');
  assert.equal(goJsonString("\u2028<"), '"\\u2028\\u003c"');
});

test("encodeGoJson pretty: two-space indentation through the sink, {} and [] on one line", () => {
  const pieces: string[] = [];
  const sink: GoJsonSink = {
    write: (piece, ascii) => {
      if (ascii) assert.match(piece, /^[\x20-\x7e]*$/);
      pieces.push(piece);
    },
    newline: (depth) => pieces.push(`\n${"  ".repeat(depth)}`),
  };
  assert.equal(encodeGoJson({ b: [1, {}, []], a: { c: "é" } }, sink, true, false), true);
  assert.equal(pieces.join(""), '{\n  "a": {\n    "c": "é"\n  },\n  "b": [\n    1,\n    {},\n    []\n  ]\n}');
});

/** goJsonString before its plain-ASCII fast path: the reference it must equal. */
function referenceGoJsonString(text: string): string {
  const escapes: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };
  const wellFormed = (text as unknown as { toWellFormed(): string }).toWellFormed();
  return JSON.stringify(wellFormed).replace(/[<>&\u2028\u2029]/g, (c) => escapes[c] ?? c);
}

test("goJsonString and the encoder: every code unit alone and inside plain ASCII as the escaping reference writes it", () => {
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [ch, `ab${ch}cd`]) {
      const want = referenceGoJsonString(text);
      assert.equal(goJsonString(text), want, `U+${c.toString(16)}`);
      assert.equal(goJsonEncode({ [text]: text }), `{${want}:${want}}`, `U+${c.toString(16)} in a key`);
    }
  }
  assert.equal(goJsonString(' !#$%\'()*+,-./09:;=?@AZ[]^_`az{|}~'), '" !#$%\'()*+,-./09:;=?@AZ[]^_`az{|}~"');
  assert.equal(goJsonEncode({ "a<": "x&", "a\\": 'q"' }), '{"a\\u003c":"x\\u0026","a\\\\":"q\\""}');
});

test("goJsonDecode: texts without a surrogate or an exponent skip the Go fix-ups, and the ones that need them do not", () => {
  // Raw lone surrogates (not escapes) in strings and keys.
  assert.deepEqual(goJsonDecode('{"k\ud800":"v\udc00"}'), { ok: true, value: { "k\ufffd": "v\ufffd" } });
  assert.deepEqual(goJsonDecode('"\\uDBFF"'), { ok: true, value: "\ufffd" });
  // Overflow without an exponent: 309 digits reach past float64's range, 308 do not.
  assert.deepEqual(goJsonDecode(`[${"9".repeat(309)}]`), { ok: false });
  assert.deepEqual(goJsonDecode(`{"a":-${"9".repeat(309)}.5}`), { ok: false });
  assert.deepEqual(goJsonDecode(`[${"9".repeat(308)}]`), { ok: true, value: [Number("9".repeat(308))] });
  assert.deepEqual(goJsonDecode("[1E400]"), { ok: false });
  // The plain case, and exponent-looking text inside a string.
  assert.deepEqual(goJsonDecode('{"a":"1e999","b":[-0,1.5,"<"]}'), { ok: true, value: { a: "1e999", b: [-0, 1.5, "<"] } });
  assert.ok(Object.is((goJsonDecode("-0") as { value: number }).value, -0));
});

test("goJsonIndent: a newline and two spaces per level, inside and beyond the precomputed levels", () => {
  assert.equal(goJsonIndent(0), "\n");
  assert.equal(goJsonIndent(3), "\n      ");
  assert.equal(goJsonIndent(31), `\n${" ".repeat(62)}`);
  assert.equal(goJsonIndent(40), `\n${" ".repeat(80)}`);
});

test("goJsonEncode key order: the default sort below U+D800, UTF-8 order from there on", () => {
  assert.equal(goJsonEncode({ b: 1, B: 2, a: 3, "\u00e9": 4, "\u07ff": 5, "1": 6 }), '{"1":6,"B":2,"a":3,"b":1,"\u00e9":4,"\u07ff":5}');
  assert.equal(goJsonEncode({ "\ue000": 1, "\ud800\udc00": 2, a: 3 }), '{"a":3,"\ue000":1,"\ud800\udc00":2}');
  assert.equal(goJsonEncode({ "x\ud800": 1, "x\ufffd": 2, w: 3 }), '{"w":3,"x\ufffd":2}');
});
