import { canonicalHeaderKey } from "./canonical.js";
import { newHeaderRecord } from "./header-record.js";
import { NameCache } from "./name-cache.js";
import type { HeaderBuildOptions } from "./params.js";
import { isValidGrpcMetadataKey, isValidGrpcMetadataValue } from "./validity.js";

/**
 * One layer of headers for {@link mergeHeaders}; `undefined` and `null` layers are skipped.
 * @public
 */
export type HeaderLayer = Readonly<Record<string, string>> | undefined | null;

/**
 * Merges header layers case-insensitively; a later layer wins, and within a
 * layer a later entry wins. The result is deterministic: each header appears
 * once, at the position where its name first appeared, spelled as the winning
 * entry spells it, with the winning value.
 *
 * Go 1.3.0 merged in a map keyed by the exact name, so `authorization` and
 * `Authorization` had a random winner; this is the intended,
 * case-insensitive behaviour.
 * @public
 */
export function mergeHeaders(...layers: readonly HeaderLayer[]): Record<string, string> {
  // Fast path: the result is built in place while no name comes back spelled
  // differently (a same-spelled name keeps its position and takes the later
  // value, which is the rule). A re-spelled name needs the general merge.
  const out = newHeaderRecord();
  // Each lower-case name is one shared object, which notes the first spelling
  // this merge saw: two field stores per name, where a second header record
  // (lower-case name → first spelling) cost a keyed store and a keyed load.
  const merge = ++merges;
  const epoch = LOWER_NAMES.epoch;
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i];
    if (layer == null) continue;
    for (const name in layer) {
      if (!hasOwn.call(layer, name)) continue;
      const lower = LOWER_NAMES.get(name);
      if (lower.merge !== merge) {
        if (lower.name === "__proto__") return mergeRespelled(layers);
        lower.merge = merge;
        lower.first = name;
      } else if (lower.first !== name) {
        return mergeRespelled(layers);
      }
      setOwn(out, name, layer[name]!);
    }
  }
  // The notes are only this merge's if no other merge ran meanwhile (a layer's getter can start one)
  // and the names were not forgotten (the memo is emptied when full): otherwise, the general merge.
  if (merges !== merge || LOWER_NAMES.epoch !== epoch) return mergeRespelled(layers);
  return out;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The merges so far: a merge's number marks the lower-case names it has seen. */
let merges = 0;

/** One lower-case header name, shared by all its spellings. */
class LowerName {
  readonly name: string;
  /** The last merge that saw the name, and the spelling it saw first. */
  merge = 0;
  first = "";

  constructor(name: string) {
    this.name = name;
  }
}

/**
 * Header name → its {@link LowerName}, one object per lower-case name: the
 * same names come back on every call. Bounded like a {@link NameCache}
 * (emptied when full); `epoch` counts the times it was emptied, as a merge
 * that saw it emptied cannot trust its notes.
 */
class LowerNames {
  epoch = 0;
  readonly #bySpelling = new Map<string, LowerName>();
  readonly #byLower = new Map<string, LowerName>();

  get(name: string): LowerName {
    const hit = this.#bySpelling.get(name);
    if (hit !== undefined) return hit;
    if (this.#bySpelling.size >= LOWER_NAME_LIMIT) {
      this.#bySpelling.clear();
      this.#byLower.clear();
      this.epoch++;
    }
    const lower = name.toLowerCase();
    let shared = this.#byLower.get(lower);
    if (shared === undefined) {
      shared = new LowerName(lower);
      this.#byLower.set(lower, shared);
    }
    this.#bySpelling.set(name, shared);
    return shared;
  }
}

const LOWER_NAME_LIMIT = 512;
const LOWER_NAMES = new LowerNames();

/** {@link mergeHeaders} when a name appears in two spellings: the winner's spelling at the first one's position. */
function mergeRespelled(layers: readonly HeaderLayer[]): Record<string, string> {
  const merged = new Map<string, [name: string, value: string]>();
  for (const layer of layers) {
    if (layer == null) continue;
    for (const name of Object.keys(layer)) merged.set(name.toLowerCase(), [name, layer[name]!]);
  }
  const out = newHeaderRecord();
  for (const [name, value] of merged.values()) setOwn(out, name, value);
  return out;
}

/**
 * The header sources of one HTTP tool request, named after Omnia's "Tool backend protocol" docs page
 * (contract 1.9.0). See {@link mergeHttpToolHeaders}.
 * @public
 */
export interface HttpToolHeaderSources {
  /** The request's `Content-Type`: `httpConfig.contentType` or `application/json`. Pass it only when a body is sent. */
  contentType?: string | undefined;
  /** `httpConfig.headers`, the static headers. */
  headers?: HeaderLayer;
  /** The `auth` stanza's header: `Authorization` (or the WIF header). */
  auth?: HeaderLayer;
  /** `headersFromSecret`. */
  headersFromSecret?: HeaderLayer;
  /** The Omnia headers: identity, tool name/registry, delegation and `x-omnia-param-*` ({@link buildOmniaHeaders}). */
  omnia?: HeaderLayer;
  /** Headers injected by the ToolPolicy broker on allow. */
  injected?: HeaderLayer;
  /** The headers built from `headerParams` (advanced path only). */
  headerParams?: HeaderLayer;
}

/**
 * The precedence of {@link HttpToolHeaderSources}, lowest first: on a name
 * collision a later source wins (Omnia's "Tool backend protocol" docs page).
 * @public
 */
export const HTTP_TOOL_HEADER_PRECEDENCE = Object.freeze([
  "contentType",
  "headers",
  "auth",
  "headersFromSecret",
  "omnia",
  "injected",
  "headerParams",
] as const satisfies ReadonlyArray<keyof HttpToolHeaderSources>);

