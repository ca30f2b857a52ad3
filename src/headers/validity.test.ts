import { test } from "node:test";
import assert from "node:assert/strict";
import {
  isValidGrpcMetadataKey,
  isValidGrpcMetadataValue,
  isValidHeaderName,
  isValidHeaderValue,
  toLatin1HeaderValue,
} from "./validity.js";

test("isValidHeaderName: RFC 7230 tokens only", () => {
  for (const ok of ["a", "X-Omnia-Claim-Tier", "x_y.z~!#$%&'*+^`|", "X-Omnia-Claim-", "9"]) assert.equal(isValidHeaderName(ok), true, ok);
  for (const bad of ["", "a b", "a:b", "a/b", "ü", "a\tb", "a\r\nb", "(x)", "a\"b", "a,b", "a;b", "a=b", "a@b", "[x]", "{x}", "a\x7f"]) {
    assert.equal(isValidHeaderName(bad), false, JSON.stringify(bad));
  }
});

test("isValidHeaderValue: Go's rule, no control character except TAB", () => {
  for (const ok of ["", "a b", "a\tb", "café ☃", "\u00ff", " lead and trail "]) assert.equal(isValidHeaderValue(ok), true, ok);
  for (const bad of ["a\nb", "a\rb", "a\0b", "\x1b", "\x7f", "\x01"]) assert.equal(isValidHeaderValue(bad), false, JSON.stringify(bad));
});

test("gRPC keys: [0-9a-z-_.]+ and not grpc-; values: printable ASCII", () => {
  assert.equal(isValidGrpcMetadataKey("x-omnia-claim-org_unit.id"), true);
  for (const bad of ["", "X-Omnia", "a b", "a:b", "grpc-timeout", "ü"]) assert.equal(isValidGrpcMetadataKey(bad), false, bad);
  assert.equal(isValidGrpcMetadataValue(" ~ printable ! "), true);
  assert.equal(isValidGrpcMetadataValue(""), true);
  for (const bad of ["a\tb", "é", "a\nb", "\x7f"]) assert.equal(isValidGrpcMetadataValue(bad), false, JSON.stringify(bad));
});

test("toLatin1HeaderValue: UTF-8 bytes as a binary string; ASCII unchanged", () => {
  assert.equal(toLatin1HeaderValue("plain"), "plain");
  assert.equal(toLatin1HeaderValue("café ☃"), "caf\u00c3\u00a9 \u00e2\u0098\u0083");
  assert.deepEqual(Buffer.from(toLatin1HeaderValue("café ☃"), "latin1"), Buffer.from("café ☃", "utf8"));
});
