export { CONFORMANCE } from "./constants.js";
export type { CheckStatus, CheckResult } from "./constants.js";
