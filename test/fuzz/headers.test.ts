// Fuzz (issue #14): the identity path in and out, 10,000 runs per property.
// - identityFromMetadata on arbitrary metadata (plain records, WHATWG Headers,
//   Maps; arrays, numbers, undefined; __proto__ keys) never throws, never
//   yields the caller's Authorization, and never pollutes a prototype.
// - The header builders (buildOmniaHeaders, buildOmniaGrpcMetadata,
//   mergeHttpToolHeaders, mergeGrpcToolMetadata) on an arbitrary identity that
//   carries the caller's token never emit it, and never emit an invalid name
//   or value (HTTP token / gRPC metadata rules).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  buildOmniaGrpcMetadata,
  buildOmniaHeaders,
  identityFromMetadata,
  isValidGrpcMetadataKey,
  isValidGrpcMetadataValue,
  isValidHeaderName,
  isValidHeaderValue,
  mergeGrpcToolMetadata,
  mergeHttpToolHeaders,
  type MetadataInput,
} from "../../src/headers/index.js";
import { SENTINEL, identity, nastyString, toolArgs } from "./arbitraries.js";

const RUNS = 10_000;

const AUTH_KEYS = ["authorization", "Authorization", "AUTHORIZATION", "proxy-authorization", "grpc-authorization", "cookie"] as const;
const OMNIA_KEYS = [
  "x-omnia-user-id",
  "X-Omnia-User-Id",
  "x-omnia-agent-name",
  "x-omnia-session-id",
  "x-omnia-claim-role",
  "x-omnia-claim-",
  "x-omnia-claim-authorization",
  "x-omnia-claim-__proto__",
  "x-omnia-__proto__",
  "x-omnia-authorization",
  "x-omnia-session-open",
  "x-omnia-declare-bin",
  "x-omnia-client-tools",
  "x-omnia-workspace",
  "__proto__",
  "constructor",
  "grpc-timeout",
] as const;

const key = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...OMNIA_KEYS) },
  { weight: 1, arbitrary: nastyString.map((s) => `x-omnia-${s}`) },
  { weight: 1, arbitrary: nastyString },
);
const value = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, 0, 42, "true", "", "dHJ1ZQ==", "not base64!") },
);

/** Metadata with the caller's token under every spelling of authorization, plus arbitrary entries. */
const metadata = fc
  .tuple(fc.array(fc.tuple(key, value), { maxLength: 8 }), fc.subarray([...AUTH_KEYS], { minLength: 1 }), fc.constantFrom("record", "headers", "map"))
  .map(([entries, authKeys, kind]): MetadataInput => {
    const all: [string, unknown][] = [...authKeys.map((k): [string, unknown] => [k, SENTINEL]), ...entries];
    if (kind === "record") {
      const record: Record<string, unknown> = {};
      for (const [k, v] of all) Object.defineProperty(record, k, { value: v, enumerable: true, writable: true, configurable: true });
      return record as MetadataInput;
    }
    if (kind === "map") return new Map(all.filter(([, v]) => typeof v === "string") as [string, string][]) as unknown as MetadataInput;
    const headers = new Headers();
    for (const [k, v] of all) {
      try {
        headers.append(k, String(v));
      } catch {
        // WHATWG Headers refuses names and values HTTP cannot carry; those never arrive this way.
      }
    }
    return headers;
  });

test("identityFromMetadata on arbitrary metadata: never throws, never yields the caller's Authorization, never pollutes a prototype", () => {
  fc.assert(
    fc.property(metadata, (md) => {
      const warnings: string[] = [];
      const out = identityFromMetadata(md, { logger: { debug() {}, info() {}, warn: (m, f) => void warnings.push(`${m} ${JSON.stringify(f)}`), error() {} } });
      const text = JSON.stringify(out) + JSON.stringify(out.identity.claims ?? {});
      assert.ok(!text.includes("SENTINEL"), `the caller's token came through: ${text}`);
      assert.ok(!warnings.join("\n").includes("SENTINEL"), "a warning logged the token");
      for (const k of Object.keys(out.identity)) assert.ok(!/authorization|cookie/i.test(k), `identity field ${k}`);
      assert.equal(typeof out.clientToolsAvailable, "boolean");
      assert.equal(typeof out.sessionOpen, "boolean");
      if (out.identity.claims !== undefined) {
        assert.equal(Object.getPrototypeOf(out.identity.claims), Object.prototype);
        for (const v of Object.values(out.identity.claims)) assert.equal(typeof v, "string");
      }
      assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
      assert.equal(Object.prototype.toString.call({}), "[object Object]");
    }),
    { numRuns: RUNS },
  );
});

const agent = fc.record({ name: nastyString, namespace: nastyString, workspace: nastyString, provider: nastyString, model: nastyString }, { requiredKeys: [] });

test("buildOmniaHeaders + mergeHttpToolHeaders: valid HTTP headers, never the caller's Authorization", () => {
  fc.assert(
    fc.property(identity, agent, nastyString, nastyString, toolArgs, fc.boolean(), (id, ag, toolName, delegation, args, withAuth) => {
      const omnia = buildOmniaHeaders({ identity: id, agent: ag, toolName, handlerName: "h", delegationToken: delegation, args });
      const headers = mergeHttpToolHeaders({ omnia, ...(withAuth ? { auth: { Authorization: "Bearer configured" } } : {}) });
      assert.ok(!JSON.stringify(headers).includes("SENTINEL"));
      for (const [name, v] of Object.entries(headers)) {
        assert.ok(isValidHeaderName(name), `name ${JSON.stringify(name)}`);
        assert.ok(isValidHeaderValue(v) && !/[\r\n\0]/.test(v), `${name}: ${JSON.stringify(v)}`);
        if (name.toLowerCase() === "authorization") assert.equal(v, "Bearer configured");
      }
      if (!withAuth) assert.ok(!Object.keys(headers).some((n) => n.toLowerCase() === "authorization"));
    }),
    { numRuns: RUNS },
  );
});

test("buildOmniaGrpcMetadata + mergeGrpcToolMetadata: legal gRPC metadata, never the caller's Authorization, no x-omnia-param-*", () => {
  fc.assert(
    fc.property(identity, agent, nastyString, nastyString, fc.option(fc.constant("Bearer configured"), { nil: undefined }), (id, ag, toolName, delegation, authorization) => {
      const omnia = buildOmniaGrpcMetadata({ identity: id, agent: ag, toolName, handlerName: "h", delegationToken: delegation });
      const md = mergeGrpcToolMetadata({ omnia, authorization });
      assert.ok(!JSON.stringify(md).includes("SENTINEL"));
      for (const [k, v] of Object.entries(md)) {
        assert.ok(isValidGrpcMetadataKey(k), `key ${JSON.stringify(k)}`);
        assert.ok(isValidGrpcMetadataValue(v), `${k}: ${JSON.stringify(v)}`);
        assert.ok(!k.startsWith("x-omnia-param-"));
      }
      assert.equal(md["authorization"], authorization);
    }),
    { numRuns: RUNS },
  );
});
