// Circuit breaker throughput (admit + record) and memory per breaker.
// Run alone: node --expose-gc --import tsx bench/breaker.bench.ts [--json]
import { bench, do_not_optimize, run, summary } from "mitata";
import { getHeapStatistics } from "node:v8";
import { createCircuitBreakers } from "../src/breaker/index.js";
import type { Clock } from "../src/core/index.js";

const json = process.argv.includes("--json");
const gc = (globalThis as { gc?: () => void }).gc;

/** A clock whose time the bench moves by hand (no timers are ever armed by a breaker). */
function benchClock(): Clock & { t: number } {
  const clock = {
    t: 0,
    now: () => clock.t,
    setTimeout: () => {
      throw new Error("bench: a breaker armed a timer");
    },
  };
  return clock;
}

// ---- throughput ----
const fastClock = benchClock();
const closed = createCircuitBreakers({ clock: fastClock }).get("t");
const mixedClock = benchClock();
const mixed = createCircuitBreakers({ clock: mixedClock }).get("t");
let n = 0;

summary(() => {
  bench("admit + success (closed, 10,000 calls/s of clock time)", () => {
    fastClock.t += 0.1;
    const ticket = closed.admit();
    ticket.success();
    do_not_optimize(ticket);
  });
  bench("admit + record, 1 failure in 4 (closed)", () => {
    mixedClock.t += 0.1;
    const ticket = mixed.admit();
    if ((++n & 3) === 0) ticket.failure();
    else ticket.success();
    do_not_optimize(ticket);
  });
});

// ---- memory: one breaker (its set included) after 1,000 vs 1,000,000 calls at 10,000 calls/s of clock time ----
function usedHeap(): number {
  gc?.();
  gc?.();
  return getHeapStatistics().used_heap_size;
}

function drive(breaker: ReturnType<ReturnType<typeof createCircuitBreakers>["get"]>, clock: { t: number }, calls: number, offset: number): void {
  for (let i = 0; i < calls; i++) {
    clock.t += 0.1;
    const ticket = breaker.admit();
    if (((i + offset) & 3) === 0) ticket.failure();
    else ticket.success();
  }
}

/**
 * Heap per breaker, averaged over BREAKERS breakers driven in lockstep so that GC and JIT noise
 * (a few KB per measurement) is divided out: after 1,000 calls each, then after 1,000,000 calls each.
 */
const BREAKERS = 64;
function memory(): { after1k: number; after1M: number; growth: number } {
  // Warm up the code path on throwaway breakers so JIT code and feedback are not counted.
  for (let w = 0; w < 2; w++) {
    const warmClock = benchClock();
    drive(createCircuitBreakers({ clock: warmClock }).get("warm"), warmClock, 1_000_000, 0);
  }
  const clocks = Array.from({ length: BREAKERS }, () => benchClock());
  const base = usedHeap();
  const sets = clocks.map((clock) => createCircuitBreakers({ clock }));
  const breakers = sets.map((set) => set.get("t"));
  breakers.forEach((b, i) => drive(b, clocks[i] as { t: number }, 1_000, 0));
  const after1k = (usedHeap() - base) / BREAKERS;
  breakers.forEach((b, i) => drive(b, clocks[i] as { t: number }, 999_000, 1_000));
  const after1M = (usedHeap() - base) / BREAKERS;
  for (const [i, b] of breakers.entries()) {
    if (b.state !== "closed" || (clocks[i] as { t: number }).t < 99_999) throw new Error("bench: unexpected breaker state");
  }
  do_not_optimize(sets);
  return { after1k: Math.round(after1k), after1M: Math.round(after1M), growth: Math.round(after1M - after1k) };
}

const heap = gc === undefined ? undefined : memory();
const results = await run(json ? { format: "quiet" } : { colors: false });
const opsPerSec = (name: string): number => {
  for (const trial of results.benchmarks) {
    for (const r of trial.runs) if (r.name === name && r.stats !== undefined) return Math.round(1e9 / r.stats.avg);
  }
  return Number.NaN;
};
const figures = {
  admitSuccessOpsPerSec: opsPerSec("admit + success (closed, 10,000 calls/s of clock time)"),
  admitRecordMixedOpsPerSec: opsPerSec("admit + record, 1 failure in 4 (closed)"),
  targetOpsPerSec: 5_000_000,
  heapBytesAfter1kCalls: heap?.after1k ?? null,
  heapBytesAfter1MCalls: heap?.after1M ?? null,
  heapGrowthBytes: heap?.growth ?? null,
};
if (json) {
  const summary = [
    { name: "breaker admit + success", value: figures.admitSuccessOpsPerSec, unit: "ops/s", min: 5_000_000 },
    { name: "breaker admit + record (1 failure in 4)", value: figures.admitRecordMixedOpsPerSec, unit: "ops/s", min: 5_000_000 },
    { name: "breaker heap growth, 1k -> 1M calls", value: figures.heapGrowthBytes, unit: `B/breaker (constant; ${figures.heapBytesAfter1MCalls} B after 1M)` },
  ];
  console.log(JSON.stringify({ area: "breaker", ...figures, summary }));
} else {
  console.log(`\nadmit + success: ${figures.admitSuccessOpsPerSec.toLocaleString("en")} ops/s (target >= 5,000,000)`);
  console.log(`admit + record (mixed): ${figures.admitRecordMixedOpsPerSec.toLocaleString("en")} ops/s`);
  if (heap === undefined) console.log("heap: run with --expose-gc to measure");
  else {
    console.log(`heap per breaker (with its set; mean of ${BREAKERS}) after 1,000 calls: ${heap.after1k} B; after 1,000,000 calls: ${heap.after1M} B; growth ${heap.growth} B`);
  }
}
