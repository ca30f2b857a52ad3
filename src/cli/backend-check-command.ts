import { checkBackend, type BackendCheckResult } from "../backend-check/index.js";
import type { JsonValue } from "../core/index.js";
import type { Identity } from "../headers/index.js";
import { readIdentity } from "./call-command.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from "./cli-command.js";
import { formatTable } from "./format-table.js";
import { parseCommandArgs, requireRegistryFlag, usageError } from "./parse-command-args.js";
import { loadHandlerRegistry, readInput } from "./print-issues.js";

const STATUS_TEXT = { pass: "PASS", warn: "WARN", fail: "FAIL", skip: "SKIP" } as const;

/** The widest a handler or tool name is shown: a peer's long name would pad every row of the table to it. */
const NAME_CELL_MAX = 64;

/**
 * A name or reason as one table cell: line breaks and tabs as `\n`, `\r`, `\t`
 * (a discovered tool's name could otherwise print rows of its own), a name cut
 * to {@link NAME_CELL_MAX} characters with `...`.
 */
function cell(text: string, max = Number.POSITIVE_INFINITY): string {
  const flat = text.replace(/[\n\r\t]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/**
 * `omnia-tools backend-check --registry <file> [--handler <name>] [--args <tool>=<json>]… [--identity <file>] [--json]`:
 * calls each handler's backend as Omnia does and prints, check by check,
 * what the tool backend contract asks of it. Exit 1 on any fail.
 * @internal Does not follow semver.
 */
export const backendCheckCommand: CliCommand = {
  name: "backend-check",
  usage: "backend-check --registry <registry.yaml> [--handler <name>] [--args <tool>=<json>]... [--identity <file>] [--json]",
  summary: "Call each handler's backend as Omnia does and check it against the tool backend contract",
  help: [
    "Usage: omnia-tools backend-check --registry <registry.yaml> [--handler <name>] [--args <tool>=<json>]... [--identity <file>] [--json]",
    "",
    "Calls each handler's real backend through the executor, as Omnia's runtime calls it (headers,",
    "credentials, timeout, retries), and prints each check as PASS, WARN, FAIL or SKIP with the reason",
    "and, for WARN and FAIL, the fix:",
    "  health            the probe Omnia's health check makes (HEAD for http and openapi, grpc.health.v1,",
    "                    MCP connect and ping)",
    "  list-tools        MCP tools/list, the OpenAPI operations, gRPC ListTools (optional)",
    "  input-schema      PromptKit compiles the tool's input schema",
    "  valid-call        a call with valid arguments gets a 2xx JSON answer (a JSON result_json for",
    "                    grpc, a result that is not an error for mcp)",
    "  identity-headers  that call carried every x-omnia-* caller-identity header",
    "  timeout           that call was answered within half the handler's timeout (WARN past half)",
    "  output-schema     the result matches the tool's outputSchema",
    "  error-status      a call with arguments the schema refuses gets a 4xx (is_error or",
    "                    INVALID_ARGUMENT for grpc, an error result for mcp); a 5xx or a success WARNs",
    "  error-body        that error text is short (512 bytes, Omnia's cut) and plain (no HTML, no trace)",
    "  retry-policy      with a retryPolicy: an idempotent HTTP method, or the same call answered the same",
    "                    twice (WARN otherwise)",
    "Valid arguments are built from each tool's input schema unless --args gives them. These are real",
    "calls with real effects: point the registry at a test or staging backend.",
    "",
    "Options:",
    "  --registry <file>     the ToolRegistry manifest (required)",
    "  --handler <name>      check only this handler",
    "  --args <tool>=<json>  the arguments to call <tool> with, as the model would send them (repeatable)",
    "  --identity <file>     the caller identity the calls carry (JSON, as for `call`); default: every",
    "                        identity field and one claim with a sample value",
    "  --json                print the report as JSON on stdout",
    "  -h, --help            show this help",
    "",
    "Exit codes: 0 no check failed, 1 one or more failed, 2 invalid manifest or usage error.",
    "",
  ].join("\n"),
  async run(argv, io) {
    const parsed = parseCommandArgs(this, argv, { registry: { type: "string" }, handler: { type: "string" }, args: { type: "string", multiple: true }, identity: { type: "string" }, json: { type: "boolean" } }, io);
    if (typeof parsed === "number") return parsed;
    const file = requireRegistryFlag(this, io, parsed);
    if (typeof file === "number") return file;
    const args: Record<string, JsonValue> = {};
    for (const entry of (parsed.values.args as string[] | undefined) ?? []) {
      const eq = entry.indexOf("=");
      if (eq <= 0) {
        usageError(this, io, `--args takes <tool>=<json>; got ${JSON.stringify(entry)}`);
        return EXIT_USAGE;
      }
      const tool = entry.slice(0, eq);
      try {
        Object.defineProperty(args, tool, { value: JSON.parse(entry.slice(eq + 1)) as JsonValue, enumerable: true, writable: true, configurable: true });
      } catch (error) {
        usageError(this, io, `--args ${tool}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
        return EXIT_USAGE;
      }
    }
    let identity: Identity | undefined;
    if (typeof parsed.values.identity === "string") {
      const text = await readInput(io, this.name, parsed.values.identity);
      if (text === undefined) return EXIT_USAGE;
      const read = readIdentity(text);
      if (typeof read === "string") {
        io.stderr(`${parsed.values.identity}: invalid identity: ${read}\n`);
        return EXIT_USAGE;
      }
      identity = read;
    }
    const only = parsed.values.handler;
    const registry = await loadHandlerRegistry(this, io, file, only);
    if (typeof registry === "number") return registry;
    const report = await checkBackend(registry, { args, ...(typeof only === "string" ? { handler: only } : {}), ...(identity === undefined ? {} : { identity }) });
    if (parsed.values.json === true) {
      io.stdout(`${JSON.stringify({ file, ...report }, null, 2)}\n`);
    } else {
      const rows = report.results.map((r) => [STATUS_TEXT[r.status], cell(r.handler, NAME_CELL_MAX), cell(r.tool ?? "", NAME_CELL_MAX), r.check, cell(r.reason)]);
      io.stdout(formatTable(["RESULT", "HANDLER", "TOOL", "CHECK", "REASON"], rows));
      const fixes = report.results.filter((r): r is BackendCheckResult & { fix: string } => (r.status === "fail" || r.status === "warn") && r.fix !== undefined);
      if (fixes.length > 0) {
        io.stdout("\nFixes:\n");
        for (const r of fixes) io.stdout(`  ${STATUS_TEXT[r.status]} ${r.handler === "" ? "" : `${cell(r.handler, NAME_CELL_MAX)} `}${r.tool === undefined ? "" : `${cell(r.tool, NAME_CELL_MAX)} `}${r.check}: ${r.fix}\n`);
      }
      io.stdout(`\n${report.passed} passed, ${report.warned} warned, ${report.failed} failed, ${report.skipped} skipped\n`);
    }
    return report.ok ? EXIT_OK : EXIT_FAILURE;
  },
};
