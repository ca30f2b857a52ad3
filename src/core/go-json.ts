import type { JsonValue } from "./json.js";

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
 * @public
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
      const keys = Object.keys(value).sort(compareUtf8);
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
