// fast-check properties over every builder of this module (issue #3): header
// names are tokens, values carry no CR/LF/NUL, nothing ever emits an
// `authorization` key, and gRPC metadata round-trips through rehydration.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Identity } from "./identity.js";
import { identityFromMetadata } from "./inbound.js";
import { identityPayload } from "./identity-payload.js";
import { mergeGrpcToolMetadata, mergeHttpToolHeaders } from "./merge.js";
import { buildOmniaGrpcMetadata, buildOmniaHeaders } from "./omnia-headers.js";
import { toGrpcMetadata, toOutboundHeaders } from "./outbound.js";
import { promoteScalarParams } from "./params.js";
import { isValidGrpcMetadataKey, isValidHeaderName } from "./validity.js";

const RUNS = { numRuns: 10_000 };

const hostile = fc.constantFrom(
  "",
  "authorization",
  "Authorization",
  "AUTHORIZATION",
  "Bearer caller-jwt",
  "a\r\nb",
  "x\ny",
  "nul\0",
  "tab\there",
  "https://example.com/roles",
  "Team",
  "team",
  "customer_id",
  "__proto__",
  "ümlaut",
);
const text = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "binary-ascii" }), fc.string(), hostile);
const scalar = fc.oneof(text, fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));

const identityArb = fc
  .record(
    {
      agentName: text,
      namespace: text,
      sessionId: text,
      requestId: text,
      userId: text,
      subjectId: text,
      userEmail: text,
      origin: text,
      workspace: text,
      provider: text,
      model: text,
      claims: fc.dictionary(text, text, { maxKeys: 12 }),
      authorization: text,
    },
    { requiredKeys: [] },
  )
  .map((x) => x as Identity); // `authorization` is not an Identity field: it rides along to prove it is ignored

const argsArb = fc.oneof(
  fc.dictionary(text, scalar, { maxKeys: 10 }),
  fc.dictionary(text, scalar, { maxKeys: 10 }).map((a) => JSON.stringify(a)),
  fc.jsonValue({ maxDepth: 2 }),
  text,
);

const contextArb = fc.record(
  {
    identity: identityArb,
    agent: fc.record({ name: text, namespace: text, workspace: text, provider: text, model: text }, { requiredKeys: [] }),
    toolName: text,
    handlerName: text,
    sessionId: text,
    delegationToken: text,
    args: argsArb,
  },
  { requiredKeys: [] },
);

function assertHttpHeaders(h: Record<string, string>): void {
  for (const [name, value] of Object.entries(h)) {
    assert.ok(isValidHeaderName(name), `invalid header name ${JSON.stringify(name)}`);
    assert.ok(!/[\r\n\0]/.test(value), `value of ${name} holds CR, LF or NUL`);
    assert.notEqual(name.toLowerCase(), "authorization");
  }
}

function assertGrpcMetadata(h: Record<string, string>): void {
  for (const [name, value] of Object.entries(h)) {
    assert.ok(isValidGrpcMetadataKey(name) && isValidHeaderName(name), `invalid metadata key ${JSON.stringify(name)}`);
    assert.ok(!/[\r\n\0]/.test(value), `value of ${name} holds CR, LF or NUL`);
    assert.notEqual(name, "authorization");
  }
}

test("property: toOutboundHeaders emits only token names, values without CR/LF/NUL, never authorization", () => {
  fc.assert(fc.property(identityArb, (id) => assertHttpHeaders(toOutboundHeaders(id))), RUNS);
});

test("property: toGrpcMetadata emits only legal lowercase keys, values without CR/LF/NUL, never authorization", () => {
  fc.assert(fc.property(identityArb, (id) => assertGrpcMetadata(toGrpcMetadata(id))), RUNS);
});

test("property: promoteScalarParams emits only token names, values without CR/LF/NUL, never authorization", () => {
  fc.assert(
    fc.property(argsArb, (args) => {
      const out = promoteScalarParams(args);
      assertHttpHeaders(out);
      for (const name of Object.keys(out)) assert.ok(name.startsWith("x-omnia-param-"));
    }),
    RUNS,
  );
});

