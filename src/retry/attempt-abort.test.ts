import { test } from "node:test";
import assert from "node:assert/strict";
import { AttemptAbort, abortHookOf } from "./attempt-abort.js";

test("AttemptAbort: the listener runs once with the reason; later aborts change nothing", () => {
  const abort = new AttemptAbort();
  const seen: unknown[] = [];
  abort.onAbort((reason) => seen.push(reason));
  const reason = new Error("first");
  abort.abort(reason);
  abort.abort(new Error("second"));
  assert.deepEqual(seen, [reason]);
  assert.equal(abort.aborted, true);
  assert.equal(abort.reason, reason);
});

test("AttemptAbort: a listener set after the abort runs at once; a replaced or removed one never runs", () => {
  const abort = new AttemptAbort();
  const seen: string[] = [];
  abort.onAbort(() => seen.push("replaced"));
  abort.onAbort(() => seen.push("current"));
  abort.abort("why");
  abort.onAbort((reason) => seen.push(`late ${String(reason)}`));
  assert.deepEqual(seen, ["current", "late why"]);

  const removed = new AttemptAbort();
  removed.onAbort(() => seen.push("removed"));
  removed.onAbort(undefined);
  removed.abort("x");
  assert.deepEqual(seen, ["current", "late why"]);
});

test("AttemptAbort.signal: a real AbortSignal that follows the attempt, before or after the abort", () => {
  const early = new AttemptAbort();
  const signal = early.signal;
  assert.equal(signal, early.signal); // one controller
  assert.equal(signal.aborted, false);
  const reason = new Error("timeout");
  early.abort(reason);
  assert.equal(signal.aborted, true);
  assert.equal(signal.reason, reason);

  const late = new AttemptAbort();
  late.abort(reason);
  assert.equal(late.signal.aborted, true);
  assert.equal(late.signal.reason, reason);
});

test("abortHookOf: follows a real signal and removes its listener when replaced", () => {
  const controller = new AbortController();
  const hook = abortHookOf(controller.signal);
  const seen: unknown[] = [];
  hook.onAbort(() => seen.push("removed"));
  hook.onAbort(undefined);
  hook.onAbort((reason) => seen.push(reason));
  assert.equal(hook.aborted, false);
  controller.abort("stop");
  assert.deepEqual(seen, ["stop"]);
  assert.equal(hook.aborted, true);
  assert.equal(hook.reason, "stop");
  hook.onAbort((reason) => seen.push(`late ${String(reason)}`));
  assert.deepEqual(seen, ["stop", "late stop"]);
});
