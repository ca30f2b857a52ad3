import { queryEscapeBinary, queryUnescapeBinary } from "../core/index.js";
import { goFormat } from "./go-format.js";

/**
 * Adds `params` to the query of `url` exactly as Omnia does with Go's
 * `url.Parse`, `Query()`, `Set(k, %v of v)`, `RawQuery = Encode()` and
 * `String()` (`internal/runtime/tools/http_client.go`):
 * - the existing query is parsed (`+` is a space, `%XX` is decoded, a key
 *   without `=` gets `""`; a pair with a bad escape or a `;` is dropped);
 * - each param **replaces** every value of its key; values are Go `%v`
 *   ({@link goFormat}): `1000000` → `1e+06`, `null` → `<nil>`;
 * - the query is re-encoded with keys sorted by their UTF-8 bytes, values in
 *   order, `A–Z a–z 0–9 - _ . ~` kept, space as `+`, every other byte `%XX`
 *   (upper-case hex): `~` stays, `*` becomes `%2A`;
 * - the fragment is kept after the query (an empty `#` is dropped, as Go does).
 *
 * With no params the URL is returned unchanged (Omnia re-encodes the query
 * only when it adds something). The scheme, host, path and fragment are copied
 * verbatim, where Go would re-escape characters such as a space in the path;
 * the HTTP layer's URL parser escapes those the same way when it sends.
 * @public
 */
export function appendQuery(url: string, params: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(params);
  if (names.length === 0) return url;
  const hash = url.indexOf("#");
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 || hash === url.length - 1 ? "" : url.slice(hash);
  const q = beforeFragment.indexOf("?");
  const base = q < 0 ? beforeFragment : beforeFragment.slice(0, q);
  // Keys and values are held as latin1 "binary strings" of their UTF-8 bytes,
  // so that bytes that are not UTF-8 survive a decode/encode round trip as in Go.
  const values = q < 0 ? new Map<string, string[]>() : parseQuery(beforeFragment.slice(q + 1));
  for (const name of names) values.set(utf8Binary(name), [utf8Binary(goFormat(params[name]))]);
  const keys = [...values.keys()].sort();
  let query = "";
  for (const k of keys) {
    const ek = escapeQueryBytes(k);
    for (const v of values.get(k)!) query += `${query === "" ? "" : "&"}${ek}=${escapeQueryBytes(v)}`;
  }
  return `${base}?${query}${fragment}`;
}

/** Go's `url.ParseQuery`, keeping keys and values as binary strings. */
function parseQuery(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const segment of utf8Binary(raw).split("&")) {
    if (segment === "" || segment.includes(";")) continue;
    const eq = segment.indexOf("=");
    const key = unescapeQuery(eq < 0 ? segment : segment.slice(0, eq));
    const value = unescapeQuery(eq < 0 ? "" : segment.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    const list = out.get(key);
    if (list === undefined) out.set(key, [value]);
    else list.push(value);
  }
  return out;
}

/** Go's `QueryUnescape` over a binary string; `undefined` for a bad escape. */
const unescapeQuery = queryUnescapeBinary;

/** Go's `QueryEscape` over a binary string (one char per byte). */
const escapeQueryBytes = queryEscapeBinary;

/**
 * Go's `url.QueryEscape`: the escaping `appendQuery` applies to each key and
 * value (unreserved characters kept, space as `+`, every other UTF-8 byte `%XX`).
 * @internal Does not follow semver.
 */
export function goQueryEscape(text: string): string {
  return escapeQueryBytes(utf8Binary(text));
}

/** The UTF-8 bytes of `s` as a latin1 string (ASCII is returned as is). */
function utf8Binary(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) return Buffer.from(s, "utf8").toString("latin1");
  }
  return s;
}
