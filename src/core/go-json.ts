import type { JsonValue } from "./json.js";

// Go's encoding/json, as Omnia's runtime (Go 1.26) runs it, for values decoded
// into `any`:
//
// - decoding (`json.Unmarshal` into `any`): one JSON value with optional
//   whitespace around it, at most 10000 levels of nesting, every number a
//   float64 (a literal outside its range is an error), `\ud800`-style lone
//   surrogate escapes decoded as U+FFFD, a repeated key's last value kept;
// - encoding (`json.Marshal` / `json.MarshalIndent(v, "", "  ")`): object keys
//   sorted by their UTF-8 bytes, `<` `>` `&` U+2028 U+2029 escaped as
//   `\u003c` `\u003e` `\u0026` `\u2028` `\u2029`, U+0008 and U+000C as `\b`
//   and `\f` (Go 1.22 and later), other control characters as `\u00XX`, a
//   string that is not valid Unicode (a lone surrogate) with U+FFFD in its
//   place, numbers as Go's float64 encoder writes them (shortest digits,
//   exponent form below 1e-6 and from 1e21 on, `-0` kept), int64 values
//   (`bigint`) in decimal, and ±Inf or NaN refused.
//
// Both directions are iterative: nesting never grows the JavaScript stack.

/**
 * A value as Go holds it after `json.Unmarshal` into `any`, plus the int64
 * values (`bigint`) that PromptKit's argument coercion puts in.
 * @internal Does not follow semver.
 */
export type GoJsonValue = null | boolean | number | bigint | string | readonly GoJsonValue[] | { readonly [key: string]: GoJsonValue };

/** Go's `encoding/json` nesting limit: a value nested deeper fails to decode. */
const GO_JSON_MAX_DEPTH = 10000;

/**
 * The outcome of {@link goJsonDecode}: the value, or the fact that Go's
 * `json.Unmarshal` into `any` rejects the text.
 * @internal Does not follow semver.
 */
export type GoJsonDecoded = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false };

/**
 * Options of {@link goJsonDecode}.
 * @internal Does not follow semver.
 */
export interface GoJsonDecodeOptions {
  /**
   * Accept number literals outside float64's range (they decode to ±Infinity).
   * Go accepts them where it skips a value without converting it, as when a
   * struct ignores a field; decoding into `any` rejects them.
   */
  readonly allowOverflow?: boolean;
}

/**
 * Decodes JSON text the way Go's `json.Unmarshal` decodes it into `any`: the
 * whole text must be one JSON value (whitespace around it allowed: nothing
 * else, no byte order mark), nested at most 10000 levels, with every number
 * inside float64's range (`1e400` fails). Lone surrogate escapes become
 * U+FFFD in strings and keys, and a repeated key keeps its last value.
 * Linear in the text; never throws.
 * @internal Does not follow semver.
 */
export function goJsonDecode(text: string, options: GoJsonDecodeOptions = {}): GoJsonDecoded {
  if (tooDeep(text)) return { ok: false };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return { ok: false };
  }
  if (!mayNeedNormalising(text)) return { ok: true, value };
  const fixed = normalise(value, options.allowOverflow === true);
  return fixed === FAIL ? { ok: false } : { ok: true, value: fixed };
}

/** A surrogate (raw, or a `\uD800`–`\uDFFF` escape), or a digit before an exponent. */
const NORMALISING_HINT = /[\ud800-\udfff]|\\u[dD][89a-fA-F]|[0-9][eE]/;

/**
 * Whether what `JSON.parse` returns for the text may differ from Go's value:
 * only a surrogate (a lone one becomes U+FFFD) or a number beyond float64's
 * range can make it differ, and such a number needs an exponent or at least
 * 309 digits. False positives only cost the walk of {@link normalise}.
 */
function mayNeedNormalising(text: string): boolean {
  return NORMALISING_HINT.test(text) || (text.length >= 309 && /[0-9]{309}/.test(text));
}

/**
 * Serialises a value the way Go's `json.Marshal` does (see the file comment):
 * compact, keys sorted, Go's HTML-safe escaping. Returns `undefined` where Go
 * fails with `json: unsupported value` (±Inf or NaN anywhere in the value).
 * @internal Does not follow semver.
 */
export function goJsonEncode(value: GoJsonValue): string | undefined {
  const sink = new StringSink();
  return encodeGoJson(value, sink, false, false) ? sink.result() : undefined;
}

/**
 * Serialises a JSON value the way Go's `json.Marshal` does for a value decoded
 * into `any`: object keys sorted by byte order (recursively), compact, `<`, `>`
 * and `&` written as `\u003c`, `\u003e`, `\u0026`, U+2028/U+2029 escaped,
 * `\b` and `\f` for U+0008 and U+000C, a lone surrogate replaced by U+FFFD,
 * and negative zero written as `-0`. Numbers otherwise print as JavaScript's
 * `JSON.stringify` prints them, which is Go's float64 format too; a non-finite
 * number, which JSON text cannot produce, is written `null`.
 *
 * Used for every body or result Omnia rebuilds (advanced-path bodies,
 * bodyMapping output, redacted responses, responseMapping output); verbatim
 * passthrough bodies never go through it.
 * @public
 */
