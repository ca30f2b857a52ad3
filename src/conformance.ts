/**
 * omnia-tools/conformance: the protocol conformance suite for omnia.runtime.v1 runtimes.
 *
 * @packageDocumentation
 */
export { CONFORMANCE } from "./conformance/index.js";
export type { CheckStatus, CheckResult } from "./conformance/index.js";
