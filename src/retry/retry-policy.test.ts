// Policy defaults/validation and the backoff formula: http.md §1.4, §3.7, §4.4 (T11, T12); runtime-tools.md §2.4 (R9).
import { test } from "node:test";
import assert from "node:assert/strict";
import { computeBackoffDelay } from "./backoff.js";
import { createRetryPolicy } from "./retry-policy.js";
import type { RetryPolicyOptions } from "./retry-policy.js";

test("defaults: one attempt, 100 ms, ×2, 30 s; frozen, and a normalised policy passes through", () => {
  const policy = createRetryPolicy();
  assert.deepEqual(policy, { maxAttempts: 1, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 30_000 });
  assert.ok(Object.isFrozen(policy));
  assert.equal(createRetryPolicy(policy), policy);
  assert.deepEqual(createRetryPolicy({ maxAttempts: 3 }), { maxAttempts: 3, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 30_000 });
  assert.deepEqual(createRetryPolicy({ maxAttempts: 2, initialBackoffMs: 0, maxBackoffMs: 0 }).maxBackoffMs, 0);
});

test("validation messages", () => {
  const cases: [RetryPolicyOptions, string][] = [
    [{ maxAttempts: 0 }, "createRetryPolicy: maxAttempts must be an integer >= 1; got 0"],
    [{ maxAttempts: 2.5 }, "createRetryPolicy: maxAttempts must be an integer >= 1; got 2.5"],
    [{ initialBackoffMs: -1 }, "createRetryPolicy: initialBackoffMs must be a finite number >= 0; got -1"],
    [{ backoffMultiplier: 0.5 }, "createRetryPolicy: backoffMultiplier must be a finite number >= 1; got 0.5"],
    [{ backoffMultiplier: "2.0" as unknown as number }, 'createRetryPolicy: backoffMultiplier must be a finite number >= 1; got "2.0"'],
    [{ initialBackoffMs: 10_000, maxBackoffMs: 1_000 }, "createRetryPolicy: maxBackoffMs must be a finite number >= initialBackoffMs (10000); got 1000"],
    [{ retries: 3 } as RetryPolicyOptions, 'createRetryPolicy: unknown option "retries"; expected one of maxAttempts, initialBackoffMs, backoffMultiplier, maxBackoffMs'],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => createRetryPolicy(options), { code: "ERR_OMNIA_INVALID_OPTION", message });
  }
});

test("R9/T11: 100 ms ×2 (max 10 s): k=0..3 within ±10 % of 100/200/400/800 ms; k=100 never above 10 s", () => {
  const policy = createRetryPolicy({ maxAttempts: 5, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 10_000 });
  assert.deepEqual([0, 1, 2, 3].map((k) => computeBackoffDelay(policy, k, 0)), [90, 180, 360, 720]);
  assert.deepEqual([0, 1, 2, 3].map((k) => computeBackoffDelay(policy, k, 0.5)), [100, 200, 400, 800]);
  assert.deepEqual([0, 1, 2, 3].map((k) => computeBackoffDelay(policy, k, 0.999_999)), [110, 220, 440, 880]);
  assert.equal(computeBackoffDelay(policy, 100, 0), 9_000); // the base is capped first, then jittered
  assert.equal(computeBackoffDelay(policy, 100, 0.999_999), 10_000); // jitter never pushes it above the cap
  assert.equal(computeBackoffDelay(policy, 2_000, 0.5), 10_000); // multiplier^k = Infinity is still capped
});

test("T12: 100 ms ×2, max 1 s: attempts 4 and 5 in [0.9 s, 1 s]; Retry-After 3 s gives exactly 1 s; 500 ms at k=0 gives 500 ms", () => {
  const policy = createRetryPolicy({ maxAttempts: 10, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1_000 });
  for (const k of [4, 5]) {
    assert.equal(computeBackoffDelay(policy, k, 0), 900);
    assert.equal(computeBackoffDelay(policy, k, 0.999_999), 1_000);
  }
  assert.equal(computeBackoffDelay(policy, 0, 0.5, 3_000), 1_000);
  assert.equal(computeBackoffDelay(policy, 0, 0.5, 500), 500);
  assert.equal(computeBackoffDelay(policy, 0, 0.5, -5_000), 100); // a negative Retry-After has no effect
});

test("zero backoffs give a delay of 0", () => {
  const policy = createRetryPolicy({ maxAttempts: 3, initialBackoffMs: 0, maxBackoffMs: 0 });
  assert.equal(computeBackoffDelay(policy, 0, 0.7), 0);
  assert.equal(computeBackoffDelay(policy, 5_000, 0.7), 0);
});
