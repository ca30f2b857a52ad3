import type { Logger } from "../core/index.js";

/** A gRPC metadata key as grpc-go accepts it, after lower-casing. */
const LEGAL_KEY = /^[0-9a-z_.-]+$/;
/** Printable ASCII, grpc-go's rule for a (non-binary) metadata value. */
const LEGAL_VALUE = /^[\x20-\x7e]*$/;
/** A `-bin` value must already be base64 (padded or not), as connect's `encodeBinaryHeader` makes it. */
const LEGAL_BINARY_VALUE = /^[A-Za-z0-9+/]*={0,2}$/;
/** The prefix of the per-argument headers, which a gRPC tool never receives. */
const PARAM_PREFIX = "x-omnia-param-";
/**
 * Keys the transport owns: grpc-go's reserved headers (`isReservedHeader`)
 * and HTTP/2's connection-specific ones, which Node refuses to send.
 */
const RESERVED_KEYS = new Set(["content-type", "user-agent", "te", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host"]);

/**
 * The outbound metadata of one gRPC tool call, built from the ready map the
 * caller passes (identity, tool name and registry, `authorization`, broker
 * entries):
 *
 * - keys are lower-cased; when two keys lower-case alike, keys are taken in
 *   ascending code-unit order and the last wins (so an exactly lower-case key
 *   beats `X-Mixed-Case`);
 * - `x-omnia-param-*` entries are dropped (the runtime passes no arguments to
 *   the gRPC metadata builder), logged at debug;
 * - an entry whose key is not `[0-9a-z-_.]+`, starts with `grpc-` or is owned
 *   by the transport (`content-type`, `te`, `user-agent`, ...), or whose value
 *   is not printable ASCII (base64 for a `-bin` key), is skipped and logged at
 *   warn, never failing the call (grpc-go would fail the
 *   RPC with `Internal` instead). The value is never logged.
 *
 * `authorization` passes through as given.
 * @internal Does not follow semver.
 */
export function outboundMetadata(headers: Readonly<Record<string, string>> | undefined, logger: Logger): Record<string, string> {
  if (headers === undefined) return {};
  return cleanLowercase(headers) ?? sortedMetadata(headers, logger);
}

/**
 * The common case in one pass with no sort: every key already lower-case (so
 * no two collide) and every entry legal. `undefined` as soon as one is not,
 * and {@link sortedMetadata} decides (and logs) as always.
 */
function cleanLowercase(headers: Readonly<Record<string, string>>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (key === "__proto__" || key.startsWith(PARAM_PREFIX) || !LEGAL_KEY.test(key) || key.startsWith("grpc-") || RESERVED_KEYS.has(key)) return undefined;
    if (typeof value !== "string" || !(key.endsWith("-bin") ? LEGAL_BINARY_VALUE : LEGAL_VALUE).test(value)) return undefined;
    out[key] = value;
  }
  return out;
}

/** {@link outboundMetadata} for any input: keys in ascending code-unit order, lower-cased, the last of a collision winning. */
function sortedMetadata(headers: Readonly<Record<string, string>>, logger: Logger): Record<string, string> {
  // Built in place: a name already present keeps its position and takes the later value (the sort decides which is later).
  const out: Record<string, string> = {};
  for (const rawKey of Object.keys(headers).sort()) {
    const value = headers[rawKey];
    const key = rawKey.toLowerCase();
    if (key.startsWith(PARAM_PREFIX)) {
      logger.debug("grpc metadata: dropped an x-omnia-param-* entry (gRPC tools get no param metadata)", { key: rawKey });
      continue;
    }
    if (!LEGAL_KEY.test(key) || key.startsWith("grpc-") || RESERVED_KEYS.has(key)) {
      logger.warn("grpc metadata: skipped an entry with an illegal or reserved key", { key: rawKey });
      continue;
    }
    if (typeof value !== "string" || !(key.endsWith("-bin") ? LEGAL_BINARY_VALUE : LEGAL_VALUE).test(value)) {
      logger.warn("grpc metadata: skipped an entry whose value is not a valid metadata value", { key });
      continue;
    }
    // An own data property even for `__proto__`, so that it stays a plain entry.
    if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}
