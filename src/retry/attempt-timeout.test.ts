// Per-attempt timeouts on the injected clock (runtime-tools.md §2.1/§2.5, http.md §3.6, STYLE §3.6, stack.md §4.4).
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { AbortedError, TimeoutError } from "../core/index.js";
import { createManualClock } from "../testing/index.js";
import { runAttempt } from "./attempt-timeout.js";

/** A backend that settles only when its signal aborts (rejecting with the reason). */
const hang = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));

test("success: the value, with the timer cleared and the caller's listener removed", async () => {
  const clock = createManualClock(0);
  const caller = new AbortController();
  const settled = await runAttempt(async () => "ok", { clock, timeoutMs: 30_000, signal: caller.signal });
  assert.deepEqual(settled, { kind: "success", value: "ok" });
  assert.equal(clock.pendingTimers(), 0);
  assert.equal(getEventListeners(caller.signal, "abort").length, 0);
});

test("timeout: a failure whose message is `timed out after <ms>ms`; the attempt's signal aborts with it", async () => {
  const clock = createManualClock(0);
  const caller = new AbortController();
  let inner: AbortSignal | undefined;
  const promise = runAttempt(
    (signal) => {
      inner = signal;
      return hang(signal);
    },
    { clock, timeoutMs: 1_000, signal: caller.signal },
  );
  clock.advance(999);
  assert.equal(inner?.aborted, false);
  clock.advance(1);
  const settled = await promise;
  assert.equal(settled.kind, "timeout");
  assert.ok(settled.error instanceof TimeoutError);
  assert.equal(settled.error.message, "timed out after 1000ms");
  assert.equal(settled.error.code, "ERR_OMNIA_TIMEOUT");
  assert.equal(inner?.aborted, true);
  assert.equal(inner?.reason, settled.error);
  assert.equal(caller.signal.aborted, false); // the caller's own signal is untouched
  assert.equal(getEventListeners(caller.signal, "abort").length, 0);
  assert.equal(clock.pendingTimers(), 0);
});

test("timeout: settles even when the attempt ignores its signal; the late result is dropped", async () => {
  const clock = createManualClock(0);
  let finish: (value: string) => void = () => {};
  const promise = runAttempt(() => new Promise<string>((resolve) => (finish = resolve)), { clock, timeoutMs: 10 });
  clock.advance(10);
  const settled = await promise;
  finish("too late");
  assert.equal(settled.kind, "timeout");
});

test("caller abort: abandoned (not a timeout), at once, with the timer cleared", async () => {
  const clock = createManualClock(0);
  const caller = new AbortController();
  let inner: AbortSignal | undefined;
  const promise = runAttempt(
    (signal) => {
      inner = signal;
      return hang(signal);
    },
    { clock, timeoutMs: 30_000, signal: caller.signal },
  );
  clock.advance(5);
  const reason = new Error("conversation ended");
  caller.abort(reason);
  const settled = await promise;
  assert.equal(settled.kind, "abandoned");
  assert.ok(settled.error instanceof AbortedError);
  assert.equal(settled.error.message, "attempt: the caller's signal aborted");
  assert.equal(settled.error.code, "ERR_OMNIA_ABORTED");
  assert.equal(settled.error.cause, reason);
  assert.equal(inner?.reason, reason); // the backend sees the caller's reason
  assert.equal(clock.pendingTimers(), 0);
});

test("abandoned is decided by the caller's signal, never by the error type", async () => {
  const clock = createManualClock(0);
  const caller = new AbortController();
  const settled = await runAttempt(
    async () => {
      caller.abort();
      throw new Error("ECONNRESET"); // looks like a network failure, but the caller left first
    },
    { clock, timeoutMs: 100, signal: caller.signal },
  );
  assert.equal(settled.kind, "abandoned");

  const already = new AbortController();
  already.abort();
  let called = false;
  const before = await runAttempt(
    () => {
      called = true;
      return 1;
    },
    { clock, signal: already.signal },
  );
  assert.equal(before.kind, "abandoned");
  assert.equal(called, false);
  assert.equal(clock.pendingTimers(), 0);
});

test("error: a rejection or a synchronous throw of the attempt, normalised to an Error", async () => {
  const clock = createManualClock(0);
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
  assert.deepEqual(await runAttempt(() => Promise.reject(refused), { clock, timeoutMs: 100 }), { kind: "error", error: refused });
  const sync = await runAttempt(
    () => {
      throw "bad url";
    },
    { clock, timeoutMs: 100 },
  );
  assert.equal(sync.kind === "error" && sync.error.message, "non-error thrown: bad url");
  assert.equal(clock.pendingTimers(), 0);
});

test("no timeout (0, absent or Infinity) arms no timer", async () => {
  const clock = createManualClock(0);
  for (const timeoutMs of [0, undefined, Number.POSITIVE_INFINITY, -5]) {
    let resolveIt: (v: number) => void = () => {};
    const promise = runAttempt(() => new Promise<number>((r) => (resolveIt = r)), timeoutMs === undefined ? { clock } : { clock, timeoutMs });
    assert.equal(clock.pendingTimers(), 0);
    resolveIt(7);
    assert.deepEqual(await promise, { kind: "success", value: 7 });
  }
});
