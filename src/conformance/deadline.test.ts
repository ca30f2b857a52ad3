import { test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { createManualClock } from "../testing/index.js";
import { openScope } from "./deadline.js";

function reason(signal: AbortSignal): { code: Code; message: string } {
  const e = signal.reason as ConnectError;
  assert.ok(e instanceof ConnectError);
  return { code: e.code, message: e.message };
}

test("a scope aborts with DeadlineExceeded when its time is up, on the injected clock", () => {
  const clock = createManualClock(100);
  const scope = openScope(clock, 10_000);
  assert.equal(scope.deadlineAt, 10_100);
  assert.equal(scope.timeoutMs(), 10_000);
  clock.advance(9_999);
  assert.equal(scope.signal.aborted, false);
  assert.equal(scope.timeoutMs(), 1);
  clock.advance(1);
  assert.deepEqual(reason(scope.signal), { code: Code.DeadlineExceeded, message: "[deadline_exceeded] context deadline exceeded" });
  scope.dispose();
  assert.equal(clock.pendingTimers(), 0);
});

test("a child is clamped to its parent's deadline and aborts with the parent's reason", () => {
  const clock = createManualClock(0);
  const run = openScope(clock, 3_000);
  const probe = openScope(clock, 10_000, run);
  assert.equal(probe.deadlineAt, 3_000);
  assert.equal(probe.timeoutMs(), 3_000);
  clock.advance(3_000);
  assert.equal(probe.signal.aborted, true);
  assert.equal(probe.signal.reason, run.signal.reason);
  probe.dispose();
  run.dispose();
  assert.equal(clock.pendingTimers(), 0);
});

test("a child of an already-aborted parent starts aborted", () => {
  const clock = createManualClock(0);
  const parent = new AbortController();
  parent.abort(new Error("gone"));
  const scope = openScope(clock, 1_000, parent.signal);
  assert.equal(scope.signal.aborted, true);
  assert.equal((scope.signal.reason as Error).message, "gone");
  scope.dispose();
});

test("without a deadline (Infinity) no timer is armed and no timeout goes on the wire", () => {
  const clock = createManualClock(0);
  const scope = openScope(clock, Infinity);
  assert.equal(clock.pendingTimers(), 0);
  assert.equal(scope.timeoutMs(), undefined);
  const child = openScope(clock, 10_000, scope);
  assert.equal(child.timeoutMs(), 10_000);
  child.dispose();
  scope.dispose();
});

test("dispose cancels (Canceled), clears the timer and detaches from the parent; it is idempotent", () => {
  const clock = createManualClock(0);
  const parent = new AbortController();
  const scope = openScope(clock, 5_000, parent.signal);
  scope.dispose();
  scope.dispose();
  assert.deepEqual(reason(scope.signal), { code: Code.Canceled, message: "[canceled] probe finished" });
  assert.equal(clock.pendingTimers(), 0);
  parent.abort(new Error("later"));
  assert.equal((scope.signal.reason as ConnectError).code, Code.Canceled);
});
