import { test } from "node:test";
import assert from "node:assert/strict";
import { interpretHttpResponse, errorBodyText } from "./response.js";
import { HttpStatusError, MappingError } from "./errors.js";
import { goJsonMarshal } from "../core/index.js";

const enc = (s: string) => new TextEncoder().encode(s);
const cfg = (httpConfig: { redact?: string[]; responseMapping?: string } = {}) => ({ httpConfig });

function success(handler: ReturnType<typeof cfg>, status: number, body: Uint8Array | string) {
  const out = interpretHttpResponse(handler, status, typeof body === "string" ? enc(body) : body);
  assert.equal(out.status, "success", JSON.stringify(out));
  return out as Extract<typeof out, { status: "success" }>;
}
function failure(handler: ReturnType<typeof cfg>, status: number, body: Uint8Array | string) {
  const out = interpretHttpResponse(handler, status, typeof body === "string" ? enc(body) : body);
  assert.equal(out.status, "error");
  return out as Extract<typeof out, { status: "error" }>;
}

test("P1–P3: a 2xx JSON body passes through verbatim, whatever its JSON type", () => {
  assert.equal(success(cfg(), 200, '{"answer":42}').resultJson, '{"answer":42}');
  const p2 = success(cfg(), 200, ' {"b": 1,  "a":2} \n');
  assert.equal(p2.resultJson, ' {"b": 1,  "a":2} \n');
  assert.deepEqual(p2.result, { b: 1, a: 2 });
  assert.equal(success(cfg(), 200, "42").resultJson, "42");
  assert.equal(success(cfg(), 200, '"hi"').resultJson, '"hi"');
  assert.equal(success(cfg(), 200, "null").resultJson, "null");
  assert.equal(success(cfg(), 201, "[1,2]").resultJson, "[1,2]");
});

