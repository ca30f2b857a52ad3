import { test } from "node:test";
import assert from "node:assert/strict";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";
import {
  GRPC_TOOL_METADATA_PRECEDENCE,
  HTTP_TOOL_HEADER_PRECEDENCE,
  canonicalizeHeaders,
  mergeGrpcToolMetadata,
  mergeHeaders,
  mergeHttpToolHeaders,
  type HttpToolHeaderSources,
} from "./merge.js";

test("mergeHeaders: case-insensitive, later layer wins, first position, winner's spelling", () => {
  assert.deepEqual(Object.entries(mergeHeaders({ A: "1", b: "2" }, undefined, { B: "3", a: "4", c: "5" }, null)), [
    ["a", "4"],
    ["B", "3"],
    ["c", "5"],
  ]);
  assert.deepEqual(mergeHeaders(), {});
  assert.deepEqual(mergeHeaders({ "x-a": "1", "X-A": "2" }), { "X-A": "2" });
});

test("mergeHeaders: a __proto__ header is an own entry", () => {
  const out = mergeHeaders({ __proto__x: "0" }, JSON.parse('{"__proto__":"v"}') as Record<string, string>);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out), ["__proto__x", "__proto__"]);
});

test("mergeHeaders: names of Object.prototype members merge like any other name", () => {
  assert.deepEqual(Object.entries(mergeHeaders({ constructor: "1", toString: "a" }, { Constructor: "2", valueOf: "v" }, { tostring: "b" })), [
    ["Constructor", "2"],
    ["tostring", "b"],
    ["valueOf", "v"],
  ]);
  assert.deepEqual(Object.entries(mergeHeaders({ hasOwnProperty: "1" }, { hasOwnProperty: "2" })), [["hasOwnProperty", "2"]]);
  const respelled = mergeHeaders({ __PROTO__: "1", a: "x" }, JSON.parse('{"__proto__":"2"}') as Record<string, string>);
  assert.equal(Object.getPrototypeOf(respelled), Object.prototype);
  assert.deepEqual(Object.entries(respelled), [
    ["__proto__", "2"],
    ["a", "x"],
  ]);
});

test("mergeHeaders: a merge started by a layer's getter, or past the name memo's size, still gives the general result", () => {
  // The getter of A merges too, and re-spells `a` in its own merge, before the outer merge reads `a`.
  const withGetter = {
    get A(): string {
      mergeHeaders({ a: "inner" });
      return "1";
    },
  };
  assert.deepEqual(Object.entries(mergeHeaders(withGetter, { a: "2" })), [["a", "2"]]);
  assert.deepEqual(Object.entries(mergeHeaders(withGetter, { b: "2" })), [
    ["A", "1"],
    ["b", "2"],
  ]);
  // 600 names: the memo of lower-case names is emptied midway, and H0 re-spells h0 after that.
  const many: Record<string, string> = {};
  for (let i = 0; i < 600; i++) many[`h${i}`] = String(i);
  const merged = mergeHeaders(many, { H0: "x" });
  assert.equal(Object.keys(merged).length, 600);
  assert.deepEqual(Object.entries(merged)[0], ["H0", "x"]);
  assert.equal(merged["h599"], "599");
});

test("the seed-004 precedence, lowest first", () => {
  assert.deepEqual(HTTP_TOOL_HEADER_PRECEDENCE, ["contentType", "headers", "auth", "headersFromSecret", "omnia", "injected", "headerParams"]);
  assert.deepEqual(GRPC_TOOL_METADATA_PRECEDENCE, ["omnia", "authorization", "injected"]);
});

test("mergeHttpToolHeaders: each source beats every earlier one on the same name, in any case", () => {
  const all = {
    contentType: "application/json",
    headers: { "content-type": "static", "X-Same": "headers" },
    auth: { Authorization: "Bearer tool", "x-same": "auth" },
    headersFromSecret: { "X-SAME": "secret" },
    omnia: { "x-omnia-tool-name": "my_tool", "x-same": "omnia" },
    injected: { "X-Same": "injected" },
    headerParams: { "x-same": "params" },
  };
  assert.deepEqual(mergeHttpToolHeaders(all), {
    "content-type": "static",
    "x-same": "params",
    Authorization: "Bearer tool",
    "x-omnia-tool-name": "my_tool",
  });
  // Drop the top source one at a time: the next one down wins.
  const sources: HttpToolHeaderSources = { ...all };
  const steps: Array<[keyof HttpToolHeaderSources, string]> = [
    ["headerParams", "params"],
    ["injected", "injected"],
    ["omnia", "omnia"],
    ["headersFromSecret", "secret"],
    ["auth", "auth"],
    ["headers", "headers"],
  ];
  for (const [source, winner] of steps) {
    const merged = mergeHttpToolHeaders(sources);
    const name = Object.keys(merged).find((k) => k.toLowerCase() === "x-same");
    assert.equal(name === undefined ? undefined : merged[name], winner, `with ${source} on top`);
    delete sources[source];
  }
  assert.deepEqual(mergeHttpToolHeaders(sources), { "Content-Type": "application/json" });
});

