import { isOmniaToolsError, type ConfigIssue } from "../core/index.js";
import { inspectToolRegistry, type LoadToolRegistryOptions, type ManifestIssue, type ToolRegistry } from "../manifest/index.js";
import { EXIT_FAILURE, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";
import { usageError } from "./parse-command-args.js";

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

const lineOf = (issue: ManifestIssue): number => issue.line ?? 0;

/** Issues in document order (a stable sort by line; an issue without a line, such as "no document", first). */
export function byLine(issues: readonly ManifestIssue[]): ManifestIssue[] {
  return [...issues].sort((a, b) => lineOf(a) - lineOf(b));
}

/**
 * The error header, then every error and warning together in document order, so
 * that a typo shows both `httpConfig is required` and `unknown field httpconfig`.
 */
export function reportProblems(io: CliIo, file: string, errors: readonly ManifestIssue[], warnings: readonly ManifestIssue[], code: string): number {
  const also = warnings.length === 0 ? "" : ` and ${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"}`;
  io.stderr(`${file}: invalid ToolRegistry: ${errors.length} ${errors.length === 1 ? "problem" : "problems"}${also} (${code})\n`);
  const all = [...errors.map((issue) => ({ issue, label: "" })), ...warnings.map((issue) => ({ issue, label: "warning: " }))];
  all.sort((a, b) => lineOf(a.issue) - lineOf(b.issue));
  for (const { issue, label } of all) io.stderr(formatIssue(file, issue, label));
  return EXIT_USAGE;
}

/**
 * Loads a registry for a command: the registry (its warnings printed on
 * stderr), or the exit code after every problem was printed.
 */
export function loadRegistryOrReport(io: CliIo, file: string, text: string, options: LoadToolRegistryOptions = {}): ToolRegistry | number {
  let inspection;
  try {
    inspection = inspectToolRegistry(text, options);
  } catch (error) {
    return reportLoadError(io, file, "ToolRegistry", error);
  }
  const { registry, error, warnings } = inspection;
  if (error !== undefined) return reportProblems(io, file, error.issues, warnings, error.code);
  for (const warning of warnings) io.stderr(formatIssue(file, warning, "warning: "));
  return registry as ToolRegistry;
}

/**
 * Reads and loads the registry `file`, and checks that `handler` (`--handler`,
 * when given) names one of its handlers; or the exit code after the problem was
 * printed (probe, backend-check).
 */
export async function loadHandlerRegistry(command: CliCommand, io: CliIo, file: string, handler: unknown): Promise<ToolRegistry | number> {
  const text = await readInput(io, command.name, file);
  if (text === undefined) return EXIT_USAGE;
  const registry = loadRegistryOrReport(io, file, text);
  if (typeof registry === "number") return registry;
  if (typeof handler === "string" && registry.getHandler(handler) === undefined) {
    usageError(command, io, `no handler named ${JSON.stringify(handler)} in ${file}`);
    return EXIT_USAGE;
  }
  return registry;
}
