// Fuzz (issue #14): interpretHttpResponse on arbitrary bytes, statuses and
// response shaping (redact, responseMapping), 10,000 runs. It never throws; a
// success's resultJson is always JSON text (what the model is handed) and,
// unwrapped, the result; a failure is `HTTP <status>: <at most 512 bytes>[...]`
// or, for a mapping, a MappingError; the 10 MiB truncation flag is carried.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { HttpStatusError, MappingError, errorBodyText, interpretHttpResponse } from "../../src/http/index.js";
import type { JsonValue } from "../../src/core/index.js";

const RUNS = 10_000;
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

const jsonBody = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
const body = fc.oneof(
  { weight: 3, arbitrary: jsonBody.map((t) => Buffer.from(t, "utf8")) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 700 }).map((b) => Buffer.from(b)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(jsonBody, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 3 }))
      .map(([t, at, junk]) => {
        const b = Buffer.from(t, "utf8");
        const i = at % (b.length + 1);
        return Buffer.concat([b.subarray(0, i), Buffer.from(junk), b.subarray(i)]);
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\ufeff{}", '{"a":1e400}', '{"a":-0}', "[1,2", '"\\ud800"', "null", '{"__proto__":{"x":1}}').map((t) => Buffer.from(t, "utf8")) },
);
const status = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 200, max: 299 }) }, { weight: 2, arbitrary: fc.integer({ min: -1, max: 1000 }) });
const shaping = fc.record(
  {
    redact: fc.array(fc.oneof(fc.constantFrom("a", "password", "__proto__", "x"), fc.string({ maxLength: 3 })), { maxLength: 3 }),
    responseMapping: fc.oneof(fc.constantFrom("", "@", "a", "a.b", "[0]", "length(@)", "keys(@)", "[", "foo[?", "*.x", "{x: a}", "to_number(@)", "sort(@)"), fc.string({ maxLength: 6 })),
  },
  { requiredKeys: [] },
);

function hasNonFinite(v: JsonValue): boolean {
  if (typeof v === "number") return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(hasNonFinite);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasNonFinite);
  return false;
}

test("interpretHttpResponse on arbitrary bytes, status and shaping: never throws; exact error text; JSON the model can read", () => {
  fc.assert(
    fc.property(shaping, status, body, fc.boolean(), (httpConfig, code, bytes, truncated) => {
      const out = interpretHttpResponse({ httpConfig }, code, bytes, { truncated, retryAfter: "5" });
      if (code < 200 || code > 299) {
        assert.equal(out.status, "error");
        if (out.status !== "error") return;
        assert.ok(out.error instanceof HttpStatusError);
        assert.equal(out.error.status, code);
        assert.equal(out.error.retryAfter, "5");
        // Exactly 512 bytes, then "...", decoded with replacement; a BOM is kept (Go keeps the bytes).
        const text = bytes.length <= 512 ? utf8.decode(bytes) : `${utf8.decode(bytes.subarray(0, 512))}...`;
        assert.equal(out.message, `HTTP ${code}: ${text}`);
        assert.equal(errorBodyText(bytes), text);
        return;
      }
      if (out.status === "error") {
        assert.ok(out.error instanceof MappingError, out.message);
        assert.ok(httpConfig.responseMapping !== undefined && httpConfig.responseMapping !== "");
        assert.ok(out.message.startsWith(`JMESPath response mapping ${JSON.stringify(httpConfig.responseMapping)}: `), out.message);
        return;
      }
      assert.equal(out.truncated, truncated ? true : undefined);
      const parsed = JSON.parse(out.resultJson) as JsonValue; // always JSON text
      if (!hasNonFinite(out.result)) assert.deepEqual(parsed, out.result);
    }),
    { numRuns: RUNS },
  );
});
