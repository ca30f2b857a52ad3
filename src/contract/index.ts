export { CONTRACT_VERSION, SEMVER_PATTERN, readContractVersionMarker } from "./version.js";
export { Capability, knownCapabilities, hasCapability, normalizeCapabilities } from "./capabilities.js";
export type { CapabilityName } from "./capabilities.js";
export { contractSurfaceLines, contractSurfaceFingerprint } from "./surface.js";
export * from "./gen.js";
