import { test } from "node:test";
import assert from "node:assert/strict";
import { createManualClock } from "./manual-clock.js";

test("advance fires due timers in due-time order, ties in arming order", () => {
  const clock = createManualClock(1000);
  const fired: string[] = [];
  clock.setTimeout(() => fired.push(`c@${clock.now()}`), 30);
  clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
  clock.setTimeout(() => fired.push(`b@${clock.now()}`), 10);
  clock.setTimeout(() => fired.push(`late@${clock.now()}`), 31);
  assert.equal(clock.now(), 1000);
  clock.advance(30);
  assert.deepEqual(fired, ["a@1010", "b@1010", "c@1030"]);
  assert.equal(clock.now(), 1030);
  assert.equal(clock.pendingTimers(), 1);
  clock.advance(1);
  assert.deepEqual(fired.at(-1), "late@1031");
  assert.equal(clock.pendingTimers(), 0);
});

test("clear cancels a timer, and a timer armed while firing fires within the same advance", () => {
  const clock = createManualClock();
  const fired: number[] = [];
  const h = clock.setTimeout(() => fired.push(-1), 5);
  h.clear();
  h.clear();
  clock.setTimeout(() => {
    fired.push(clock.now());
    clock.setTimeout(() => fired.push(clock.now()), 5);
  }, 5);
  clock.advance(10);
  assert.deepEqual(fired, [5, 10]);
  assert.equal(clock.pendingTimers(), 0);
});

test("advanceTo never goes backwards and advance rejects a negative step", () => {
  const clock = createManualClock(50);
  clock.advanceTo(10);
  assert.equal(clock.now(), 50);
  assert.throws(() => clock.advance(-1), /manual clock: advance needs a finite, non-negative ms; got -1/);
});

test("advanceAsync lets promise continuations run between timers", async () => {
  const clock = createManualClock();
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
  const seen: number[] = [];
  const run = (async () => {
    await sleep(10);
    seen.push(clock.now());
    await sleep(10); // armed only after the first sleep resolved
    seen.push(clock.now());
  })();
  await clock.advanceAsync(20);
  await run;
  assert.deepEqual(seen, [10, 20]);
});
