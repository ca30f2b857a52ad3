/**
 * The caller identity that crosses the facade → runtime → tool hops as flat
 * `x-omnia-*` headers (Omnia's `pkg/policy/context.go`). Every field is optional; an empty string
 * is the same as an absent field and is never emitted.
 *
 * The inbound `Authorization` token is deliberately not a field: it never
 * leaves the process (Omnia `pkg/policy/context.go`).
 * @public
 */
export interface Identity {
  /** `x-omnia-agent-name`: the AgentRuntime the call runs under. */
  agentName?: string | undefined;
  /** `x-omnia-namespace`: the agent's Kubernetes namespace (never the workspace). */
  namespace?: string | undefined;
  /** `x-omnia-session-id`: the conversation session. */
  sessionId?: string | undefined;
  /** `x-omnia-request-id`: the per-request correlation id. */
  requestId?: string | undefined;
  /** `x-omnia-user-id`: who the call is FOR, pseudonymised. */
  userId?: string | undefined;
  /** `x-omnia-subject-id`: who presented the credential, pseudonymised (contract 1.9.0). */
  subjectId?: string | undefined;
  /** `x-omnia-user-email`: the caller's email address. */
  userEmail?: string | undefined;
  /** `x-omnia-origin`: the validator that admitted the request (`oidc`, `edge-trust`, …). */
  origin?: string | undefined;
  /** `x-omnia-workspace`: the token's workspace, else the agent's. */
  workspace?: string | undefined;
  /** `x-omnia-provider`: the runtime's Provider `spec.type` (`claude`, `openai`, …). */
  provider?: string | undefined;
  /** `x-omnia-model`: the Provider's `spec.model`. */
  model?: string | undefined;
  /** One `x-omnia-claim-<name>` header per claim, value verbatim. */
  claims?: Record<string, string> | undefined;
}

/**
 * What the runtime knows about itself: the `agent` option of
 * `createToolExecutor`. It fills or overrides identity fields on the tool hop
 * (see `buildOmniaHeaders`).
 * @public
 */
export interface AgentInfo {
  /** The AgentRuntime name (`x-omnia-agent-name`). */
  name?: string | undefined;
  /** The agent's Kubernetes namespace (`x-omnia-namespace`). */
  namespace?: string | undefined;
  /** The agent's deployed workspace, used when the identity carries none. */
  workspace?: string | undefined;
  /** The Provider's `spec.type` (`x-omnia-provider`). */
  provider?: string | undefined;
  /** The Provider's `spec.model` (`x-omnia-model`). */
  model?: string | undefined;
}

/**
 * What {@link identityFromMetadata} reads from one call's incoming metadata:
 * the propagated identity, plus the three facade-hop keys, which are kept out
 * of `identity` so that they can never reach a tool, a claim or the broker.
 * @public
 */
export interface IncomingIdentity {
  /** The propagated identity. Empty values are absent; `claims` is absent when no claim key arrived. */
  identity: Identity;
  /** `x-omnia-client-tools` is exactly `"true"`: a client can answer client-side tool calls. */
  clientToolsAvailable: boolean;
  /** `x-omnia-session-open` is exactly `"true"`: this stream's message opened the session. */
  sessionOpen: boolean;
  /** The bytes of `x-omnia-declare-bin`, only when `sessionOpen` is true. */
  declare?: Uint8Array;
}

/**
 * The `identity` object of a policy-broker `DecisionRequest`
 * (Omnia `pkg/policy/broker_contract.go`). No key is omitted: empty strings
 * are sent as `""` and `claims` is `null` when the identity has no claim map.
 * @public
 */
export interface IdentityPayload {
  origin: string;
  subject: string;
  endUser: string;
  workspace: string;
  agent: string;
  claims: Record<string, string> | null;
}
