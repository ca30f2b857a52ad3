/**
 * What the model reads for a tool's successful result, as PromptKit's provider
 * stage renders it (`formatToolResult` and `enforceResultSizeLimit` in
 * `runtime/pipeline/stage/stages_provider.go`, runtime/v1.5.5), and the text
 * of a client tool's result (`SendToolResult` in the SDK's `client_tools.go`).
 *
 * Contract:
 * - `formatToolResult(resultJson)`: the result text formatted;
 * - `limitResultSize(content, maxBytes)`: the formatted text cut to
 *   `maxBytes` UTF-8 bytes with the truncation notice, as a
 *   {@link FormattedResult} (`maxBytes` ≤ 0: no limit);
 * - `renderToolResult(resultJson, maxBytes)`: both in one step, with memory
 *   bounded by `maxBytes` however much pretty-printing expands the result;
 * - `reencodeClientResult(resultJson)`: a client's `result_json` as the model
 *   reads it.
 *
 * Formatting: text that Go's `json.Unmarshal` does not accept (not JSON,
 * trailing text, nesting beyond 10000 levels, a number outside float64's
 * range) is shown unchanged. A JSON string is shown raw (its escapes
 * decoded, no quotes); `null` as `<nil>`; `true`/`false` as is; a number as
 * Go's `%v` of a float64 (`1e+06`, `1.5e-07`, `-0`); an object or array
 * pretty-printed by Go (`json.MarshalIndent` with two spaces: keys sorted,
 * `\u003c` `\u003e` `\u0026` `\u2028` `\u2029`, numbers as Go's JSON encoder
 * writes them, `{}` and `[]` kept on one line).
 *
 * The size limit counts UTF-8 bytes. A longer text keeps its first
 * `maxBytes` bytes, then `\n... [truncated, <size> bytes exceeded limit of
 * <max> bytes]` with `<size>` the whole text's byte length. Where the cut
 * splits a character, each of its bytes left behind reads as one U+FFFD, as
 * Go's JSON encoder writes such bytes into the provider request.
 * @packageDocumentation
 */
import { encodeGoJson, goJsonDecode, goJsonEncode, goJsonIndent, goJsonReencode, goJsonString, jsonSpaceEnd, type GoJsonSink } from "../core/index.js";
import { goFormatFloat } from "../headers/index.js";

/**
 * A tool result's text after the size limit.
 * @internal Does not follow semver.
 */
export interface FormattedResult {
  /** The text the model reads. */
  readonly content: string;
  /** The text was longer than the limit and was cut. */
  readonly truncated: boolean;
  /** The byte length (UTF-8) of the whole text before any cut. */
  readonly originalBytes: number;
}

/**
 * The most formatted text kept when no limit applies: 256 MiB. Only hostile
 * nesting gets there (pretty-printing `[[[…]]]` 10000 levels deep turns 20 KB
 * into 200 MB); such a text is cut as by a limit of this size.
 * @internal Does not follow semver.
 */
export const MAX_FORMATTED_BYTES = 256 * 1_048_576;

/**
 * Formats a successful result's text as the model reads it (see the module
 * comment), without a size limit. A formatted object or array above
 * {@link MAX_FORMATTED_BYTES} is cut as {@link limitResultSize} would cut it
 * at that size. Use {@link renderToolResult} to apply a limit: it never
 * builds more text than the limit keeps.
 * @internal Does not follow semver.
 */
export function formatToolResult(resultJson: string): string {
  return renderToolResult(resultJson, 0).content;
}

/**
 * Formats a successful result's text and applies the size limit in one step:
 * the same text as `limitResultSize(formatToolResult(resultJson), maxBytes)`,
 * built in memory bounded by `maxBytes` (≤ 0: no limit but
 * {@link MAX_FORMATTED_BYTES}). Linear in `resultJson`; never throws.
 * @internal Does not follow semver.
 */
