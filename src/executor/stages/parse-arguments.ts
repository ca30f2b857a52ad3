import { InvalidArgumentsError } from "../../core/index.js";
import type { CallState } from "../call-state.js";
import type { ToolOutcome } from "../outcome.js";
import type { Report } from "../report.js";

/**
 * Stage 2, parse the arguments: text that is not JSON fails the call before
 * anything is sent (`invalid arguments for tool "<name>": <why>`).
 * @internal Does not follow semver.
 */
export function checkArguments(report: Report, state: CallState): ToolOutcome | undefined {
  if (state.argsError === undefined) return undefined;
  const error = new InvalidArgumentsError(`invalid arguments for tool ${JSON.stringify(state.toolName)}: ${state.argsError}`);
  return report.fail(state, error);
}
