import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ContentPart, ContentPartSchema, UsageSchema } from "../contract/index.js";
import type { TokenUsage, TurnPart } from "./types.js";

/** Proto `ContentPart`s to flattened parts; empty strings become absent fields. @internal Does not follow semver. */
export function partsFromProto(parts: readonly ContentPart[]): TurnPart[] {
  return parts.map((p) => {
    const out: TurnPart = { type: p.type };
    if (p.text !== "") out.text = p.text;
    const m = p.media;
    if (m !== undefined) {
      if (m.data !== "") out.data = m.data;
      if (m.url !== "") out.url = m.url;
      if (m.mimeType !== "") out.mimeType = m.mimeType;
      if (m.storageRef !== "") out.storageRef = m.storageRef;
    }
    return out;
  });
}

/**
 * Flattened parts to proto inits. As the Go SDK does, the `media` sub-message
 * is created only when one of data/url/mimeType/storageRef is non-empty.
 * @internal Does not follow semver.
 */
export function partsToProto(parts: readonly TurnPart[] | undefined): MessageInitShape<typeof ContentPartSchema>[] {
  if (parts === undefined) return [];
  return parts.map((p) => {
    const data = p.data ?? "";
    const url = p.url ?? "";
    const mimeType = p.mimeType ?? "";
    const storageRef = p.storageRef ?? "";
    const init: MessageInitShape<typeof ContentPartSchema> = { type: p.type, text: p.text ?? "" };
    if (data !== "" || url !== "" || mimeType !== "" || storageRef !== "") init.media = { data, url, mimeType, storageRef };
    return init;
  });
}

/** `undefined` stays unset on the wire. @internal Does not follow semver. */
export function usageToProto(usage: TokenUsage | undefined): MessageInitShape<typeof UsageSchema> | undefined {
  if (usage === undefined) return undefined;
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0, costUsd: usage.costUsd ?? 0 };
}

/** A record sequence position as int64. @internal Does not follow semver. */
export function toInt64(value: bigint | number | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`record_sequence_high_water must be a finite number; got ${value}`);
  const n = typeof value === "bigint" ? value : BigInt(Math.trunc(value));
  if (BigInt.asIntN(64, n) !== n) throw new RangeError(`record_sequence_high_water must fit in int64; got ${n}`);
  return n;
}
