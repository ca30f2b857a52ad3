// The 1.9.0 breaker state machine: runtime-tools.md §1.4, §1.6 (ported to 1.9.0 numbers) and §1.7,
// API.md decision 2. Time in the tables is seconds on a manual clock; F = failure, S = non-failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createManualClock } from "../testing/index.js";
import type { ManualClock } from "../testing/index.js";
import { createCircuitBreakers } from "./circuit-breakers.js";
import type { CircuitBreakers, CircuitBreakersOptions } from "./circuit-breakers.js";
import type { BreakerTicket, CircuitBreaker } from "./circuit-breaker.js";
import { CircuitOpenError } from "./circuit-open-error.js";
import type { BreakerEventMap } from "./breaker-events.js";

const OPEN_MESSAGE = "circuit breaker [t]: circuit breaker is open";
const FULL_MESSAGE = "circuit breaker [t]: too many requests";

interface Harness {
  clock: ManualClock;
  breakers: CircuitBreakers;
  b: CircuitBreaker;
  events: string[];
  /** Moves the clock to `s` seconds. */
  at(s: number): void;
  /** One sequential call at `s` seconds with outcome F (failure) or S (success). */
  call(s: number, outcome: "F" | "S"): void;
  /** Sequential calls, one per second from `start`, outcomes from the pattern string. */
  calls(start: number, pattern: string): void;
  /** Admits a call at the current time, expecting a rejection; returns the error. */
  rejected(): CircuitOpenError;
}

function harness(options: CircuitBreakersOptions = {}): Harness {
  const clock = createManualClock(0);
  const breakers = createCircuitBreakers({ clock, ...options });
  const b = breakers.get("t");
  const events: string[] = [];
  breakers.on("break", (e) => events.push(`break@${e.at / 1000}:${e.reason}:${e.failures}/${e.calls}`));
  breakers.on("half-open", (e) => events.push(`half-open@${e.at / 1000}`));
  breakers.on("reset", (e) => events.push(`reset@${e.at / 1000}`));
  const h: Harness = {
    clock,
    breakers,
    b,
    events,
    at: (s) => clock.advanceTo(s * 1000),
    call(s, outcome) {
      h.at(s);
      const ticket = b.admit();
      if (outcome === "F") ticket.failure();
      else ticket.success();
    },
    calls(start, pattern) {
      [...pattern].forEach((o, i) => h.call(start + i, o as "F" | "S"));
    },
    rejected() {
      try {
        b.admit();
      } catch (error) {
        assert.ok(error instanceof CircuitOpenError, `expected a CircuitOpenError, got ${String(error)}`);
        return error;
      }
      assert.fail(`expected a rejection, the breaker (${b.state}) admitted the call`);
    },
  };
  return h;
}

/** B2: F at t=0..9, open after t=9. */
function openedAtNine(): Harness {
  const h = harness();
  h.calls(0, "FFFFFFFFFF");
  assert.equal(h.b.state, "open");
  return h;
}

function assertOpenRejection(error: CircuitOpenError): void {
  assert.equal(error.message, OPEN_MESSAGE);
  assert.equal(error.code, "ERR_OMNIA_CIRCUIT_OPEN");
  assert.equal(error.name, "CircuitOpenError");
  assert.equal(error.state, "open");
  assert.equal(error.toolName, "t");
}

// ---- The scenario list, one test each ----

test("B1/B2: 9 consecutive failures stay closed and the 10th opens", () => {
  const h = harness();
  h.calls(0, "FFFFFFFFF"); // t=0..8
  assert.equal(h.b.state, "closed");
  h.at(8.5);
  h.b.admit().abandon(); // B1: the call at t=8.5 is admitted (abandoned, so it records nothing)
  assert.equal(h.b.state, "closed");
  h.call(9, "F");
  assert.equal(h.b.state, "open");
  assert.deepEqual(h.events, ["break@9:consecutive-failures:10/10"]);
  h.at(10);
  let invoked = 0;
  return h.b
    .execute(() => {
      invoked++;
      return "x";
    })
    .then(
      () => assert.fail("expected a rejection"),
      (error: unknown) => {
        assert.ok(error instanceof CircuitOpenError);
        assertOpenRejection(error);
        assert.equal(invoked, 0);
      },
    );
});

