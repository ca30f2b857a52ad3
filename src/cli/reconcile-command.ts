import { loadPromptPack, type PromptPack, type ToolRegistry } from "../manifest/index.js";
import { createToolExecutor } from "../executor/index.js";
import { discoveryFailureText } from "./stdio-exit-text.js";
import { reconcileTools, type ReconcileResult } from "../reconcile/index.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from "./cli-command.js";
import { parseCommandArgs, usageError } from "./parse-command-args.js";
import { loadRegistryOrReport, readInput, reportLoadError } from "./print-issues.js";

/** A pack's `prompts` key, in JSON or YAML (and no ToolRegistry marker). */
function looksLikePack(text: string): boolean {
  return /(^|[{,\s])"?prompts"?\s*:/m.test(text) && !looksLikeRegistry(text);
}

/** A ToolRegistry's `kind` or top-level `handlers` key, in JSON or YAML. */
function looksLikeRegistry(text: string): boolean {
  return /\bkind"?\s*:\s*"?ToolRegistry\b/.test(text) || /^\s*"?handlers"?\s*:/m.test(text);
}

/**
 * `omnia-tools reconcile --pack <pack.json> --registry <registry.yaml> [--strict] [--json]`:
 * the tools each prompt is offered and every mismatch. Exit 0, or 1 with
 * `--strict` when there is a mismatch; 2 on a usage or config error.
 * @internal Does not follow semver.
 */
export const reconcileCommand: CliCommand = {
  name: "reconcile",
  usage: "reconcile --pack <pack.json> --registry <registry.yaml> [--discover] [--strict] [--json]",
  summary: "Show the tools each pack prompt is offered and every pack/registry mismatch",
  help: [
    "Usage: omnia-tools reconcile --pack <pack.json> --registry <registry.yaml> [--discover] [--strict] [--json]",
    "",
    "The pack decides what the model is offered: a prompt gets (its tools list) ∩ (what the registry serves),",
    "plus served tools in the memory__, skill__, a2a__, workflow__ and mcp__ namespaces.",
    "A tool served but declared by no prompt, or declared but not served, is never offered: each is reported.",
    "A served tool that a composition `tool` step calls, and an `agents` member named in a prompt's tools",
    "(offered by PromptKit as a2a__<member>), are listed as other tool users, not as mismatches; a composition",
    "step calling a tool the registry does not serve is the mismatch composition-tool-not-served.",
    "",
    "mcp and openapi handlers serve the tools they discover at run time. With --discover, their tools are",
    "listed first (as executor.listTools() does: the MCP servers are started or connected to, the OpenAPI",
    "documents fetched) and checked like the others. Without it, a declared tool that such a handler could",
    "serve is reported as unknown until discovery, not as a mismatch.",
    "",
    "Options:",
    "  --pack <file>      the PromptPack (pack.json, its YAML source, or Omnia's PromptPack + ConfigMap file)",
    "  --registry <file>  the ToolRegistry manifest",
    "  --discover         list the mcp and openapi handlers' tools first, and check them too",
    "  --strict           exit 1 when there is any mismatch (unknown until discovery is not one)",
    "  --json             print the result as JSON on stdout",
    "  -h, --help         show this help",
    "",
    "Exit codes: 0 done (or no mismatch with --strict), 1 mismatch with --strict, 2 usage or config error.",
    "",
  ].join("\n"),
  async run(args, io) {
    const parsed = parseCommandArgs(
      this,
      args,
      {
        pack: { type: "string" },
        registry: { type: "string" },
        strict: { type: "boolean" },
        json: { type: "boolean" },
        discover: { type: "boolean" },
      },
      io,
    );
    if (typeof parsed === "number") return parsed;
    const packFile = parsed.values.pack;
    const registryFile = parsed.values.registry;
    if (typeof packFile !== "string" || typeof registryFile !== "string") {
      usageError(this, io, `--pack and --registry are both required`);
      return EXIT_USAGE;
    }
    if (parsed.positionals.length > 0) {
      usageError(this, io, `unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
      return EXIT_USAGE;
    }

    const registryText = await readInput(io, this.name, registryFile);
    if (registryText === undefined) return EXIT_USAGE;
    const packText = await readInput(io, this.name, packFile);
    if (packText === undefined) return EXIT_USAGE;
    if (looksLikePack(registryText) && looksLikeRegistry(packText)) {
      usageError(this, io, `${registryFile} holds a PromptPack and ${packFile} a ToolRegistry: swap them (--pack ${registryFile} --registry ${packFile})`);
      return EXIT_USAGE;
    }
    const registry = loadRegistryOrReport(io, registryFile, registryText);
    if (typeof registry === "number") return registry;
    let pack: PromptPack;
    try {
      // Says on stderr which document held the pack when the file is a PromptPack + ConfigMap.
      const noop = (): void => {};
      // Warnings (unknown fields) print as the registry's do: `<file>:<line>: warning: <path>: <message>`.
      const warn = (m: string, fields?: Record<string, unknown>): void => {
        const line = typeof fields?.["line"] === "number" ? `:${fields["line"]}` : "";
        io.stderr(`${packFile}${line}: warning: ${m.replace(/^PromptPack: /, "")}\n`);
      };
      pack = loadPromptPack(packText, {
        logger: { debug: noop, info: (m) => io.stderr(`${packFile}: ${m}\n`), warn, error: noop },
        ...(/\.json$/i.test(packFile) ? { format: "json" as const } : {}),
      });
    } catch (error) {
      return reportLoadError(io, packFile, "PromptPack", error);
    }

    const discover = parsed.values.discover === true;
    const discovered = registry.discoveredHandlers.map((h) => ({ handler: h.name, type: h.type }));
    let served: ToolRegistry | string[] = registry;
    if (discover && discovered.length > 0) {
      // As executor.listTools() does: start or connect to every mcp server, fetch every OpenAPI document.
      const executor = createToolExecutor({ registry });
      try {
        await executor.refresh();
        served = executor.tools.map((t) => t.name);
      } catch (error) {
        io.stderr(discoveryFailureText("reconcile", error));
        return EXIT_FAILURE;
      } finally {
        await executor.close();
      }
    }

    let result: ReconcileResult;
    try {
      result = reconcileTools(pack, served, registry.name === undefined ? {} : { registryName: registry.name });
    } catch (error) {
      // A malformed agents or compositions section (a ConfigError with its path).
      return reportLoadError(io, packFile, "PromptPack", error);
    }
    // Without --discover, a declared tool that a discovering handler could serve is not known to be missing.
    let mismatches = result.mismatches;
    let unknown: Readonly<Record<string, readonly string[]>> = {};
    if (!discover && discovered.length > 0) {
      unknown = mismatches.find((m) => m.kind === "declared-not-served")?.prompts ?? {};
      mismatches = mismatches.filter((m) => m.kind !== "declared-not-served");
    }
    const failed = parsed.values.strict === true && mismatches.length > 0;

    if (parsed.values.json === true) {
      const json = { pack: packFile, registry: registryFile, ...result, mismatches, discoveredAtRuntime: discover ? [] : discovered, unknownUntilDiscovery: Object.keys(unknown) };
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      let out = "Offered tools per prompt:\n";
      const keys = Object.keys(result.byPrompt);
      if (keys.length === 0) out += "  (the pack has no prompts)\n";
      for (const key of keys) {
        const tools = result.byPrompt[key] ?? [];
        out += `  ${key}: ${tools.length === 0 ? "(none)" : tools.join(", ")}\n`;
      }
      out += "\nMismatches:\n";
      if (mismatches.length === 0) out += "  none\n";
      for (const m of mismatches) out += `  ${m.kind}: ${m.message}\n`;
      const unknownTools = Object.keys(unknown);
      if (unknownTools.length > 0) {
        out += "\nUnknown until discovery (declared, and a discovering handler may serve them; --discover checks them):\n";
        for (const tool of unknownTools) out += `  ${tool} (${(unknown[tool] ?? []).join(", ")})\n`;
      }
      if (result.uses.length > 0) {
        out += "\nOther tool users (not mismatches):\n";
        for (const use of result.uses) out += `  ${use.kind}: ${use.message}\n`;
      }
      if (!discover && discovered.length > 0) {
        const list = discovered.map((d) => `${d.handler} (${d.type})`).join(", ");
        out += `\nNote: ${list} serve tools discovered at run time; they are not part of this check.\n`;
      }
      io.stdout(out);
    }
    if (failed) {
      io.stderr(`omnia-tools reconcile: ${mismatches.length} ${mismatches.length === 1 ? "mismatch" : "mismatches"} (--strict)\n`);
      return EXIT_FAILURE;
    }
    return EXIT_OK;
  },
};
