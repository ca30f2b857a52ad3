import { Capability, normalizeCapabilities } from "../contract/index.js";
import type { RuntimeHandler } from "./types.js";

/** Advertised only by a handler that implements `duplex`: without it duplex sessions are refused (`DUPLEX_UNSUPPORTED`). */
const DUPLEX_ONLY: ReadonlySet<string> = new Set([Capability.DUPLEX_AUDIO, Capability.INTERRUPTION]);

/**
 * The capability list for one `Health` answer or one `RuntimeHello`: the
 * option, else `handler.capabilities()`, else `invoke` and `duplex_audio` by
 * whether `invoke` and `duplex` are implemented; de-duplicated (first
 * occurrence order) so a hello equals Health under the conformance comparison;
 * without `duplex_audio` and `interruption` when the handler has no `duplex`,
 * and without `invoke` when it has no `invoke`.
 * @internal Does not follow semver.
 */
export function resolveCapabilities(handler: RuntimeHandler, configured: readonly string[] | undefined): string[] {
  const canInvoke = typeof handler.invoke === "function";
  const canDuplex = typeof handler.duplex === "function";
  const derived = [...(canInvoke ? [Capability.INVOKE] : []), ...(canDuplex ? [Capability.DUPLEX_AUDIO] : [])];
  const raw = configured ?? (typeof handler.capabilities === "function" ? handler.capabilities() : derived);
  return normalizeCapabilities(raw).filter((c) => (canDuplex || !DUPLEX_ONLY.has(c)) && (canInvoke || c !== Capability.INVOKE));
}
