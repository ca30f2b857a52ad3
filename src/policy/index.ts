export { PolicyDeniedError, POLICY_UNREACHABLE_REASON } from "./types.js";
export type { DecisionRequest, Decision, PolicyAudit, PolicyDecide, PolicyOption } from "./types.js";
export { decide } from "./decide.js";
export {
  createPolicyBrokerClient,
  policyDenialReason,
  POLICY_BROKER_DECISION_PATH,
  DEFAULT_POLICY_BROKER_TIMEOUT_MS,
  POLICY_BROKER_UNREACHABLE_RULE,
} from "./broker-client.js";
export type { PolicyBrokerClient, PolicyBrokerClientOptions } from "./broker-client.js";
export { marshalDecisionRequest } from "./broker-request.js";
export { decodeDecisionResponse } from "./broker-response.js";
export type { DecisionResponse } from "./broker-response.js";
