export { checkBackend } from "./lazy.js";
export type { BackendCheckReport, BackendCheckResult, BackendCheckStatus, BackendCheckName, CheckBackendOptions } from "./types.js";
