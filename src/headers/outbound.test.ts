import { test } from "node:test";
import assert from "node:assert/strict";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";
import type { Identity } from "./identity.js";
import { FLAT_IDENTITY_KEYS } from "./keys.js";
import { canonicalizeHeaders } from "./merge.js";
import { toGrpcMetadata, toOutboundHeaders } from "./outbound.js";

// contract.md §4.11 B2 without the 1.3.0-only consent fields, which the 1.9.0
// seeds dropped and Identity does not carry.
const B2: Identity & { authorization: string } = {
  agentName: "a",
  namespace: "ns",
  requestId: "r",
  userId: "u",
  userEmail: "e@x",
  authorization: "Bearer t",
  provider: "claude",
  model: "m",
  origin: "oidc",
  workspace: "w",
  claims: { Team: "eng", empty: "", customer_id: "c1" },
};

test("B1: nothing set gives no header", () => {
  assert.deepEqual(toOutboundHeaders({}), {});
  assert.deepEqual(toOutboundHeaders(undefined), {});
  assert.deepEqual(toGrpcMetadata(null), {});
});

test("B2/B3: flat keys in table order, claims canonical, no authorization, no session id; empty claim not sent (seed 1.9.0)", () => {
  const out = toOutboundHeaders(B2);
  assert.deepEqual(Object.entries(out), [
    ["x-omnia-agent-name", "a"],
    ["x-omnia-namespace", "ns"],
    ["x-omnia-request-id", "r"],
    ["x-omnia-user-id", "u"],
    ["x-omnia-user-email", "e@x"],
    ["x-omnia-provider", "claude"],
    ["x-omnia-model", "m"],
    ["x-omnia-origin", "oidc"],
    ["x-omnia-workspace", "w"],
    ["X-Omnia-Claim-Team", "eng"],
    ["X-Omnia-Claim-Customer_id", "c1"],
  ]);
  // B3: as Go's http.Header.Set puts them on the wire.
  assert.deepEqual(canonicalizeHeaders(out), {
    "X-Omnia-Agent-Name": "a",
    "X-Omnia-Namespace": "ns",
    "X-Omnia-Request-Id": "r",
    "X-Omnia-User-Id": "u",
    "X-Omnia-User-Email": "e@x",
    "X-Omnia-Provider": "claude",
    "X-Omnia-Model": "m",
    "X-Omnia-Origin": "oidc",
    "X-Omnia-Workspace": "w",
    "X-Omnia-Claim-Team": "eng",
    "X-Omnia-Claim-Customer_id": "c1",
  });
});

test("B4: over gRPC the claim names are lowercased", () => {
  assert.deepEqual(toGrpcMetadata(B2), {
    "x-omnia-agent-name": "a",
    "x-omnia-namespace": "ns",
    "x-omnia-request-id": "r",
    "x-omnia-user-id": "u",
    "x-omnia-user-email": "e@x",
    "x-omnia-provider": "claude",
    "x-omnia-model": "m",
    "x-omnia-origin": "oidc",
    "x-omnia-workspace": "w",
    "x-omnia-claim-team": "eng",
    "x-omnia-claim-customer_id": "c1",
  });
});

test("B5/B6: an authorization value on the identity object is never emitted", () => {
  const onlyAuth = { authorization: "Bearer caller-jwt" } as Identity;
  assert.deepEqual(toOutboundHeaders(onlyAuth), {});
  assert.deepEqual(toGrpcMetadata(onlyAuth), {});
  const b6 = { userId: "user-1", authorization: "Bearer caller-jwt", claims: { team: "eng" } } as Identity;
  assert.deepEqual(toOutboundHeaders(b6), { "x-omnia-user-id": "user-1", "X-Omnia-Claim-Team": "eng" });
  assert.deepEqual(toGrpcMetadata(b6), { "x-omnia-user-id": "user-1", "x-omnia-claim-team": "eng" });
});

test("B7: an empty flat value is not emitted", () => {
  assert.deepEqual(toOutboundHeaders({ sessionId: "", agentName: "a" }), { "x-omnia-agent-name": "a" });
  assert.deepEqual(toGrpcMetadata({ sessionId: "", agentName: "a" }), { "x-omnia-agent-name": "a" });
});

test("B8 (1.9.0 decision): an empty claim value is not emitted on either hop", () => {
  assert.deepEqual(toOutboundHeaders({ claims: { empty: "" } }), {});
  assert.deepEqual(toGrpcMetadata({ claims: { empty: "" } }), {});
});

