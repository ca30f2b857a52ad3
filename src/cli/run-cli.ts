import { didYouMean } from "../core/index.js";
import { EXIT_OK, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";
import { COMMANDS } from "./commands.js";

/** The top-level usage, built from the command table. */
export function usage(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "Usage: omnia-tools <command> [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}\n  ${" ".repeat(width)}  omnia-tools ${c.usage}`),
    "",
    'Run "omnia-tools <command> --help" for the options of a command.',
    "",
  ].join("\n");
}

/**
 * Runs `omnia-tools <args>` and resolves to the exit code: 0 success, 1 a
 * failure the command reports (a tool error, a mismatch with --strict), 2 a
 * usage or configuration error.
 * @internal Does not follow semver.
 */
export async function runCli(args: readonly string[], io: CliIo, commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    io.stderr(usage(commands));
    return EXIT_USAGE;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(usage(commands));
    return EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    const hint = didYouMean(name, commands.map((c) => c.name));
    io.stderr(`omnia-tools: unknown command ${JSON.stringify(name)}${hint === undefined ? "" : ` (${hint})`}\n\n${usage(commands)}`);
    return EXIT_USAGE;
  }
  return command.run(rest, io);
}
