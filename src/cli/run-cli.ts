import { didYouMean, thrownText } from "../core/index.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";
import { COMMANDS } from "./commands.js";
import { escapeTerminalText } from "./terminal-text.js";

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
 *
 * Every text a command writes goes through {@link terminalSafeIo}: control
 * characters a peer put in it (a backend's error body, an MCP server's
 * message) reach the terminal as visible `\u00XX` escapes. A command that
 * throws prints `omnia-tools <command>: <message>` on stderr and exits 1,
 * never a stack.
 * @internal Does not follow semver.
 */
export async function runCli(args: readonly string[], rawIo: CliIo, commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  const io = terminalSafeIo(rawIo);
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
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.stderr(`omnia-tools ${command.name}: ${thrownText(error)}\n`);
    return EXIT_FAILURE;
  }
}

/**
 * The one choke point between the commands and the terminal: `stdout` and
 * `stderr` write {@link escapeTerminalText}'s form of every text (C0 controls
 * but `\t` and `\n`, DEL and C1 controls as `\u00XX`; JSON output stays the
 * same JSON); `control` writes the CLI's own control sequences as they are.
 * @internal Does not follow semver.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  const stderr = (text: string): void => io.stderr(text);
  return {
    stdout: (text) => io.stdout(escapeTerminalText(text)),
    stderr: (text) => stderr(escapeTerminalText(text)),
    control: io.control ?? stderr,
    readFile: (path) => io.readFile(path),
    ...(io.stderrIsTerminal === undefined ? {} : { stderrIsTerminal: io.stderrIsTerminal }),
    ...(io.clock === undefined ? {} : { clock: io.clock }),
  };
}
