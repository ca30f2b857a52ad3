// The retry loop: runtime-tools.md §2.2/§2.4/§2.6 (R1–R9), http.md §3.7 and §4.4 (T11–T16), API.md decision 3.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AbortedError, ErrorCode, TimeoutError } from "../core/index.js";
import type { Clock } from "../core/index.js";
import { createManualClock } from "../testing/index.js";
import { runWithRetry } from "./run-with-retry.js";
import type { AttemptOutcome, RetryEvent, RetryOptions } from "./run-with-retry.js";
import { RetriesExhaustedError } from "./retries-exhausted-error.js";
import { runAttempt } from "./attempt-timeout.js";
import { classifyHttpError, classifyHttpStatus, DEFAULT_HTTP_RETRY_RULES } from "./http-classify.js";

const retryable = (message: string, retryAfterMs?: number): AttemptOutcome<never> =>
  retryAfterMs === undefined
    ? { kind: "failure", error: new Error(message), retryable: true }
    : { kind: "failure", error: new Error(message), retryable: true, retryAfterMs };

/** Runs `runWithRetry` on a manual clock, advancing it until the call settles; records attempt start times. */
async function drive<T>(
  outcomes: (attempt: number) => AttemptOutcome<T> | Promise<AttemptOutcome<T>>,
  options: Omit<RetryOptions, "clock"> & { startMs?: number } = {},
) {
  const clock = createManualClock(options.startMs ?? 0);
  const starts: number[] = [];
  const events: RetryEvent[] = [];
  const promise = runWithRetry(
    ({ attempt }) => {
      starts.push(clock.now() - (options.startMs ?? 0));
      return outcomes(attempt);
    },
    { random: () => 0.5, ...options, clock, onRetry: (e) => events.push(e) },
  );
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 100 && !settled; i++) await clock.advanceAsync(1_000);
  assert.equal(clock.pendingTimers(), 0, "no timer left behind");
  return { result: await promise, starts, events, calls: starts.length };
}

test("R1: max 3, success at once: 1 call, the value returned", async () => {
  const { result, calls } = await drive(() => ({ kind: "success", value: "ok" }), { policy: { maxAttempts: 3 } });
  assert.deepEqual(result, { status: "success", value: "ok", attempts: 1 });
  assert.equal(calls, 1);
});

test("R2: max 5, two retryable failures then success: 3 calls, with 100 ms and 200 ms sleeps (random 0.5)", async () => {
  const { result, starts } = await drive(
    (n): AttemptOutcome<string> => (n < 3 ? retryable(`fail ${n}`) : { kind: "success", value: "third" }),
    { policy: { maxAttempts: 5 } },
  );
  assert.deepEqual(result, { status: "success", value: "third", attempts: 3 });
  assert.deepEqual(starts, [0, 100, 300]);
});

test("R3: max 5, a non-retryable error: 1 call, the original error returned unwrapped", async () => {
  const original = new Error("HTTP 400: bad request");
  const { result, calls } = await drive(() => ({ kind: "failure", error: original, retryable: false }), {
    policy: { maxAttempts: 5 },
  });
  assert.equal(calls, 1);
  assert.equal(result.status, "failure");
  assert.equal(result.status === "failure" && result.error, original);
});

test("R4/T15: max 4, always retryable: 4 calls, `4 attempts exhausted: <last>` with the last error inspectable", async () => {
  const errors: Error[] = [];
  const { result, calls, starts } = await drive(
    (n) => {
      const error = new Error(`HTTP 502: bad gateway #${n}`);
      errors.push(error);
      return { kind: "failure", error, retryable: true };
    },
    { policy: { maxAttempts: 4 } },
  );
  assert.equal(calls, 4);
  assert.deepEqual(starts, [0, 100, 300, 700]); // no sleep after the last attempt
  assert.equal(result.status, "failure");
  const error = result.status === "failure" ? result.error : undefined;
  assert.ok(error instanceof RetriesExhaustedError);
  assert.equal(error.message, "4 attempts exhausted: HTTP 502: bad gateway #4");
  assert.equal(error.code, "ERR_OMNIA_RETRIES_EXHAUSTED");
  assert.equal(error.attempts, 4);
  assert.equal(error.cause, errors[3]);
  assert.equal(error.lastError, errors[3]);
  assert.equal(result.attempts, 4);
});

