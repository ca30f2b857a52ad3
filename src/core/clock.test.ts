import { test } from "node:test";
import assert from "node:assert/strict";
import { systemClock } from "./clock.js";
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
