import type { Logger } from "../core/index.js";
import { canonicalClaimHeaderOrUndefined } from "./canonical.js";
import { newHeaderRecord } from "./header-record.js";
import type { Identity } from "./identity.js";
import { OmniaHeader } from "./keys.js";
import { NameCache } from "./name-cache.js";
import type { HeaderBuildOptions } from "./params.js";
import { CheckedGrpcValue, CheckedHeaderValue } from "./checked-value.js";
import { isValidGrpcMetadataKey } from "./validity.js";

/**
 * Omnia's `ToOutboundHeaders` for an HTTP hop (tool, OpenAPI tool, policy
 * broker): the identity as `x-omnia-*` headers.
 * - The flat keys of {@link OMNIA_HEADER_KEYS} (agent-name … workspace,
 *   provider, model), in table order, each only when its value is non-empty.
 * - One header per claim, named by {@link canonicalClaimHeader}
 *   (`X-Omnia-Claim-Customer_id`).
 * - Never `authorization`, never a facade-hop key, never a tool or param key.
 *
 * Decisions (contract 1.9.0, as Omnia's "Facade ↔ runtime protocol" and "Tool
 * backend protocol" docs pages describe it, over Omnia 1.3.0's Go code):
 * - A claim with an **empty value is not sent**. Both pages say every identity
 *   header, claims included, is emitted only when non-empty; the 1.3.0 code
 *   (`ToOutboundHeaders`, `pkg/policy/context.go`) sent empty claims.
 * - An entry whose value is not a valid header value (a control character
 *   other than TAB), or a claim whose name holds a non-token character (so
 *   that `canonicalClaimHeader` leaves it unchanged, e.g.
 *   `https://example.com/roles`), is skipped and logged at warn. Go would fail
 *   the whole request instead.
 * - Claims that canonicalise to the same header resolve in the claim map's
 *   order: the later one wins.
 *
 * Flat keys are in their lowercase table form; HTTP names are
 * case-insensitive, so only the claim form matters (for broker lookups).
 * @public
 */
export function toOutboundHeaders(identity: Identity | undefined | null, options?: HeaderBuildOptions): Record<string, string> {
  if (identity == null) return {};
  const out = newHeaderRecord();
  putOutboundHeaders(out, identity, options?.logger);
  return out;
}

/**
 * {@link toOutboundHeaders}, written into `out` (which holds no identity key yet).
 * @internal Does not follow semver.
 */
export function putOutboundHeaders(out: Record<string, string>, identity: Identity, logger: Logger | undefined): void {
  // The flat keys, written out one by one in FLAT_IDENTITY_KEYS order (a test
  // checks it): each load and store site then sees a single name, where a loop
  // over the table made both megamorphic (11 fields: about 170 → 30 ns).
  let v: unknown;
  v = identity.agentName;
  if (isText(v)) {
    if (HTTP_AGENT_NAME.ok(v)) out[H.AGENT_NAME] = v;
    else skippedHeader(logger, H.AGENT_NAME);
  }
  v = identity.namespace;
  if (isText(v)) {
    if (HTTP_NAMESPACE.ok(v)) out[H.NAMESPACE] = v;
    else skippedHeader(logger, H.NAMESPACE);
  }
  v = identity.sessionId;
  if (isText(v)) {
    if (HTTP_SESSION_ID.ok(v)) out[H.SESSION_ID] = v;
    else skippedHeader(logger, H.SESSION_ID);
  }
  v = identity.requestId;
  if (isText(v)) {
    if (HTTP_REQUEST_ID.ok(v)) out[H.REQUEST_ID] = v;
    else skippedHeader(logger, H.REQUEST_ID);
  }
  v = identity.userId;
  if (isText(v)) {
    if (HTTP_USER_ID.ok(v)) out[H.USER_ID] = v;
    else skippedHeader(logger, H.USER_ID);
  }
  v = identity.subjectId;
  if (isText(v)) {
    if (HTTP_SUBJECT_ID.ok(v)) out[H.SUBJECT_ID] = v;
    else skippedHeader(logger, H.SUBJECT_ID);
  }
  v = identity.userEmail;
  if (isText(v)) {
    if (HTTP_USER_EMAIL.ok(v)) out[H.USER_EMAIL] = v;
    else skippedHeader(logger, H.USER_EMAIL);
  }
  v = identity.provider;
  if (isText(v)) {
    if (HTTP_PROVIDER.ok(v)) out[H.PROVIDER] = v;
    else skippedHeader(logger, H.PROVIDER);
  }
  v = identity.model;
  if (isText(v)) {
    if (HTTP_MODEL.ok(v)) out[H.MODEL] = v;
    else skippedHeader(logger, H.MODEL);
  }
  v = identity.origin;
  if (isText(v)) {
    if (HTTP_ORIGIN.ok(v)) out[H.ORIGIN] = v;
    else skippedHeader(logger, H.ORIGIN);
  }
  v = identity.workspace;
  if (isText(v)) {
    if (HTTP_WORKSPACE.ok(v)) out[H.WORKSPACE] = v;
    else skippedHeader(logger, H.WORKSPACE);
  }
  const claims = identity.claims;
  if (claims == null) return;
  for (const name in claims) {
    if (!Object.prototype.hasOwnProperty.call(claims, name)) continue;
    const v = claims[name];
    if (typeof v !== "string" || v === "") continue;
    const slot = HTTP_CLAIMS.get(name);
    if (slot === null) {
      logger?.warn("headers: skipped a claim whose name is not a valid header name", { claim: name });
    } else if (!slot.ok(v)) {
      logger?.warn("headers: skipped a claim with an invalid header value", { claim: name });
    } else {
      out[slot.key] = v;
    }
  }
}