test("the last attempt's error is wrapped even when it is not retryable (http.md §3.7)", async () => {
  const { result } = await drive(
    (n): AttemptOutcome<never> =>
      n === 1 ? retryable("HTTP 503: busy") : { kind: "failure", error: new Error("HTTP 400: nope"), retryable: false },
    { policy: { maxAttempts: 2 } },
  );
  assert.equal(result.status === "failure" && result.error.message, "2 attempts exhausted: HTTP 400: nope");
});

test("R5/T16: max 10, backoff 200 ms ×1, the caller cancels 20 ms into the sleep: 1 call, AbortedError at once", async () => {
  const clock = createManualClock(0);
  const controller = new AbortController();
  let calls = 0;
  const promise = runWithRetry(
    () => {
      calls++;
      return retryable("HTTP 503");
    },
    { policy: { maxAttempts: 10, initialBackoffMs: 200, backoffMultiplier: 1 }, clock, signal: controller.signal },
  );
  await clock.advanceAsync(20);
  assert.equal(clock.pendingTimers(), 1); // the 200 ms sleep
  controller.abort(new Error("context canceled"));
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof AbortedError);
    assert.equal(e.code, ErrorCode.ABORTED);
    assert.equal(e.message, "retry: the caller's signal aborted");
    assert.equal((e.cause as Error).message, "context canceled");
    return true;
  });
  assert.equal(clock.now(), 20); // rejected without any time passing
  assert.equal(calls, 1);
  assert.equal(clock.pendingTimers(), 0);
});

test("abort during a sleep rejects at once and leaves no live timer (real timers, process.getActiveResourcesInfo)", async () => {
  // systemClock unref()s its timers, which getActiveResourcesInfo() does not list, so this clock keeps them ref'd.
  const realClock: Clock = {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const timer = setTimeout(fn, ms);
      return { clear: () => clearTimeout(timer) };
    },
  };
  const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
  const before = timeouts();
  const controller = new AbortController();
  let calls = 0;
  const promise = runWithRetry(
    () => {
      calls++;
      return retryable("HTTP 503", 30_000);
    },
    { policy: { maxAttempts: 3, maxBackoffMs: 30_000 }, clock: realClock, signal: controller.signal },
  );
  await new Promise((resolve) => setImmediate(resolve)); // let the first attempt fail and the sleep start
  assert.equal(timeouts(), before + 1, "the 30 s backoff timer is live");
  controller.abort();
  await assert.rejects(promise, { code: "ERR_OMNIA_ABORTED" });
  assert.equal(timeouts(), before, "the backoff timer was cleared");
  assert.equal(calls, 1);
});

test("an already-aborted signal rejects before the first attempt", async () => {
  const controller = new AbortController();
  controller.abort();
  let calls = 0;
  await assert.rejects(
    runWithRetry(
      () => {
        calls++;
        return { kind: "success", value: 1 };
      },
      { signal: controller.signal, policy: { maxAttempts: 3 } },
    ),
    { code: "ERR_OMNIA_ABORTED", message: "retry: the caller's signal aborted" },
  );
  assert.equal(calls, 0);
});

test("a failure reported after the caller's signal aborted is an abandon, even on the last attempt", async () => {
  const controller = new AbortController();
  await assert.rejects(
    runWithRetry(
      () => {
        controller.abort();
        return { kind: "failure", error: new Error("socket hang up"), retryable: false };
      },
      { signal: controller.signal, policy: { maxAttempts: 1 } },
    ),
    { code: "ERR_OMNIA_ABORTED", message: "retry: the caller's signal aborted" },
  );
});

test("an abandoned attempt rejects with the attempt's error", async () => {
  const abandon = new AbortedError("attempt: the caller's signal aborted");
  await assert.rejects(
    runWithRetry(() => ({ kind: "abandoned", error: abandon }), { policy: { maxAttempts: 3 } }),
    (e: unknown) => e === abandon,
  );
});

