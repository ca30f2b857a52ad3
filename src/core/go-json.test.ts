import { test } from "node:test";
import assert from "node:assert/strict";
import { compareUtf8, encodeGoJson, goJsonDecode, goJsonEncode, goJsonMarshal, goJsonString, type GoJsonSink } from "./index.js";

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