export function renderToolResult(resultJson: string, maxBytes: number): FormattedResult {
  const limit = limitOf(maxBytes);
  const keep = limit > 0 ? limit : MAX_FORMATTED_BYTES;
  if (startsContainer(resultJson)) {
    // The one-pass re-encoder, for an object or array whose formatted text fits the limit in characters.
    const text = goJsonReencode(resultJson, true, keep);
    if (text !== undefined) {
      const size = Buffer.byteLength(text, "utf8");
      return size <= keep ? { content: text, truncated: false, originalBytes: size } : truncate(text, size, keep);
    }
  }
  const decoded = goJsonDecode(resultJson);
  if (!decoded.ok) return limitResultSize(resultJson, limit);
  const value = decoded.value;
  switch (typeof value) {
    case "string":
      return limitResultSize(value, limit);
    case "number":
      return limitResultSize(goFormatFloat(value), limit);
    case "boolean":
      return limitResultSize(value ? "true" : "false", limit);
    default:
      if (value === null) return limitResultSize("<nil>", limit);
  }
  const sink = new BoundedSink(keep);
  encodeGoJson(value, sink, true, false);
  const text = sink.kept();
  return sink.total <= keep ? { content: text, truncated: false, originalBytes: sink.total } : truncate(text, sink.total, keep);
}

/** Whether the text's first character after JSON whitespace opens an object or an array. */
function startsContainer(text: string): boolean {
  const c = text.charCodeAt(jsonSpaceEnd(text, 0));
  return c === 0x7b || c === 0x5b;
}

/**
 * Applies PromptKit's result size limit to formatted text: unchanged when its
 * UTF-8 length is at most `maxBytes` (or `maxBytes` ≤ 0, no limit); else its
 * first `maxBytes` bytes, one U+FFFD per byte of a character the cut split,
 * then `\n... [truncated, <size> bytes exceeded limit of <maxBytes> bytes]`.
 * Linear in the kept part; never throws.
 * @internal Does not follow semver.
 */
export function limitResultSize(content: string, maxBytes: number): FormattedResult {
  const size = Buffer.byteLength(content, "utf8");
  const limit = limitOf(maxBytes);
  if (limit <= 0 || size <= limit) return { content, truncated: false, originalBytes: size };
  return truncate(content, size, limit);
}

/**
 * A client tool's `result_json` as the model reads it: text that Go's
 * `json.Unmarshal` accepts is re-encoded compactly by Go (`{"b":1, "a":1.0}`
 * → `{"a":1,"b":1}`, `<` → `\u003c`); any other text, the empty text
 * included, becomes a JSON string (`plain` → `"plain"`). No formatting and
 * no size limit apply. Never throws.
 * @internal Does not follow semver.
 */
export function reencodeClientResult(resultJson: string): string {
  const fast = goJsonReencode(resultJson, false, Number.POSITIVE_INFINITY);
  if (fast !== undefined) return fast;
  const decoded = goJsonDecode(resultJson);
  return (decoded.ok ? goJsonEncode(decoded.value) : undefined) ?? goJsonString(resultJson);
}

/** A limit as a whole number of bytes; anything not above 0 means none. */
function limitOf(maxBytes: number): number {
  return maxBytes > 0 ? Math.floor(maxBytes) : 0;
}

/** `text` (of `size` bytes, at least `limit` of them in `text`) cut at `limit` bytes, with the notice. */
function truncate(text: string, size: number, limit: number): FormattedResult {
  return { content: `${cutUtf8(text, limit)}\n... [truncated, ${size} bytes exceeded limit of ${limit} bytes]`, truncated: true, originalBytes: size };
}

/**
 * The first `limit` UTF-8 bytes of `text`, a character split by the cut
 * replaced by one U+FFFD per byte kept. A lone surrogate counts as the three
 * bytes of the U+FFFD it is encoded as.
 */
function cutUtf8(text: string, limit: number): string {
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    let size = 3;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        size = 4;
        units = 2;
      }
    }
    if (bytes + size > limit) return text.slice(0, i) + "\ufffd".repeat(limit - bytes);
    bytes += size;
    i += units;
  }
  return text;
}

/**
 * Collects pretty-printed text up to `keep` bytes (the piece that reaches it
 * included) while counting the byte length of all of it; indentation is
 * counted without being built once nothing more is kept.
 */
class BoundedSink implements GoJsonSink {
  total = 0;
  private keptBytes = 0;
  private text = "";
  constructor(private readonly keep: number) {}

  write(piece: string, ascii: boolean): void {
    const bytes = ascii ? piece.length : Buffer.byteLength(piece, "utf8");
    this.total += bytes;
    if (this.keptBytes < this.keep) {
      this.text += piece;
      this.keptBytes += bytes;
    }
  }

  newline(depth: number): void {
    const bytes = 1 + 2 * depth;
    this.total += bytes;
    if (this.keptBytes < this.keep) {
      this.text += goJsonIndent(depth);
      this.keptBytes += bytes;
    }
  }

  kept(): string {
    return this.text;
  }
}
