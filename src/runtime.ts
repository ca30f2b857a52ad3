/**
 * omnia-tools/runtime: the omnia.runtime.v1 contract (1.9.0).
 *
 * @packageDocumentation
 */
export {
  CONTRACT_VERSION,
  Capability,
  knownCapabilities,
  hasCapability,
  normalizeCapabilities,
} from "./contract/index.js";
export type { CapabilityName } from "./contract/index.js";
export * from "./contract/gen.js";