test("R6/T17: max 5, per-attempt timeout 10 ms; attempts 1–2 hang until the timeout, attempt 3 returns: success", async () => {
  const clock = createManualClock(0);
  let calls = 0;
  const promise = runWithRetry(
    async () => {
      calls++;
      const n = calls;
      const settled = await runAttempt(
        (signal) => (n < 3 ? new Promise<string>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))) : "done"),
        { clock, timeoutMs: 10 },
      );
      if (settled.kind === "success") return { kind: "success", value: settled.value };
      assert.equal(settled.kind, "timeout");
      return { kind: "failure", error: settled.error, ...classifyHttpError(settled.error, DEFAULT_HTTP_RETRY_RULES) };
    },
    { policy: { maxAttempts: 5, initialBackoffMs: 1 }, clock, random: () => 0.5 },
  );
  await clock.advanceAsync(100);
  assert.deepEqual(await promise, { status: "success", value: "done", attempts: 3 });
  assert.equal(calls, 3);
  assert.equal(clock.pendingTimers(), 0);
});

test("R7/T14: max 1, a retryable failure: 1 call, the error unwrapped", async () => {
  const original = new Error("HTTP 503: busy");
  const { result, calls } = await drive(() => ({ kind: "failure", error: original, retryable: true }), {
    policy: { maxAttempts: 1 },
  });
  assert.equal(calls, 1);
  assert.equal(result.status === "failure" && result.error, original);
  const noPolicy = await drive(() => ({ kind: "failure", error: original, retryable: true }));
  assert.equal(noPolicy.calls, 1); // no retryPolicy: one attempt
});

test("R8/T13: retryAfter 50 ms with initial 1 ms and max 200 ms: the second attempt starts 50 ms after the first failed", async () => {
  const { result, starts } = await drive(
    (n): AttemptOutcome<string> => (n === 1 ? retryable("HTTP 429", 50) : { kind: "success", value: "ok" }),
    { policy: { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 200 } },
  );
  assert.equal(result.status, "success");
  assert.deepEqual(starts, [0, 50]);
});

test("the exact backoff sequence with a fixed random source (100 ms ×2, max 1 s)", async () => {
  const randoms = [0, 0.25, 0.5, 0.75, 0.999];
  const { result, starts, events } = await drive((n) => retryable(`e${n}`), {
    policy: { maxAttempts: 6, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1_000 },
    random: () => randoms.shift() as number,
  });
  // k=0: 100×0.9=90; k=1: 200×0.95=190; k=2: 400×1.0=400; k=3: 800×1.05=840; k=4: min(1600,1000)×1.0998 → capped 1000.
  assert.deepEqual(
    events.map((e) => [e.attempt, e.delayMs, e.error.message, e.maxAttempts]),
    [
      [1, 90, "e1", 6],
      [2, 190, "e2", 6],
      [3, 400, "e3", 6],
      [4, 840, "e4", 6],
      [5, 1000, "e5", 6],
    ],
  );
  assert.deepEqual(starts, [0, 90, 280, 680, 1520, 2520]);
  assert.equal(result.status === "failure" && result.error.message, "6 attempts exhausted: e6");
});

test("Retry-After in seconds is a floor for the delay (R12: 503 + `Retry-After: 5`, maxBackoff 30 s)", async () => {
  const clock0 = 1_700_000_000_000;
  const { starts } = await drive(
    (n): AttemptOutcome<string> =>
      n === 1
        ? { kind: "failure", error: new Error("HTTP 503: "), ...classifyHttpStatus(503, "5", DEFAULT_HTTP_RETRY_RULES, clock0) }
        : { kind: "success", value: "ok" },
    { policy: { maxAttempts: 3 }, startMs: clock0 },
  );
  assert.deepEqual(starts, [0, 5_000]);
});

