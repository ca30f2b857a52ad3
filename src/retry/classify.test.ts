// Retry classification: http.md §3.7 and §4.4 (T6–T10), runtime-tools.md §2.3 (R10–R22 at the classifier level).
import { test } from "node:test";
import assert from "node:assert/strict";
import { TimeoutError } from "../core/index.js";
import { classifyHttpError, classifyHttpStatus, DEFAULT_HTTP_RETRY_RULES, isNetworkError } from "./http-classify.js";
import type { HttpRetryRules } from "./http-classify.js";
import { classifyGrpcStatus, DEFAULT_GRPC_RETRYABLE_STATUS_CODES, GRPC_STATUS_NAMES, grpcStatusName } from "./grpc-status.js";
import { parseRetryAfter } from "./retry-after.js";

const rules = (over: Partial<HttpRetryRules>): HttpRetryRules => ({ ...DEFAULT_HTTP_RETRY_RULES, ...over });
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

test("T8: status classification by retryOn", () => {
  const r = rules({ retryOn: [502, 503, 504] });
  assert.deepEqual(classifyHttpStatus(503, undefined, r, NOW), { retryable: true, retryAfterMs: 0 });
  assert.deepEqual(classifyHttpStatus(400, undefined, r, NOW), { retryable: false, retryAfterMs: 0 });
  assert.deepEqual(classifyHttpStatus(200, undefined, rules({ retryOn: [503] }), NOW), { retryable: false, retryAfterMs: 0 });
  // Any listed status counts, even a 2xx (a responseMapping error on a 200 is retried only if 200 is listed).
  assert.deepEqual(classifyHttpStatus(200, undefined, rules({ retryOn: [200] }), NOW), { retryable: true, retryAfterMs: 0 });
  // R16: an explicit empty retryOn disables status-based retry.
  assert.deepEqual(classifyHttpStatus(503, "5", rules({ retryOn: [] }), NOW), { retryable: false, retryAfterMs: 0 });
  // C1: the defaults retry 408, 429, 500, 502, 503, 504 and nothing else.
  assert.deepEqual(DEFAULT_HTTP_RETRY_RULES, { retryOn: [408, 429, 500, 502, 503, 504], retryOnNetworkError: true, respectRetryAfter: true });
  const retried = Array.from({ length: 500 }, (_, i) => i + 100).filter((s) => classifyHttpStatus(s, undefined, DEFAULT_HTTP_RETRY_RULES, NOW).retryable);
  assert.deepEqual(retried, [408, 429, 500, 502, 503, 504]);
});

test("T9: Retry-After seconds, HTTP-date, and ignored when respectRetryAfter is false", () => {
  assert.deepEqual(classifyHttpStatus(503, "5", DEFAULT_HTTP_RETRY_RULES, NOW), { retryable: true, retryAfterMs: 5_000 });
  const tenSecondsLater = new Date(NOW + 10_000).toUTCString();
  assert.equal(tenSecondsLater, "Sun, 29 Nov 2026 12:00:10 GMT");
  assert.deepEqual(classifyHttpStatus(429, tenSecondsLater, DEFAULT_HTTP_RETRY_RULES, NOW), { retryable: true, retryAfterMs: 10_000 });
  assert.deepEqual(classifyHttpStatus(503, "60", rules({ respectRetryAfter: false }), NOW), { retryable: true, retryAfterMs: 0 });
  // Honoured for any retried status, not only 429/503; never for a status that is not retried.
  assert.deepEqual(classifyHttpStatus(500, "7", DEFAULT_HTTP_RETRY_RULES, NOW), { retryable: true, retryAfterMs: 7_000 });
  assert.deepEqual(classifyHttpStatus(404, "7", DEFAULT_HTTP_RETRY_RULES, NOW), { retryable: false, retryAfterMs: 0 });
  // A repeated header: the first value counts (Go Header.Get).
  assert.deepEqual(classifyHttpStatus(503, ["2", "9"], DEFAULT_HTTP_RETRY_RULES, NOW), { retryable: true, retryAfterMs: 2_000 });
});

test("T10: parseRetryAfter vectors", () => {
  const cases: [string | undefined | null, number][] = [
    ["", 0],
    [undefined, 0],
    [null, 0],
    ["30", 30_000],
    ["not-a-date-or-number", 0],
    ["+5", 5_000],
    ["-5", -5_000],
    ["1.5", 0],
    [" 5", 0],
    ["5 ", 0],
    ["0", 0],
    ["Wed, 21 Oct 2015 07:28:00 GMT", 0], // in the past
    ["9223372036854775807", 9223372036854775807 * 1000],
    ["9223372036854775808", 0], // out of int64 range: Atoi fails, not a date either
  ];
  for (const [value, expected] of cases) assert.equal(parseRetryAfter(value, NOW), expected, JSON.stringify(value));
});

