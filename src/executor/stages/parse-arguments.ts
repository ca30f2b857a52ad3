import { InvalidArgumentsError, type JsonValue } from "../../core/index.js";
import type { CallState } from "../call-state.js";
import type { ToolOutcome } from "../outcome.js";
import type { Report } from "../report.js";

type ParsedArgs = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

/** Arguments as JSON text must parse (empty text means none); a parsed value is taken as is. @internal Does not follow semver. */
export function parseArguments(args: string | JsonValue): ParsedArgs {
  if (typeof args !== "string") return { ok: true, value: args };
  if (args.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(args) as JsonValue };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

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
