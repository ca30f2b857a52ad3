// Every format, truncation and client case of test/fixtures/promptkit-format.json
// (PromptKit's stage and the SDK's client path run under Go), then the size
// limit's edges and hostile input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { goJsonString } from "../core/index.js";
import { interpretHttpResponse } from "../http/index.js";
import { DEFAULT_MAX_RESULT_BYTES } from "./create-turn.js";
import { MAX_FORMATTED_BYTES, formatToolResult, limitResultSize, reencodeClientResult, renderToolResult } from "./format.js";

interface FormatCase {
  readonly id: string;
  readonly note?: string;
  readonly template?: string;
  readonly result: string;
  readonly content: string;
  readonly httpContent?: string;
}

interface TruncationCase extends FormatCase {
  readonly limit: number;
  readonly wire: string;
  readonly contentBytesBase64?: string;
}

interface ClientCase {
  readonly id: string;
  readonly note?: string;
  readonly template?: string;
  readonly resultJson?: string;
  readonly rejected?: boolean;
  readonly reason?: string;
  readonly content: string;
}

const vectors = JSON.parse(readFileSync("test/fixtures/promptkit-format.json", "utf8")) as {
  format: FormatCase[];
  truncation: TruncationCase[];
  client: ClientCase[];
};

/** The executor's result text when `body` is an HTTP 2xx body through Omnia's executor. */
function httpResult(body: string): string {
  const interpreted = interpretHttpResponse({}, 200, new TextEncoder().encode(body));
  assert.equal(interpreted.status, "success");
  return interpreted.status === "success" ? interpreted.resultJson : "";
}

/** Go's reading of bytes as a string: each byte of an invalid or cut sequence is one U+FFFD. */
function goDecode(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    let ok = need >= 0 && i + need < bytes.length + (need === 0 ? 1 : 0);
    for (let k = 1; ok && k <= need; k++) ok = ((bytes[i + k] as number) & 0xc0) === 0x80;
    if (!ok) {
      out += "\ufffd";
      i++;
      continue;
    }
    out += Buffer.from(bytes.subarray(i, i + need + 1)).toString("utf8");
    i += need + 1;
  }
  return out;
}

const notice = (size: number, limit: number): string => `\n... [truncated, ${size} bytes exceeded limit of ${limit} bytes]`;

for (const c of vectors.format) {
  test(`${c.id}: ${c.note ?? c.template ?? ""}`, () => {
    assert.equal(formatToolResult(c.result), c.content);
    assert.equal(formatToolResult(httpResult(c.result)), c.httpContent ?? c.content);
    // Under the default 1 MiB limit nothing here is cut.
    assert.deepEqual(renderToolResult(c.result, DEFAULT_MAX_RESULT_BYTES), { content: c.content, truncated: false, originalBytes: Buffer.byteLength(c.content) });
  });
}

for (const c of vectors.truncation) {
  test(`${c.id}: ${c.note ?? c.template ?? ""} (limit ${c.limit})`, () => {
    const formatted = formatToolResult(c.result);
    const limited = limitResultSize(formatted, c.limit);
    assert.equal(limited.content, c.content);
    const size = Buffer.byteLength(formatted);
    assert.deepEqual(limited, { content: c.content, truncated: size > c.limit, originalBytes: size });
    assert.deepEqual(renderToolResult(c.result, c.limit), limited);
    const http = httpResult(c.result);
    assert.equal(limitResultSize(formatToolResult(http), c.limit).content, c.httpContent ?? c.content);
    assert.deepEqual(renderToolResult(http, c.limit).content, c.httpContent ?? c.content);
    // The wire literal decodes to the content, and is Go's encoding of it but for the
    // replaced bytes, which Go writes as \ufffd escapes.
    assert.equal(JSON.parse(c.wire), c.content);
    assert.equal(c.wire.replace(/(?<!\\)((?:\\\\)*)\\ufffd/g, "$1\ufffd"), goJsonString(c.content));
    // The Go string's bytes: the formatted text's first `limit` bytes, then the notice.
    if (c.contentBytesBase64 !== undefined) {
      const goBytes = Buffer.from(c.contentBytesBase64, "base64");
      const ours = Buffer.concat([Buffer.from(formatted).subarray(0, c.limit), Buffer.from(notice(size, c.limit))]);
      assert.deepEqual(ours, goBytes);
      assert.equal(goDecode(goBytes), c.content);
    }
  });
}

for (const c of vectors.client) {
  if (c.rejected === true) continue; // `Tool rejected: <reason>` is the turn's text, tested with the turn
  test(`${c.id}: ${c.note ?? c.template ?? ""}`, () => {
    assert.equal(reencodeClientResult(c.resultJson ?? ""), c.content);
  });
}

test("the vector file's counts: 208 format, 66 truncation, 83 client cases (12 of them rejections)", () => {
  assert.equal(vectors.format.length, 208);
  assert.equal(vectors.truncation.length, 66);
  assert.equal(vectors.client.length, 83);
  assert.equal(vectors.client.filter((c) => c.rejected === true).length, 12);
});

test("P11: a formatted text of 1,048,579 bytes ending in a 3-byte character loses it whole at the 1 MiB limit", () => {
  const text = `${"a".repeat(1_048_576)}€`;
  const want = { content: `${"a".repeat(1_048_576)}${notice(1_048_579, 1_048_576)}`, truncated: true, originalBytes: 1_048_579 };
  assert.deepEqual(limitResultSize(text, DEFAULT_MAX_RESULT_BYTES), want);
  assert.deepEqual(renderToolResult(JSON.stringify(text), DEFAULT_MAX_RESULT_BYTES), want);
});

