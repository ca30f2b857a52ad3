import { test } from "node:test";
import assert from "node:assert/strict";
import type { IncomingHttpHeaders } from "node:http";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";
import { identityFromMetadata } from "./inbound.js";

const NONE = { identity: {}, clientToolsAvailable: false, sessionOpen: false };

test("C1: no metadata gives an empty identity without claims", () => {
  assert.deepEqual(identityFromMetadata(undefined), NONE);
  assert.deepEqual(identityFromMetadata(null), NONE);
  assert.deepEqual(identityFromMetadata({}), NONE);
  assert.deepEqual(identityFromMetadata(new Headers()), NONE);
});

test("C2: one key sets one field", () => {
  assert.deepEqual(identityFromMetadata({ "x-omnia-agent-name": "partial-agent" }).identity, { agentName: "partial-agent" });
});

test("C3: every flat key and two claims; authorization is never read", () => {
  const md = {
    "x-omnia-agent-name": "agent",
    "x-omnia-namespace": "ns",
    "x-omnia-session-id": "sess",
    "x-omnia-request-id": "req",
    "x-omnia-user-id": "user",
    "x-omnia-subject-id": "svc",
    "x-omnia-user-email": "u@example.com",
    authorization: "Bearer caller-jwt",
    "x-omnia-provider": "claude",
    "x-omnia-model": "claude-x",
    "x-omnia-origin": "oidc",
    "x-omnia-workspace": "ws",
    "x-omnia-claim-team": "engineering",
    "x-omnia-claim-region": "us-east",
  };
  const { identity } = identityFromMetadata(md);
  assert.deepEqual(identity, {
    agentName: "agent",
    namespace: "ns",
    sessionId: "sess",
    requestId: "req",
    userId: "user",
    subjectId: "svc",
    userEmail: "u@example.com",
    provider: "claude",
    model: "claude-x",
    origin: "oidc",
    workspace: "ws",
    claims: { team: "engineering", region: "us-east" },
  });
  assert.ok(!JSON.stringify(identity).includes("caller-jwt"));
});

test("C4: unrelated keys are ignored; claims are exactly the claim keys", () => {
  const { identity } = identityFromMetadata({
    "x-omnia-claim-team": "eng",
    "x-omnia-claim-region": "eu",
    "x-unrelated-header": "ignored",
    "x-omnia-agent-name": "also-ignored",
  });
  assert.deepEqual(identity.claims, { team: "eng", region: "eu" });
});

test("C5: a bare claim prefix names no claim", () => {
  assert.deepEqual(identityFromMetadata({ "x-omnia-claim-": "v" }).identity, {});
});

test("C6: the first of several values wins", () => {
  assert.deepEqual(identityFromMetadata({ "x-omnia-claim-team": ["a", "b"] }).identity, { claims: { team: "a" } });
});

test("C7: an empty claim value is kept", () => {
  assert.deepEqual(identityFromMetadata({ "x-omnia-claim-team": "" }).identity, { claims: { team: "" } });
});

test("C12: an empty flat value is not stored", () => {
  assert.deepEqual(identityFromMetadata({ "x-omnia-user-id": "" }).identity, {});
});

test("C13/G1–G3: the facade-hop keys are read apart from the identity", () => {
  assert.deepEqual(identityFromMetadata({ "x-omnia-client-tools": "true", "x-omnia-session-open": "true" }), {
    identity: {},
    clientToolsAvailable: true,
    sessionOpen: true,
  }); // C13
  assert.deepEqual(identityFromMetadata({ "x-omnia-client-tools": "true" }), { identity: {}, clientToolsAvailable: true, sessionOpen: false }); // G1
  assert.deepEqual(identityFromMetadata({ "x-omnia-user-id": "u" }), { identity: { userId: "u" }, clientToolsAvailable: false, sessionOpen: false }); // G2
  assert.equal(identityFromMetadata({ "x-omnia-client-tools": "false" }).clientToolsAvailable, false); // G3
  assert.equal(identityFromMetadata({ "x-omnia-client-tools": "TRUE" }).clientToolsAvailable, false);
  assert.equal(identityFromMetadata({ "x-omnia-session-open": "1" }).sessionOpen, false);
});

test("G4: declare bytes come from base64, padded or not, when the session opens", () => {
  const bytes = new TextEncoder().encode('{"a":1}');
  const g4 = identityFromMetadata({ "x-omnia-session-open": "true", "x-omnia-declare-bin": "eyJhIjoxfQ" });
  assert.deepEqual(g4, { identity: {}, clientToolsAvailable: false, sessionOpen: true, declare: bytes });
  assert.equal(Object.getPrototypeOf(g4.declare), Uint8Array.prototype);
  assert.deepEqual(identityFromMetadata({ "x-omnia-session-open": "true", "x-omnia-declare-bin": "eyJhIjoxfQ==" }).declare, bytes);
  assert.deepEqual(identityFromMetadata({ "x-omnia-session-open": "true", "x-omnia-declare-bin": "" }).declare, new Uint8Array());
});

