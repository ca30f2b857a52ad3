import { test } from "node:test";
import assert from "node:assert/strict";
import { newHeaderRecord } from "./header-record.js";
import type { Identity } from "./identity.js";
import { canonicalizeHeaders, mergeGrpcToolMetadata, mergeHeaders, mergeHttpToolHeaders } from "./merge.js";
import { buildOmniaGrpcMetadata, buildOmniaHeaders } from "./omnia-headers.js";
import { toGrpcMetadata, toOutboundHeaders } from "./outbound.js";
import { promoteScalarParams } from "./params.js";

/** An ordinary object: Object.prototype, and only writable, enumerable, configurable own data properties. */
function assertOrdinary(x: Record<string, string>, where: string): void {
  assert.equal(Object.getPrototypeOf(x), Object.prototype, where);
  assert.equal(x.constructor, Object, where);
  assert.equal(Object.isExtensible(x), true, where);
  assert.deepEqual(Object.getOwnPropertyNames(x), Object.keys(x), where);
  assert.deepEqual(Object.getOwnPropertySymbols(x), [], where);
  for (const key of Object.keys(x)) {
    assert.deepEqual(
      Object.getOwnPropertyDescriptor(x, key),
      { value: x[key], writable: true, enumerable: true, configurable: true },
      `${where}: ${key}`,
    );
  }
  assert.deepEqual(JSON.parse(JSON.stringify(x)), { ...x }, where);
}

test("newHeaderRecord: an empty ordinary object, a new one each time, that takes any key", () => {
  const a = newHeaderRecord();
  const b = newHeaderRecord();
  assert.notEqual(a, b);
  assert.deepEqual(a, {});
  assert.equal(Object.keys(a).length, 0);
  assertOrdinary(a, "empty");
  for (let i = 0; i < 80; i++) a[`k-${i}`] = `v${i}`;
  assert.equal(Object.keys(a).length, 80);
  assert.deepEqual(b, {});
  assertOrdinary(a, "80 keys");
  delete a["k-0"];
  a["k-0"] = "again";
  assert.deepEqual(Object.keys(a).slice(-2), ["k-79", "k-0"]);
  assert.equal("s0" in a, false);
  assert.equal(a.toString, Object.prototype.toString);
});

test("every builder returns ordinary objects (prototype, descriptors), __proto__ included", () => {
  const identity: Identity = { agentName: "a", userId: "u", claims: { team: "eng", __proto__x: "p" } };
  const omnia = buildOmniaHeaders({ identity, toolName: "t", args: { customer_id: "c", n: 1 } });
  const results: Record<string, Record<string, string>> = {
    toOutboundHeaders: toOutboundHeaders(identity),
    toOutboundHeadersEmpty: toOutboundHeaders({}),
    toOutboundHeadersNull: toOutboundHeaders(null),
    toGrpcMetadata: toGrpcMetadata(identity),
    promoteScalarParams: promoteScalarParams({ a: "1", b: 2 }),
    promoteScalarParamsNone: promoteScalarParams("[1]"),
    buildOmniaHeaders: omnia,
    buildOmniaGrpcMetadata: buildOmniaGrpcMetadata({ identity, toolName: "t" }),
    mergeHeaders: mergeHeaders({ A: "1" }, JSON.parse('{"__proto__":"v"}') as Record<string, string>),
    mergeHeadersRespelled: mergeHeaders({ a: "1" }, { A: "2" }),
    mergeHttpToolHeaders: mergeHttpToolHeaders({ contentType: "application/json", omnia }),
    mergeGrpcToolMetadata: mergeGrpcToolMetadata({ omnia: { "x-a": "1" }, authorization: "Bearer t" }),
    mergeGrpcToolMetadataSkipped: mergeGrpcToolMetadata({ omnia: { "x-a": "1", "Bad Key": "2" } }),
    canonicalizeHeaders: canonicalizeHeaders(JSON.parse('{"x-a":"1","__proto__":"v"}') as Record<string, string>),
  };
  for (const [where, x] of Object.entries(results)) assertOrdinary(x, where);
  assert.equal(Object.getOwnPropertyDescriptor(results.mergeHeaders, "__proto__")?.value, "v");
  assert.equal(Object.getOwnPropertyDescriptor(results.canonicalizeHeaders, "__proto__")?.value, "v");
});