test("B7/B6: 19 calls with 10 failures stay closed, and 20 calls with 10 failures open on that failure", () => {
  const h = harness();
  h.calls(0, "FSFSFSFSFSFSFSFSFSF"); // t=0..18: 19 calls, 10 F, the last one F
  assert.equal(h.b.state, "closed");
  assert.deepEqual(h.b.snapshot(), {
    name: "t",
    state: "closed",
    calls: 19,
    failures: 10,
    consecutiveFailures: 1,
    openedAt: undefined,
    trialsAdmitted: 0,
    trialSuccesses: 0,
  });

  const h2 = harness();
  h2.calls(0, "SFSFSFSFSFSFSFSFSFSF"); // B6: t=0..19, 20 calls, 10 F, the last one F
  assert.equal(h2.b.state, "open");
  assert.deepEqual(h2.events, ["break@19:failure-ratio:10/20"]);
});

test("B10/B11: failures older than 60 s no longer count", () => {
  const h = harness();
  h.calls(0, "FFFFFFFFF"); // t=0..8
  h.call(100, "F");
  assert.equal(h.b.state, "closed"); // B10: the run inside the window is 1
  assert.equal(h.b.snapshot().calls, 1);
  assert.equal(h.b.snapshot().consecutiveFailures, 1);
  h.calls(101, "FFFFFFFF"); // t=101..108
  assert.equal(h.b.state, "closed");
  h.call(109, "F"); // B11: t=100..109, 10 consecutive inside the window
  assert.equal(h.b.state, "open");
  assert.deepEqual(h.events, ["break@109:consecutive-failures:10/10"]);
});

test("window edge: a failure at t=0 counts up to t<60 and is gone at t=60 (60 buckets of 1 s)", () => {
  const inside = harness();
  inside.calls(0, "FFFFFFFFF"); // t=0..8
  inside.call(59.999, "F");
  assert.equal(inside.b.state, "open");

  const outside = harness();
  outside.calls(0, "FFFFFFFFF");
  outside.call(60, "F"); // the bucket of t=0 has expired: 9 in the window
  assert.equal(outside.b.state, "closed");
  assert.equal(outside.b.snapshot().consecutiveFailures, 9);
  assert.equal(outside.b.snapshot().calls, 9);
});

test("B19: open rejects at once without calling the function, and half-open comes only after 10 s", async () => {
  const h = openedAtNine();
  let invoked = 0;
  const fn = () => {
    invoked++;
    return "ran";
  };
  for (const t of [10, 18, 19]) {
    h.at(t); // t=19 is exactly 10 s after opening: still open (gobreaker compares strictly)
    await assert.rejects(h.b.execute(fn), (e: unknown) => e instanceof CircuitOpenError && e.message === OPEN_MESSAGE);
    assert.equal(h.b.state, "open");
  }
  assert.equal(invoked, 0);
  assert.deepEqual(h.events, ["break@9:consecutive-failures:10/10"]);
  h.at(19.001);
  assert.equal(await h.b.execute(fn), "ran");
  assert.equal(invoked, 1);
  assert.equal(h.b.state, "half-open");
  assert.deepEqual(h.events, ["break@9:consecutive-failures:10/10", "half-open@19.001"]);
});

test("B22: half-open admits 5 concurrent trials, rejects the 6th at once, and closes when the 5 succeed", () => {
  const h = openedAtNine();
  h.at(20);
  const trials = Array.from({ length: 5 }, () => h.b.admit());
  assert.equal(h.b.state, "half-open");
  const sixth = h.rejected();
  assert.equal(sixth.message, FULL_MESSAGE);
  assert.equal(sixth.state, "half-open");
  assert.equal(sixth.code, "ERR_OMNIA_CIRCUIT_OPEN");
  assert.deepEqual(
    { admitted: h.b.snapshot().trialsAdmitted, successes: h.b.snapshot().trialSuccesses },
    { admitted: 5, successes: 0 },
  );
  for (const ticket of trials) ticket.success();
  assert.equal(h.b.state, "closed");
  h.b.admit().success(); // calls after that go through normally
  assert.deepEqual(h.events, ["break@9:consecutive-failures:10/10", "half-open@20", "reset@20"]);
});

