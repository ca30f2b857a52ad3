import { test } from "node:test";
import assert from "node:assert/strict";
import { goStdlib } from "../../test/helpers/go-stdlib.js";
import { canonicalClaimHeader, canonicalHeaderKey } from "./canonical.js";

test("canonicalClaimHeader: every go-stdlib.json row (textproto.CanonicalMIMEHeaderKey)", () => {
  assert.equal(goStdlib.canonicalClaimHeader.length, 27);
  for (const row of goStdlib.canonicalClaimHeader) assert.equal(canonicalClaimHeader(row.in), row.out, `claim ${JSON.stringify(row.in)}`);
});

test("canonicalHeaderKey: every go-stdlib.json row", () => {
  assert.equal(goStdlib.canonicalHeaderKey.length, 10);
  for (const row of goStdlib.canonicalHeaderKey) assert.equal(canonicalHeaderKey(row.in), row.out, `key ${JSON.stringify(row.in)}`);
});

// contract.md §4.11 A1–A30 (verified with Go textproto).
const A: Array<[string, string, string]> = [
  ["A1", "tier", "X-Omnia-Claim-Tier"],
  ["A2", "Team", "X-Omnia-Claim-Team"],
  ["A3", "TEAM", "X-Omnia-Claim-Team"],
  ["A4", "customer-id", "X-Omnia-Claim-Customer-Id"],
  ["A5", "customer_id", "X-Omnia-Claim-Customer_id"],
  ["A6", "cUSTOMER-iD", "X-Omnia-Claim-Customer-Id"],
  ["A7", "role", "X-Omnia-Claim-Role"],
  ["A8", "org.team", "X-Omnia-Claim-Org.team"],
  ["A9", "first name", "x-omnia-claim-first name"],
  ["A10", "ñame", "x-omnia-claim-ñame"],
  ["A11", "über", "x-omnia-claim-über"],
  ["A12", "a--b", "X-Omnia-Claim-A--B"],
  ["A13", "a-", "X-Omnia-Claim-A-"],
  ["A14", "-a", "X-Omnia-Claim--A"],
  ["A15", "", "X-Omnia-Claim-"],
  ["A16", "1abc", "X-Omnia-Claim-1abc"],
  ["A17", "a1b", "X-Omnia-Claim-A1b"],
  ["A18", "x_Y-z", "X-Omnia-Claim-X_y-Z"],
  ["A19", "email@domain", "x-omnia-claim-email@domain"],
  ["A20", "a:b", "x-omnia-claim-a:b"],
  ["A21", "a/b", "x-omnia-claim-a/b"],
  ["A22", "tenant~id", "X-Omnia-Claim-Tenant~id"],
  ["A23", "groups[0]", "x-omnia-claim-groups[0]"],
  ["A24", "AbC_DeF", "X-Omnia-Claim-Abc_def"],
  ["A25", "sub", "X-Omnia-Claim-Sub"],
  ["A26", "preferred_username", "X-Omnia-Claim-Preferred_username"],
  ["A27", "https://example.com/roles", "x-omnia-claim-https://example.com/roles"],
  ["A28", "a\tb", "x-omnia-claim-a\tb"],
  ["A29", "ALL-CAPS-NAME", "X-Omnia-Claim-All-Caps-Name"],
  ["A30", "k8s-ns", "X-Omnia-Claim-K8s-Ns"],
];

test("canonicalClaimHeader: contract.md §4.11 A1–A30", () => {
  for (const [id, claim, out] of A) assert.equal(canonicalClaimHeader(claim), out, id);
});

test("canonicalHeaderKey: control characters, DEL and already-canonical input", () => {
  assert.equal(canonicalHeaderKey("x-a\x7f"), "x-a\x7f");
  assert.equal(canonicalHeaderKey("x-a\0"), "x-a\0");
  assert.equal(canonicalHeaderKey("X-Omnia-Tool-Name"), "X-Omnia-Tool-Name");
  assert.equal(canonicalHeaderKey(""), "");
  assert.equal(canonicalHeaderKey("-"), "-");
  assert.equal(canonicalHeaderKey("x-omnia-param-CustomerId"), "X-Omnia-Param-Customerid");
});
