export { isOmniaToolsError } from "./error-by-code.js";
export type { OmniaToolsErrorByCode } from "./error-by-code.js";
