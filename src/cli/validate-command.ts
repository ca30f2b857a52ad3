import { formatGoDuration } from "../core/index.js";
import { inspectToolRegistry, SCHEMA_TARGETS, type HandlerConfig, type ManifestIssue, type SchemaTarget, type ToolRegistry } from "../manifest/index.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";
import { formatTable } from "./format-table.js";
import { parseCommandArgs, readTargetsFlag, usageError } from "./parse-command-args.js";
import { byLine, formatIssue, readInput, reportLoadError, reportProblems } from "./print-issues.js";

/**
 * `omnia-tools validate <registry.yaml> [--strict] [--target <list>] [--json]`:
 * exit 0 with a table of the tools, or exit 2 with every problem (errors and
 * warnings in document order); with `--strict`, what the Kubernetes API
 * server would reject is an error and exits 1; with `--target`, a tool schema
 * a listed provider would refuse is a warning and exits 1.
 * @internal Does not follow semver.
 */
export const validateCommand: CliCommand = {
  name: "validate",
  usage: "validate <registry.yaml> [--strict] [--target <list>] [--json]",
  summary: "Validate a ToolRegistry manifest and list the tools it serves",
  help: [
    "Usage: omnia-tools validate <registry.yaml> [--strict] [--target <list>] [--json]",
    "",
    "Validates a ToolRegistry manifest (YAML or JSON; a resource, a bare handlers list, or several documents).",
    "Prints a table of the tools and handlers, and any warnings (unknown fields, ignored settings) on stderr;",
    "problems are printed in document order, errors and warnings together.",
    "",
    "Options:",
    "  --strict    report what the Kubernetes API server would reject (unknown fields, as kubectl apply",
    "              --validate=strict; a backoffMultiplier written as a number) as errors",
    `  --target <list>  check each static tool's name and inputSchema against model providers' rules,`,
    `              a comma-separated list of ${SCHEMA_TARGETS.join(", ")}; each problem is a warning`,
    "  --json      print the result as JSON on stdout",
    "  -h, --help  show this help",
    "",
    "Exit codes: 0 valid, 1 rejected by --strict only or refused by a --target provider, 2 invalid manifest or usage error.",
    "",
  ].join("\n"),
  async run(args, io) {
    const parsed = parseCommandArgs(this, args, { json: { type: "boolean" }, strict: { type: "boolean" }, target: { type: "string" } }, io);
    if (typeof parsed === "number") return parsed;
    if (parsed.positionals.length !== 1) {
      usageError(this, io, `expected one manifest file; got ${parsed.positionals.length}`);
      return EXIT_USAGE;
    }
    const file = parsed.positionals[0] as string;
    const json = parsed.values.json === true;
    const strict = parsed.values.strict === true;
    const targets = readTargetsFlag(this, io, parsed.values.target);
    if (typeof targets === "number") return targets;
    const text = await readInput(io, this.name, file);
    if (text === undefined) return EXIT_USAGE;
    let inspection;
    try {
      inspection = inspectToolRegistry(text, { strict, targets });
    } catch (error) {
      return reportLoadError(io, file, "ToolRegistry", error);
    }
    const { registry, error, warnings } = inspection;
    if (error !== undefined) {
      if (json) io.stdout(`${JSON.stringify({ file, valid: false, code: error.code, errors: byLine(error.issues), warnings: byLine(warnings) }, null, 2)}\n`);
      const code = reportProblems(io, file, error.issues, warnings, error.code);
      // Only --strict found errors: the manifest loads, but the API server would refuse it.
      return strict && inspectToolRegistry(text).error === undefined ? EXIT_FAILURE : code;
    }
    if (registry === undefined) return EXIT_FAILURE;
    for (const warning of warnings) io.stderr(formatIssue(file, warning, "warning: "));
    const refused = warnings.filter((w) => isTargetIssue(w, targets)).length;
    if (json) {
      const out = { file, valid: true, name: registry.name, tools: registry.tools, handlers: registry.handlers, warnings: registry.warnings, ...(targets.length === 0 ? {} : { targets, refused }) };
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
      return refused > 0 ? EXIT_FAILURE : EXIT_OK;
    }
    printSummary(io, file, registry);
    if (refused > 0) io.stderr(`${file}: ${refused} ${refused === 1 ? "problem" : "problems"} a provider would refuse (${targets.join(", ")})\n`);
    return refused > 0 ? EXIT_FAILURE : EXIT_OK;
  },
};

/** A warning from a `--target` check: its message starts with the provider's name. */
function isTargetIssue(issue: ManifestIssue, targets: readonly SchemaTarget[]): boolean {
  return targets.some((t) => issue.message.startsWith(`${t}: `));
}

function printSummary(io: CliIo, file: string, registry: ToolRegistry): void {
  const name = registry.name === undefined ? "" : ` ${JSON.stringify(registry.name)}`;
  const handlers = registry.handlers.length;
  const tools = registry.tools.length;
  io.stdout(
    `${file}: valid ToolRegistry${name}: ${handlers} ${handlers === 1 ? "handler" : "handlers"}, ${tools} ${tools === 1 ? "tool" : "tools"}` +
      (registry.discoveredHandlers.length > 0
        ? `, plus the tools ${registry.discoveredHandlers.length === 1 ? "1 handler discovers" : `${registry.discoveredHandlers.length} handlers discover`} at run time`
        : "") +
      "\n\n",
  );
  const rows = registry.handlers.map((h) => [
    h.type === "mcp" || h.type === "openapi" ? "(discovered at run time)" : h.tool.name,
    h.name,
    h.type,
    h.type === "client" ? "client" : "server",
    formatGoDuration(h.timeoutMs),
    retriesOf(h),
    h.auth?.type ?? "none",
    h.endpoint,
  ]);
  io.stdout(formatTable(["TOOL", "HANDLER", "TYPE", "EXECUTION", "TIMEOUT", "ATTEMPTS", "AUTH", "ENDPOINT"], rows));
}

function retriesOf(handler: HandlerConfig): string {
  switch (handler.type) {
    case "http":
      return String(handler.httpConfig.retryPolicy?.maxAttempts ?? 1);
    case "grpc":
      return String(handler.grpcConfig.retryPolicy?.maxAttempts ?? 1);
    case "mcp":
      return String(handler.mcpConfig.retryPolicy?.maxAttempts ?? 1);
    case "openapi":
      return String(handler.openAPIConfig.retryPolicy?.maxAttempts ?? 1);
    case "client":
      return "-";
  }
}
