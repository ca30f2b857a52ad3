import type { Logger } from "../core/index.js";
import type { Identity, IncomingIdentity } from "./identity.js";
import { FIELD_BY_HEADER, FLAT_IDENTITY_KEYS, OmniaHeader, type IdentityStringField } from "./keys.js";
import { isValidGrpcMetadataKey, isValidGrpcMetadataValue } from "./validity.js";

/**
 * Anything with a WHATWG-`Headers`-style `forEach((value, name) => …)`:
 * `Headers` (what connect passes as `requestHeader`) or a `Map`.
 * @public
 */
export interface HeadersLike {
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * The incoming metadata {@link identityFromMetadata} accepts: a WHATWG
 * `Headers` (or anything {@link HeadersLike}), Node's `IncomingHttpHeaders`
 * (HTTP/1 or HTTP/2), or a plain record. An array value contributes its first
 * element, as Go reads the first value of a metadata key.
 * @public
 */
export type MetadataInput = HeadersLike | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/**
 * Options of {@link identityFromMetadata}.
 * @public
 */
export interface IdentityFromMetadataOptions {
  /** Receives a warn line per skipped illegal entry (key only, never the value). Default: discard. */
  logger?: Logger | undefined;
}

const X_OMNIA = "x-omnia-";
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Rehydrates the caller identity from one call's incoming metadata, as Omnia's
 * runtime interceptor (`policy.FromIncomingGRPCMetadata`, called from `internal/runtime/interceptor.go`)
 * does, plus the 1.9.0 facade-hop keys (`x-omnia-client-tools`, `x-omnia-session-open`,
 * `x-omnia-declare-bin`).
 * - Only `x-omnia-*` keys are read; names are matched case-insensitively.
 *   `authorization` is never read: the caller's token stays out of the identity.
 * - Flat keys (the identity and runtime rows of `OMNIA_HEADER_KEYS`) set
 *   their field when the value is non-empty.
 * - `x-omnia-claim-<name>` (with a non-empty name) sets `claims[name]`, the
 *   name lower-cased as it crosses gRPC; empty values are kept. With no claim
 *   key, `claims` is absent.
 * - `clientToolsAvailable` / `sessionOpen`: the value is exactly `"true"`.
 *   `declare`: the base64 value of `x-omnia-declare-bin` (padded or not) as
 *   bytes, only when `sessionOpen` is true; otherwise ignored.
 * - The first value of a repeated key wins. Node's HTTP/2 layer joins repeats
 *   with `", "` before we see them, so such a value is read as one string.
 * - An illegal entry, a key outside `[0-9a-z-_.]` or a value outside printable
 *   ASCII (or not base64, for `-bin`), is skipped and logged at warn; it never
 *   fails the call.
 * @public
 */
export function identityFromMetadata(headers: MetadataInput | undefined | null, options?: IdentityFromMetadataOptions): IncomingIdentity {
  const logger = options?.logger;
  const fields: Partial<Record<IdentityStringField, string>> = {};
  let claims: Record<string, string> | undefined;
  let clientTools: string | undefined;
  let sessionOpen: string | undefined;
  let declare: string | undefined;

  const visit = (rawKey: string, raw: unknown): void => {
    const key = rawKey.toLowerCase();
    if (!key.startsWith(X_OMNIA)) return;
    const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
    if (value === undefined) return;
    if (typeof value !== "string") {
      logger?.warn("headers: skipped an incoming metadata entry whose value is not a string", { key });
      return;
    }
    if (!isValidGrpcMetadataKey(key)) {
      logger?.warn("headers: skipped an incoming metadata entry with an illegal key", { key });
      return;
    }
    if (key === OmniaHeader.DECLARE_BIN) {
      if (!BASE64.test(value) || value.replace(/=+$/, "").length % 4 === 1) {
        logger?.warn("headers: skipped an incoming binary metadata entry that is not base64", { key });
      } else {
        declare ??= value;
      }
      return;
    }
    if (!isValidGrpcMetadataValue(value)) {
      logger?.warn("headers: skipped an incoming metadata entry with an illegal value", { key });
      return;
    }
    const field = FIELD_BY_HEADER.get(key);
    if (field !== undefined) {
      if (value !== "" && fields[field] === undefined) fields[field] = value;
      return;
    }
    if (key.startsWith(OmniaHeader.CLAIM_PREFIX)) {
      if (key.length === OmniaHeader.CLAIM_PREFIX.length) return; // a bare prefix names no claim
      claims ??= {};
      const name = key.slice(OmniaHeader.CLAIM_PREFIX.length);
      if (!Object.prototype.hasOwnProperty.call(claims, name)) defineEntry(claims, name, value);
      return;
    }
    if (key === OmniaHeader.CLIENT_TOOLS) clientTools ??= value;
    else if (key === OmniaHeader.SESSION_OPEN) sessionOpen ??= value;
  };

  if (headers != null) {
    if (typeof (headers as HeadersLike).forEach === "function") {
      (headers as HeadersLike).forEach((value, name) => visit(name, value));
    } else {
      const record = headers as Readonly<Record<string, unknown>>;
      for (const name of Object.keys(record)) visit(name, record[name]);
    }
  }

  const identity: Identity = {};
  for (const { field } of FLAT_IDENTITY_KEYS) {
    const v = fields[field];
    if (v !== undefined) identity[field] = v;
  }
  if (claims !== undefined) identity.claims = claims;
  const result: IncomingIdentity = {
    identity,
    clientToolsAvailable: clientTools === "true",
    sessionOpen: sessionOpen === "true",
  };
  if (result.sessionOpen && declare !== undefined) result.declare = new Uint8Array(Buffer.from(declare, "base64"));
  return result;
}

/** Sets `obj[key]` as an own data property, even for `__proto__`. */
function defineEntry(obj: Record<string, string>, key: string, value: string): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
