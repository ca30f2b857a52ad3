// The bucketed window against an unbounded reference model (runtime-tools.md §1.2 rule; API.md decision 2).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createManualClock } from "../testing/index.js";
import { createCircuitBreakers } from "./circuit-breakers.js";

interface Event {
  readonly gapMs: number;
  readonly failed: boolean;
}

/** Reference: keeps every event; opens exactly when the spec's rules say, evaluated on failures only. */
function referenceOpensAt(events: readonly Event[], bucketMs: number, buckets: number): number | undefined {
  const log: { t: number; failed: boolean }[] = [];
  let now = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as Event;
    now += e.gapMs;
    log.push({ t: now, failed: e.failed });
    if (!e.failed) continue;
    const head = Math.floor(now / bucketMs);
    const inWindow = (t: number) => Math.floor(t / bucketMs) > head - buckets;
    const windowed = log.filter((x) => inWindow(x.t));
    const failures = windowed.filter((x) => x.failed).length;
    let run = 0;
    for (let k = log.length - 1; k >= 0; k--) {
      const x = log[k] as { t: number; failed: boolean };
      if (!x.failed || !inWindow(x.t)) break;
      run++;
    }
    if (run >= 10 || (windowed.length >= 20 && failures / windowed.length >= 0.5)) return i;
  }
  return undefined;
}

test("property: the bucketed breaker opens on exactly the call the unbounded reference model does", () => {
  const event = fc.record({
    gapMs: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 70_000 })),
    failed: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(event, { maxLength: 120 }), (events) => {
      const clock = createManualClock(0);
      const b = createCircuitBreakers({ clock }).get("t");
      let openedAt: number | undefined;
      for (let i = 0; i < events.length; i++) {
        const e = events[i] as Event;
        clock.advance(e.gapMs);
        const ticket = b.admit();
        if (e.failed) ticket.failure();
        else ticket.success();
        if (b.state === "open") {
          openedAt = i;
          break;
        }
      }
      assert.equal(openedAt, referenceOpensAt(events, 1_000, 60));
    }),
    { numRuns: 1_000 },
  );
});

test("memory is fixed: a million calls in a breaker leave the same counters a full window holds", () => {
  const clock = createManualClock(0);
  const b = createCircuitBreakers({ clock }).get("t");
  for (let i = 0; i < 1_000_000; i++) {
    if (i % 10 === 0) clock.advance(1); // 10 calls per ms: 10,000 calls/s of clock time
    b.admit().success();
  }
  // The last call is at t=100,000 ms. The window is buckets 41..100: 59 full one-second buckets
  // of 10,000 calls plus the 10 calls of bucket 100.
  const snap = b.snapshot();
  assert.equal(clock.now(), 100_000);
  assert.equal(snap.state, "closed");
  assert.equal(snap.calls, 590_010);
});
