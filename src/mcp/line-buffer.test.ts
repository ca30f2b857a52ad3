// The stdio line splitter against the SDK's own ReadBuffer, whose contract it
// keeps: the same messages for every way the bytes can be cut into chunks, the
// same CRLF handling, the same cap and error text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ReadBuffer, deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { installLineBuffer, LineBuffer, type StdioReadBuffer } from "./line-buffer.js";

/** Appends each chunk and reads every message after each, as StdioClientTransport does; parse errors become `error: <message>` entries. */
function drain(buffer: StdioReadBuffer, chunks: readonly Buffer[]): unknown[] {
  const out: unknown[] = [];
  for (const chunk of chunks) {
    try {
      buffer.append(chunk);
    } catch (error) {
      out.push(`append: ${(error as Error).message}`);
      continue;
    }
    for (;;) {
      let message: unknown;
      try {
        message = buffer.readMessage();
      } catch (error) {
        out.push(`error: ${(error as Error).name}`);
        continue;
      }
      if (message === null) break;
      out.push(message);
    }
  }
  return out;
}

const ping = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
const text = `${ping(1)}\n${ping(2)}\r\n${JSON.stringify({ jsonrpc: "2.0", id: 3, result: { s: "héllo → 世界 😀" } })}\nnot json\n\n${ping(4)}\r\n${ping(5)}`;
const bytes = Buffer.from(text, "utf8");

test("LineBuffer: every two-chunk and three-chunk cut gives the SDK ReadBuffer's messages", () => {
  const whole = drain(new ReadBuffer(), [bytes]);
  assert.deepEqual(whole, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: 2, method: "ping" },
    { jsonrpc: "2.0", id: 3, result: { s: "héllo → 世界 😀" } },
    "error: SyntaxError",
    "error: SyntaxError",
    { jsonrpc: "2.0", id: 4, method: "ping" },
  ]);
  for (let i = 0; i <= bytes.length; i++) {
    const two = [bytes.subarray(0, i), bytes.subarray(i)];
    assert.deepEqual(drain(new LineBuffer(1 << 20, deserializeMessage), two), whole, `cut at ${i}`);
    for (let j = i; j <= bytes.length; j += 7) {
      const three = [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)];
      assert.deepEqual(drain(new LineBuffer(1 << 20, deserializeMessage), three), whole, `cut at ${i} and ${j}`);
    }
  }
  // One byte at a time, then the last line's end.
  const single = [...bytes].map((b) => Buffer.from([b]));
  assert.deepEqual(drain(new LineBuffer(1 << 20, deserializeMessage), [...single, Buffer.from("\n")]), [...whole, { jsonrpc: "2.0", id: 5, method: "ping" }]);
});

test("LineBuffer: a CRLF line end loses its CR only; another CR stays in the line (JSON whitespace), as in the SDK's", () => {
  const chunks = [Buffer.from(`${ping(1)}\r`), Buffer.from(`\n{"jsonrpc":"2.0",\r"id":2,"method":"ping"}\r\r\n`)];
  const ours = drain(new LineBuffer(1 << 20, deserializeMessage), chunks);
  assert.deepEqual(ours, drain(new ReadBuffer(), chunks));
  assert.deepEqual(ours, [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "ping" }]);
  const inString = [Buffer.from('{"jsonrpc":"2.0","id":1,"method":"a\rb"}\r\n')];
  assert.deepEqual(drain(new LineBuffer(1 << 20, deserializeMessage), inString), ["error: SyntaxError"]);
  assert.deepEqual(drain(new ReadBuffer(), inString), ["error: SyntaxError"]);
});

test("LineBuffer: the cap counts unread bytes plus the new chunk, throws the SDK's text, drops what it held and reads on", () => {
  const line = Buffer.from(`${ping(1)}\n`);
  assert.equal(line.length, 41);
  const max = 100;
  const cases: Buffer[][] = [
    // 41 + 59 = 100: at the cap, kept.
    [line, Buffer.from("x".repeat(58) + "\n")],
    // 99 unfinished bytes, then 2 more: past the cap.
    [Buffer.from("x".repeat(99)), Buffer.from("yy"), line],
    // A chunk alone larger than the cap.
    [Buffer.from("z".repeat(101)), line],
    // A whole line then an unfinished one in the same chunk: the line read leaves 50 held, 50 more fit, 1 more does not.
    [Buffer.concat([line, Buffer.from("w".repeat(50))]), Buffer.from("w".repeat(50)), Buffer.from("w"), line],
  ];
  const expected = [
    [{ jsonrpc: "2.0", id: 1, method: "ping" }, "error: SyntaxError"],
    ["append: ReadBuffer exceeded maximum size of 100 bytes", { jsonrpc: "2.0", id: 1, method: "ping" }],
    ["append: ReadBuffer exceeded maximum size of 100 bytes", { jsonrpc: "2.0", id: 1, method: "ping" }],
    [{ jsonrpc: "2.0", id: 1, method: "ping" }, "append: ReadBuffer exceeded maximum size of 100 bytes", { jsonrpc: "2.0", id: 1, method: "ping" }],
  ];
  for (const [i, chunks] of cases.entries()) {
    assert.deepEqual(drain(new LineBuffer(max, deserializeMessage), chunks), expected[i], `case ${i}`);
    assert.deepEqual(drain(new ReadBuffer({ maxBufferSize: max }), chunks), expected[i], `SDK, case ${i}`);
  }
});

test("LineBuffer: clear() drops whole and unfinished lines", () => {
  const buffer = new LineBuffer(1 << 20, deserializeMessage);
  buffer.append(Buffer.from(`${ping(1)}\n{"jsonrpc"`));
  buffer.clear();
  buffer.append(Buffer.from(`${ping(2)}\n`));
  assert.deepEqual(buffer.readMessage(), { jsonrpc: "2.0", id: 2, method: "ping" });
  assert.equal(buffer.readMessage(), null);
});

test("installLineBuffer: replaces a read buffer it recognises; leaves anything else alone", () => {
  const sdkLike = { _readBuffer: new ReadBuffer() };
  assert.equal(installLineBuffer(sdkLike, 64, deserializeMessage), true);
  assert.ok(sdkLike._readBuffer instanceof LineBuffer);
  for (const other of [{}, { _readBuffer: undefined }, { _readBuffer: null }, { _readBuffer: { append() {}, clear() {} } }, { _readBuffer: "x" }]) {
    const before = other._readBuffer;
    assert.equal(installLineBuffer(other, 64, deserializeMessage), false);
    assert.equal(other._readBuffer, before);
  }
});