test("B21: one trial failure reopens at once for another 10 s", () => {
  const h = openedAtNine();
  h.call(20, "S");
  assert.equal(h.b.state, "half-open");
  h.call(20, "F");
  assert.equal(h.b.state, "open");
  assert.equal(h.b.snapshot().openedAt, 20_000);
  h.at(21);
  assertOpenRejection(h.rejected());
  h.at(30); // exactly 10 s: still open
  assertOpenRejection(h.rejected());
  h.at(31);
  h.b.admit(); // admitted as a trial
  assert.equal(h.b.state, "half-open");
  assert.deepEqual(h.events, [
    "break@9:consecutive-failures:10/10",
    "half-open@20",
    "break@20:trial-failure:0/0",
    "half-open@31",
  ]);
});

test("B20: 5 sequential trial successes close the breaker with an empty window", () => {
  const h = openedAtNine();
  h.calls(20, "SSSS"); // t=20..23
  assert.equal(h.b.state, "half-open");
  assert.equal(h.b.snapshot().trialSuccesses, 4);
  h.call(24, "S");
  assert.equal(h.b.state, "closed");
  assert.deepEqual(h.b.snapshot(), {
    name: "t",
    state: "closed",
    calls: 0,
    failures: 0,
    consecutiveFailures: 0,
    openedAt: 9_000,
    trialsAdmitted: 0,
    trialSuccesses: 0,
  });
  h.call(25, "S"); // executes
  h.calls(26, "FFFFFFFFF"); // 9 F right after closing do not open it
  assert.equal(h.b.state, "closed");
  assert.deepEqual(h.events, ["break@9:consecutive-failures:10/10", "half-open@20", "reset@24"]);
});

test("B13: a stream of 4xx-classified results never opens; every call reaches the backend", async () => {
  const h = harness();
  let reached = 0;
  for (let i = 0; i < 15; i++) {
    h.at(i);
    await assert.rejects(
      h.b.execute(() => {
        reached++;
        throw Object.assign(new Error("HTTP 429: slow down"), { status: 429 });
      }),
      { message: "HTTP 429: slow down" },
    );
  }
  assert.equal(reached, 15);
  assert.equal(h.b.state, "closed");
  assert.deepEqual(h.events, []);
  // 4xx outcomes count as successes: they fill the window and break the failure run.
  assert.equal(h.b.snapshot().calls, 15);
  assert.equal(h.b.snapshot().failures, 0);
});

test("abandoned calls never count: not in the window, not breaking the failure run, and they free a trial slot", async () => {
  // Closed: 9 F, one abandoned call, 1 F. The abandoned call is not recorded at all (API.md decision 2),
  // so the run is 10 consecutive failures. (runtime-tools.md B18 recommended "non-failure"; API.md wins.)
  const h = harness();
  h.calls(0, "FFFFFFFFF");
  h.at(9);
  const controller = new AbortController();
  const pending = h.b.execute(
    (signal) =>
      new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason as Error))),
    controller.signal,
  );
  controller.abort(new Error("conversation ended"));
  await assert.rejects(pending, { message: "conversation ended" });
  assert.equal(h.b.state, "closed");
  assert.equal(h.b.snapshot().calls, 9);
  assert.equal(h.b.snapshot().consecutiveFailures, 9);
  h.call(10, "F");
  assert.equal(h.b.state, "open");

  // 40 abandoned calls add nothing to the ratio window.
  const r = harness();
  for (let i = 0; i < 40; i++) r.b.admit().abandon();
  r.calls(0, "SFSFSFSFSFSFSFSFSFS"); // 19 calls, 9 F
  assert.equal(r.b.snapshot().calls, 19);
  r.call(19, "F"); // the 20th recorded call: 10/20
  assert.equal(r.b.state, "open");

  // Half-open: an abandoned trial frees its slot; it neither closes nor reopens the breaker.
  const o = openedAtNine();
  o.at(20);
  const trials = Array.from({ length: 5 }, () => o.b.admit());
  o.rejected();
  trials[0]?.abandon();
  assert.equal(o.b.snapshot().trialsAdmitted, 4);
  const replacement = o.b.admit();
  o.rejected();
  for (const ticket of [...trials.slice(1), replacement]) ticket.success();
  assert.equal(o.b.state, "closed");
});

