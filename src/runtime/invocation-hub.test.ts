import { test } from "node:test";
import assert from "node:assert/strict";
import { InvocationHub } from "./invocation-hub.js";
import type { InvocationEvent } from "./types.js";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";

async function collect(it: AsyncIterable<InvocationEvent>): Promise<InvocationEvent[]> {
  const out: InvocationEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test("hub: events reach the watcher in publish order, then it ends when the invocation finishes", async () => {
  const hub = new InvocationHub(createCaptureLogger());
  const w = hub.watch("inv-1");
  const run = hub.start("inv-1");
  run.events.toolCall({ callId: "c1", name: "lookup" });
  run.events.toolResult({ callId: "c1", name: "lookup", ok: true, durationMs: 12.4 });
  run.events.publish({ type: "tool_call", callId: "c2", name: "pay" });
  run.events.publish({ type: "tool_result", callId: "c2", name: "pay", ok: false, durationMs: 3 });
  run.finish();
  run.events.toolCall({ callId: "late", name: "x" }); // after finish: dropped
  assert.deepEqual(await collect(w.events(new AbortController().signal)), [
    { type: "tool_call", callId: "c1", name: "lookup" },
    { type: "tool_result", callId: "c1", name: "lookup", ok: true, durationMs: 12 },
    { type: "tool_call", callId: "c2", name: "pay" },
    { type: "tool_result", callId: "c2", name: "pay", ok: false, durationMs: 3 },
  ]);
  hub.unwatch(w);
});

test("hub: a watcher of an already finished invocation ends at once; other ids see nothing", async () => {
  const hub = new InvocationHub(createCaptureLogger());
  const other = hub.watch("inv-2");
  const run = hub.start("inv-1");
  run.events.toolCall({ callId: "c1", name: "lookup" });
  run.finish();
  assert.deepEqual(await collect(hub.watch("inv-1").events(new AbortController().signal)), []);
  const ac = new AbortController();
  const pending = collect(other.events(ac.signal));
  ac.abort();
  assert.deepEqual(await pending, []);
});

test("hub: a watcher more than 1024 events behind drops new ones and the loss is logged", async () => {
  const logger = createCaptureLogger();
  const hub = new InvocationHub(logger);
  const w = hub.watch("inv-1");
  const run = hub.start("inv-1");
  for (let i = 0; i < 1030; i++) run.events.toolCall({ callId: `c${i}`, name: "t" });
  run.finish();
  const events = await collect(w.events(new AbortController().signal));
  assert.equal(events.length, 1024);
  assert.deepEqual(events.at(-1), { type: "tool_call", callId: "c1023", name: "t" });
  hub.unwatch(w);
  assert.deepEqual(logger.lines, [
    { level: "warn", message: "runtime: a WatchInvocation watcher fell behind and missed events", fields: { invocationId: "inv-1", dropped: 6 } },
  ]);
});