export function goJsonMarshal(value: JsonValue): string {
  const sink = new StringSink();
  encodeGoJson(value, sink, false, true);
  return sink.result();
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** `String.prototype.isWellFormed` / `toWellFormed` (ES2024, Node 20), typed. */
const wellFormed = String.prototype as unknown as {
  readonly isWellFormed: (this: string) => boolean;
  readonly toWellFormed: (this: string) => string;
};

/**
 * `text` with every lone surrogate replaced by U+FFFD: the string Go holds for
 * the same JSON text (its decoder turns an unpaired `\ud800` escape into
 * U+FFFD, and a Go string cannot hold a surrogate).
 */
function goWellFormed(text: string): string {
  return wellFormed.isWellFormed.call(text) ? text : wellFormed.toWellFormed.call(text);
}

/**
 * A JSON string literal as Go's `encoding/json` writes it: HTML-safe escaping,
 * `\b` `\f` `\n` `\r` `\t`, `\u00XX` for other control characters, a lone
 * surrogate replaced by U+FFFD.
 * @internal Does not follow semver.
 */
export function goJsonString(text: string): string {
  return isPlainAscii(text) ? `"${text}"` : JSON.stringify(goWellFormed(text)).replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Whether Go writes the string between quotes as it is: printable ASCII
 * (U+0020–U+007E) without `"`, `\`, `<`, `>` or `&`. One pass; no allocation.
 */
function isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) return false;
  }
  return true;
}

/**
 * Compares two strings in the byte order of their UTF-8 encodings (Go's
 * string order), which is code-point order. JavaScript's default sort compares
 * UTF-16 code units, which differs for astral characters against U+E000–U+FFFF.
 * @public
 */
export function compareUtf8(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (astral code points) above U+E000–U+FFFF. */
function utf8Rank(c: number): number {
  if (c < 0xd800) return c;
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

// ---------------------------------------------------------------------------
// Encoding

/**
 * Where {@link encodeGoJson} writes. `write` gets every piece in order
 * (`ascii` when the piece is known to be ASCII, so that its byte length is its
 * length); `newline` stands for a newline and `depth` levels of two-space
 * indentation (pretty-printing only).
 * @internal Does not follow semver.
 */
export interface GoJsonSink {
  write(piece: string, ascii: boolean): void;
  newline(depth: number): void;
}

class StringSink implements GoJsonSink {
  private text = "";
  write(piece: string): void {
    this.text += piece;
  }
  newline(depth: number): void {
    this.text += goJsonIndent(depth);
  }
  result(): string {
    return this.text;
  }
}

/** Newline-and-indent pieces for the first nesting levels. */
const INDENTS: readonly string[] = Array.from({ length: 32 }, (_, depth) => `\n${"  ".repeat(depth)}`);

/**
 * A newline followed by `depth` levels of two-space indentation, as
 * `json.MarshalIndent(v, "", "  ")` writes it.
 * @internal Does not follow semver.
 */
export function goJsonIndent(depth: number): string {
  return INDENTS[depth] ?? `\n${"  ".repeat(depth)}`;
}

/** One open array or object of the value being encoded. */
interface Frame {
  readonly items: readonly GoJsonValue[] | undefined;
  readonly object: { readonly [key: string]: GoJsonValue } | undefined;
  readonly keys: readonly string[];
  readonly depth: number;
  index: number;
}

/**
 * Encodes `value` into `sink` as Go's `json.Marshal` (`pretty` false) or
 * `json.MarshalIndent(value, "", "  ")` (`pretty` true) does. Returns false
 * where Go fails (±Inf or NaN), unless `nonFiniteAsNull`, which writes `null`
 * for them instead. Iterative; linear in the value's size.
 * @internal Does not follow semver.
 */
export function encodeGoJson(value: GoJsonValue, sink: GoJsonSink, pretty: boolean, nonFiniteAsNull: boolean): boolean {
  const stack: Frame[] = [];
  const colon = pretty ? ": " : ":";
  let next: GoJsonValue = value;
  let depth = 0;
  for (;;) {
    // Write `next`: a scalar completely, a non-empty container's opening.
    switch (typeof next) {
      case "string":
        if (isPlainAscii(next)) sink.write(`"${next}"`, true);
        else sink.write(goJsonString(next), false);
        break;
      case "number":
        if (Number.isFinite(next)) sink.write(Object.is(next, -0) ? "-0" : String(next), true); // String(n) is JSON.stringify(n) for a finite number
        else if (nonFiniteAsNull) sink.write("null", true);
        else return false;
        break;
      case "bigint":
        sink.write(next.toString(), true);
        break;
      case "boolean":
        sink.write(next ? "true" : "false", true);
        break;
      default:
        if (next === null) {
          sink.write("null", true);
        } else if (Array.isArray(next)) {
          const items = next as readonly GoJsonValue[];
          if (items.length === 0) sink.write("[]", true);
          else {
            sink.write("[", true);
            stack.push({ items, object: undefined, keys: [], depth: depth + 1, index: 0 });
          }
        } else {
          const { object, keys } = sortedObject(next as { readonly [key: string]: GoJsonValue });
          if (keys.length === 0) sink.write("{}", true);
          else {
            sink.write("{", true);
            stack.push({ items: undefined, object, keys, depth: depth + 1, index: 0 });
          }
        }
    }
    // Find the next value to write, closing finished containers.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) return true;
      const length = frame.items !== undefined ? frame.items.length : frame.keys.length;
      if (frame.index === length) {
        stack.pop();
        if (pretty) sink.newline(frame.depth - 1);
        sink.write(frame.items !== undefined ? "]" : "}", true);
        continue;
      }
      if (frame.index > 0) sink.write(",", true);
      if (pretty) sink.newline(frame.depth);
      const i = frame.index++;
      depth = frame.depth;
      if (frame.items !== undefined) {
        next = frame.items[i] as GoJsonValue;
      } else {
        const key = frame.keys[i] as string;
        if (isPlainAscii(key)) sink.write(`"${key}"${colon}`, true);
        else {
          sink.write(goJsonString(key), false);
          sink.write(colon, true);
        }
        next = (frame.object as { readonly [key: string]: GoJsonValue })[key] as GoJsonValue;
      }
      break;
    }
  }
}

/**
 * The object's keys in Go's order (UTF-8 byte order). Keys holding a lone
 * surrogate are the U+FFFD key Go would hold; two keys that become the same
 * keep the later value, as Go's map does.
 */
function sortedObject(object: { readonly [key: string]: GoJsonValue }): {
  object: { readonly [key: string]: GoJsonValue };
  keys: string[];
} {
  const keys = Object.keys(object);
  let belowSurrogates = true;
  let wellFormedKeys = true;
  for (const k of keys) {
    if (BMP_ABOVE_SURROGATES.test(k)) {
      belowSurrogates = false;
      if (!wellFormed.isWellFormed.call(k)) wellFormedKeys = false;
    }
  }
  // Below U+D800, UTF-16 order (the default sort's) is UTF-8 byte order.
  if (belowSurrogates) return { object, keys: keys.sort() };
  if (wellFormedKeys) return { object, keys: keys.sort(compareUtf8) };
  const fixed: { [key: string]: GoJsonValue } = {};
  for (const k of keys) define(fixed, goWellFormed(k), object[k] as GoJsonValue);
  return { object: fixed, keys: Object.keys(fixed).sort(compareUtf8) };
}

/** A code unit from U+D800 on: where UTF-16 order and UTF-8 order can differ, and where lone surrogates are. */
const BMP_ABOVE_SURROGATES = /[\ud800-\uffff]/;

/** Sets an own data property, `__proto__` included. */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

// ---------------------------------------------------------------------------
// Decoding

/**
 * Whether the text nests deeper than Go's limit. Only brackets outside
 * strings count; text that is not JSON at all is left to the parser. A text
 * shorter than 2 × 10001 characters cannot be valid and too deep.
 */
function tooDeep(text: string): boolean {
  const n = text.length;
  if (n <= 2 * GO_JSON_MAX_DEPTH) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > GO_JSON_MAX_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

const FAIL: unique symbol = Symbol("fail");

/**
 * Applies Go's decoding rules to what `JSON.parse` returned, in place where
 * possible: non-finite numbers (an overflowing literal) fail unless allowed,
 * lone surrogates become U+FFFD. Iterative.
 */
function normalise(root: JsonValue, allowOverflow: boolean): JsonValue | typeof FAIL {
  const fix = (v: JsonValue): JsonValue | typeof FAIL => {
    if (typeof v === "string") return goWellFormed(v);
    if (typeof v === "number") return Number.isFinite(v) || allowOverflow ? v : FAIL;
    return v;
  };
  const top = fix(root);
  if (top === FAIL || top === null || typeof top !== "object") return top;
  const pending: (JsonValue[] | { [key: string]: JsonValue })[] = [top];
  for (let container = pending.pop(); container !== undefined; container = pending.pop()) {
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const v = fix(container[i] as JsonValue);
        if (v === FAIL) return FAIL;
        container[i] = v;
        if (v !== null && typeof v === "object") pending.push(v);
      }
      continue;
    }
    const keys = Object.keys(container);
    let rekey = false;
    for (const k of keys) {
      const v = fix(container[k] as JsonValue);
      if (v === FAIL) return FAIL;
      if (v !== container[k]) container[k] = v; // an own property: `__proto__` too
      if (v !== null && typeof v === "object") pending.push(v);
      if (!rekey && !wellFormed.isWellFormed.call(k)) rekey = true;
    }
    if (rekey) {
      // Rebuild with Go's keys in the same object, so that parents keep their reference.
      const entries = keys.map((k) => [goWellFormed(k), container[k] as JsonValue] as const);
      for (const k of keys) delete container[k];
      for (const [k, v] of entries) define(container, k, v);
    }
  }
  return top;
}
