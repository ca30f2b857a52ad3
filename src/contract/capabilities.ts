/**
 * The capability names contract 1.9.0 defines. A runtime advertises the ones it
 * implements in `HealthResponse.capabilities` and in every `RuntimeHello`.
 *
 * The set is open: a newer runtime may advertise a name not listed here, so
 * capability lists are typed `string[]` and unknown names are kept, never
 * rejected. `consent_grants` was retired with `ClientMessage.consent_grants`
 * and is not listed.
 * @public
 */
export const Capability = Object.freeze({
  /** Serves the one-shot `Invoke` RPC (function mode). */
  INVOKE: "invoke",
  /** Serves duplex audio sessions (`duplex_start` / `audio_input` / `media_chunk`). */
  DUPLEX_AUDIO: "duplex_audio",
  /** Completes the client-side tool round trip (`tool_call` then `client_tool_result`). */
  CLIENT_TOOLS: "client_tools",
  /** Resolves `storage_ref` attachments to fetchable media. */
  MEDIA_STORAGE_REF: "media_storage_ref",
  /** Emits realtime voice interruption (barge-in) signals. */
  INTERRUPTION: "interruption",
} as const);

/**
 * A capability name this build knows. Lists of capabilities are `string[]`.
 * @public
 */
export type CapabilityName = (typeof Capability)[keyof typeof Capability];

/**
 * The capability names this contract build defines, in the contract's order.
 * Returns a fresh array.
 * @public
 */
export function knownCapabilities(): string[] {
  return Object.values(Capability);
}

/**
 * Whether `list` holds `name`: exact, case-sensitive.
 * @public
 */
export function hasCapability(list: readonly string[], name: string): boolean {
  return list.includes(name);
}

/**
 * De-duplicates a capability list, keeping the first occurrence's order, so
 * that a hello's list equals Health's under the conformance suite's comparison.
 * @public
 */
export function normalizeCapabilities(list: Iterable<string>): string[] {
  return [...new Set(list)];
}
