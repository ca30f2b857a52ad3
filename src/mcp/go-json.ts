import type { JsonValue } from "../core/index.js";
import { compareUtf8 } from "../headers/index.js";

// The layering table keeps mcp away from http, so this is a copy of http's
// `goJsonMarshal` (same rules, same tests' expectations). Moving that function
// into core would let both folders share one copy.

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * Go's `json.Marshal` of a value decoded into `any`: object keys sorted by
 * their UTF-8 bytes (recursively), compact, `<`, `>`, `&`, U+2028 and U+2029
 * escaped, `-0` kept. This is the text Omnia hands the model for an MCP result.
 * @internal Does not follow semver.
 */
export function goJsonMarshal(value: JsonValue): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value).replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c] ?? c);
    case "number":
      return Object.is(value, -0) ? "-0" : Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return `[${value.map(goJsonMarshal).join(",")}]`;
      const keys = Object.keys(value)
        .filter((k) => value[k] !== undefined)
        .sort(compareUtf8);
      return `{${keys.map((k) => `${goJsonMarshal(k)}:${goJsonMarshal(value[k] as JsonValue)}`).join(",")}}`;
    }
    default:
      return "null";
  }
}
