// grpc-go's encodeTimeout past connect's 8-digit milliseconds, and which values a Node timer cannot wait for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeLongGrpcTimeout, isBeyondTimerRange } from "./grpc-timeout.js";

test("a long deadline in the finest unit whose count, rounded up, has at most 8 digits", () => {
  assert.equal(encodeLongGrpcTimeout(100_000_000), "100000S");
  assert.equal(encodeLongGrpcTimeout(172_800_000), "172800S");
  assert.equal(encodeLongGrpcTimeout(172_800_001), "172801S");
  assert.equal(encodeLongGrpcTimeout(99_999_999_000), "99999999S");
  assert.equal(encodeLongGrpcTimeout(99_999_999_001), "1666667M");
  assert.equal(encodeLongGrpcTimeout(2_000 * 86_400_000), "2880000M");
  assert.equal(encodeLongGrpcTimeout(9_223_372_036_854), "2562048H");
  assert.equal(encodeLongGrpcTimeout(1e20), "99999999H");
});

test("beyond a Node timer: more than 2^31-1 ms in any unit; malformed values are left to connect", () => {
  assert.equal(isBeyondTimerRange("2147483647m"), false); // 10 digits: not a grpc-timeout value
  assert.equal(isBeyondTimerRange("2147483S"), false);
  assert.equal(isBeyondTimerRange("2147484S"), true);
  assert.equal(isBeyondTimerRange("596H"), false);
  assert.equal(isBeyondTimerRange("597H"), true);
  assert.equal(isBeyondTimerRange("99999999m"), false);
  assert.equal(isBeyondTimerRange("99999999n"), false);
  assert.equal(isBeyondTimerRange("1x"), false);
});
