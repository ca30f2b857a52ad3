import { test } from "node:test";
import assert from "node:assert/strict";
import { FLAT_IDENTITY_KEYS, OMNIA_HEADER_KEYS, OmniaHeader } from "./keys.js";

test("the key table: groups, emission order and binary flag", () => {
  assert.deepEqual(
    OMNIA_HEADER_KEYS.map((k) => [k.header, k.group]),
    [
      ["x-omnia-agent-name", "identity"],
      ["x-omnia-namespace", "identity"],
      ["x-omnia-session-id", "identity"],
      ["x-omnia-request-id", "identity"],
      ["x-omnia-user-id", "identity"],
      ["x-omnia-subject-id", "identity"],
      ["x-omnia-user-email", "identity"],
      ["x-omnia-provider", "runtime"],
      ["x-omnia-model", "runtime"],
      ["x-omnia-origin", "identity"],
      ["x-omnia-workspace", "identity"],
      ["x-omnia-claim-", "identity"],
      ["x-omnia-tool-name", "tool"],
      ["x-omnia-tool-registry", "tool"],
      ["x-omnia-delegation", "tool"],
      ["x-omnia-param-", "tool"],
      ["x-omnia-client-tools", "facade-hop"],
      ["x-omnia-session-open", "facade-hop"],
      ["x-omnia-declare-bin", "facade-hop"],
    ],
  );
  assert.deepEqual(
    OMNIA_HEADER_KEYS.filter((k) => k.prefix).map((k) => k.header),
    ["x-omnia-claim-", "x-omnia-param-"],
  );
  assert.deepEqual(
    OMNIA_HEADER_KEYS.filter((k) => k.binary).map((k) => k.header),
    ["x-omnia-declare-bin"],
  );
  assert.deepEqual(
    FLAT_IDENTITY_KEYS.map((k) => k.field),
    ["agentName", "namespace", "sessionId", "requestId", "userId", "subjectId", "userEmail", "provider", "model", "origin", "workspace"],
  );
});

test("authorization is in neither the table nor the constants, and the table is frozen", () => {
  assert.ok(!OMNIA_HEADER_KEYS.some((k) => k.header.includes("authorization")));
  assert.ok(!Object.values(OmniaHeader).some((h) => h.includes("authorization")));
  assert.ok(Object.isFrozen(OMNIA_HEADER_KEYS) && OMNIA_HEADER_KEYS.every((k) => Object.isFrozen(k)));
  assert.ok(Object.isFrozen(OmniaHeader));
  assert.deepEqual(new Set(Object.values(OmniaHeader)), new Set(OMNIA_HEADER_KEYS.map((k) => k.header)));
});
