import { createToolExecutor, type HandlerHealth } from "../executor/index.js";
import { checkSchemaTargets, formatPath, SCHEMA_TARGETS, type SchemaTargetIssue, type ToolDescriptor } from "../manifest/index.js";
import { EXIT_FAILURE, EXIT_OK, type CliCommand } from "./cli-command.js";
import { formatTable } from "./format-table.js";
import { parseCommandArgs, readTargetsFlag, requireRegistryFlag } from "./parse-command-args.js";
import { loadHandlerRegistry } from "./print-issues.js";

/** A client handler is not probed, so it is not called healthy either. */
function healthText(r: HandlerHealth): string {
  if (r.handlerType === "client") return "not probed";
  return r.healthy ? "healthy" : "UNHEALTHY";
}

/** The detail, with a hint when a 404 (healthy for Omnia: below 500) suggests a wrong path. */
function detailText(r: HandlerHealth): string {
  if (r.healthy && (r.handlerType === "http" || r.handlerType === "openapi") && r.detail === "HTTP 404") {
    return "HTTP 404 (healthy as Omnia counts it, below 500; is the endpoint's path right?)";
  }
  return r.detail;
}

/**
 * `omnia-tools probe --registry <file> [--handler <name>] [--target <list>] [--json]`:
 * runs the executor's health probe for every handler and prints a table; exit
 * 1 when any is unhealthy. With `--target`, also lists every tool (static and
 * discovered) and reports what the listed providers would refuse in each;
 * any such problem also exits 1.
 * @internal Does not follow semver.
 */
export const probeCommand: CliCommand = {
  name: "probe",
  usage: "probe --registry <registry.yaml> [--handler <name>] [--target <list>] [--json]",
  summary: "Probe the health of every handler of a ToolRegistry",
  help: [
    "Usage: omnia-tools probe --registry <registry.yaml> [--handler <name>] [--target <list>] [--json]",
    "",
    "Probes each handler as Omnia's CheckHealth does: a HEAD of an http or openapi handler's endpoint",
    "(a 5xx or a transport error is unhealthy), grpc.health.v1 Check for grpc (healthy when SERVING),",
    "connect and ping for mcp. Each probe uses the handler's credentials and the registry's",
    "spec.probe timeout (default 5s). Client handlers are not probed (HEALTH says so). A 404 is healthy",
    "as Omnia counts it (below 500); the table adds a hint that the endpoint's path may be wrong.",
    "A stdio MCP server that exits is UNHEALTHY with its exit code and the end of its stderr.",
    "",
    "Options:",
    "  --registry <file>  the ToolRegistry manifest (required)",
    "  --handler <name>   probe only this handler",
    "  --target <list>    also discover every tool (MCP tools/list, OpenAPI specs) and check each name and",
    `                     input schema against model providers' rules: a comma-separated list of ${SCHEMA_TARGETS.join(", ")}`,
    "  --json             print the results as JSON on stdout",
    "  -h, --help         show this help",
    "",
    "Exit codes: 0 every handler healthy (and no tool a --target provider would refuse), 1 one or more",
    "unhealthy, a discovery that failed, or a refused tool, 2 invalid manifest or usage error.",
    "",
  ].join("\n"),
  async run(args, io) {
    const parsed = parseCommandArgs(this, args, { registry: { type: "string" }, handler: { type: "string" }, target: { type: "string" }, json: { type: "boolean" } }, io);
    if (typeof parsed === "number") return parsed;
    const file = requireRegistryFlag(this, io, parsed);
    if (typeof file === "number") return file;
    const targets = readTargetsFlag(this, io, parsed.values.target);
    if (typeof targets === "number") return targets;
    const only = parsed.values.handler;
    const registry = await loadHandlerRegistry(this, io, file, only);
    if (typeof registry === "number") return registry;
    const executor = createToolExecutor({ registry });
    let results: readonly HandlerHealth[];
    let refused: { readonly tool: ToolDescriptor; readonly issue: SchemaTargetIssue }[] = [];
    let discoveryError: string | undefined;
    try {
      results = await executor.checkHealth(typeof only === "string" ? only : undefined);
      if (targets.length > 0) {
        // Discovery of every handler; one that fails keeps the others' tools, and is reported.
        let tools: readonly ToolDescriptor[];
        try {
          tools = await executor.listTools();
        } catch (error) {
          discoveryError = error instanceof Error ? error.message : String(error);
          tools = executor.tools;
        }
        refused = tools.filter((t) => typeof only !== "string" || t.handlerName === only).flatMap((tool) => checkSchemaTargets(tool, targets).map((issue) => ({ tool, issue })));
      }
    } finally {
      await executor.close();
    }
    const healthy = results.every((r) => r.healthy);
    if (parsed.values.json === true) {
      const extra = targets.length === 0 ? {} : { targets, refused: refused.map(({ tool, issue }) => ({ handler: tool.handlerName, tool: tool.name, ...issue })), ...(discoveryError === undefined ? {} : { discoveryError }) };
      io.stdout(`${JSON.stringify({ file, healthy, handlers: results, ...extra }, null, 2)}\n`);
    } else {
      const rows = results.map((r) => [r.handler, r.handlerType, healthText(r), `${Math.round(r.latencyMs)}ms`, detailText(r)]);
      io.stdout(formatTable(["HANDLER", "TYPE", "HEALTH", "LATENCY", "DETAIL"], rows));
      if (discoveryError !== undefined) io.stderr(`${file}: tool discovery failed: ${discoveryError}\n`);
      for (const { tool, issue } of refused) {
        const at = issue.field === "name" ? "name" : formatPath(["inputSchema", ...issue.path]);
        io.stderr(`${file}: handler ${JSON.stringify(tool.handlerName)}, tool ${JSON.stringify(tool.name)}: ${at}: ${issue.message}\n`);
      }
      if (targets.length > 0) io.stderr(`${file}: ${refused.length} ${refused.length === 1 ? "problem" : "problems"} a provider would refuse (${targets.join(", ")})\n`);
    }
    return healthy && refused.length === 0 && discoveryError === undefined ? EXIT_OK : EXIT_FAILURE;
  },
};