test("G5: declare without session-open is ignored", () => {
  const g5 = identityFromMetadata({ "x-omnia-declare-bin": "eyJhIjoxfQ" });
  assert.deepEqual(g5, { identity: {}, clientToolsAvailable: false, sessionOpen: false });
  assert.equal("declare" in g5, false);
});

test("G6: the facade-hop keys never become claims or identity fields", () => {
  const { identity } = identityFromMetadata({
    "x-omnia-client-tools": "true",
    "x-omnia-session-open": "true",
    "x-omnia-declare-bin": "eyJhIjoxfQ",
  });
  assert.deepEqual(identity, {});
});

test("accepts a WHATWG Headers, Node IncomingHttpHeaders, a Map and a record with any key case", () => {
  const expected = { identity: { userId: "u", claims: { team: "eng" } }, clientToolsAvailable: true, sessionOpen: false };
  const whatwg = new Headers({ "X-Omnia-User-Id": "u", "X-Omnia-Claim-Team": "eng", "x-omnia-client-tools": "true", Authorization: "Bearer t" });
  assert.deepEqual(identityFromMetadata(whatwg), expected);
  const node: IncomingHttpHeaders = {
    "x-omnia-user-id": "u",
    "x-omnia-claim-team": "eng",
    "x-omnia-client-tools": "true",
    authorization: "Bearer t",
    "set-cookie": ["a=b"],
  };
  assert.deepEqual(identityFromMetadata(node), expected);
  const map = new Map([
    ["x-omnia-user-id", "u"],
    ["x-omnia-claim-team", "eng"],
    ["x-omnia-client-tools", "true"],
  ]);
  assert.deepEqual(identityFromMetadata(map), expected);
  assert.deepEqual(identityFromMetadata({ "X-Omnia-User-Id": "u", "X-OMNIA-CLAIM-TEAM": "eng", "X-Omnia-Client-Tools": "true" }), expected);
});

test("HTTP/2 pseudo-headers and a numeric :status are ignored silently", () => {
  const logger = createCaptureLogger();
  const md = { ":path": "/omnia.runtime.v1.RuntimeService/Converse", ":status": 200, "x-omnia-user-id": "u" };
  assert.deepEqual(identityFromMetadata(md, { logger }).identity, { userId: "u" });
  assert.deepEqual(logger.lines, []);
});

test("API.md decision 11: illegal entries are skipped and logged at warn, never failing", () => {
  const logger = createCaptureLogger();
  const md: Record<string, string | number> = {
    "x-omnia-claim-https://example.com/roles": "admin",
    "x-omnia-user-id": "u\u00e9",
    "x-omnia-claim-ok": "yes",
    "x-omnia-claim-bad": "a\tb",
    "x-omnia-agent-name": 7,
    "x-omnia-session-open": "true",
    "x-omnia-declare-bin": "not base64!",
  };
  const got = identityFromMetadata(md, { logger });
  assert.deepEqual(got, { identity: { claims: { ok: "yes" } }, clientToolsAvailable: false, sessionOpen: true });
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["warn", "headers: skipped an incoming metadata entry with an illegal key", { key: "x-omnia-claim-https://example.com/roles" }],
      ["warn", "headers: skipped an incoming metadata entry with an illegal value", { key: "x-omnia-user-id" }],
      ["warn", "headers: skipped an incoming metadata entry with an illegal value", { key: "x-omnia-claim-bad" }],
      ["warn", "headers: skipped an incoming metadata entry whose value is not a string", { key: "x-omnia-agent-name" }],
      ["warn", "headers: skipped an incoming binary metadata entry that is not base64", { key: "x-omnia-declare-bin" }],
    ],
  );
});

test("a record with the same key in two cases keeps the first value, as Go keeps the first", () => {
  assert.deepEqual(identityFromMetadata({ "X-Omnia-User-Id": "first", "x-omnia-user-id": "second" }).identity, { userId: "first" });
  assert.deepEqual(identityFromMetadata({ "X-Omnia-Claim-Team": "first", "x-omnia-claim-team": "second" }).identity, {
    claims: { team: "first" },
  });
});

test("a claim named __proto__ is an own claim, not a prototype", () => {
  const { identity } = identityFromMetadata({ "x-omnia-claim-__proto__": "x", "x-omnia-claim-constructor": "y" });
  assert.deepEqual(Object.keys(identity.claims ?? {}), ["__proto__", "constructor"]);
  assert.equal(Object.getPrototypeOf(identity.claims), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(identity.claims, "__proto__")?.value, "x");
});
