import { test } from "node:test";
import assert from "node:assert/strict";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";
import { promoteScalarParams } from "./params.js";

test("promoteScalarParams: contract.md §4.11 E1–E17", () => {
  assert.deepEqual(promoteScalarParams({ customer_id: "cust-123" }), { "x-omnia-param-CustomerId": "cust-123" }); // E1
  assert.deepEqual(Object.keys(promoteScalarParams({ "first-name": "a" })), ["x-omnia-param-FirstName"]); // E2
  assert.deepEqual(Object.keys(promoteScalarParams({ already_Pascal_Case: "a" })), ["x-omnia-param-AlreadyPascalCase"]); // E3
  assert.deepEqual(Object.keys(promoteScalarParams({ a_b_c: "a" })), ["x-omnia-param-ABC"]); // E4
  assert.deepEqual(Object.keys(promoteScalarParams({ x__y: "1", _leading: "2", trailing_: "3" })), [
    "x-omnia-param-XY",
    "x-omnia-param-Leading",
    "x-omnia-param-Trailing",
  ]); // E5
  assert.deepEqual(promoteScalarParams({ "with space": "v" }), {}); // E6 [R]: invalid name, skipped
  assert.deepEqual(promoteScalarParams('{"count":42}'), { "x-omnia-param-Count": "42" }); // E7
  assert.deepEqual(promoteScalarParams('{"count":1000000}'), { "x-omnia-param-Count": "1e+06" }); // E8
  assert.deepEqual(promoteScalarParams('{"id":12345678901}'), { "x-omnia-param-Id": "1.2345678901e+10" }); // E9
  assert.deepEqual(promoteScalarParams('{"price":19.99,"neg":-0.5,"tiny":0.00001}'), {
    "x-omnia-param-Price": "19.99",
    "x-omnia-param-Neg": "-0.5",
    "x-omnia-param-Tiny": "1e-05",
  }); // E10
  assert.deepEqual(promoteScalarParams('{"float_val":3.14,"i":123456,"s":0.0001}'), {
    "x-omnia-param-FloatVal": "3.14",
    "x-omnia-param-I": "123456",
    "x-omnia-param-S": "0.0001",
  }); // E11
  assert.deepEqual(promoteScalarParams({ enabled: true, flag: false }), {
    "x-omnia-param-Enabled": "true",
    "x-omnia-param-Flag": "false",
  }); // E12
  assert.deepEqual(promoteScalarParams({ nested_obj: { a: 1 }, list: [1], n: null }), {}); // E13
  assert.deepEqual(promoteScalarParams({ s: "x\ny" }), {}); // E14 (1.9.0: skipped)
  assert.deepEqual(promoteScalarParams({ "snake-kebab_x": "v" }), { "x-omnia-param-SnakeKebabX": "v" }); // E15
  assert.deepEqual(promoteScalarParams('{"amount":99.99}'), { "x-omnia-param-Amount": "99.99" }); // E16 (json.Number text)
  assert.deepEqual(promoteScalarParams(undefined), {}); // E17
  assert.deepEqual(promoteScalarParams(null), {});
});

test("promoteScalarParams: http.md §4.2 H1, H2, H5", () => {
  assert.deepEqual(promoteScalarParams({ customer_id: "cust-1", count: 5, nested: { skip: true } }), {
    "x-omnia-param-CustomerId": "cust-1",
    "x-omnia-param-Count": "5",
  });
  assert.deepEqual(
    promoteScalarParams({ customer_id: "cust-123", count: 42, enabled: true, nested_obj: { key: "val" }, list: ["a", "b"], float_val: 3.14 }),
    {
      "x-omnia-param-CustomerId": "cust-123",
      "x-omnia-param-Count": "42",
      "x-omnia-param-Enabled": "true",
      "x-omnia-param-FloatVal": "3.14",
    },
  );
  assert.deepEqual(
    promoteScalarParams('{"big":1000000,"a":999999,"b":123456789,"c":0.00001,"flag":false,"empty":"","nul":null,"arr":[1],"obj":{"a":1}}'),
    {
      "x-omnia-param-Big": "1e+06",
      "x-omnia-param-A": "999999",
      "x-omnia-param-B": "1.23456789e+08",
      "x-omnia-param-C": "1e-05",
      "x-omnia-param-Flag": "false",
      "x-omnia-param-Empty": "",
    },
  );
});

test("promoteScalarParams: H7, arguments that are not a JSON object give no headers and no error", () => {
  for (const args of ["[1,2]", "\"text\"", "not json", "", "null", "{}", [1, 2], "x", 5, true]) {
    assert.deepEqual(promoteScalarParams(args), {}, JSON.stringify(args));
  }
});

test("promoteScalarParams: H18/H19, control characters skip the header; TAB and non-ASCII are kept", () => {
  assert.deepEqual(promoteScalarParams({ q: "a\nb" }), {});
  assert.deepEqual(promoteScalarParams({ q: "a\rb", r: "a\0b", s: "a\x7fb", t: "a\x1bb" }), {});
  assert.deepEqual(promoteScalarParams({ q: "a\tb" }), { "x-omnia-param-Q": "a\tb" });
  assert.deepEqual(promoteScalarParams({ q: "café ☃" }), { "x-omnia-param-Q": "café ☃" });
});

test("promoteScalarParams: case-insensitive collisions resolve to the later argument", () => {
  assert.deepEqual(promoteScalarParams({ user_id: "a", userId: "b" }), { "x-omnia-param-UserId": "b" });
  assert.deepEqual(promoteScalarParams({ user_id: "a", UserID: "b", other: "c" }), { "x-omnia-param-UserID": "b", "x-omnia-param-Other": "c" });
  assert.deepEqual(promoteScalarParams({ UserID: "b", user_id: "a" }), { "x-omnia-param-UserId": "a" });
});

test("promoteScalarParams: skipped entries are logged at debug by header name, never by value", () => {
  const logger = createCaptureLogger();
  promoteScalarParams({ "bad name": "v", q: "secret\n" }, { logger });
  assert.deepEqual(logger.lines, [
    { level: "debug", message: "headers: skipped a parameter header with an invalid name", fields: { header: "x-omnia-param-Bad name" } },
    { level: "debug", message: "headers: skipped a parameter header with an invalid value", fields: { header: "x-omnia-param-Q" } },
  ]);
});

test("promoteScalarParams: a __proto__ argument is an ordinary parameter", () => {
  assert.deepEqual(promoteScalarParams('{"__proto__":"x"}'), { "x-omnia-param-Proto": "x" });
});
