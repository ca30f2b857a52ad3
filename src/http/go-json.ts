import type { JsonValue } from "../core/index.js";

/**
 * Serialises a JSON value the way Go's `json.Marshal` does for a value decoded
 * into `any`: object keys sorted by byte order (recursively), compact, `<`, `>`
 * and `&` written as `\u003c`, `\u003e`, `\u0026`, U+2028/U+2029 escaped, and
 * negative zero written as `-0`. Numbers otherwise print as JavaScript's
 * `JSON.stringify` prints them, which is Go's float64 format too.
 *
 * Used for every body or result Omnia rebuilds (advanced-path bodies,
 * bodyMapping output, redacted responses, responseMapping output); verbatim
 * passthrough bodies never go through it (http.md §2.10.3).
 * @internal Does not follow semver.
 */
export function goJsonMarshal(value: JsonValue): string {
  switch (typeof value) {
    case "string":
      return goJsonString(value);
    case "number":
      return Object.is(value, -0) ? "-0" : Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return `[${value.map(goJsonMarshal).join(",")}]`;
      const keys = Object.keys(value).sort(compareBytes);
      return `{${keys.map((k) => `${goJsonString(k)}:${goJsonMarshal(value[k] as JsonValue)}`).join(",")}}`;
    }
    default:
      return "null";
  }
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** A JSON string literal with Go's HTML-safe escaping. */
export function goJsonString(text: string): string {
  return JSON.stringify(text).replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Go sorts map keys by their UTF-8 bytes. For strings without surrogate pairs
 * this is UTF-16 code-unit order; astral characters need the byte comparison.
 */
function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate encodes a code point above U+FFFF, which sorts after every BMP character in
    // UTF-8, including U+E000–U+FFFF that out-rank surrogates in UTF-16.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