test("P4–P8: a 2xx body that is not JSON is wrapped as {\"result\": ...}", () => {
  const p4 = success(cfg(), 200, "plain text response");
  assert.equal(p4.resultJson, '{"result":"plain text response"}');
  assert.deepEqual(p4.result, { result: "plain text response" });
  assert.equal(success(cfg(), 200, "").resultJson, '{"result":""}');
  assert.equal(success(cfg(), 204, "").resultJson, '{"result":""}');
  const p6 = success(cfg(), 200, 'a<b>&c "q"');
  assert.equal(p6.resultJson, '{"result":"a\\u003cb\\u003e\\u0026c \\"q\\""}');
  assert.deepEqual(JSON.parse(p6.resultJson), { result: 'a<b>&c "q"' });
  const p7 = success(cfg(), 200, new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{"a":1}')]));
  assert.deepEqual(p7.result, { result: '\ufeff{"a":1}' });
  const p8 = success(cfg(), 200, new Uint8Array([0x61, 0x62, 0xff, 0x63, 0x64]));
  assert.deepEqual(p8.result, { result: "ab\ufffdcd" });
});

test("P9–P12: redact replaces top-level keys and re-serialises objects with sorted keys", () => {
  assert.equal(
    success(cfg({ redact: ["ssn"] }), 200, '{"name":"Alice","ssn":"123-45-6789","age":30}').resultJson,
    '{"age":30,"name":"Alice","ssn":"[REDACTED]"}',
  );
  assert.equal(success(cfg({ redact: ["ssn"] }), 200, '{"user":{"ssn":"1"},"ssn":null}').resultJson, '{"ssn":"[REDACTED]","user":{"ssn":"1"}}');
  assert.equal(success(cfg({ redact: ["ssn"] }), 200, '[{"ssn":"1"}]').resultJson, '[{"ssn":"1"}]');
  assert.equal(success(cfg({ redact: ["ssn"] }), 200, "null").resultJson, "null");
  assert.equal(success(cfg({ redact: ["ssn"] }), 200, "ssn=1").resultJson, '{"result":"ssn=1"}');
  const p12 = success(cfg({ redact: ["zzz"] }), 200, '{"b":1, "a":12345678901234567890, "h":"<x>"}');
  assert.equal(p12.resultJson, '{"a":12345678901234567000,"b":1,"h":"\\u003cx\\u003e"}');
  assert.deepEqual(JSON.parse(p12.resultJson), { a: 12345678901234567000, b: 1, h: "<x>" });
});

test("P13–P19: responseMapping (JMESPath) runs after redact and only on JSON", () => {
  assert.equal(success(cfg({ responseMapping: "data.items" }), 200, '{"data":{"items":[1,2,3]},"meta":{"page":1}}').resultJson, "[1,2,3]");
  assert.equal(
    success(
      cfg({ responseMapping: "results[].{name: name, price: price, inStock: available}" }),
      200,
      '{"results":[{"name":"a","price":1.5,"available":true,"x":1},{"name":"b","price":2,"available":false}]}',
    ).resultJson,
    '[{"inStock":true,"name":"a","price":1.5},{"inStock":false,"name":"b","price":2}]',
  );
  assert.equal(success(cfg({ responseMapping: "missing" }), 200, '{"a":1}').resultJson, "null");
  assert.equal(success(cfg({ responseMapping: "a.b.c" }), 200, '{"a":1}').resultJson, "null");
  assert.equal(success(cfg({ responseMapping: "people[?age > `30`].n" }), 200, '{"people":[{"age":20,"n":"x"},{"age":40,"n":"y"}]}').resultJson, '["y"]');
  assert.equal(success(cfg({ responseMapping: "length(@)" }), 200, "[1,2,3]").resultJson, "3");
  assert.equal(success(cfg({ responseMapping: "[0]" }), 200, '["x","y"]').resultJson, '"x"');
  const p17 = failure(cfg({ responseMapping: "a." }), 200, '{"a":"x"}');
  assert.ok(p17.message.startsWith('JMESPath response mapping "a.": '), p17.message);
  assert.ok(p17.error instanceof MappingError);
  assert.equal(p17.error.code, "ERR_OMNIA_MAPPING");
  assert.equal(success(cfg({ redact: ["data"], responseMapping: "data" }), 200, '{"data":{"s":1},"secret":"x"}').resultJson, '"[REDACTED]"');
  assert.equal(success(cfg({ responseMapping: "data" }), 200, "plain").resultJson, '{"result":"plain"}');
});

test("P20–P23: any other status is an error with the body cut at exactly 512 bytes", () => {
  const p20 = failure(cfg(), 502, "bad gateway");
  assert.equal(p20.message, "HTTP 502: bad gateway");
  assert.ok(p20.error instanceof HttpStatusError);
  assert.equal(p20.error.status, 502);
  assert.equal(p20.error.code, "ERR_OMNIA_HTTP_STATUS");
  assert.equal(failure(cfg(), 404, '{"error":"not found"}').message, 'HTTP 404: {"error":"not found"}');
  assert.equal(failure(cfg(), 500, "").message, "HTTP 500: ");
  assert.equal(failure(cfg(), 500, "a".repeat(511)).message, `HTTP 500: ${"a".repeat(511)}`);
  const exact = failure(cfg(), 500, "a".repeat(512)).message;
  assert.equal(exact, `HTTP 500: ${"a".repeat(512)}`);
  assert.equal(exact.length, 522);
  const over = failure(cfg(), 500, "a".repeat(513)).message;
  assert.equal(over, `HTTP 500: ${"a".repeat(512)}...`);
  assert.equal(over.length, 525);
  assert.equal(failure(cfg(), 500, "a".repeat(600)).message, over);
  // redact and mapping never apply to an error body
  assert.equal(failure(cfg({ redact: ["a"], responseMapping: "a" }), 500, '{"a":1}').message, 'HTTP 500: {"a":1}');
});

test("P24: the cut is byte-based and may split a multi-byte character", () => {
  const body = enc(`a${"é".repeat(300)}`);
  assert.equal(body.byteLength, 601);
  const text = errorBodyText(body);
  assert.ok(text.startsWith(`a${"é".repeat(255)}`));
  assert.ok(text.endsWith("\ufffd..."), JSON.stringify(text.slice(-6)));
  assert.equal(Buffer.from(text.slice(0, -3).replace(/\ufffd$/, ""), "utf8").byteLength, 511);
});

test("P25: 3xx and 1xx are errors; 299 is a success", () => {
  assert.equal(failure(cfg(), 302, "moved").message, "HTTP 302: moved");
  assert.equal(failure(cfg(), 300, "x").message, "HTTP 300: x");
  assert.equal(failure(cfg(), 199, "x").message, "HTTP 199: x");
  assert.equal(success(cfg(), 299, "x").resultJson, '{"result":"x"}');
});

test("a body cut at the read cap is marked truncated", () => {
  const out = interpretHttpResponse(cfg(), 200, enc('{"a": [1, 2'), { truncated: true });
  assert.deepEqual(out, { status: "success", result: { result: '{"a": [1, 2' }, resultJson: '{"result":"{\\"a\\": [1, 2"}', truncated: true });
});

test("goJsonMarshal: sorted keys, compact, HTML-safe, -0", () => {
  assert.equal(goJsonMarshal({ z: 1, a: { k: "v", b: [true, null, -0] } }), '{"a":{"b":[true,null,-0],"k":"v"},"z":1}');
  assert.equal(goJsonMarshal("\u2028<&>\u2029"), '"\\u2028\\u003c\\u0026\\u003e\\u2029"');
  assert.equal(goJsonMarshal(1e21), "1e+21");
  assert.equal(goJsonMarshal(1e-7), "1e-7");
  assert.equal(goJsonMarshal(1.0), "1");
  // UTF-8 byte order: U+1F600 (a surrogate pair) sorts after U+FF5E.
  assert.equal(goJsonMarshal({ "\u{1F600}": 1, "\uFF5E": 2, a: 3 }), '{"a":3,"\uFF5E":2,"\u{1F600}":1}');
});

test("a mapping whose value is not JSON data (an expression reference) still yields JSON text", () => {
  const out = interpretHttpResponse(cfg({ responseMapping: "&@." }), 200, enc('{"a":-0}'));
  assert.equal(out.status, "success");
  if (out.status !== "success") return;
  assert.deepEqual(JSON.parse(out.resultJson), out.result);
});