/**
 * The headers of an HTTP tool request, merged case-insensitively in the
 * order of Omnia's "Tool backend protocol" docs page: `Content-Type` < `httpConfig.headers` < auth <
 * `headersFromSecret` < Omnia headers < broker-injected < `headerParams`.
 * So a static `Content-Type` beats the configured one, the tool's credential
 * beats a static `Authorization`, the Omnia headers beat static spoofs of
 * `x-omnia-*`, and `headerParams` beat everything, `Authorization` included.
 *
 * The caller's inbound token is in none of these sources: {@link Identity}
 * has no field for it, so it cannot leave the process through this merge.
 * @public
 */
export function mergeHttpToolHeaders(sources: HttpToolHeaderSources): Record<string, string> {
  const contentType = sources.contentType === undefined ? undefined : { "Content-Type": sources.contentType };
  return mergeHeaders(
    contentType,
    sources.headers,
    sources.auth,
    sources.headersFromSecret,
    sources.omnia,
    sources.injected,
    sources.headerParams,
  );
}

/**
 * The metadata sources of one gRPC tool call (Omnia's "Tool backend protocol" docs page). See {@link mergeGrpcToolMetadata}.
 * @public
 */
export interface GrpcToolMetadataSources {
  /** The Omnia metadata: identity, tool name/registry, session, delegation ({@link buildOmniaGrpcMetadata}). */
  omnia?: HeaderLayer;
  /** The handler's credential, sent as `authorization`, e.g. `Bearer <token>`. */
  authorization?: string | undefined;
  /** Headers injected by the ToolPolicy broker on allow. */
  injected?: HeaderLayer;
}

/**
 * The precedence of {@link GrpcToolMetadataSources}, lowest first.
 * @public
 */
export const GRPC_TOOL_METADATA_PRECEDENCE = Object.freeze(["omnia", "authorization", "injected"] as const satisfies ReadonlyArray<
  keyof GrpcToolMetadataSources
>);

/**
 * The metadata of a gRPC tool call (Omnia's "Tool backend protocol" docs page): the Omnia metadata, then
 * `authorization` carrying the handler's credential, then broker-injected
 * headers, a later source winning on a name collision. Keys are lower-cased;
 * an entry with an illegal key (outside `[0-9a-z-_.]`, or `grpc-…`) or a value
 * outside printable ASCII is skipped and logged at warn instead of failing the
 * call. There is never an `x-omnia-param-*` entry unless a source adds one.
 * @public
 */
export function mergeGrpcToolMetadata(sources: GrpcToolMetadataSources, options?: HeaderBuildOptions): Record<string, string> {
  // Every key is lower-cased, so the case-insensitive merge is a merge on the
  // lowercase key, done in one object (a key keeps its first position and
  // takes the last value). When every entry put was legal, so is every
  // winner; otherwise the winners are checked, as before.
  const out = newHeaderRecord();
  let legal = putLowercase(out, sources.omnia);
  if (sources.authorization !== undefined) {
    setOwn(out, "authorization", sources.authorization);
    legal = isValidGrpcMetadataValue(sources.authorization) && legal;
  }
  legal = putLowercase(out, sources.injected) && legal;
  if (legal) return out;
  let skipped: string[] | undefined;
  for (const key of Object.keys(out)) {
    if (!isValidGrpcMetadataKey(key)) {
      options?.logger?.warn("headers: skipped gRPC metadata with an illegal key", { key });
      (skipped ??= []).push(key);
    } else if (!isValidGrpcMetadataValue(out[key]!)) {
      options?.logger?.warn("headers: skipped gRPC metadata with an illegal value", { key });
      (skipped ??= []).push(key);
    }
  }
  if (skipped === undefined) return out;
  const kept = newHeaderRecord();
  for (const key of Object.keys(out)) if (!skipped.includes(key)) setOwn(kept, key, out[key]!);
  return kept;
}

/** Puts the layer's entries under their lowercase keys; false when one of them has an illegal key or value. */
function putLowercase(out: Record<string, string>, layer: HeaderLayer): boolean {
  if (layer == null) return true;
  let legal = true;
  for (const name in layer) {
    if (!hasOwn.call(layer, name)) continue;
    const key = GRPC_KEYS.get(name);
    const value = layer[name]!;
    setOwn(out, key.key, value);
    if (!key.legal || !isValidGrpcMetadataValue(value)) legal = false;
  }
  return legal;
}

/** Name → its lowercase gRPC key and whether that key is legal. */
const GRPC_KEYS = new NameCache<{ readonly key: string; readonly legal: boolean }>((name) => {
  const key = name.toLowerCase();
  return { key, legal: isValidGrpcMetadataKey(key) };
});

/**
 * The headers with MIME-canonical names ({@link canonicalHeaderKey}), as Go's
 * `http.Header.Set` stores them: the form the policy broker receives in
 * `DecisionRequest.headers` (`X-Omnia-Tool-Name`, `X-Omnia-Claim-Tier`,
 * `X-Omnia-Param-Customerid`). Names that canonicalise alike: the later wins.
 * @public
 */
export function canonicalizeHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out = newHeaderRecord();
  for (const name in headers) if (hasOwn.call(headers, name)) setOwn(out, CANONICAL.get(name), headers[name]!);
  return out;
}

/** Name → {@link canonicalHeaderKey}: the same names come back on every call. */
const CANONICAL = new NameCache<string>(canonicalHeaderKey);

/** `obj[key] = value` as an own data property, even for `__proto__`. */
function setOwn(obj: Record<string, string>, key: string, value: string): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
