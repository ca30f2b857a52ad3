import { parseArgs, type ParseArgsConfig } from "node:util";
import { didYouMean } from "../core/index.js";
import { parseSchemaTargets, type SchemaTarget } from "../manifest/index.js";
import { EXIT_OK, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * The parsed flags and positionals; or, already handled, an exit code: `-h` /
 * `--help` (every command has it) printed the command's help (EXIT_OK), or a
 * usage error was printed (EXIT_USAGE).
 */
export function parseCommandArgs<T extends Options>(
  command: CliCommand,
  args: readonly string[],
  options: T,
  io: CliIo,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } | number {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const out = parseArgs({ args: [...args], options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
    parsed = { values: out.values as Record<string, string | boolean | undefined>, positionals: out.positionals };
  } catch (error) {
    usageError(command, io, unknownFlagHint(error, Object.keys(options)) ?? (error instanceof Error ? error.message : String(error)));
    return EXIT_USAGE;
  }
  if (parsed.values.help === true) {
    io.stdout(command.help);
    return EXIT_OK;
  }
  return parsed;
}

/** `omnia-tools <cmd>: <problem>` and the command's usage, on stderr. */
export function usageError(command: CliCommand, io: CliIo, problem: string): void {
  io.stderr(`omnia-tools ${command.name}: ${problem}\nUsage: omnia-tools ${command.usage}\n`);
}

/**
 * The `--target <list>` flag's providers (none when it is absent), or
 * EXIT_USAGE after the usage error naming the bad one.
 */
export function readTargetsFlag(command: CliCommand, io: CliIo, value: unknown): readonly SchemaTarget[] | number {
  if (value === undefined) return [];
  const read = parseSchemaTargets(value, "--target");
  if ("error" in read) {
    usageError(command, io, read.error);
    return EXIT_USAGE;
  }
  return read.targets;
}

/** `unknown option "--jsn" (did you mean "--json"?)` for a likely typo of a long flag; undefined otherwise (Node's own text is kept). */
function unknownFlagHint(error: unknown, flags: readonly string[]): string | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return undefined;
  const flag = /^Unknown option '--([^'=]+)/.exec(error.message)?.[1];
  if (flag === undefined) return undefined;
  const hint = didYouMean(flag, [...flags, "help"], (name) => `"--${name}"`);
  return hint === undefined ? undefined : `unknown option "--${flag}" (${hint})`;
}

/**
 * The `--registry <file>` a command requires, with no positional argument
 * beside it (probe, backend-check); or the exit code after the usage error
 * was printed.
 */
export function requireRegistryFlag(command: CliCommand, io: CliIo, parsed: { readonly values: { readonly registry?: unknown }; readonly positionals: readonly string[] }): string | number {
  const file = parsed.values.registry;
  if (typeof file !== "string") {
    usageError(command, io, "--registry is required");
    return EXIT_USAGE;
  }
  if (parsed.positionals.length > 0) {
    usageError(command, io, `unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
    return EXIT_USAGE;
  }
  return file;
}
