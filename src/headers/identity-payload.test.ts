import { test } from "node:test";
import assert from "node:assert/strict";
import type { Identity } from "./identity.js";
import { identityPayload } from "./identity-payload.js";

const json = (id: Identity | undefined | null): string => JSON.stringify(identityPayload(id));

test("D1–D5: no identity field and no claim gives null", () => {
  assert.equal(identityPayload(undefined), null); // D1
  assert.equal(identityPayload(null), null);
  assert.equal(identityPayload({}), null); // D2
  assert.equal(identityPayload({ namespace: "ns" }), null); // D3
  assert.equal(
    identityPayload({ userEmail: "e@x", sessionId: "s", requestId: "r", provider: "claude", model: "m", userId: "", agentName: "", origin: "", workspace: "" }),
    null,
  ); // D4
  assert.equal(identityPayload({ claims: {} }), null); // D5
});

test("D6–D9: the exact JSON the broker receives", () => {
  assert.equal(json({ userId: "u" }), '{"origin":"","subject":"u","endUser":"u","workspace":"","agent":"","claims":null}'); // D6
  assert.equal(json({ agentName: "a" }), '{"origin":"","subject":"","endUser":"","workspace":"","agent":"a","claims":null}'); // D7
  assert.equal(json({ claims: { role: "admin" } }), '{"origin":"","subject":"","endUser":"","workspace":"","agent":"","claims":{"role":"admin"}}'); // D8
  assert.equal(
    json({ userId: "u", origin: "oidc", workspace: "w", agentName: "a", namespace: "ns", claims: { role: "editor" } }),
    '{"origin":"oidc","subject":"u","endUser":"u","workspace":"w","agent":"a","claims":{"role":"editor"}}',
  ); // D9: namespace never becomes workspace
});

test("D10–D14: origin or workspace alone, and the 1.9.0 subject", () => {
  assert.equal(json({ origin: "edge-trust" }), '{"origin":"edge-trust","subject":"","endUser":"","workspace":"","agent":"","claims":null}'); // D10
  assert.equal(json({ workspace: "acme" }), '{"origin":"","subject":"","endUser":"","workspace":"acme","agent":"","claims":null}'); // D11
  assert.equal(json({ userId: "u", subjectId: "svc" }), '{"origin":"","subject":"svc","endUser":"u","workspace":"","agent":"","claims":null}'); // D12
  assert.equal(json({ userId: "u", subjectId: "" }), '{"origin":"","subject":"u","endUser":"u","workspace":"","agent":"","claims":null}'); // D13
  assert.equal(json({ subjectId: "svc" }), '{"origin":"","subject":"svc","endUser":"","workspace":"","agent":"","claims":null}'); // D14 [R]
});

test("D15: a DecisionRequest with no identity serialises identity as null", () => {
  const request = { headers: { "X-Omnia-Tool-Name": "t" }, body: null, identity: identityPayload(undefined) };
  assert.equal(JSON.stringify(request), '{"headers":{"X-Omnia-Tool-Name":"t"},"body":null,"identity":null}');
});

test("claims are copied, so the payload cannot alias the identity; an empty map with a user id stays {}", () => {
  const claims = { role: "admin" };
  const payload = identityPayload({ claims });
  assert.notEqual(payload?.claims, claims);
  assert.deepEqual(payload?.claims, claims);
  assert.equal(json({ userId: "u", claims: {} }), '{"origin":"","subject":"u","endUser":"u","workspace":"","agent":"","claims":{}}');
});