test("limit 0 or below is no limit; a fractional limit counts whole bytes", () => {
  assert.deepEqual(limitResultSize("abcdef", 0), { content: "abcdef", truncated: false, originalBytes: 6 });
  assert.deepEqual(limitResultSize("abcdef", -1), { content: "abcdef", truncated: false, originalBytes: 6 });
  assert.deepEqual(limitResultSize("abcdef", 3.9), { content: `abc${notice(6, 3)}`, truncated: true, originalBytes: 6 });
  assert.deepEqual(renderToolResult('{"a":1}', 0), { content: '{\n  "a": 1\n}', truncated: false, originalBytes: 12 });
});

test("a lone surrogate counts as the three bytes of U+FFFD; a cut through it leaves one U+FFFD per byte", () => {
  assert.deepEqual(limitResultSize("a\ud800b", 3), { content: `a\ufffd\ufffd${notice(5, 3)}`, truncated: true, originalBytes: 5 });
  assert.deepEqual(limitResultSize("a\udc00\ud83d\ude00", 8), { content: "a\udc00\ud83d\ude00", truncated: false, originalBytes: 8 });
});

test("what Go's decoder rejects is shown unchanged: nesting past 10000 levels; at 10000 it is pretty-printed", () => {
  const deep = `${"[".repeat(10001)}${"]".repeat(10001)}`;
  assert.equal(formatToolResult(deep), deep);
  assert.equal(reencodeClientResult(deep), JSON.stringify(deep));
  const limit = `${"[".repeat(10000)}${"]".repeat(10000)}`;
  assert.equal(reencodeClientResult(limit), limit);
  const small = formatToolResult("[[[]]]");
  assert.equal(small, "[\n  [\n    []\n  ]\n]");
});

test("hostile expansion: 10000 levels of nesting pretty-print to ~200 MB; the limited render counts them exactly without building them", () => {
  const depth = 10000;
  const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
  // Lines: "[" at depth 0 … depth-2, "[]" at depth-1, then the closing "]" lines.
  let size = 0;
  for (let d = 0; d < depth - 1; d++) size += 2 * d + 1 + 1; // indentation, "[", newline
  size += 2 * (depth - 1) + 2; // the innermost "[]"
  for (let d = depth - 2; d >= 0; d--) size += 1 + 2 * d + 1; // newline, indentation, "]"
  const got = renderToolResult(text, DEFAULT_MAX_RESULT_BYTES);
  assert.equal(got.originalBytes, size);
  assert.equal(got.truncated, true);
  assert.ok(got.content.endsWith(notice(size, DEFAULT_MAX_RESULT_BYTES)));
  assert.equal(Buffer.byteLength(got.content), DEFAULT_MAX_RESULT_BYTES + notice(size, DEFAULT_MAX_RESULT_BYTES).length);
  let expectedHead = "";
  for (let d = 0; expectedHead.length < DEFAULT_MAX_RESULT_BYTES; d++) expectedHead += `${d === 0 ? "" : `\n${"  ".repeat(d)}`}[`;
  assert.equal(got.content.slice(0, DEFAULT_MAX_RESULT_BYTES), expectedHead.slice(0, DEFAULT_MAX_RESULT_BYTES));
});

test("with no limit, a formatted text past 256 MiB is cut there, with the notice", () => {
  // Two copies of 10000-deep nesting format to ~400 MB: only the first 256 MiB are built.
  const one = `${"[".repeat(9999)}${"]".repeat(9999)}`;
  const text = `[${one},${one}]`;
  const got = renderToolResult(text, 0);
  assert.equal(got.truncated, true);
  assert.ok(got.originalBytes > 399_000_000 && got.originalBytes < 401_000_000, String(got.originalBytes));
  assert.ok(got.content.endsWith(notice(got.originalBytes, MAX_FORMATTED_BYTES)));
  assert.equal(got.content.length, MAX_FORMATTED_BYTES + notice(got.originalBytes, MAX_FORMATTED_BYTES).length);
});

test("10 MB results: a bare string, an object holding one, text that is not JSON, a client result", () => {
  const big = "é<".repeat(3_500_000); // 10.5 MB of UTF-8
  const asString = renderToolResult(JSON.stringify(big), DEFAULT_MAX_RESULT_BYTES);
  assert.equal(asString.originalBytes, 10_500_000);
  // 349525 pairs are 1048575 bytes; the next é is cut after its first byte.
  assert.equal(asString.content, `${"é<".repeat(349_525)}\ufffd${notice(10_500_000, DEFAULT_MAX_RESULT_BYTES)}`);
  const inObject = renderToolResult(JSON.stringify({ k: big }), DEFAULT_MAX_RESULT_BYTES);
  // {, newline and indent, "k", ": ", the quotes, é and \u003c per pair, newline, }.
  assert.equal(inObject.originalBytes, 1 + 3 + 3 + 2 + 2 + 3_500_000 * 8 + 1 + 1);
  assert.ok(inObject.content.startsWith(`{\n  "k": "é\\u003cé\\u003c`));
  const raw = `x${big}`;
  assert.equal(renderToolResult(raw, 0).content, raw);
  assert.equal(reencodeClientResult(JSON.stringify({ k: big })), `{"k":"${"é\\u003c".repeat(3_500_000)}"}`);
});
