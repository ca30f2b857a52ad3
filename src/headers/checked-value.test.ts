// The last-valid-value memos of the header slots (checked-value.ts, and the
// parameter keys of params.ts) and the reused de-duplication lists of
// putScalarParams: a repeat call must give exactly what a first build would,
// whatever changed in between.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";
import type { Identity } from "./identity.js";
import { toGrpcMetadata, toOutboundHeaders } from "./outbound.js";
import { promoteScalarParams } from "./params.js";

function session(): Identity {
  return { agentName: "a", sessionId: "s-1", userId: "u-1", claims: { tier: "gold", org: "acme" } };
}

test("repeat calls: a repeat call gives the same headers, as a new object each time", () => {
  const id = session();
  const first = toOutboundHeaders(id);
  const second = toOutboundHeaders(id);
  const expected = {
    "x-omnia-agent-name": "a",
    "x-omnia-session-id": "s-1",
    "x-omnia-user-id": "u-1",
    "X-Omnia-Claim-Tier": "gold",
    "X-Omnia-Claim-Org": "acme",
  };
  assert.deepEqual(first, expected);
  assert.deepEqual(second, expected);
  assert.deepEqual(Object.keys(second), Object.keys(expected));
  assert.notEqual(first, second);
  first["x-omnia-user-id"] = "changed";
  second["X-Omnia-Claim-Org"] = "changed";
  assert.deepEqual(toOutboundHeaders(id), expected);
});

test("repeat calls: a changed field, a new, removed, changed or re-ordered claim is seen on the next call", () => {
  const id = session();
  toOutboundHeaders(id);
  id.userId = "u-2";
  assert.equal(toOutboundHeaders(id)["x-omnia-user-id"], "u-2");
  id.sessionId = undefined;
  assert.equal("x-omnia-session-id" in toOutboundHeaders(id), false);
  id.claims!.region = "eu";
  assert.deepEqual(Object.keys(toOutboundHeaders(id)).slice(-3), ["X-Omnia-Claim-Tier", "X-Omnia-Claim-Org", "X-Omnia-Claim-Region"]);
  delete id.claims!.org;
  assert.deepEqual(Object.keys(toOutboundHeaders(id)).slice(-2), ["X-Omnia-Claim-Tier", "X-Omnia-Claim-Region"]);
  id.claims!.tier = "silver";
  assert.equal(toOutboundHeaders(id)["X-Omnia-Claim-Tier"], "silver");
  // Re-ordered: tier now comes after region, so it is written last.
  delete id.claims!.tier;
  id.claims!.tier = "silver";
  assert.deepEqual(Object.keys(toOutboundHeaders(id)).slice(-2), ["X-Omnia-Claim-Region", "X-Omnia-Claim-Tier"]);
  id.claims = undefined;
  assert.deepEqual(toOutboundHeaders(id), { "x-omnia-agent-name": "a", "x-omnia-user-id": "u-2" });
});

test("repeat calls: claims that canonicalise to one header keep the later value on every call", () => {
  const id: Identity = { claims: { "customer-id": "first", "Customer-Id": "second" } };
  assert.deepEqual(toOutboundHeaders(id), { "X-Omnia-Claim-Customer-Id": "second" });
  assert.deepEqual(toOutboundHeaders(id), { "X-Omnia-Claim-Customer-Id": "second" });
});

test("repeat calls: a claim named __proto__ is an own header on the first call and on a repeat", () => {
  const id = JSON.parse('{"userId":"u","claims":{"__proto__":"x","tier":"gold"}}') as Identity;
  const expected = JSON.parse('{"x-omnia-user-id":"u","X-Omnia-Claim-__proto__":"x","X-Omnia-Claim-Tier":"gold"}') as Record<string, string>;
  assert.deepEqual(toOutboundHeaders(id), expected);
  assert.deepEqual(toOutboundHeaders(id), expected);
  assert.equal(Object.getPrototypeOf(toOutboundHeaders(id)), Object.prototype);
});

test("repeat calls: a build that skipped an entry is not remembered, so every call logs it", () => {
  const id: Identity = { userId: "u", requestId: "bad\nvalue", claims: { ok: "1", "bad name": "v" } };
  const logger = createCaptureLogger();
  const expected = { "x-omnia-user-id": "u", "X-Omnia-Claim-Ok": "1" };
  assert.deepEqual(toOutboundHeaders(id, { logger }), expected);
  assert.deepEqual(toOutboundHeaders(id, { logger }), expected);
  assert.deepEqual(
    logger.lines.map((l) => l.message),
    [
      "headers: skipped an identity header with an invalid value",
      "headers: skipped a claim whose name is not a valid header name",
      "headers: skipped an identity header with an invalid value",
      "headers: skipped a claim whose name is not a valid header name",
    ],
  );
});

test("repeat calls: the gRPC rules have their own memo (lower-case keys, ASCII-only values)", () => {
  const id: Identity = { userId: "u", claims: { Tier: "gold" } };
  assert.deepEqual(toOutboundHeaders(id), { "x-omnia-user-id": "u", "X-Omnia-Claim-Tier": "gold" });
  assert.deepEqual(toGrpcMetadata(id), { "x-omnia-user-id": "u", "x-omnia-claim-tier": "gold" });
  assert.deepEqual(toGrpcMetadata(id), { "x-omnia-user-id": "u", "x-omnia-claim-tier": "gold" });
  // Valid for HTTP (obs-text), not for gRPC: each rule answers for itself after the other passed it.
  id.userId = "josé";
  assert.deepEqual(toOutboundHeaders(id), { "x-omnia-user-id": "josé", "X-Omnia-Claim-Tier": "gold" });
  assert.deepEqual(toGrpcMetadata(id), { "x-omnia-claim-tier": "gold" });
});

test("slot memo: a value that passed once does not let a different, invalid value through", () => {
  const a: Identity = { userId: "u-1", claims: { tier: "gold" } };
  const b: Identity = { userId: "u-1\r\nX-Evil: 1", claims: { tier: "gold\u0000" } };
  assert.deepEqual(toOutboundHeaders(a), { "x-omnia-user-id": "u-1", "X-Omnia-Claim-Tier": "gold" });
  assert.deepEqual(toOutboundHeaders(b), {});
  assert.deepEqual(promoteScalarParams({ id: "7" }), { "x-omnia-param-Id": "7" });
  assert.deepEqual(promoteScalarParams({ id: "7\n" }), {});
  assert.deepEqual(promoteScalarParams({ id: "7" }), { "x-omnia-param-Id": "7" });
});

test("params: a logger that builds headers while a build is running gets its own scratch lists", () => {
  const inner: Array<Record<string, string>> = [];
  const logger = {
    ...createCaptureLogger(),
    debug(): void {
      inner.push(promoteScalarParams({ a: "1", A: "2", b: "3" }));
    },
  };
  const out = promoteScalarParams({ x: "1", bad: "v\n", X: "2", y: "3" }, { logger });
  assert.deepEqual(out, { "x-omnia-param-X": "2", "x-omnia-param-Y": "3" });
  assert.deepEqual(Object.keys(out), ["x-omnia-param-X", "x-omnia-param-Y"]);
  assert.deepEqual(inner, [{ "x-omnia-param-A": "2", "x-omnia-param-B": "3" }]);
});
