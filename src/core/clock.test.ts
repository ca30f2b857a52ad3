import { test } from "node:test";
import assert from "node:assert/strict";
import { systemClock, createSystemClock, armTimer, MAX_TIMER_MS } from "./clock.js";
import { noopLogger } from "./logger.js";

test("systemClock timers are unref'd and clearable, and leave no live handle", async () => {
  const before = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
  let fired = false;
  const handle = systemClock.setTimeout(() => {
    fired = true;
  }, 60_000);
  handle.clear();
  handle.clear();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length, before);
  assert.equal(fired, false);
  // The clock's timers are unref'd: a ref'd guard keeps the loop alive while we wait for one.
  const guard = setTimeout(() => {}, 5000);
  const ran = await new Promise<boolean>((resolve) => systemClock.setTimeout(() => resolve(true), 0));
  clearTimeout(guard);
  assert.equal(ran, true);
  assert.ok(Math.abs(systemClock.now() - Date.now()) < 1000);
  assert.ok(Object.isFrozen(systemClock));
});

test("noopLogger accepts every level and returns nothing", () => {
  for (const level of ["debug", "info", "warn", "error"] as const) assert.equal(noopLogger[level]("m", { a: 1 }), undefined);
});

test("a delay above 2^31-1 ms (timeout: 600h) waits in full as a chain of host timers", () => {
  const armed: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const clock = createSystemClock({
    setTimeout: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      armed.push(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const hours600 = 600 * 3600 * 1000; // 2_160_000_000 ms
  let fired = 0;
  clock.setTimeout(() => fired++, hours600);
  assert.deepEqual(armed.map((t) => t.ms), [MAX_TIMER_MS]);
  armed[0]!.fn();
  assert.equal(fired, 0, "the first chunk is not the whole delay");
  assert.deepEqual(armed.map((t) => t.ms), [MAX_TIMER_MS, hours600 - MAX_TIMER_MS]);
  armed[1]!.fn();
  assert.equal(fired, 1);
  // Go's largest duration (2562047h47m16.854775807s) is 4295 chunks: cleared in the middle, nothing more fires.
  armed.length = 0;
  const handle = clock.setTimeout(() => fired++, 9223372036854.775);
  for (let i = 0; i < 3; i++) armed[i]!.fn();
  handle.clear();
  assert.equal(armed[3]!.cleared, true);
  assert.equal(armed.length, 4);
  assert.equal(fired, 1);
  // Infinity never arms; a negative or NaN delay arms 0.
  armed.length = 0;
  clock.setTimeout(() => fired++, Infinity);
  clock.setTimeout(() => fired++, -5);
  clock.setTimeout(() => fired++, Number.NaN);
  assert.deepEqual(armed.map((t) => t.ms), [0, 0]);
});

test("systemClock arms a 600h timer without TimeoutOverflowWarning and does not fire it", async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on("warning", onWarning);
  let fired = false;
  const handle = systemClock.setTimeout(() => {
    fired = true;
  }, 600 * 3600 * 1000);
  // Node warns on an overflowing delay as it arms the timer (emitted on the next tick), and then fires it after 1 ms.
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  handle.clear();
  process.off("warning", onWarning);
  assert.deepEqual(warnings, []);
  assert.equal(fired, false);
});

test("systemClock attempt timers of one duration fire in order, after their delay, and not once cleared", async () => {
  const fired: string[] = [];
  const target = (name: string, armedAt: number) => ({
    handleTimer() {
      // As Node's own timers, which count from the event loop's time at arming (read at the start of its turn).
      assert.ok(performance.now() - armedAt >= 29, `${name} fired after ${performance.now() - armedAt} ms`);
      fired.push(name);
    },
  });
  const first = armTimer(systemClock, target("first", performance.now()), 30);
  const second = armTimer(systemClock, target("second", performance.now()), 30);
  const third = armTimer(systemClock, target("third", performance.now()), 30);
  assert.equal(typeof first.ref, "undefined");
  // The first is cleared: the host timer the three share fires for it, and waits again for the second.
  first.clear();
  first.clear();
  const guard = setTimeout(() => {}, 5000);
  await new Promise<void>((resolve) => armTimer(systemClock, { handleTimer: resolve }, 60));
  clearTimeout(guard);
  assert.deepEqual(fired, ["second", "third"]);
  second.clear(); // fired already: nothing
  third.clear();
  // Cleared before it fires: nothing fires.
  const last = armTimer(systemClock, target("never", performance.now()), 30);
  last.clear();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(fired, ["second", "third"]);
});

test("systemClock attempt timers follow mocked host timers: the queue never reads the time as its host timer fires", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  // The queue stamps each timer with performance.now(), which the mock does not move: pinned, so that real time
  // passing between the armings (a busy machine) cannot make the five due times differ (issue #32 item 12).
  t.mock.method(performance, "now", () => 1_000);
  const fired: string[] = [];
  const first = armTimer(systemClock, { handleTimer: () => fired.push("first") }, 30_000);
  armTimer(systemClock, { handleTimer: () => fired.push("second") }, 30_000);
  const third = armTimer(systemClock, { handleTimer: () => fired.push("third") }, 30_000);
  // A target that clears a later timer stops it, as with timers of their own.
  armTimer(
    systemClock,
    {
      handleTimer: () => {
        fired.push("fourth clears fifth");
        fifth.clear();
      },
    },
    30_000,
  );
  const fifth = armTimer(systemClock, { handleTimer: () => fired.push("fifth") }, 30_000);
  first.clear();
  t.mock.timers.tick(29_000);
  assert.deepEqual(fired, []);
  t.mock.timers.tick(1_100);
  assert.deepEqual(fired, ["second", "third", "fourth clears fifth"]);
  third.clear(); // fired already: nothing
  t.mock.timers.tick(60_000);
  assert.deepEqual(fired, ["second", "third", "fourth clears fifth"]);
});
