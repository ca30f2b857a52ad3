import { test } from "node:test";
import assert from "node:assert/strict";
import { marshalDecisionRequest } from "./broker-request.js";
import type { DecisionRequest } from "./types.js";

const base: DecisionRequest = {
  toolName: "t",
  handlerName: "h",
  handlerType: "http",
  registryName: "r",
  arguments: null,
  identity: null,
  headers: {},
};

test("the body is Go's json.Marshal of policy.DecisionRequest: struct order, sorted maps, HTML-safe escapes", () => {
  const text = marshalDecisionRequest({
    ...base,
    headers: { "X-Omnia-Tool-Name": "t", "X-Omnia-Agent-Name": "a<b>", "X-Omnia-Claim-Role": "editor" },
    arguments: { z: 1, a: "x&y", n: 1e21, m: 1e-7, nested: { b: true, a: null } },
    identity: { origin: "o", subject: "s", endUser: "u", workspace: "w", agent: "a", claims: { team: "eng", role: "editor" } },
  });
  assert.equal(
    text,
    '{"headers":{"X-Omnia-Agent-Name":"a\\u003cb\\u003e","X-Omnia-Claim-Role":"editor","X-Omnia-Tool-Name":"t"},' +
      '"body":{"a":"x\\u0026y","m":1e-7,"n":1e+21,"nested":{"a":null,"b":true},"z":1},' +
      '"identity":{"origin":"o","subject":"s","endUser":"u","workspace":"w","agent":"a","claims":{"role":"editor","team":"eng"}}}',
  );
});

test("absent body, identity and claims are null", () => {
  assert.equal(marshalDecisionRequest(base), '{"headers":{},"body":null,"identity":null}');
  assert.equal(
    marshalDecisionRequest({ ...base, identity: { origin: "", subject: "u", endUser: "u", workspace: "", agent: "", claims: null } }),
    '{"headers":{},"body":null,"identity":{"origin":"","subject":"u","endUser":"u","workspace":"","agent":"","claims":null}}',
  );
});
