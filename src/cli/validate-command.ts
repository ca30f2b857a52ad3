import { formatGoDuration } from "../core/index.js";
import { loadToolRegistry, type HandlerConfig, type ToolRegistry } from "../manifest/index.js";
import { EXIT_OK, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";
import { formatTable } from "./format-table.js";
import { parseCommandArgs, usageError } from "./parse-command-args.js";
import { formatIssue, readInput, reportLoadError } from "./print-issues.js";

/**
 * `omnia-tools validate <registry.yaml> [--json]`: exit 0 with a table of the
 * tools, or exit 2 with every problem.
 * @internal Does not follow semver.
 */
export const validateCommand: CliCommand = {
  name: "validate",
  usage: "validate <registry.yaml> [--json]",
  summary: "Validate a ToolRegistry manifest and list the tools it serves",
  help: [
    "Usage: omnia-tools validate <registry.yaml> [--json]",
    "",
    "Validates a ToolRegistry manifest (YAML or JSON; a resource, a bare handlers list, or several documents).",
    "Prints a table of the tools and handlers, and any warnings (unknown fields, ignored settings) on stderr.",
    "",
    "Options:",
    "  --json      print the result as JSON on stdout",
    "  -h, --help  show this help",
    "",
    "Exit codes: 0 valid, 2 invalid manifest or usage error.",
    "",
  ].join("\n"),
  async run(args, io) {
    const parsed = parseCommandArgs(this, args, { json: { type: "boolean" } }, io);
    if (typeof parsed === "number") return parsed;
    if (parsed.positionals.length !== 1) {
      usageError(this, io, `expected one manifest file; got ${parsed.positionals.length}`);
      return EXIT_USAGE;
    }
    const file = parsed.positionals[0] as string;
    const json = parsed.values.json === true;
    const text = await readInput(io, this.name, file);
    if (text === undefined) return EXIT_USAGE;
    let registry: ToolRegistry;
    try {
      registry = loadToolRegistry(text);
    } catch (error) {
      if (json && error instanceof Error && "issues" in error) {
        io.stdout(`${JSON.stringify({ file, valid: false, code: (error as { code?: string }).code, errors: error.issues }, null, 2)}\n`);
      }
      return reportLoadError(io, file, "ToolRegistry", error);
    }
    for (const warning of registry.warnings) io.stderr(formatIssue(file, warning, "warning: "));
    if (json) {
      const out = { file, valid: true, name: registry.name, tools: registry.tools, handlers: registry.handlers, warnings: registry.warnings };
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
      return EXIT_OK;
    }
    printSummary(io, file, registry);
    return EXIT_OK;
  },
};

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