test("B23: a late result from before a state change is ignored", () => {
  const h = openedAtNine();
  h.at(20);
  const [first, ...rest] = Array.from({ length: 5 }, () => h.b.admit());
  first?.failure();
  assert.equal(h.b.state, "open");
  for (const ticket of rest) ticket.success(); // superseded trials: ignored
  assert.equal(h.b.state, "open");
  h.at(21);
  assertOpenRejection(h.rejected());

  // Calls admitted while closed that finish after the breaker opened are ignored too,
  // including after it went half-open (they must not count as trials).
  const c = harness();
  const lateClosed: BreakerTicket[] = Array.from({ length: 3 }, () => c.b.admit());
  c.calls(0, "FFFFFFFFFF");
  assert.equal(c.b.state, "open");
  lateClosed[0]?.failure();
  c.at(20);
  c.b.admit(); // the first trial: half-open
  lateClosed[1]?.success();
  lateClosed[2]?.failure();
  assert.equal(c.b.state, "half-open");
  assert.equal(c.b.snapshot().trialSuccesses, 0);
  assert.equal(c.b.snapshot().trialsAdmitted, 1);
});

// ---- The rest of runtime-tools.md §1.7 (TARGET) ----

test("B3: F×9, S, F×9 stays closed (the S resets the run; 19 calls)", () => {
  const h = harness();
  h.calls(0, "FFFFFFFFFSFFFFFFFFF");
  assert.equal(h.b.state, "closed");
  assert.equal(h.b.snapshot().calls, 19);
  assert.equal(h.b.snapshot().failures, 18);
  assert.equal(h.b.snapshot().consecutiveFailures, 9);
});

test("B4: B3 then S at t=19 (20 calls, 18 F) stays closed: the trip rules run only on a failure", () => {
  const h = harness();
  h.calls(0, "FFFFFFFFFSFFFFFFFFFS");
  assert.equal(h.b.state, "closed");
  assert.equal(h.b.snapshot().calls, 20);
  assert.equal(h.b.snapshot().failures, 18);
});

test("B5: B4 then F at t=20 (21 calls, 19 F) opens on the ratio", () => {
  const h = harness();
  h.calls(0, "FFFFFFFFFSFFFFFFFFFSF");
  assert.equal(h.b.state, "open");
  assert.deepEqual(h.events, ["break@20:failure-ratio:19/21"]);
});

test("B7: alternating F,S for 19 calls, S at t=19 stays closed, F at t=20 (21 calls, 11 F) opens", () => {
  const h = harness();
  h.calls(0, "FSFSFSFSFSFSFSFSFSF");
  h.call(19, "S");
  assert.equal(h.b.state, "closed");
  h.call(20, "F");
  assert.equal(h.b.state, "open");
  assert.deepEqual(h.events, ["break@20:failure-ratio:11/21"]);
});

test("B8/B9: F,F,S repeated stays closed for 19 calls (max run 2); F at t=19 (20 calls, 14 F) opens", () => {
  const h = harness();
  h.calls(0, "FFSFFSFFSFFSFFSFFSF");
  assert.equal(h.b.state, "closed");
  assert.equal(h.b.snapshot().failures, 13);
  h.call(19, "F");
  assert.equal(h.b.state, "open");
  assert.deepEqual(h.events, ["break@19:failure-ratio:14/20"]);
});

test("B12: 9 F, one HTTP 400, 9 F stays closed (the 400 is a non-failure and resets the run)", async () => {
  const h = harness();
  h.calls(0, "FFFFFFFFF");
  h.at(9);
  await assert.rejects(h.b.execute(() => Promise.reject(Object.assign(new Error("HTTP 400: bad"), { status: 400 }))));
  h.calls(10, "FFFFFFFFF");
  assert.equal(h.b.state, "closed");
  assert.equal(h.b.snapshot().consecutiveFailures, 9);
});

test("B24: in half-open, 4 successes and one HTTP 400 close the breaker", async () => {
  const h = openedAtNine();
  h.calls(20, "SSSS");
  h.at(24);
  await assert.rejects(h.b.execute(() => Promise.reject(Object.assign(new Error("HTTP 400: bad"), { statusCode: 400 }))));
  assert.equal(h.b.state, "closed");
});

test("B25: tool a opened; tool b executes normally", async () => {
  const clock = createManualClock(0);
  const breakers = createCircuitBreakers({ clock });
  for (let i = 0; i < 10; i++) {
    clock.advanceTo(i * 1000);
    breakers.get("a").admit().failure();
  }
  assert.equal(breakers.get("a").state, "open");
  assert.equal(await breakers.get("b").execute(() => "fine"), "fine");
  assert.equal(breakers.get("b").state, "closed");
  await assert.rejects(breakers.get("a").execute(() => "never"), {
    message: "circuit breaker [a]: circuit breaker is open",
  });
});

