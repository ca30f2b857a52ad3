// Per-claim breakers and reachability memory (runtime-tools.md §1.1, B27; seed 004; API.md createConversation).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createManualClock } from "../testing/index.js";
import { createConversation, createReachabilityMemory } from "./conversation.js";
import { CircuitOpenError } from "./circuit-open-error.js";

test("B27: per-claim breakers are independent and vanish on dispose()", () => {
  const clock = createManualClock(0);
  const stream1 = createConversation({ clock });
  const other = createConversation({ clock });
  for (let i = 0; i < 10; i++) {
    clock.advanceTo(i * 1000);
    stream1.breakers.get("c1").admit().failure();
  }
  assert.equal(stream1.breakers.get("c1").state, "open");
  assert.throws(() => stream1.breakers.get("c1").admit(), (e: unknown) => e instanceof CircuitOpenError && e.message === "circuit breaker [c1]: circuit breaker is open");
  // Another claim in the same stream, and another conversation's claim, are unaffected.
  assert.equal(stream1.breakers.get("c2").state, "closed");
  other.breakers.get("c2").admit().success();
  assert.equal(other.breakers.get("c1").state, "closed");

  stream1.dispose();
  assert.equal(stream1.disposed, true);
  assert.equal(stream1.breakers.size, 0);
  assert.deepEqual(stream1.breakers.snapshot(), []);
  assert.throws(() => stream1.breakers.get("c1"), {
    code: "ERR_OMNIA_CLOSED",
    message: "createConversation: used after conversation.dispose()",
  });
  stream1.dispose(); // idempotent

  // The next message's stream starts with a closed breaker for c1.
  const stream2 = createConversation({ clock });
  assert.equal(stream2.breakers.get("c1").state, "closed");
  assert.equal(other.disposed, false);
});

test("per-claim breakers use the 1.9.0 thresholds, overridable like the per-tool ones", () => {
  assert.deepEqual(createConversation().breakers.settings, {
    windowMs: 60_000,
    bucketMs: 1_000,
    minimumCalls: 20,
    failureRatio: 0.5,
    consecutiveFailures: 10,
    openDurationMs: 10_000,
    halfOpenTrials: 5,
  });
  const conversation = createConversation({ clock: createManualClock(0), consecutiveFailures: 2 });
  conversation.breakers.get("c").admit().failure();
  conversation.breakers.get("c").admit().failure();
  assert.equal(conversation.breakers.get("c").state, "open");
  assert.throws(() => createConversation({ sandbox: true } as object), {
    code: "ERR_OMNIA_INVALID_OPTION",
    message:
      'createConversation: unknown option "sandbox"; expected one of windowMs, bucketMs, minimumCalls, failureRatio, consecutiveFailures, openDurationMs, halfOpenTrials, clock, logger, isFailure, reachability',
  });
  assert.throws(() => createConversation({ reachability: {} as never }), {
    message: "createConversation: reachability must be a ReachabilityMemory; got object",
  });
});

test("conversation events come from its own breakers only", () => {
  const clock = createManualClock(0);
  const a = createConversation({ clock, consecutiveFailures: 1 });
  const b = createConversation({ clock, consecutiveFailures: 1 });
  const seen: string[] = [];
  a.breakers.on("break", (e) => seen.push(`a:${e.name}`));
  b.breakers.on("break", (e) => seen.push(`b:${e.name}`));
  b.breakers.get("c9").admit().failure();
  assert.deepEqual(seen, ["b:c9"]);
});

test("reachability memory: proof is remembered per conversation and can be carried to the next stream", () => {
  const stream1 = createConversation();
  assert.equal(stream1.reachability.isProven("c1"), false);
  stream1.reachability.markProven("c1");
  stream1.reachability.markProven("c1");
  assert.equal(stream1.reachability.isProven("c1"), true);
  assert.equal(stream1.reachability.size, 1);
  assert.equal(createConversation().reachability.isProven("c1"), false); // another conversation knows nothing

  stream1.dispose();
  const stream2 = createConversation({ reachability: stream1.reachability });
  assert.equal(stream2.reachability.isProven("c1"), true); // proof outlives the message (seed 004)
  assert.equal(stream2.breakers.get("c1").state, "closed"); // breakers do not

  const session = createReachabilityMemory();
  session.markProven("c2");
  session.forget("c2");
  assert.equal(session.isProven("c2"), false);
  assert.equal(session.size, 0);
});
