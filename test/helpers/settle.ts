// Drives a manual clock until a promise settles, so that code sleeping on the
// clock (retry backoff, attempt timeouts) runs without real waiting.
import type { ManualClock } from "../../src/testing/index.js";

export async function settle<T>(promise: Promise<T>, clock: ManualClock, stepMs = 50, maxSteps = 10_000): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => {});
  for (let i = 0; i < maxSteps && !done; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!done) await clock.advanceAsync(stepMs);
  }
  return tracked;
}