// ---- runtime-tools.md §1.6 (circuit_breaker_test.go), ported to the 1.9.0 numbers ----

test("S1: a success passes through", async () => {
  const h = harness();
  assert.equal(await h.b.execute(() => "hello"), "hello");
  assert.equal(await h.b.execute(async () => "hello"), "hello");
});

test("S2: an error passes through unchanged", async () => {
  const h = harness();
  const boom = new Error("boom");
  await assert.rejects(
    h.b.execute(() => {
      throw boom;
    }),
    (e: unknown) => e === boom,
  );
  assert.equal(h.b.snapshot().failures, 1);
});

test("S3: after 10 consecutive failures the next call is rejected and fn is not invoked", async () => {
  const h = harness();
  for (let i = 0; i < 10; i++) await assert.rejects(h.b.execute(() => Promise.reject(new Error("dial tcp: connection refused"))));
  let invoked = false;
  await assert.rejects(
    h.b.execute(() => {
      invoked = true;
    }),
    { message: OPEN_MESSAGE, code: "ERR_OMNIA_CIRCUIT_OPEN" },
  );
  assert.equal(invoked, false);
});

test("S4: 9 F, 1 S, 9 F: the next call is executed", async () => {
  const h = harness();
  h.calls(0, "FFFFFFFFFSFFFFFFFFF");
  assert.equal(await h.b.execute(() => "ran"), "ran");
});

test("S5: with the open period overridden to 100 ms, a call 150 ms later is a trial and returns its result", async () => {
  const h = harness({ openDurationMs: 100 });
  for (let i = 0; i < 10; i++) h.b.admit().failure();
  await assert.rejects(h.b.execute(() => "x"), { message: OPEN_MESSAGE });
  h.clock.advance(150);
  assert.equal(await h.b.execute(() => "recovered"), "recovered");
  assert.equal(h.b.state, "half-open"); // 1.9.0: one trial success of 5
  for (let i = 0; i < 4; i++) await h.b.execute(() => "ok");
  assert.equal(h.b.state, "closed");
});

test("S6: 10 tools × 20 concurrent successful calls: no errors", async () => {
  const clock = createManualClock(0);
  const breakers = createCircuitBreakers({ clock });
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) => breakers.get(`tool-${i % 10}`).execute(async () => i)),
  );
  assert.deepEqual(results, Array.from({ length: 200 }, (_, i) => i));
  assert.equal(breakers.size, 10);
  assert.ok(breakers.snapshot().every((s) => s.state === "closed" && s.calls === 20 && s.failures === 0));
});

test("S7: isolation between tools: broken-tool opens, healthy-tool still returns", async () => {
  const breakers = createCircuitBreakers({ clock: createManualClock(0) });
  for (let i = 0; i < 10; i++) await assert.rejects(breakers.get("broken-tool").execute(() => Promise.reject(new Error("HTTP 502: bad gateway"))));
  assert.equal(breakers.get("broken-tool").state, "open");
  assert.equal(await breakers.get("healthy-tool").execute(() => "fine"), "fine");
});

test("S8: default settings are the 1.9.0 numbers", () => {
  assert.deepEqual(createCircuitBreakers().settings, {
    windowMs: 60_000,
    bucketMs: 1_000,
    minimumCalls: 20,
    failureRatio: 0.5,
    consecutiveFailures: 10,
    openDurationMs: 10_000,
    halfOpenTrials: 5,
  });
  assert.ok(Object.isFrozen(createCircuitBreakers().settings));
});

test("S9: 12 client errors (HTTP 400) do not trip: the next call executes", async () => {
  const h = harness();
  const clientError = () => Promise.reject(Object.assign(new Error("HTTP 400: bad request"), { status: 400 }));
  for (let i = 0; i < 12; i++) await assert.rejects(h.b.execute(clientError), { message: "HTTP 400: bad request" });
  assert.equal(await h.b.execute(() => "next"), "next");
});

