// The event meter behind the MCP event-stream cap (issue #31 item 8): the bytes of the event being received, from the
// last blank line, each line end counted once (CRLF is one), the blank line's own end included; whatever the chunking.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SseEventMeter } from "./read-caps.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

test("an event is counted from the last blank line; LF, CR and CRLF each end a line, counted once", () => {
  for (const eol of ["\n", "\r", "\r\n"]) {
    const meter = new SseEventMeter(13);
    // "data: 12345" and its end: 12; the blank line's end: 13, the cap, then the count starts again.
    assert.equal(meter.push(bytes(`data: 12345${eol}${eol}`)), true, JSON.stringify(eol));
    assert.equal(meter.push(bytes(`data: 123456${eol}`)), true, JSON.stringify(eol));
    assert.equal(meter.push(bytes("x")), false, JSON.stringify(eol));
  }
});

test("the verdict does not depend on where the chunks are cut", () => {
  // First event: 9 + 13 + 1 = 23 bytes with its blank line; the second: 17 + 1 = 18.
  const text = "event: m\r\ndata: abcdef\r\n\r\ndata: 0123456789\r\n\r\n";
  for (const [max, fits] of [
    [23, true],
    [22, false],
  ] as const) {
    assert.equal(new SseEventMeter(max).push(bytes(text)), fits, `whole, cap ${max}`);
    for (let cut = 1; cut < text.length; cut++) {
      const meter = new SseEventMeter(max);
      assert.equal(meter.push(bytes(text.slice(0, cut))) && meter.push(bytes(text.slice(cut))), fits, `cap ${max}, cut at ${cut}`);
    }
  }
});
