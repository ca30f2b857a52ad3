export { PolicyDeniedError, POLICY_UNREACHABLE_REASON } from "./types.js";
export type { DecisionRequest, Decision, PolicyDecide, PolicyOption } from "./types.js";
export { decide } from "./decide.js";