test("parseRetryAfter: the three HTTP-date formats of Go's http.ParseTime, and invalid dates", () => {
  const cases: [string, number][] = [
    ["Sun, 29 Nov 2026 12:00:30 GMT", 30_000], // RFC 1123 (http.TimeFormat)
    ["Sunday, 29-Nov-26 12:00:30 GMT", 30_000], // RFC 850
    ["Sun Nov 29 12:00:30 2026", 30_000], // asctime (ANSIC)
    ["Sun Dec  6 12:00:00 2026", 7 * 86_400_000], // asctime, space-padded day
    ["Sun Dec 6 12:00:00 2026", 7 * 86_400_000],
    ["sun, 29 nov 2026 12:00:30 GMT", 30_000], // names are case-insensitive
    ["Sun, 29 Nov 2026 12:00:30.5 GMT", 30_500], // Go accepts a fraction after the seconds
    ["Sun, 29 Nov 2026 12:00:30 UTC", 0], // RFC 1123 needs the literal GMT
    ["Sun, 31 Nov 2026 12:00:30 GMT", 0], // no 31 November
    ["Sun, 29 Nov 2026 24:00:30 GMT", 0],
    ["Sun, 29 Nov 2026 12:60:30 GMT", 0],
    ["Sun, 9 Nov 2026 12:00:30 GMT", 0], // RFC 1123 day is two digits
    ["Sunday, 29-Nov-69 12:00:00 GMT", 0], // yy >= 69 is 19yy: the past
  ];
  for (const [value, expected] of cases) assert.equal(parseRetryAfter(value, NOW), expected, value);
});

test("T6/T7: transport errors are retried iff network-class and retryOnNetworkError", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
  assert.deepEqual(classifyHttpError(refused, DEFAULT_HTTP_RETRY_RULES), { retryable: true, retryAfterMs: 0 }); // R15
  assert.deepEqual(classifyHttpError(refused, rules({ retryOnNetworkError: false })), { retryable: false, retryAfterMs: 0 }); // R14
  assert.deepEqual(classifyHttpError(new TimeoutError(30_000), DEFAULT_HTTP_RETRY_RULES), { retryable: true, retryAfterMs: 0 }); // T7
});

test("isNetworkError: codes, DOMException names, cause chains and AggregateError; TLS and build errors are not", () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });
  for (const code of ["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "ERR_OMNIA_TIMEOUT", "ERR_OMNIA_ABORTED"]) {
    assert.equal(isNetworkError(withCode(code)), true, code);
  }
  for (const code of ["CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "ERR_TLS_CERT_ALTNAME_INVALID", "ERR_INVALID_URL", "UND_ERR_INVALID_ARG"]) {
    assert.equal(isNetworkError(withCode(code)), false, code);
  }
  assert.equal(isNetworkError(new DOMException("The operation was aborted due to timeout", "TimeoutError")), true);
  assert.equal(isNetworkError(new DOMException("This operation was aborted", "AbortError")), true);
  assert.equal(isNetworkError(new TypeError("fetch failed", { cause: withCode("ECONNRESET") })), true);
  assert.equal(isNetworkError(new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")])), true);
  assert.equal(isNetworkError(new Error("EOF")), false);
  assert.equal(isNetworkError("ECONNREFUSED"), false);
  assert.equal(isNetworkError(undefined), false);
});

test("gRPC status names are canonical, from numbers, connect enum keys and wire strings", () => {
  assert.equal(GRPC_STATUS_NAMES.length, 17);
  assert.equal(grpcStatusName(4), "DEADLINE_EXCEEDED");
  assert.equal(grpcStatusName(8), "RESOURCE_EXHAUSTED");
  assert.equal(grpcStatusName(14), "UNAVAILABLE");
  assert.equal(grpcStatusName("DeadlineExceeded"), "DEADLINE_EXCEEDED"); // connect's Code[4]
  assert.equal(grpcStatusName("ResourceExhausted"), "RESOURCE_EXHAUSTED");
  assert.equal(grpcStatusName("deadline_exceeded"), "DEADLINE_EXCEEDED"); // connect's wire form
  assert.equal(grpcStatusName("Canceled"), "CANCELLED");
  assert.equal(grpcStatusName("canceled"), "CANCELLED");
  assert.equal(grpcStatusName("DEADLINEEXCEEDED"), undefined); // the Go snapshot's broken form
  assert.equal(grpcStatusName(17), undefined);
  assert.equal(grpcStatusName(1.5), undefined);
  assert.deepEqual(DEFAULT_GRPC_RETRYABLE_STATUS_CODES, ["UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"]);
});

test("R17–R20: gRPC retry by canonical code name; errors without a status are never retried", () => {
  const defaults = DEFAULT_GRPC_RETRYABLE_STATUS_CODES;
  assert.equal(classifyGrpcStatus(14, ["UNAVAILABLE"]).retryable, true); // R17
  assert.equal(classifyGrpcStatus(5, ["UNAVAILABLE"]).retryable, false); // R18 NOT_FOUND
  assert.equal(classifyGrpcStatus(4, defaults).retryable, true); // R19: the snapshot fails this one
  assert.equal(classifyGrpcStatus("DeadlineExceeded", defaults).retryable, true);
  assert.equal(classifyGrpcStatus(8, defaults).retryable, true); // RESOURCE_EXHAUSTED
  assert.equal(classifyGrpcStatus(13, defaults).retryable, false); // INTERNAL is not in the defaults
  assert.equal(classifyGrpcStatus(undefined, defaults).retryable, false); // R20: is_error, breaker rejection, auth
  assert.equal(classifyGrpcStatus(14, []).retryable, false); // [] disables
  assert.deepEqual(classifyGrpcStatus(14, defaults), { retryable: true, retryAfterMs: 0 });
});
