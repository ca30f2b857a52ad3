// One bound for every text a peer writes and the model reads (issue #31 item 5).

/**
 * The most UTF-8 bytes of peer-written text kept in a model-visible message:
 * 512, as Omnia cuts an HTTP tool's error body and as `serveToolService` cuts
 * `error_message`.
 * @internal Does not follow semver.
 */
export const PEER_TEXT_MAX_BYTES = 512;

/**
 * `text` whole when it is at most `maxBytes` UTF-8 bytes (default 512), else
 * its longest prefix that fits, cut at a code point boundary (a surrogate pair
 * is never split), followed by `...`. A lone surrogate counts as the 3 bytes
 * of the U+FFFD it is written as. One pass over at most `maxBytes` units.
 *
 * Used for a gRPC status message, an MCP JSON-RPC error, a policy broker's
 * `message` and `deniedBy`, and an OpenAPI document's load errors; never for a
 * tool's own result or error text, which Omnia passes whole.
 * @internal Does not follow semver.
 */
export function boundPeerText(text: string, maxBytes: number = PEER_TEXT_MAX_BYTES): string {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: a text of up to maxBytes/3 units always fits.
  if (text.length <= maxBytes / 3) return text;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let size: number;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      size = 4;
      units = 2;
    } else size = 3;
    if (bytes + size > maxBytes) return `${text.slice(0, i)}...`;
    bytes += size;
    i += units;
  }
  return text;
}
