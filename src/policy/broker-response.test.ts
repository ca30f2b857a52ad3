import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeDecisionResponse, type DecisionResponse } from "./broker-response.js";
import { policyDenialReason } from "./broker-client.js";
import { goQuote } from "../core/index.js";

const zero: DecisionResponse = { allow: false, deniedBy: "", message: "", mode: "", wouldDeny: false, injectedHeaders: null };
const decode = (text: string | Uint8Array) => decodeDecisionResponse(typeof text === "string" ? new TextEncoder().encode(text) : text);
const plain = (r: DecisionResponse) => ({ ...r, injectedHeaders: r.injectedHeaders === null ? null : { ...r.injectedHeaders } });

test("every field decodes; missing fields take zero values; unknown fields are ignored", () => {
  assert.deepEqual(
    plain(decode('{"allow":true,"deniedBy":"r","message":"m","mode":"audit","wouldDeny":true,"injectedHeaders":{"X-A":"1"},"extra":[1,{"x":null}]}')),
    { allow: true, deniedBy: "r", message: "m", mode: "audit", wouldDeny: true, injectedHeaders: { "X-A": "1" } },
  );
  assert.deepEqual(plain(decode("{}")), zero);
  assert.deepEqual(plain(decode('{"deniedBy":"rule1"}')), { ...zero, deniedBy: "rule1" }, "a missing allow decodes as false");
});

test("Go's decoder: only the first value is read, a top-level null is the zero response", () => {
  assert.deepEqual(plain(decode(' \n{"allow":true} trailing garbage')), { ...zero, allow: true });
  assert.deepEqual(plain(decode('{"allow":true}{"allow":false}')), { ...zero, allow: true });
  assert.deepEqual(plain(decode('{"message":"a}b{c\\"}"}x')), { ...zero, message: 'a}b{c"}' });
  assert.deepEqual(plain(decode("null")), zero);
  assert.deepEqual(plain(decode(" null garbage")), zero);
});

test("undecodable bodies throw: empty, not JSON, truncated, not an object, a BOM", () => {
  for (const [body, why] of [
    ["", /^EOF$/],
    ["   ", /^EOF$/],
    ["not-json", /expected a JSON object/],
    ['{"allow":true', /^unexpected EOF$/],
    ['{"allow":tru}', /invalid character/],
    ['{"allow":true]', /invalid character/],
    ["[]", /expected a JSON object/],
    ["true", /expected a JSON object/],
    ['"allow"', /expected a JSON object/],
    ["1", /expected a JSON object/],
    ["nul", /expected a JSON object/],
    ['\uFEFF{"allow":true}', /expected a JSON object/],
  ] as const) {
    assert.throws(() => decode(body), { message: why }, JSON.stringify(body));
  }
});

test("a field of the wrong type is an error, as Go's UnmarshalTypeError", () => {
  for (const body of ['{"allow":"true"}', '{"allow":1}', '{"wouldDeny":"yes"}', '{"deniedBy":1}', '{"message":{}}', '{"mode":[]}', '{"injectedHeaders":[]}', '{"injectedHeaders":"x"}', '{"injectedHeaders":{"X":1}}']) {
    assert.throws(() => decode(body), { message: /^json: cannot unmarshal / }, body);
  }
  assert.throws(() => decode('{"allow":"x","deniedBy":2}'), { message: "json: cannot unmarshal string into Go struct field DecisionResponse.allow of type bool" });
});

test("null leaves a field unchanged; injectedHeaders null clears the map; a null header value is empty", () => {
  assert.deepEqual(plain(decode('{"allow":true,"Allow":null,"message":null}')), { ...zero, allow: true });
  assert.deepEqual(plain(decode('{"injectedHeaders":{"A":"1"},"InjectedHeaders":null}')), zero);
  assert.deepEqual(plain(decode('{"injectedHeaders":{"A":null,"B":"2"}}')), { ...zero, injectedHeaders: { A: "", B: "2" } });
});

test("keys match case-insensitively (Go's fold), a later key wins, case variants of injectedHeaders merge", () => {
  assert.deepEqual(plain(decode('{"ALLOW":true,"DeniedBY":"r","wouldDENY":true,"Mode":"audit"}')), { ...zero, allow: true, deniedBy: "r", wouldDeny: true, mode: "audit" });
  assert.deepEqual(plain(decode('{"allow":true,"Allow":false}')), zero);
  assert.deepEqual(plain(decode('{"me\u017Fsage":"long s folds with s"}')), { ...zero, message: "long s folds with s" });
  assert.deepEqual(plain(decode('{"injectedHeaders":{"A":"1"},"InjectedHeaders":{"B":"2","A":"3"}}')), { ...zero, injectedHeaders: { A: "3", B: "2" } });
  assert.deepEqual(plain(decode('{"allow_":true,"al low":true}')), zero, "no other fuzzy matching");
});

test("a header named __proto__ is an ordinary header", () => {
  const r = decode('{"allow":true,"injectedHeaders":{"__proto__":"x"}}');
  assert.equal(Object.getOwnPropertyDescriptor(r.injectedHeaders, "__proto__")?.value, "x");
});

test("the denial reason is `<message> (rule %q)` with Go's %q", () => {
  assert.equal(policyDenialReason("nope", "rule1"), 'nope (rule "rule1")');
  assert.equal(policyDenialReason("", ""), ' (rule "")');
  assert.equal(policyDenialReason("policy broker unreachable; failing closed", "policy-broker-unreachable"), 'policy broker unreachable; failing closed (rule "policy-broker-unreachable")');
  assert.equal(policyDenialReason("m", "required-claim:team"), 'm (rule "required-claim:team")');
  assert.equal(goQuote('a"b\\c\n\t\x07\x7f é\u200b'), '"a\\"b\\\\c\\n\\t\\a\\x7f é\\u200b"');
});