/**
 * Omnia's `ToGRPCMetadata`: the identity as lowercase gRPC metadata, as
 * grpc-go puts it on the wire (claim `Team` arrives as `x-omnia-claim-team`).
 * The same keys and emptiness rule as {@link toOutboundHeaders}, with gRPC's
 * validity rules:
 * - a key outside `[0-9a-z-_.]` after lower-casing (an Auth0-style claim such
 *   as `https://example.com/roles`) is skipped and logged at warn, where
 *   grpc-go fails the whole call with `Internal`;
 * - a value outside printable ASCII (0x20–0x7E) is skipped and logged at warn.
 * - Claims that lower-case to the same key: the later one in the map wins.
 * @public
 */
export function toGrpcMetadata(identity: Identity | undefined | null, options?: HeaderBuildOptions): Record<string, string> {
  if (identity == null) return {};
  const out = newHeaderRecord();
  putGrpcMetadata(out, identity, options?.logger);
  return out;
}

/**
 * {@link toGrpcMetadata}, written into `out` (which holds no identity key yet).
 * @internal Does not follow semver.
 */
export function putGrpcMetadata(out: Record<string, string>, identity: Identity, logger: Logger | undefined): void {
  // Written out as in putOutboundHeaders, deliberately twice: one helper per field shared by
  // both rules (a flag, or one helper per rule) measured 40-90 ns slower per call (8-19 %).
  let v: unknown;
  v = identity.agentName;
  if (isText(v)) {
    if (GRPC_AGENT_NAME.ok(v)) out[H.AGENT_NAME] = v;
    else skippedMetadata(logger, H.AGENT_NAME);
  }
  v = identity.namespace;
  if (isText(v)) {
    if (GRPC_NAMESPACE.ok(v)) out[H.NAMESPACE] = v;
    else skippedMetadata(logger, H.NAMESPACE);
  }
  v = identity.sessionId;
  if (isText(v)) {
    if (GRPC_SESSION_ID.ok(v)) out[H.SESSION_ID] = v;
    else skippedMetadata(logger, H.SESSION_ID);
  }
  v = identity.requestId;
  if (isText(v)) {
    if (GRPC_REQUEST_ID.ok(v)) out[H.REQUEST_ID] = v;
    else skippedMetadata(logger, H.REQUEST_ID);
  }
  v = identity.userId;
  if (isText(v)) {
    if (GRPC_USER_ID.ok(v)) out[H.USER_ID] = v;
    else skippedMetadata(logger, H.USER_ID);
  }
  v = identity.subjectId;
  if (isText(v)) {
    if (GRPC_SUBJECT_ID.ok(v)) out[H.SUBJECT_ID] = v;
    else skippedMetadata(logger, H.SUBJECT_ID);
  }
  v = identity.userEmail;
  if (isText(v)) {
    if (GRPC_USER_EMAIL.ok(v)) out[H.USER_EMAIL] = v;
    else skippedMetadata(logger, H.USER_EMAIL);
  }
  v = identity.provider;
  if (isText(v)) {
    if (GRPC_PROVIDER.ok(v)) out[H.PROVIDER] = v;
    else skippedMetadata(logger, H.PROVIDER);
  }
  v = identity.model;
  if (isText(v)) {
    if (GRPC_MODEL.ok(v)) out[H.MODEL] = v;
    else skippedMetadata(logger, H.MODEL);
  }
  v = identity.origin;
  if (isText(v)) {
    if (GRPC_ORIGIN.ok(v)) out[H.ORIGIN] = v;
    else skippedMetadata(logger, H.ORIGIN);
  }
  v = identity.workspace;
  if (isText(v)) {
    if (GRPC_WORKSPACE.ok(v)) out[H.WORKSPACE] = v;
    else skippedMetadata(logger, H.WORKSPACE);
  }
  const claims = identity.claims;
  if (claims == null) return;
  for (const name in claims) {
    if (!Object.prototype.hasOwnProperty.call(claims, name)) continue;
    const v = claims[name];
    if (typeof v !== "string" || v === "") continue;
    const slot = GRPC_CLAIMS.get(name);
    if (slot === null) {
      logger?.warn("headers: skipped a claim whose name is not a legal gRPC metadata key", { claim: name });
    } else if (!slot.ok(v)) {
      logger?.warn("headers: skipped a claim with an invalid gRPC metadata value", { claim: name });
    } else {
      out[slot.key] = v;
    }
  }
}