test("S10: 10 server errors (HTTP 502) trip: the next call is rejected and fn is not called", async () => {
  const h = harness();
  const serverError = () => Promise.reject(Object.assign(new Error("HTTP 502: bad gateway"), { status: 502 }));
  for (let i = 0; i < 10; i++) await assert.rejects(h.b.execute(serverError), { message: "HTTP 502: bad gateway" });
  let called = false;
  await assert.rejects(
    h.b.execute(() => {
      called = true;
    }),
    { message: OPEN_MESSAGE },
  );
  assert.equal(called, false);
});

test("S12: consecutive-failure trip: 0 and 9 stay closed, 10 and 11 open", () => {
  for (const [failures, expected] of [
    [0, "closed"],
    [9, "closed"],
    [10, "open"],
    [11, "open"],
  ] as const) {
    const h = harness();
    for (let i = 0; i < failures; i++) {
      if (h.b.state === "open") break; // an open breaker admits nothing more
      h.call(i, "F");
    }
    assert.equal(h.b.state, expected, `${failures} failures`);
  }
});

// ---- Overrides, tickets, events, snapshot, options ----

test("every threshold is overridable: the 1.3.0 snapshot numbers (5 consecutive, 30 s open, 1 trial)", () => {
  const h = harness({ consecutiveFailures: 5, openDurationMs: 30_000, halfOpenTrials: 1 });
  h.calls(0, "FFFF");
  assert.equal(h.b.state, "closed");
  h.call(4, "F");
  assert.equal(h.b.state, "open");
  h.at(34);
  assertOpenRejection(h.rejected());
  h.at(34.5);
  const trial = h.b.admit();
  assert.equal(h.rejected().message, FULL_MESSAGE);
  trial.success();
  assert.equal(h.b.state, "closed");

  const ratio = harness({ minimumCalls: 4, failureRatio: 0.75, windowMs: 10_000, bucketMs: 2_000 });
  ratio.calls(0, "SFF");
  ratio.call(3, "S"); // evaluated only on failures
  ratio.call(4, "F"); // 3/5 = 0.6 < 0.75
  assert.equal(ratio.b.state, "closed");
  ratio.call(5, "F"); // 4/6 < 0.75
  ratio.call(6, "F"); // window of 10 s in 2 s buckets at t=6: t=0..7.99 holds all 7 calls: 5/7 < 0.75
  assert.equal(ratio.b.state, "closed");
  ratio.call(10, "F"); // window at t=10: buckets 1..5 (t=2..11.99), the t=0 S and t=1 F expired: 5/6 ≥ 0.75
  assert.equal(ratio.b.state, "open");
  assert.deepEqual(ratio.events, ["break@10:failure-ratio:5/6"]);
});

test("a ticket reports once: later reports on the same ticket are ignored", () => {
  const h = harness({ consecutiveFailures: 2 });
  const ticket = h.b.admit();
  ticket.failure();
  ticket.failure();
  ticket.success();
  ticket.abandon();
  assert.equal(h.b.snapshot().failures, 1);
  assert.equal(h.b.snapshot().calls, 1);
  assert.equal(h.b.state, "closed");
});

test("execute: an already-aborted signal rejects with AbortedError without admitting or calling fn", async () => {
  const h = harness();
  const controller = new AbortController();
  controller.abort(new Error("gone"));
  let called = false;
  await assert.rejects(
    h.b.execute(() => {
      called = true;
    }, controller.signal),
    (e: unknown) =>
      e instanceof Error &&
      (e as { code?: string }).code === "ERR_OMNIA_ABORTED" &&
      e.message === "circuit breaker [t]: the caller's signal is aborted" &&
      (e.cause as Error).message === "gone",
  );
  assert.equal(called, false);
  assert.equal(h.b.snapshot().calls, 0);
});

test("execute: isFailure decides how a rejection counts", async () => {
  const h = harness({ isFailure: (e) => (e as Error).message !== "benign" });
  await assert.rejects(h.b.execute(() => Promise.reject(new Error("benign"))));
  await assert.rejects(h.b.execute(() => Promise.reject(new Error("bad"))));
  assert.deepEqual([h.b.snapshot().calls, h.b.snapshot().failures], [2, 1]);
});

