import { readFile } from "node:fs/promises";
import type { Clock } from "../core/index.js";

/** Exit codes shared by every subcommand: 0 success, 1 failure, 2 usage or config error. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * Where a command reads files and writes output. Tests pass their own; the bin
 * passes {@link nodeCliIo}.
 * @internal Does not follow semver.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Writes one of the CLI's own terminal control sequences to stderr as is
   * (the progress line's `\r` and erase-line), where `stderr` escapes control
   * characters (see `runCli`). Default: `stderr`.
   */
  readonly control?: (sequence: string) => void;
  readFile(path: string): Promise<string>;
  /** Whether stderr is a terminal (progress lines are drawn only then). Default `false`. */
  readonly stderrIsTerminal?: boolean;
  /** The clock commands run on (`call`: the executor's timeouts and the progress line). Default `systemClock`. */
  readonly clock?: Clock;
}

/**
 * One `omnia-tools <name>` subcommand. To add one (`call`), write a module that
 * exports a `CliCommand` and list it in `commands.ts`.
 * @internal Does not follow semver.
 */
export interface CliCommand {
  /** The word after `omnia-tools`. */
  readonly name: string;
  /** The synopsis line(s) shown in the top-level usage, without `omnia-tools`. */
  readonly usage: string;
  /** One line: what it does. */
  readonly summary: string;
  /** Full help for `omnia-tools <name> --help`. */
  readonly help: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/**
 * The process's streams and file system.
 * @internal Does not follow semver.
 */
export function nodeCliIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readFile: (path) => readFile(path, "utf8"),
    stderrIsTerminal: process.stderr.isTTY === true,
  };
}
