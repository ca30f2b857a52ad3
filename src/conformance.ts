/**
 * omnia-tools/conformance: the protocol conformance suite for omnia.runtime.v1 runtimes.
 *
 * @packageDocumentation
 */
export { CONFORMANCE, runConformance, DEFAULT_CONFORMANCE_TIMEOUT_MS, formatConformanceReport } from "./conformance/index.js";
export type { CheckStatus, CheckResult, RunConformanceOptions, ConformanceTarget, ConformanceResult } from "./conformance/index.js";
export type { Clock, TimerHandle } from "./core/index.js";
