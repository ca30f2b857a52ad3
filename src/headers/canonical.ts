import { OmniaHeader } from "./keys.js";
import { NameCache } from "./name-cache.js";
import { isTokenCode } from "./validity.js";

/**
 * Go's `textproto.CanonicalMIMEHeaderKey` (go1.19), byte for byte, as Omnia's
 * `CanonicalClaimHeader` (`pkg/policy/context.go`) applies it:
 * - if any character is not an RFC 7230 token character (space, `:`, `/`,
 *   `@`, any non-ASCII…), `name` is returned completely unchanged;
 * - otherwise the first letter and every letter right after a `-` are
 *   upper-cased and every other letter is lower-cased: `x-omnia-tool-name` →
 *   `X-Omnia-Tool-Name`, `customer_id` → `Customer_id`, `TEAM` → `Team`.
 * @public
 */
export function canonicalHeaderKey(name: string): string {
  return canonicalize(name) ?? name;
}

const CANONICAL_CLAIM_PREFIX = "X-Omnia-Claim-";

/** Claim name → its canonical header, or null when the name holds a non-token character. */
const CLAIM_HEADERS = new NameCache<string | null>((claim) => {
  // The prefix is all token characters and ends with '-', so the claim starts a word.
  const rest = canonicalize(claim);
  return rest === undefined ? null : CANONICAL_CLAIM_PREFIX + rest;
});

/**
 * The header a claim travels under on an HTTP hop, as Omnia's
 * `policy.CanonicalClaimHeader`: `canonicalHeaderKey("x-omnia-claim-" + claim)`.
 * `tier` → `X-Omnia-Claim-Tier`, `customer_id` → `X-Omnia-Claim-Customer_id`,
 * `TEAM` → `X-Omnia-Claim-Team`; a claim with any non-token character is
 * returned with the lowercase prefix, unchanged: `https://example.com/roles`
 * → `x-omnia-claim-https://example.com/roles`.
 *
 * Every read path (`requiredClaims`, CEL `headers['X-Omnia-Claim-…']`) must
 * use this form.
 * @public
 */
export function canonicalClaimHeader(claim: string): string {
  const c = canonicalClaimHeaderOrUndefined(claim);
  return c ?? OmniaHeader.CLAIM_PREFIX + claim;
}

/**
 * {@link canonicalClaimHeader}, or `undefined` when the claim name holds a
 * non-token character (so the header name would be invalid on HTTP).
 * @internal Does not follow semver.
 */
export function canonicalClaimHeaderOrUndefined(claim: string): string | undefined {
  return CLAIM_HEADERS.get(claim) ?? undefined;
}

/**
 * Canonicalises `s` as a header name that starts a word. Returns `undefined`
 * when a character is not a token character.
 */
function canonicalize(s: string): string | undefined {
  const n = s.length;
  let upper = true;
  let change = -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (!isTokenCode(c)) return undefined;
    if (change < 0 && ((upper && c >= 0x61 && c <= 0x7a) || (!upper && c >= 0x41 && c <= 0x5a))) change = i;
    upper = c === 0x2d;
  }
  if (change < 0) return s;
  let out = s.slice(0, change);
  upper = change === 0 || s.charCodeAt(change - 1) === 0x2d;
  for (let i = change; i < n; i++) {
    let c = s.charCodeAt(i);
    if (upper && c >= 0x61 && c <= 0x7a) c -= 0x20;
    else if (!upper && c >= 0x41 && c <= 0x5a) c += 0x20;
    out += String.fromCharCode(c);
    upper = c === 0x2d;
  }
  return out;
}