test("Retry-After as an HTTP-date is a floor measured on the clock", async () => {
  const clock0 = Date.UTC(2030, 0, 1, 0, 0, 0);
  const { starts } = await drive(
    (n): AttemptOutcome<string> =>
      n === 1
        ? {
            kind: "failure",
            error: new Error("HTTP 429: "),
            ...classifyHttpStatus(429, "Tue, 01 Jan 2030 00:00:10 GMT", DEFAULT_HTTP_RETRY_RULES, clock0),
          }
        : { kind: "success", value: "ok" },
    { policy: { maxAttempts: 3 }, startMs: clock0 },
  );
  assert.deepEqual(starts, [0, 10_000]);
});

test("Retry-After is capped at maxBackoff (R13: `Retry-After: 60` with maxBackoff 2 s)", async () => {
  const { starts } = await drive(
    (n): AttemptOutcome<string> =>
      n === 1
        ? { kind: "failure", error: new Error("HTTP 503: "), ...classifyHttpStatus(503, "60", DEFAULT_HTTP_RETRY_RULES, 0) }
        : { kind: "success", value: "ok" },
    { policy: { maxAttempts: 3, maxBackoffMs: 2_000 } },
  );
  assert.deepEqual(starts, [0, 2_000]);
});

test("a breaker rejection is never retried and never wrapped, on any attempt", async () => {
  const rejection = Object.assign(new Error("circuit breaker [t]: circuit breaker is open"), { code: "ERR_OMNIA_CIRCUIT_OPEN" });
  // As a `rejected` outcome after a retryable failure: returned at once (not "3 attempts exhausted").
  const a = await drive((n): AttemptOutcome<never> => (n === 1 ? retryable("HTTP 503") : { kind: "rejected", error: rejection }), {
    policy: { maxAttempts: 3 },
  });
  assert.deepEqual([a.calls, a.result.status === "failure" && a.result.error], [2, rejection]);
  // Thrown by the attempt (breaker.admit() throwing), on the last attempt: still unwrapped.
  const b = await drive(
    (n): AttemptOutcome<never> => {
      if (n === 1) return retryable("HTTP 503");
      throw rejection;
    },
    { policy: { maxAttempts: 2 } },
  );
  assert.deepEqual([b.calls, b.result.status === "failure" && b.result.error], [2, rejection]);
  // Reported as a retryable failure by mistake: the code still wins.
  const c = await drive(() => ({ kind: "failure", error: rejection, retryable: true }), { policy: { maxAttempts: 3 } });
  assert.deepEqual([c.calls, c.result.status === "failure" && c.result.error], [1, rejection]);
});

test("an attempt function that throws is a non-retryable failure, normalised to an Error", async () => {
  const { result, calls } = await drive(
    () => {
      throw "plain string";
    },
    { policy: { maxAttempts: 3 } },
  );
  assert.equal(calls, 1);
  assert.equal(result.status === "failure" && result.error.message, 'non-error thrown: plain string');
});

test("logs `retry attempt` (debug) and `retries exhausted` (info) with Omnia's fields", async () => {
  const lines: [string, string, unknown][] = [];
  const logger = {
    debug: (m: string, f?: unknown) => lines.push(["debug", m, f]),
    info: (m: string, f?: unknown) => lines.push(["info", m, f]),
    warn: (m: string, f?: unknown) => lines.push(["warn", m, f]),
    error: (m: string, f?: unknown) => lines.push(["error", m, f]),
  };
  await drive((n) => retryable(`boom ${n}`), { policy: { maxAttempts: 2 }, logger });
  assert.deepEqual(lines, [
    ["debug", "retry attempt", { attempt: 1, maxAttempts: 2, delay: 100, error: "boom 1" }],
    ["info", "retries exhausted", { attempts: 2, error: "boom 2" }],
  ]);
});

test("timeouts are retried as network-class errors and their message survives wrapping", async () => {
  const { result } = await drive(() => ({ kind: "failure", error: new TimeoutError(1000), retryable: true }), {
    policy: { maxAttempts: 2 },
  });
  assert.equal(result.status === "failure" && result.error.message, "2 attempts exhausted: timed out after 1000ms");
});
