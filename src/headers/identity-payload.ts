import type { Identity, IdentityPayload } from "./identity.js";

/**
 * Omnia's `IdentityPayloadFromPropagation` (`pkg/policy/broker_contract.go`): the `identity`
 * object of a policy-broker `DecisionRequest`, rebuilt from the flat fields.
 * - `null` when no identity is given, or when user id, subject id, agent name,
 *   origin and workspace are all empty and there is no claim: unauthenticated
 *   or dev traffic sends `"identity": null`. Namespace, email, session,
 *   request, provider and model never make it non-null and are never copied.
 * - `subject` is the subject id, falling back to the user id when the subject
 *   is absent (a facade predating `x-omnia-subject-id`); `endUser` is the user id.
 * - `claims` is a copy of the claim map, or `null` when the identity has none.
 *
 * Decision: a non-empty subject id alone makes the payload non-null
 * (Omnia 1.3.0 checks user id, agent, origin, workspace and claims, and has no
 * subject id; the 1.9.0 subject id counts like the user id).
 * Key order is the wire order: origin, subject, endUser, workspace, agent, claims.
 * @public
 */
export function identityPayload(identity: Identity | undefined | null): IdentityPayload | null {
  if (identity == null) return null;
  const userId = identity.userId ?? "";
  const subjectId = identity.subjectId ?? "";
  const agent = identity.agentName ?? "";
  const origin = identity.origin ?? "";
  const workspace = identity.workspace ?? "";
  const claims = identity.claims;
  const hasClaims = claims != null && Object.keys(claims).length > 0;
  if (userId === "" && subjectId === "" && agent === "" && origin === "" && workspace === "" && !hasClaims) return null;
  return {
    origin,
    subject: subjectId !== "" ? subjectId : userId,
    endUser: userId,
    workspace,
    agent,
    claims: claims == null ? null : { ...claims },
  };
}