test("property: buildOmniaHeaders and the HTTP merge without auth never carry authorization or an invalid entry", () => {
  fc.assert(
    fc.property(contextArb, (ctx) => {
      const omnia = buildOmniaHeaders(ctx);
      assertHttpHeaders(omnia);
      assertHttpHeaders(mergeHttpToolHeaders({ contentType: "application/json", headers: { "X-Static": "s" }, omnia }));
      for (const name of Object.keys(omnia)) {
        assert.ok(!["x-omnia-client-tools", "x-omnia-session-open", "x-omnia-declare-bin"].includes(name.toLowerCase()));
      }
    }),
    RUNS,
  );
});

test("property: buildOmniaGrpcMetadata never carries authorization, a param key or an illegal entry", () => {
  fc.assert(
    fc.property(contextArb, (ctx) => {
      const md = buildOmniaGrpcMetadata(ctx);
      assertGrpcMetadata(md);
      assert.ok(!Object.keys(md).some((k) => k.startsWith("x-omnia-param-")));
      assertGrpcMetadata(mergeGrpcToolMetadata({ omnia: md }));
    }),
    RUNS,
  );
});

test("property: the rehydrated identity and the broker payload never hold the inbound authorization", () => {
  fc.assert(
    fc.property(fc.dictionary(text, text, { maxKeys: 8 }), text, (md, token) => {
      const secret = `Bearer ${token}-secret-marker`;
      const got = identityFromMetadata({ ...md, authorization: secret, Authorization: secret });
      assert.ok(!JSON.stringify(got).includes("-secret-marker"));
      assert.ok(!JSON.stringify(identityPayload(got.identity)).includes("-secret-marker"));
      assert.ok(!Object.keys(got.identity).includes("authorization"));
    }),
    RUNS,
  );
});

// Legal gRPC values: printable ASCII, non-empty (empty values are not emitted).
const legalValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 24 });
const legalClaimName = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_."), minLength: 1, maxLength: 16 });

test("property: round trip, identityFromMetadata(toGrpcMetadata(x)) gives back x with claim names lowercased", () => {
  const legalIdentity = fc.record(
    {
      agentName: legalValue,
      namespace: legalValue,
      sessionId: legalValue,
      requestId: legalValue,
      userId: legalValue,
      subjectId: legalValue,
      userEmail: legalValue,
      origin: legalValue,
      workspace: legalValue,
      provider: legalValue,
      model: legalValue,
      claims: fc.dictionary(legalClaimName, fc.tuple(legalValue, fc.boolean()), { minKeys: 1, maxKeys: 10 }),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(legalIdentity, ({ claims, ...flat }) => {
      const x: Identity = { ...flat };
      const expected: Identity = { ...flat };
      if (claims !== undefined) {
        // Upper-case some claim names; they cross gRPC lowercased.
        x.claims = Object.fromEntries(Object.entries(claims).map(([name, [value, upper]]) => [upper ? name.toUpperCase() : name, value]));
        expected.claims = Object.fromEntries(Object.entries(claims).map(([name, [value]]) => [name, value]));
      }
      const back = identityFromMetadata(toGrpcMetadata(x));
      assert.deepEqual(back, { identity: expected, clientToolsAvailable: false, sessionOpen: false });
    }),
    RUNS,
  );
});

test("property: for any identity, rehydration gives back only values that were sent, never invents one", () => {
  fc.assert(
    fc.property(identityArb, (x) => {
      const { identity } = identityFromMetadata(toGrpcMetadata(x));
      for (const [field, value] of Object.entries(identity)) {
        if (field === "claims") continue;
        assert.equal(value, (x as Record<string, unknown>)[field]);
      }
      for (const [name, value] of Object.entries(identity.claims ?? {})) {
        assert.ok(Object.entries(x.claims ?? {}).some(([k, v]) => k.toLowerCase() === name && v === value), `claim ${name}`);
      }
    }),
    RUNS,
  );
});