test("R18: a static Content-Type beats the configured one", () => {
  assert.deepEqual(mergeHttpToolHeaders({ contentType: "application/json", headers: { "Content-Type": "text/x" } }), { "Content-Type": "text/x" });
  assert.deepEqual(mergeHttpToolHeaders({ contentType: "application/merge-patch+json" }), { "Content-Type": "application/merge-patch+json" });
});

test("H12/H16: the tool credential beats a static Authorization", () => {
  assert.deepEqual(mergeHttpToolHeaders({ headers: { Authorization: "static" }, auth: { Authorization: "Bearer tool-tok" } }), {
    Authorization: "Bearer tool-tok",
  });
  assert.deepEqual(mergeHttpToolHeaders({ headers: { authorization: "static" }, auth: { Authorization: "Bearer tool-sa-key" } }), {
    Authorization: "Bearer tool-sa-key",
  });
});

test("H15: broker-injected headers beat auth and the Omnia headers", () => {
  assert.deepEqual(
    mergeHttpToolHeaders({
      auth: { Authorization: "Bearer tool-tok" },
      omnia: { "x-omnia-user-id": "user-1" },
      injected: { Authorization: "Bearer injected", "X-Omnia-User-Id": "inj" },
    }),
    { Authorization: "Bearer injected", "X-Omnia-User-Id": "inj" },
  );
});

test("H17: a static x-omnia-* header cannot spoof the Omnia header", () => {
  assert.deepEqual(mergeHttpToolHeaders({ headers: { "X-Omnia-Tool-Name": "static" }, omnia: { "x-omnia-tool-name": "my_tool" } }), {
    "x-omnia-tool-name": "my_tool",
  });
});

test("R38: headerParams beat auth, Authorization included", () => {
  assert.deepEqual(mergeHttpToolHeaders({ auth: { Authorization: "Bearer cfg" }, headerParams: { Authorization: "Bearer xyz" } }), {
    Authorization: "Bearer xyz",
  });
});

test("mergeGrpcToolMetadata: omnia < authorization < injected, lowercase keys, illegal entries skipped and logged", () => {
  const logger = createCaptureLogger();
  const out = mergeGrpcToolMetadata(
    {
      omnia: { "x-omnia-tool-name": "t", "x-omnia-user-id": "u" },
      authorization: "Bearer tool",
      injected: { "X-Omnia-User-Id": "inj", "X-Bad Key": "v", "x-bad-value": "a\nb", "grpc-timeout": "1S" },
    },
    { logger },
  );
  assert.deepEqual(out, { "x-omnia-tool-name": "t", "x-omnia-user-id": "inj", authorization: "Bearer tool" });
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["warn", "headers: skipped gRPC metadata with an illegal key", { key: "x-bad key" }],
      ["warn", "headers: skipped gRPC metadata with an illegal value", { key: "x-bad-value" }],
      ["warn", "headers: skipped gRPC metadata with an illegal key", { key: "grpc-timeout" }],
    ],
  );
  assert.deepEqual(mergeGrpcToolMetadata({ authorization: "Bearer a", injected: { Authorization: "Bearer b" } }), { authorization: "Bearer b" });
});

test("canonicalizeHeaders: Go http.Header.Set names, as the broker receives them", () => {
  assert.deepEqual(
    canonicalizeHeaders({
      "x-omnia-tool-name": "t",
      "X-Omnia-Claim-Tier": "gold",
      "x-omnia-param-CustomerId": "c",
      "x-omnia-claim-first name": "n",
    }),
    {
      "X-Omnia-Tool-Name": "t",
      "X-Omnia-Claim-Tier": "gold",
      "X-Omnia-Param-Customerid": "c",
      "x-omnia-claim-first name": "n",
    },
  );
  assert.deepEqual(canonicalizeHeaders({ "x-a": "1", "X-A": "2" }), { "X-A": "2" });
});
