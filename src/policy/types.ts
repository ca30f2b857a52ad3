import { ErrorCode, OmniaToolsError, type JsonValue, type ToolHandlerType } from "../core/index.js";
import type { IdentityPayload } from "../headers/index.js";

/**
 * What a policy decision is asked about: one server-executed tool call, before
 * any backend call and outside the retry loop, once per call (retries never re-ask).
 * @public
 */
export interface DecisionRequest {
  readonly toolName: string;
  readonly handlerName: string;
  /** The type of the handler that serves the tool (`http`, `grpc`, `mcp`, `openapi`, `platform`). */
  readonly handlerType: ToolHandlerType;
  /** The ToolRegistry name (ToolPolicy `selector.registry`), else the handler name. */
  readonly registryName: string;
  /**
   * The arguments parsed as a JSON object; `null` when empty or not an object.
   * The request's own copy: changing it changes neither the request sent to
   * the backend nor the record.
   */
  readonly arguments: { readonly [key: string]: JsonValue } | null;
  /** The broker's identity object; `null` when no identity field is set. */
  readonly identity: IdentityPayload | null;
  /**
   * The headers an HTTP tool call would carry, MIME-canonicalised
   * (`X-Omnia-Tool-Name`, `X-Omnia-Claim-Customer_id`, `X-Omnia-Param-Customerid`).
   * Never credentials, static headers or the inbound Authorization.
   */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * An audit-mode match: the policy would have denied the call, but runs in audit
 * mode, so the call proceeds and the would-be denial is reported. The broker
 * sends it as `wouldDeny: true` with the rule's `deniedBy` and `message`
 * (the broker's audit mode, Omnia's `ee/pkg/policy/evaluator.go`).
 * @public
 */
export interface PolicyAudit {
  /** The rule that matched: a rule name or `required-claim:<claim>`. */
  readonly deniedBy: string;
  /** The rule's human text (may be empty). */
  readonly message: string;
}

/**
 * A policy's answer. An allow may inject headers, which win over the Omnia
 * headers and lose to `headerParams`. An allow may also carry `audit`: the
 * call proceeds, and the executor records the would-be denial on the call's
 * record (`ToolCallRecord.policyAudit`).
 * @public
 */
export type Decision =
  | {
      readonly allow: true;
      readonly headers?: Readonly<Record<string, string>> | undefined;
      /** Audit mode: the denial that would have happened in enforce mode. */
      readonly audit?: PolicyAudit | undefined;
    }
  | { readonly allow: false; readonly reason: string };

/**
 * A policy decision function. It may be async; it receives a signal that aborts
 * when the call is abandoned.
 * @public
 */
export type PolicyDecide = (request: DecisionRequest, signal?: AbortSignal) => Decision | Promise<Decision>;

/**
 * The executor's `policy` option: a decision function, or one with options.
 * A function that throws (or rejects) denies the call — fail closed — unless
 * `failOpen` is set.
 * @public
 */
export type PolicyOption = PolicyDecide | { readonly decide: PolicyDecide; readonly failOpen?: boolean };

/**
 * The reason recorded when a policy function throws and the policy fails closed.
 * @public
 */
export const POLICY_UNREACHABLE_REASON = 'policy broker unreachable; failing closed (rule "policy-broker-unreachable")';

/**
 * A policy denied the call. The outcome is `denied` with message
 * `tool call denied by policy: <reason>`; no backend was called.
 * @public
 */
export class PolicyDeniedError extends OmniaToolsError {
  static override readonly code = ErrorCode.POLICY_DENIED;
  declare readonly code: typeof ErrorCode.POLICY_DENIED;
  readonly reason: string;
  constructor(reason: string) {
    super(`tool call denied by policy: ${reason}`);
    this.reason = reason;
  }
}