const H = OmniaHeader;


// The last valid value of each identity header (checked-value.ts).
const HTTP_AGENT_NAME = new CheckedHeaderValue(H.AGENT_NAME);
const HTTP_NAMESPACE = new CheckedHeaderValue(H.NAMESPACE);
const HTTP_SESSION_ID = new CheckedHeaderValue(H.SESSION_ID);
const HTTP_REQUEST_ID = new CheckedHeaderValue(H.REQUEST_ID);
const HTTP_USER_ID = new CheckedHeaderValue(H.USER_ID);
const HTTP_SUBJECT_ID = new CheckedHeaderValue(H.SUBJECT_ID);
const HTTP_USER_EMAIL = new CheckedHeaderValue(H.USER_EMAIL);
const HTTP_PROVIDER = new CheckedHeaderValue(H.PROVIDER);
const HTTP_MODEL = new CheckedHeaderValue(H.MODEL);
const HTTP_ORIGIN = new CheckedHeaderValue(H.ORIGIN);
const HTTP_WORKSPACE = new CheckedHeaderValue(H.WORKSPACE);
const GRPC_AGENT_NAME = new CheckedGrpcValue(H.AGENT_NAME);
const GRPC_NAMESPACE = new CheckedGrpcValue(H.NAMESPACE);
const GRPC_SESSION_ID = new CheckedGrpcValue(H.SESSION_ID);
const GRPC_REQUEST_ID = new CheckedGrpcValue(H.REQUEST_ID);
const GRPC_USER_ID = new CheckedGrpcValue(H.USER_ID);
const GRPC_SUBJECT_ID = new CheckedGrpcValue(H.SUBJECT_ID);
const GRPC_USER_EMAIL = new CheckedGrpcValue(H.USER_EMAIL);
const GRPC_PROVIDER = new CheckedGrpcValue(H.PROVIDER);
const GRPC_MODEL = new CheckedGrpcValue(H.MODEL);
const GRPC_ORIGIN = new CheckedGrpcValue(H.ORIGIN);
const GRPC_WORKSPACE = new CheckedGrpcValue(H.WORKSPACE);

function isText(v: unknown): v is string {
  return typeof v === "string" && v !== "";
}

function skippedHeader(logger: Logger | undefined, header: string): void {
  logger?.warn("headers: skipped an identity header with an invalid value", { header });
}

function skippedMetadata(logger: Logger | undefined, key: string): void {
  logger?.warn("headers: skipped identity metadata with an invalid value", { key });
}

/** Claim name → its lowercase gRPC metadata key, or null when the key is illegal. */
// Claim name -> its header slot, or null when the name makes no legal key.
const HTTP_CLAIMS = new NameCache<CheckedHeaderValue | null>((name) => {
  const key = canonicalClaimHeaderOrUndefined(name);
  return key === undefined ? null : new CheckedHeaderValue(key);
});

const GRPC_CLAIMS = new NameCache<CheckedGrpcValue | null>((name) => {
  const key = OmniaHeader.CLAIM_PREFIX + name.toLowerCase();
  return isValidGrpcMetadataKey(key) ? new CheckedGrpcValue(key) : null;
});
