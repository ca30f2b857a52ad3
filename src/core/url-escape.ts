// Go's url.PathEscape and url.QueryEscape, linear in the value's UTF-8 length:
// one pass over the bytes into a preallocated buffer (no per-character string
// concatenation), with a fast return when nothing needs escaping.

const HEX = Buffer.from("0123456789ABCDEF", "latin1");

/** Bytes a path segment holds literally: `A-Z a-z 0-9 - _ . ~ $ & + , : ; = @`. */
const PATH_SAFE = byteTable("-_.~$&+,:;=@");
/** Bytes a query component holds literally: `A-Z a-z 0-9 - _ . ~` (space becomes `+`). */
const QUERY_SAFE = byteTable("-_.~");

function byteTable(extra: string): Uint8Array {
  const table = new Uint8Array(256);
  for (let c = 0x30; c <= 0x39; c++) table[c] = 1;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = 1;
  for (let c = 0x61; c <= 0x7a; c++) table[c] = 1;
  for (const ch of extra) table[ch.charCodeAt(0)] = 1;
  return table;
}

/**
 * Go's `url.PathEscape`: percent-encodes everything a path segment cannot hold
 * literally (`/`, `?`, `#`, `%`, space, non-ASCII as UTF-8 bytes), upper-case hex.
 * Linear in the value's length.
 * @internal Does not follow semver.
 */
export function pathEscape(text: string): string {
  return escapeBytes(text, PATH_SAFE, false);
}

/**
 * Go's `url.QueryEscape`: unreserved characters kept, space as `+`, every
 * other UTF-8 byte `%XX`. Linear in the value's length.
 * @internal Does not follow semver.
 */
export function queryEscape(text: string): string {
  return escapeBytes(text, QUERY_SAFE, true);
}

/**
 * {@link queryEscape} of a "binary string" (one character per byte, as
 * `Buffer#toString("latin1")` gives), for bytes that need not be UTF-8.
 * @internal Does not follow semver.
 */
export function queryEscapeBinary(binary: string): string {
  return escapeBytes(binary, QUERY_SAFE, true, "latin1");
}

/**
 * Go's `url.QueryUnescape` of a binary string, giving a binary string:
 * `+` is a space, `%XX` a byte; `undefined` for a bad escape. Linear.
 * @internal Does not follow semver.
 */
export function queryUnescapeBinary(binary: string): string | undefined {
  if (binary.indexOf("%") < 0 && binary.indexOf("+") < 0) return binary;
  const out = Buffer.allocUnsafe(binary.length);
  let n = 0;
  for (let i = 0; i < binary.length; i++) {
    const c = binary.charCodeAt(i);
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25) {
      const hi = hexValue(binary.charCodeAt(i + 1));
      const lo = hexValue(binary.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return undefined;
      out[n++] = hi * 16 + lo;
      i += 2;
    } else out[n++] = c;
  }
  return out.toString("latin1", 0, n);
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function escapeBytes(text: string, safe: Uint8Array, spaceAsPlus: boolean, encoding: "utf8" | "latin1" = "utf8"): string {
  let clean = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || safe[c] !== 1) {
      clean = false;
      break;
    }
  }
  if (clean) return text;
  const bytes = Buffer.from(text, encoding);
  const out = Buffer.allocUnsafe(bytes.length * 3);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (safe[b] === 1) out[n++] = b;
    else if (b === 0x20 && spaceAsPlus) out[n++] = 0x2b;
    else {
      out[n++] = 0x25;
      out[n++] = HEX[b >> 4] as number;
      out[n++] = HEX[b & 15] as number;
    }
  }
  return out.toString("latin1", 0, n);
}
