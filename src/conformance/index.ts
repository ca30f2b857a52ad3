export { CONFORMANCE } from "./constants.js";
export type { CheckStatus, CheckResult } from "./constants.js";
export { runConformance, DEFAULT_CONFORMANCE_TIMEOUT_MS } from "./run-conformance.js";
export type { RunConformanceOptions, ConformanceTarget, ConformanceResult } from "./run-conformance.js";
export { formatConformanceReport } from "./report.js";
export { runtimeBaseUrl } from "./addr.js";
