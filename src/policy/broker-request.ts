import { goJsonMarshal, goJsonString } from "../core/index.js";
import type { IdentityPayload } from "../headers/index.js";
import type { DecisionRequest } from "./types.js";

/**
 * The JSON body of `POST /v1/decision` (`pkg/policy/broker_contract.go`), byte for byte
 * what Omnia's `json.Marshal(policy.DecisionRequest{...})` writes: the struct
 * fields in declaration order (`headers`, `body`, `identity`; the identity's
 * `origin`, `subject`, `endUser`, `workspace`, `agent`, `claims`), map keys
 * sorted, Go's HTML-safe string escaping, `null` for an absent body, identity
 * or claims.
 *
 * The 1.3.0 struct also had `role`; the 1.9.0 payload carries roles as
 * `claims.role` and has no such field, so none is written.
 * @internal Does not follow semver.
 */
export function marshalDecisionRequest(request: DecisionRequest): string {
  return `{"headers":${goJsonMarshal(request.headers)},"body":${goJsonMarshal(request.arguments)},"identity":${marshalIdentity(request.identity)}}`;
}

function marshalIdentity(identity: IdentityPayload | null): string {
  if (identity === null) return "null";
  return (
    `{"origin":${goJsonString(identity.origin)},"subject":${goJsonString(identity.subject)},"endUser":${goJsonString(identity.endUser)}` +
    `,"workspace":${goJsonString(identity.workspace)},"agent":${goJsonString(identity.agent)},"claims":${goJsonMarshal(identity.claims)}}`
  );
}
