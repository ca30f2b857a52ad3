import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonValue } from "../core/index.js";
import { exampleArguments, invalidArguments } from "./example-args.js";

function example(schema: JsonValue): JsonValue {
  const got = exampleArguments(schema);
  assert.ok(got.ok, got.ok ? "" : got.reason);
  return got.value;
}

test("exampleArguments fills each required property from the schema's own hints, bounds and formats", () => {
  assert.deepEqual(
    example({
      type: "object",
      required: ["unit", "when", "mail", "n", "i", "tags", "mode", "fixed", "dflt", "ex", "pick", "nested", "ref"],
      properties: {
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        when: { type: "string", format: "date-time" },
        mail: { type: "string", format: "email" },
        n: { type: "number", minimum: 5, maximum: 10 },
        i: { type: "integer", exclusiveMinimum: 2.5, multipleOf: 4 },
        tags: { type: "array", minItems: 2, items: { type: "string", minLength: 9 } },
        mode: { type: ["null", "boolean"] },
        fixed: { const: 42 },
        dflt: { type: "string", default: "x" },
        ex: { type: "string", examples: ["from-examples"] },
        pick: { anyOf: [{ type: "null" }, { type: "string", maxLength: 3 }] },
        nested: { allOf: [{ type: "object", required: ["a"], properties: { a: { type: "integer" } } }, { required: ["b"], properties: { b: { type: "boolean" } } }] },
        ref: { $ref: "#/$defs/id" },
        optional: { type: "string" },
      },
      $defs: { id: { type: "string", format: "uuid" } },
    }),
    {
      unit: "celsius",
      when: "2026-01-01T00:00:00Z",
      mail: "user@example.com",
      n: 5,
      i: 4,
      tags: ["examplexx", "examplexx"],
      mode: true,
      fixed: 42,
      dflt: "x",
      ex: "from-examples",
      pick: "exa",
      nested: { a: 1, b: true },
      ref: "00000000-0000-4000-8000-000000000000",
    },
  );
  // Enough optional properties for minProperties; a property named __proto__ is a plain key.
  assert.equal(JSON.stringify(example({ type: "object", minProperties: 1, properties: { ["__proto__"]: { type: "string" } } })), '{"__proto__":"example"}');
  assert.deepEqual(example({ type: "object" }), {});
  assert.deepEqual(example(true), {});
  assert.deepEqual(exampleArguments({ type: "object", required: ["x"], properties: { x: { $ref: "https://example.com/s.json" } } }), { ok: false, reason: 'the schema refers to "https://example.com/s.json", which is not in the schema' });
  assert.deepEqual(exampleArguments({ type: "object", required: ["x"], properties: { x: false } }), { ok: false, reason: "the schema accepts no value (false)" });
});

test("invalidArguments leaves out the first required property in sorted order, else mistypes the first typed one, else gives up", () => {
  assert.deepEqual(invalidArguments({ type: "object", required: ["b", "a"] }, { a: 1, b: 2 }), { value: { b: 2 }, broken: 'the required argument "a" left out' });
  assert.deepEqual(invalidArguments({ type: "object", properties: { n: { type: "integer" }, s: { type: "string" } } }, {}), { value: { n: "not a number" }, broken: 'the argument "n" given a value that is not an integer' });
  assert.deepEqual(invalidArguments({ type: "object", properties: { s: { type: "string" } } }, { s: "x" }), { value: { s: 12345 }, broken: 'the argument "s" given a value that is not a string' });
  assert.equal(invalidArguments({ type: "object", properties: { any: {} } }, {}), undefined);
  assert.equal(invalidArguments({ type: "object" }, {}), undefined);
});