test("events: listeners get exact payloads, dispose() unsubscribes, and a throwing listener is logged", () => {
  const clock = createManualClock(0);
  const logged: { message: string; fields: unknown }[] = [];
  const log = (message: string, fields?: unknown) => logged.push({ message, fields });
  const breakers = createCircuitBreakers({
    clock,
    consecutiveFailures: 1,
    logger: { debug: log, info: log, warn: log, error: log },
  });
  const seen: BreakerEventMap[keyof BreakerEventMap][] = [];
  const boom = new Error("listener bug");
  breakers.on("break", () => {
    throw boom;
  });
  const sub = breakers.on("break", (e) => seen.push(e));
  breakers.on("half-open", (e) => seen.push(e));
  breakers.on("reset", (e) => seen.push(e));
  const b = breakers.get("t");
  clock.advanceTo(1_000);
  b.admit().failure();
  assert.equal(b.state, "open"); // the throwing listener did not disturb the transition
  clock.advanceTo(11_001);
  assert.equal(b.state, "half-open"); // reading the state performs the lazy transition
  for (let i = 0; i < 5; i++) b.admit().success();
  sub.dispose();
  sub.dispose();
  clock.advanceTo(12_000);
  b.admit().failure();
  assert.deepEqual(seen, [
    { name: "t", reason: "consecutive-failures", at: 1_000, calls: 1, failures: 1 },
    { name: "t", at: 11_001 },
    { name: "t", at: 11_001 },
  ]);
  assert.deepEqual(logged, [
    { message: "circuit breaker event listener threw", fields: { event: "break", breaker: "t", error: boom } },
    { message: "circuit breaker event listener threw", fields: { event: "break", breaker: "t", error: boom } },
  ]);
});

test("on(): an unknown event name or a non-function listener throws InvalidOptionError", () => {
  const breakers = createCircuitBreakers();
  assert.throws(() => breakers.on("open" as "break", () => {}), {
    code: "ERR_OMNIA_INVALID_OPTION",
    message: 'createCircuitBreakers.on: unknown event "open"; expected one of break, half-open, reset',
  });
  assert.throws(() => breakers.on("break", 5 as unknown as () => void), {
    message: "createCircuitBreakers.on: listener must be a function; got number",
  });
});

test("breakers are created lazily, keyed by name, and never evicted", () => {
  const breakers = createCircuitBreakers({ clock: createManualClock(0) });
  assert.equal(breakers.size, 0);
  assert.equal(breakers.has("t"), false);
  const b = breakers.get("t");
  assert.equal(breakers.get("t"), b);
  assert.equal(b.name, "t");
  assert.equal(breakers.has("t"), true);
  breakers.get("u");
  assert.deepEqual(
    breakers.snapshot().map((s) => s.name),
    ["t", "u"],
  );
  assert.ok(Object.isFrozen(breakers.snapshot()));
});

test("options are validated eagerly with exact messages", () => {
  const cases: [CircuitBreakersOptions, string][] = [
    [{ openTimeout: 5 } as CircuitBreakersOptions, 'createCircuitBreakers: unknown option "openTimeout"; expected one of windowMs, bucketMs, minimumCalls, failureRatio, consecutiveFailures, openDurationMs, halfOpenTrials, clock, logger, isFailure'],
    [{ consecutiveFailures: 0 }, "createCircuitBreakers: consecutiveFailures must be an integer >= 1; got 0"],
    [{ halfOpenTrials: 2.5 }, "createCircuitBreakers: halfOpenTrials must be an integer >= 1; got 2.5"],
    [{ minimumCalls: "20" as unknown as number }, 'createCircuitBreakers: minimumCalls must be an integer >= 1; got "20"'],
    [{ bucketMs: 7_000 }, "createCircuitBreakers: windowMs must be a multiple of bucketMs (7000); got 60000"],
    [{ failureRatio: 0 }, "createCircuitBreakers: failureRatio must be a number in (0, 1]; got 0"],
    [{ failureRatio: 1.5 }, "createCircuitBreakers: failureRatio must be a number in (0, 1]; got 1.5"],
    [{ openDurationMs: -1 }, "createCircuitBreakers: openDurationMs must be a finite number >= 0; got -1"],
    [{ isFailure: true as unknown as () => boolean }, "createCircuitBreakers: isFailure must be a function; got boolean"],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => createCircuitBreakers(options), { code: "ERR_OMNIA_INVALID_OPTION", message });
  }
});

test("no timers: a breaker never arms one, whatever its state", () => {
  const h = openedAtNine();
  h.at(20);
  h.b.admit().success();
  assert.equal(h.clock.pendingTimers(), 0);
});
