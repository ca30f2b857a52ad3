// One batch of tool calls (PromptKit executeToolCalls): every call of an
// assistant message, started in call order with at most `limit` in flight,
// results kept by call index. cockatiel's bulkhead is exactly that limiter:
// a call runs at once while fewer than `limit` are active, else it waits in a
// FIFO queue (push/shift) and starts when any active call ends; with an
// unbounded queue it never rejects. One bulkhead per batch, so a round's
// slots are its own.
import { createRequire } from "node:module";
import type * as Cockatiel from "cockatiel";

/** cockatiel, loaded on the first batch with a limit, so that importing the package does not load it (CommonJS: `require` gives the instance `import` would). */
let cockatielModule: typeof Cockatiel | undefined;
function cockatiel(): typeof Cockatiel {
  return (cockatielModule ??= createRequire(import.meta.url)("cockatiel") as typeof Cockatiel);
}

/**
 * Runs `work` for every item, at most `limit` at once (0: no limit), started
 * in item order; resolves with the results in item order. `work` returns its
 * result or a promise of it, and must not throw or reject: each item's failure
 * is its own result.
 * @internal Does not follow semver.
 */
export async function runBatch<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => R | Promise<R>): Promise<R[]> {
  if (limit <= 0 || items.length <= limit) return Promise.all(items.map(work));
  const slots = cockatiel().bulkhead(limit, Number.POSITIVE_INFINITY);
  return Promise.all(items.map((item, index) => slots.execute(() => work(item, index))));
}
