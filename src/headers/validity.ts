// Validity checks shared by every header builder. They mirror Go's
// `httpguts.ValidHeaderFieldName` / `ValidHeaderFieldValue` (what Go's HTTP
// transport enforces) and gRPC's metadata rules (what grpc-go enforces).

/** tchar per RFC 7230 section 3.2.6, indexed by ASCII code. */
const TOKEN = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) TOKEN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TOKEN[c] = 1;
for (const ch of "!#$%&'*+-.^_`|~") TOKEN[ch.charCodeAt(0)] = 1;

/**
 * Whether the UTF-16 code unit `c` is an RFC 7230 token character. Any code
 * unit ≥ 0x80 is not (its UTF-8 bytes are not token bytes either).
 * @internal Does not follow semver.
 */
export function isTokenCode(c: number): boolean {
  return c < 128 && TOKEN[c] === 1;
}

/**
 * Whether `name` is a valid HTTP header field name: a non-empty RFC 7230 token.
 * @internal Does not follow semver.
 */
export function isValidHeaderName(name: string): boolean {
  const n = name.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || TOKEN[c] !== 1) return false;
  }
  return true;
}

/**
 * Whether `value` is a valid HTTP header field value, by Go's rule: no control
 * character (0x00–0x1F, 0x7F) except TAB. Non-ASCII text is valid; it goes on
 * the wire as its UTF-8 bytes (see {@link toLatin1HeaderValue}).
 * @internal Does not follow semver.
 */
export function isValidHeaderValue(value: string): boolean {
  for (let i = 0, n = value.length; i < n; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return false;
  }
  return true;
}

/**
 * Whether `key` is a legal gRPC metadata key as grpc-go sends it: one or more
 * of `0-9 a-z - _ .`, not starting with the reserved `grpc-` prefix.
 * @internal Does not follow semver.
 */
export function isValidGrpcMetadataKey(key: string): boolean {
  const n = key.length;
  if (n === 0 || key.startsWith("grpc-")) return false;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2e)) return false;
  }
  return true;
}

/**
 * Whether `value` is a legal ASCII gRPC metadata value: printable ASCII only
 * (0x20–0x7E), as the gRPC HTTP/2 protocol defines `ASCII-Value`.
 * @internal Does not follow semver.
 */
export function isValidGrpcMetadataValue(value: string): boolean {
  for (let i = 0, n = value.length; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * A header value as a latin1 "binary string" of its UTF-8 bytes, so that
 * undici (which sends U+0080–U+00FF as single bytes and rejects anything
 * higher) puts the same bytes on the wire as Go does (Go sends a header value's UTF-8 bytes).
 * ASCII values are returned unchanged.
 * @internal Does not follow semver.
 */
export function toLatin1HeaderValue(value: string): string {
  for (let i = 0, n = value.length; i < n; i++) {
    if (value.charCodeAt(i) >= 0x80) return Buffer.from(value, "utf8").toString("latin1");
  }
  return value;
}
