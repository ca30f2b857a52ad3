import { parseArgs, type ParseArgsConfig } from "node:util";
import type { CliCommand, CliIo } from "./cli-command.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The parsed flags and positionals, or `undefined` when a usage error was printed. */
export function parseCommandArgs<T extends Options>(
  command: CliCommand,
  args: readonly string[],
  options: T,
  io: CliIo,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } | undefined {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    usageError(command, io, error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

/** `omnia-tools <cmd>: <problem>` and the command's usage, on stderr. */
export function usageError(command: CliCommand, io: CliIo, problem: string): void {
  io.stderr(`omnia-tools ${command.name}: ${problem}\nUsage: omnia-tools ${command.usage}\n`);
}