// Flat keys in table order, written here independently of the key table.
const FLAT: ReadonlyArray<readonly [keyof Identity, string]> = [
  ["agentName", "x-omnia-agent-name"],
  ["namespace", "x-omnia-namespace"],
  ["sessionId", "x-omnia-session-id"],
  ["requestId", "x-omnia-request-id"],
  ["userId", "x-omnia-user-id"],
  ["subjectId", "x-omnia-subject-id"],
  ["userEmail", "x-omnia-user-email"],
  ["provider", "x-omnia-provider"],
  ["model", "x-omnia-model"],
  ["origin", "x-omnia-origin"],
  ["workspace", "x-omnia-workspace"],
];

interface Case {
  identity: Identity;
  http: [string, string][];
  grpc: [string, string][];
  args: Record<string, unknown>;
  params: [string, string][];
}

/** An identity of `size` entries (flat fields first, then claims), its expected headers, and `size` arguments. */
function makeCase(size: number, seed: number): Case {
  const identity: Identity = {};
  const http: [string, string][] = [];
  const grpc: [string, string][] = [];
  const flat = Math.min(size, FLAT.length);
  // The identity's own key order varies with the seed; the output order never does.
  const fields = FLAT.slice(0, flat);
  const shuffled = seed % 2 === 0 ? fields : [...fields].reverse();
  for (const [field] of shuffled) (identity as Record<string, string>)[field] = `${field}-${seed}`;
  for (const [field, header] of fields) {
    http.push([header, `${field}-${seed}`]);
    grpc.push([header, `${field}-${seed}`]);
  }
  if (size > flat) {
    const claims: Record<string, string> = {};
    for (let i = 0; i < size - flat; i++) {
      claims[`claim_${i}`] = `c${i}-${seed}`;
      http.push([`X-Omnia-Claim-Claim_${i}`, `c${i}-${seed}`]);
      grpc.push([`x-omnia-claim-claim_${i}`, `c${i}-${seed}`]);
    }
    identity.claims = claims;
  }
  const args: Record<string, unknown> = {};
  const params: [string, string][] = [];
  for (let i = 0; i < size; i++) {
    args[`arg_${i}`] = i % 2 === 0 ? `a${i}` : i;
    params.push([`x-omnia-param-Arg${i}`, i % 2 === 0 ? `a${i}` : String(i)]);
  }
  return { identity, http, grpc, args, params };
}

test("identities of 0, 3, 21 and 70 entries in mixed order give exact headers (V8 shape transitions)", () => {
  const sizes = [21, 0, 70, 3, 3, 21, 70, 0, 21, 3, 70, 21];
  for (let round = 0; round < 150; round++) {
    for (let s = 0; s < sizes.length; s++) {
      const size = sizes[(s + round) % sizes.length]!;
      const c = makeCase(size, round + s);
      const http = toOutboundHeaders(c.identity);
      assert.deepEqual(Object.entries(http), c.http, `toOutboundHeaders size ${size}`);
      assert.deepStrictEqual(http, Object.fromEntries(c.http));
      assert.deepEqual(Object.entries(toGrpcMetadata(c.identity)), c.grpc, `toGrpcMetadata size ${size}`);
      assert.deepEqual(Object.entries(promoteScalarParams(c.args)), c.params, `promoteScalarParams size ${size}`);
      const tool: [string, string][] = [["x-omnia-tool-name", "t"]];
      const omnia = buildOmniaHeaders({ identity: c.identity, toolName: "t", args: c.args });
      assert.deepEqual(Object.entries(omnia), [...c.http, ...tool, ...c.params], `buildOmniaHeaders size ${size}`);
      const metadata = buildOmniaGrpcMetadata({ identity: c.identity, toolName: "t" });
      assert.deepEqual(Object.entries(metadata), [...c.grpc, ...tool], `buildOmniaGrpcMetadata size ${size}`);
      assert.deepEqual(
        Object.entries(mergeHttpToolHeaders({ contentType: "application/json", headers: { "X-Omnia-Tool-Name": "spoof" }, omnia })),
        // The spoofed name keeps its (earlier) position, with the Omnia spelling and value.
        [["Content-Type", "application/json"], ["x-omnia-tool-name", "t"], ...c.http, ...c.params],
        `mergeHttpToolHeaders size ${size}`,
      );
      assert.deepEqual(
        Object.entries(mergeGrpcToolMetadata({ omnia: metadata, authorization: "Bearer x", injected: { "X-Extra": "e" } })),
        [...c.grpc, ...tool, ["authorization", "Bearer x"], ["x-extra", "e"]],
        `mergeGrpcToolMetadata size ${size}`,
      );
      if (round === 0) assertOrdinary(http, `size ${size}`);
    }
  }
});
