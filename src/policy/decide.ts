import { toError, type Logger } from "../core/index.js";
import { POLICY_UNREACHABLE_REASON, type Decision, type DecisionRequest, type PolicyOption } from "./types.js";

/**
 * Runs a policy option and resolves every way it can end into a decision: a
 * throw or rejection denies (fail closed) unless `failOpen`. Never throws.
 * @internal Does not follow semver.
 */
export async function decide(option: PolicyOption, request: DecisionRequest, signal: AbortSignal | undefined, logger: Logger): Promise<Decision> {
  const fn = typeof option === "function" ? option : option.decide;
  const failOpen = typeof option === "function" ? false : option.failOpen === true;
  try {
    const decision = await fn(request, signal);
    if (decision === null || typeof decision !== "object" || typeof decision.allow !== "boolean") {
      throw new TypeError(`policy: expected a decision { allow: boolean }; got ${JSON.stringify(decision)}`);
    }
    return decision;
  } catch (e) {
    const error = toError(e);
    logger.error("policy broker unreachable", { toolName: request.toolName, registryName: request.registryName, failOpen, error: error.message });
    return failOpen ? { allow: true } : { allow: false, reason: POLICY_UNREACHABLE_REASON };
  }
}