test("B13, B15: origin/workspace and the 1.9.0 subject id", () => {
  assert.deepEqual(toOutboundHeaders({ origin: "management-plane", workspace: "acme" }), {
    "x-omnia-origin": "management-plane",
    "x-omnia-workspace": "acme",
  });
  assert.deepEqual(toOutboundHeaders({ userId: "u", subjectId: "svc" }), { "x-omnia-user-id": "u", "x-omnia-subject-id": "svc" });
  assert.deepEqual(toGrpcMetadata({ userId: "u", subjectId: "svc" }), { "x-omnia-user-id": "u", "x-omnia-subject-id": "svc" });
});

test("B16 (our form): toGrpcMetadata equals toOutboundHeaders with lowercase keys for a valid identity", () => {
  const id: Identity = { agentName: "a", sessionId: "s", claims: { "Org-Unit": "x", tier: "gold" } };
  const http = toOutboundHeaders(id);
  const lower = Object.fromEntries(Object.entries(http).map(([k, v]) => [k.toLowerCase(), v]));
  assert.deepEqual(toGrpcMetadata(id), lower);
});

test("illegal names and values are skipped and logged at warn (never the value)", () => {
  const logger = createCaptureLogger();
  const id: Identity = {
    userEmail: "a\r\nb",
    userId: "josé",
    claims: { "https://example.com/roles": "admin", ok: "1", bad: "x\0y", "Team Name": "t" },
  };
  assert.deepEqual(toOutboundHeaders(id, { logger }), { "x-omnia-user-id": "josé", "X-Omnia-Claim-Ok": "1" });
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["warn", "headers: skipped an identity header with an invalid value", { header: "x-omnia-user-email" }],
      ["warn", "headers: skipped a claim whose name is not a valid header name", { claim: "https://example.com/roles" }],
      ["warn", "headers: skipped a claim with an invalid header value", { claim: "bad" }],
      ["warn", "headers: skipped a claim whose name is not a valid header name", { claim: "Team Name" }],
    ],
  );
  const grpcLogger = createCaptureLogger();
  assert.deepEqual(toGrpcMetadata(id, { logger: grpcLogger }), { "x-omnia-claim-ok": "1" });
  assert.deepEqual(
    grpcLogger.lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["warn", "headers: skipped identity metadata with an invalid value", { key: "x-omnia-user-id" }],
      ["warn", "headers: skipped identity metadata with an invalid value", { key: "x-omnia-user-email" }],
      ["warn", "headers: skipped a claim whose name is not a legal gRPC metadata key", { claim: "https://example.com/roles" }],
      ["warn", "headers: skipped a claim with an invalid gRPC metadata value", { claim: "bad" }],
      ["warn", "headers: skipped a claim whose name is not a legal gRPC metadata key", { claim: "Team Name" }],
    ],
  );
});

test("claims that collide after canonicalisation or lower-casing: the later one wins", () => {
  assert.deepEqual(toOutboundHeaders({ claims: { TEAM: "a", team: "b" } }), { "X-Omnia-Claim-Team": "b" });
  assert.deepEqual(toGrpcMetadata({ claims: { team: "b", Team: "a" } }), { "x-omnia-claim-team": "a" });
});

test("a claim named by the bare prefix is emitted as Go does", () => {
  assert.deepEqual(toOutboundHeaders({ claims: { "": "v" } }), { "X-Omnia-Claim-": "v" });
  assert.deepEqual(toGrpcMetadata({ claims: { "": "v" } }), { "x-omnia-claim-": "v" });
});

test("every flat key comes from its own field, in FLAT_IDENTITY_KEYS order whatever the identity's order", () => {
  // The builders write the flat keys out one by one (for speed): this pins them to the table.
  const reversed = [...FLAT_IDENTITY_KEYS].reverse();
  const identity = Object.fromEntries(reversed.map((k) => [k.field, `v-${k.field}`])) as Identity;
  const expected = FLAT_IDENTITY_KEYS.map((k) => [k.header, `v-${k.field}`]);
  assert.deepEqual(Object.entries(toOutboundHeaders(identity)), expected);
  assert.deepEqual(Object.entries(toGrpcMetadata(identity)), expected);
  const invalid = Object.fromEntries(reversed.map((k) => [k.field, "bad\n"])) as Identity;
  const logger = createCaptureLogger();
  assert.deepEqual(toOutboundHeaders(invalid, { logger }), {});
  assert.deepEqual(
    logger.lines.map((l) => l.fields),
    FLAT_IDENTITY_KEYS.map((k) => ({ header: k.header })),
  );
  const grpcLogger = createCaptureLogger();
  assert.deepEqual(toGrpcMetadata(invalid, { logger: grpcLogger }), {});
  assert.deepEqual(
    grpcLogger.lines.map((l) => l.fields),
    FLAT_IDENTITY_KEYS.map((k) => ({ key: k.header })),
  );
});
