import { isOmniaToolsError, type ConfigIssue } from "../core/index.js";
import type { ManifestIssue } from "../manifest/index.js";
import { EXIT_FAILURE, EXIT_USAGE, type CliIo } from "./cli-command.js";

/** `<file>:<line>: <path>: <message>`, the compiler-style line editors link to. */
export function formatIssue(file: string, issue: ManifestIssue | ConfigIssue, label = ""): string {
  const line = "line" in issue && issue.line !== undefined ? `:${issue.line}` : "";
  const where = issue.path === "" ? "" : `${issue.path}: `;
  return `${file}${line}: ${label}${where}${issue.message}\n`;
}

/** Reads a file or reports why not; undefined means "already reported". */
export async function readInput(io: CliIo, command: string, file: string): Promise<string | undefined> {
  try {
    return await io.readFile(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`omnia-tools ${command}: cannot read ${file}: ${reason}\n`);
    return undefined;
  }
}

/**
 * Prints a load failure: every issue of a ConfigError (exit 2), or an
 * unexpected error (exit 1).
 */
export function reportLoadError(io: CliIo, file: string, what: string, error: unknown): number {
  if (isOmniaToolsError(error) && "issues" in error && Array.isArray(error.issues)) {
    const issues = error.issues as readonly ManifestIssue[];
    io.stderr(`${file}: invalid ${what}: ${issues.length} ${issues.length === 1 ? "problem" : "problems"} (${error.code})\n`);
    for (const issue of issues) io.stderr(formatIssue(file, issue));
    return EXIT_USAGE;
  }
  io.stderr(`omnia-tools: unexpected error while loading ${file}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT_FAILURE;
}
