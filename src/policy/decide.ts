import { toError, type Logger } from "../core/index.js";
import { POLICY_UNREACHABLE_REASON, type Decision, type PolicyAudit, type DecisionRequest, type PolicyOption } from "./types.js";

/**
 * Copies a host's decision into a plain object, reading each field once: a
 * getter that changes its answer or throws later cannot reach the call. A
 * value that is not `{ allow: boolean }`, whose `reason` or `audit` texts are
 * not strings, or whose headers are not strings, is a failure of the policy.
 */
function plainDecision(value: unknown): Decision {
  if (value === null || typeof value !== "object") throw new TypeError(`policy: expected a decision { allow: boolean }; got ${describe(value)}`);
  const decision = value as Record<string, unknown>;
  const allow = decision.allow;
  if (typeof allow !== "boolean") throw new TypeError("policy: expected a decision { allow: boolean }");
  if (!allow) {
    const reason = decision.reason;
    if (typeof reason !== "string") throw new TypeError("policy: a denial's reason must be a string");
    return { allow: false, reason };
  }
  const headers = decision.headers;
  const audit = decision.audit;
  let copied: Record<string, string> | undefined;
  if (headers !== undefined) {
    if (headers === null || typeof headers !== "object") throw new TypeError("policy: headers must be an object of strings");
    copied = {};
    for (const name of Object.keys(headers)) {
      const v = (headers as Record<string, unknown>)[name];
      if (typeof v !== "string") throw new TypeError(`policy: header ${JSON.stringify(name)} must be a string`);
      copied[name] = v;
    }
  }
  let auditCopy: PolicyAudit | undefined;
  if (audit !== undefined) {
    if (audit === null || typeof audit !== "object") throw new TypeError("policy: audit must be { deniedBy, message }");
    const { deniedBy, message } = audit as Record<string, unknown>;
    if (typeof deniedBy !== "string" || typeof message !== "string") throw new TypeError("policy: audit must be { deniedBy, message }");
    auditCopy = { deniedBy, message };
  }
  return { allow: true, ...(copied === undefined ? {} : { headers: copied }), ...(auditCopy === undefined ? {} : { audit: auditCopy }) };
}

/** A short safe text for a value that is not an object. */
function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : typeof value === "symbol" ? "a symbol" : String(value);
}

/**
 * Runs a policy option and resolves every way it can end into a decision: a
 * throw or rejection denies (fail closed) unless `failOpen`. Never throws.
 * @internal Does not follow semver.
 */
export async function decide(option: PolicyOption, request: DecisionRequest, signal: AbortSignal | undefined, logger: Logger): Promise<Decision> {
  const fn = typeof option === "function" ? option : option.decide;
  const failOpen = typeof option === "function" ? false : option.failOpen === true;
  try {
    return plainDecision(await fn(request, signal));
  } catch (e) {
    const error = toError(e);
    logger.error("policy broker unreachable", { toolName: request.toolName, registryName: request.registryName, failOpen, error: error.message });
    return failOpen ? { allow: true } : { allow: false, reason: POLICY_UNREACHABLE_REASON };
  }
}
