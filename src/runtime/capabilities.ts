import { Capability, normalizeCapabilities } from "../contract/index.js";
import type { RuntimeHandler } from "./types.js";

/** Never advertised: the SDK refuses duplex sessions (`DUPLEX_UNSUPPORTED`) and so never interrupts. */
const NEVER_ADVERTISED: ReadonlySet<string> = new Set([Capability.DUPLEX_AUDIO, Capability.INTERRUPTION]);

/**
 * The capability list for one `Health` answer or one `RuntimeHello`: the
 * option, else `handler.capabilities()`, else `["invoke"]`/`[]` by whether
 * `invoke` is implemented; de-duplicated (first occurrence order) so a hello
 * equals Health under the conformance comparison; without `duplex_audio` and
 * `interruption`, and without `invoke` when the handler cannot serve it.
 * @internal Does not follow semver.
 */
export function resolveCapabilities(handler: RuntimeHandler, configured: readonly string[] | undefined): string[] {
  const canInvoke = typeof handler.invoke === "function";
  const raw = configured ?? (typeof handler.capabilities === "function" ? handler.capabilities() : canInvoke ? [Capability.INVOKE] : []);
  return normalizeCapabilities(raw).filter((c) => !NEVER_ADVERTISED.has(c) && (canInvoke || c !== Capability.INVOKE));
}
