import { parseAllDocuments } from "yaml";
import { parseGoDuration, systemClock, type Clock, type JsonValue, type TimerHandle } from "../core/index.js";
import type { Identity } from "../headers/index.js";
import { describeMcpStdioExit, stdioExitOf } from "../mcp/index.js";
import { discoveryFailureText, indent } from "./stdio-exit-text.js";
import { loadToolRegistry, type ToolRegistry } from "../manifest/index.js";
import type { ToolCallRecord } from "../records/index.js";
import { createToolExecutor, type CallContext, type ToolOutcome } from "../executor/index.js";
import { createTurn, type TurnExecutor, type TurnMessage } from "../turn/index.js";
import { MemoryRecorder, toOutcomeJson } from "../testing/index.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand, type CliIo } from "./cli-command.js";
import { parseCommandArgs, usageError } from "./parse-command-args.js";
import { loadRegistryOrReport, readInput, reportLoadError } from "./print-issues.js";

/** The call id `omnia-tools call` gives its one call. */
export const CLI_CALL_ID = "call-1";
/** A progress line appears once a call has run this long (stderr a terminal only). */
export const PROGRESS_AFTER_MS = 1_000;

const IDENTITY_FIELDS = ["agentName", "namespace", "sessionId", "requestId", "userId", "subjectId", "userEmail", "origin", "workspace", "provider", "model"] as const;

/**
 * `omnia-tools call --registry <file> <tool> ['<json>'] [--identity <file>] [--timeout <d>] [--json]`:
 * one tool call through the real executor, printed with its record.
 * Exit 0 success, 1 tool error or denial, 2 usage or config error.
 * @internal Does not follow semver.
 */
export const callCommand: CliCommand = {
  name: "call",
  usage: "call --registry <registry.yaml> <tool> ['<json args>'] [--identity <file>] [--timeout 5s] [--json] [--raw]",
  summary: "Execute one tool call through the real executor and print the outcome and its record",
  help: [
    "Usage: omnia-tools call --registry <registry.yaml> <tool> ['<json args>'] [--identity <file>] [--timeout 5s] [--json] [--raw]",
    "",
    "Executes one call of <tool> as the runtime would: first the turn stage's checks (createTurn: the",
    "arguments coerced and validated against the tool's schema; a call they refuse is not sent), then the",
    "executor, with the handler's retry policy, per-attempt timeout and circuit breaker (no policy hook),",
    "against the backend the registry names. The arguments are the JSON text the model would produce",
    "(default {}). Prints the outcome, the text the model sees, and the ToolCallRecord. Client tools are",
    "denied: no client is connected. --raw skips the turn stage and calls the executor alone.",
    "",
    "Options:",
    "  --registry <file>  the ToolRegistry manifest (required)",
    "  --identity <file>  a JSON caller identity sent as x-omnia-* headers/metadata:",
    '                     {"userId": "u1", "sessionId": "s1", "claims": {"tier": "gold"}, ...}',
    "  --timeout <d>      replaces every handler's per-attempt timeout (Go duration: 500ms, 5s, 1m),",
    "                     as if each handler in the manifest said `timeout: <d>`",
    "  --json             print {\"outcome\": ..., \"record\": ..., \"modelSees\": {\"content\", \"isError\"}} as JSON",
    "                     on stdout (outcome and record are null when the checks refused the call)",
    "  --raw              the executor alone: no coercion, no validation, no model text",
    "  -h, --help         show this help",
    "",
    "While a call runs longer than 1s, a progress line is drawn on stderr when stderr is a terminal.",
    "",
    "Exit codes: 0 success, 1 tool error, denial or refused arguments, 2 usage or config error.",
    "",
  ].join("\n"),
  async run(args, io) {
    const parsed = parseCommandArgs(
      this,
      args,
      {
        registry: { type: "string" },
        identity: { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean" },
        raw: { type: "boolean" },
      },
      io,
    );
    if (typeof parsed === "number") return parsed;
    const registryFile = parsed.values.registry;
    if (typeof registryFile !== "string") {
      usageError(this, io, "--registry is required");
      return EXIT_USAGE;
    }
    const [toolName, argsText = "{}", ...extra] = parsed.positionals;
    if (toolName === undefined) {
      usageError(this, io, "expected a tool name");
      return EXIT_USAGE;
    }
    if (extra.length > 0) {
      usageError(this, io, `unexpected argument ${JSON.stringify(extra[0])} (quote the JSON arguments as one word)`);
      return EXIT_USAGE;
    }
    try {
      JSON.parse(argsText);
    } catch (error) {
      usageError(this, io, `the arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}; got ${argsText}`);
      return EXIT_USAGE;
    }
    let timeout: string | undefined;
    if (typeof parsed.values.timeout === "string") {
      try {
        const ms = parseGoDuration(parsed.values.timeout, "--timeout");
        if (!(ms > 0)) throw new Error(`--timeout: must be positive; got ${parsed.values.timeout}`);
        timeout = parsed.values.timeout;
      } catch (error) {
        usageError(this, io, error instanceof Error ? error.message : String(error));
        return EXIT_USAGE;
      }
    }

    let identity: Identity | undefined;
    if (typeof parsed.values.identity === "string") {
      const file = parsed.values.identity;
      const text = await readInput(io, this.name, file);
      if (text === undefined) return EXIT_USAGE;
      const read = readIdentity(text);
      if (typeof read === "string") {
        io.stderr(`${file}: invalid identity: ${read}\n`);
        return EXIT_USAGE;
      }
      identity = read;
    }

    const registryText = await readInput(io, this.name, registryFile);
    if (registryText === undefined) return EXIT_USAGE;
    let registry: ToolRegistry | number = loadRegistryOrReport(io, registryFile, registryText);
    if (typeof registry === "number") return registry;
    if (timeout !== undefined) {
      try {
        registry = loadToolRegistry(withHandlerTimeout(registryText, timeout));
      } catch (error) {
        return reportLoadError(io, registryFile, "ToolRegistry", error);
      }
    }

    const clock = io.clock ?? systemClock;
    const recorder = new MemoryRecorder();
    const executor = createToolExecutor({ registry, recorder, clock });
    if (registry.getTool(toolName) === undefined) {
      // Not a static tool: it may be one an mcp or openapi handler serves. Discover them first.
      if (registry.discoveredHandlers.length > 0) {
        try {
          await executor.refresh();
        } catch (error) {
          await executor.close();
          io.stderr(discoveryFailureText("call", error));
          return EXIT_FAILURE;
        }
      }
      const served = executor.tools.map((t) => t.name);
      if (!served.includes(toolName)) {
        await executor.close();
        usageError(this, io, `tool ${JSON.stringify(toolName)} is not served by ${registryFile}; it serves ${served.length === 0 ? "no tool" : served.join(", ")}`);
        return EXIT_USAGE;
      }
    }
    const progress = io.stderrIsTerminal === true ? startProgress(io, clock, toolName) : undefined;
    const ctx = identity === undefined ? {} : { identity };
    const call = { id: CLI_CALL_ID, name: toolName, arguments: argsText };
    let outcome: ToolOutcome | undefined;
    let modelSees: TurnMessage | undefined;
    try {
      if (parsed.values.raw === true) {
        outcome = await executor.execute(call, ctx);
      } else {
        // The turn stage's checks first, as the runtime runs them: coercion, validation, the model's text.
        // A call they refuse never reaches the executor (nothing is sent).
        const turnExecutor: TurnExecutor<CallContext> = {
          get tools() {
            return executor.tools;
          },
          completeClientCall: (result) => executor.completeClientCall(result),
          execute: async (c, callCtx, hooks) => (outcome = await executor.execute(c, callCtx, hooks)),
        };
        const round = await createTurn(turnExecutor, { ctx }).run([call]);
        modelSees = round.messages[0];
      }
    } catch (error) {
      progress?.stop();
      await executor.close();
      io.stderr(`omnia-tools call: the call failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT_FAILURE;
    }
    progress?.stop();
    await executor.close();
    const record = recorder.records[0];
    if (parsed.values.json === true) {
      const json: Record<string, unknown> = { outcome: outcome === undefined ? null : toOutcomeJson(outcome), record: record ?? null };
      if (modelSees !== undefined) json["modelSees"] = { content: modelSees.content, isError: modelSees.isError };
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      io.stdout(outcome === undefined ? formatRefused(toolName, modelSees) : formatOutcome(outcome, record, modelSees));
    }
    return outcome?.status === "success" ? EXIT_OK : EXIT_FAILURE;
  },
};

/** The identity file (`--identity` of call and backend-check): a JSON object of the flat string fields and `claims`. */
export function readIdentity(text: string): Identity | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `expected a JSON object; got ${JSON.stringify(value)}`;
  const out: Identity = {};
  for (const [key, field] of Object.entries(value)) {
    if (key === "claims") {
      if (typeof field !== "object" || field === null || Array.isArray(field) || !Object.values(field).every((v) => typeof v === "string")) {
        return `claims: expected an object of strings; got ${JSON.stringify(field)}`;
      }
      out.claims = { ...(field as Record<string, string>) };
    } else if ((IDENTITY_FIELDS as readonly string[]).includes(key)) {
      if (typeof field !== "string") return `${key}: expected a string; got ${JSON.stringify(field)}`;
      out[key as (typeof IDENTITY_FIELDS)[number]] = field;
    } else {
      return `${key}: unknown field; expected ${[...IDENTITY_FIELDS, "claims"].join(", ")}`;
    }
  }
  return out;
}

/**
 * The manifest with `timeout: <d>` set on every handler, as parsed documents.
 * Loading the text first (for issues with line numbers) and this second keeps
 * the registry a real `loadToolRegistry` result, whatever the handler type.
 */
function withHandlerTimeout(text: string, timeout: string): unknown[] {
  let documents: unknown[];
  try {
    documents = [JSON.parse(text) as unknown];
  } catch {
    documents = parseAllDocuments(text, { merge: true }).map((d) => d.toJS({ maxAliasCount: 1000 }) as unknown);
  }
  for (const doc of documents) {
    if (!isRecord(doc)) continue;
    const handlers = isRecord(doc["spec"]) ? doc["spec"]["handlers"] : doc["handlers"];
    if (!Array.isArray(handlers)) continue;
    for (const handler of handlers) if (isRecord(handler)) handler["timeout"] = timeout;
  }
  return documents;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A one-line `\r`-redrawn progress indicator, once a call runs past {@link PROGRESS_AFTER_MS}. */
function startProgress(io: CliIo, clock: Clock, toolName: string): { stop(): void } {
  const frames = ["|", "/", "-", "\\"];
  const started = clock.now();
  let drawn = false;
  let frame = 0;
  let timer: TimerHandle | undefined;
  // The `\r` and the erase-line are the CLI's own; the tool name is the caller's text.
  const control = io.control ?? ((sequence: string) => io.stderr(sequence));
  const draw = (): void => {
    const seconds = Math.floor((clock.now() - started) / 1000);
    control("\r");
    io.stderr(`${frames[frame++ % frames.length]} calling ${toolName}... ${seconds}s`);
    drawn = true;
    timer = clock.setTimeout(draw, 1000);
  };
  timer = clock.setTimeout(draw, PROGRESS_AFTER_MS);
  return {
    stop() {
      timer?.clear();
      if (drawn) control("\r\x1b[2K");
    },
  };
}


/** A call the turn stage's checks refused: what the model reads, and that nothing was sent. */
function formatRefused(toolName: string, modelSees: TurnMessage | undefined): string {
  return `Outcome: refused\n${block([
    ["tool", toolName],
    ["sent", "nothing: the arguments failed the turn stage's checks (--raw sends them to the executor as they are)"],
  ])}${modelSeesSection(modelSees)}`;
}

/** The tool-result message's text, indented, as its own section (none with --raw). */
function modelSeesSection(modelSees: TurnMessage | undefined): string {
  if (modelSees === undefined) return "";
  return `\nModel sees${modelSees.isError ? " (an error)" : ""}:\n${indent(modelSees.content)}\n`;
}

/** The readable form: the outcome, then the record, as aligned `key  value` lines. */
function formatOutcome(outcome: ToolOutcome, record: ToolCallRecord | undefined, modelSees: TurnMessage | undefined): string {
  const lines: [string, string][] = [
    ["tool", outcome.toolName],
    ["handler type", outcome.handlerType === "" ? "(none)" : outcome.handlerType],
    ["duration", `${outcome.durationMs}ms`],
  ];
  switch (outcome.status) {
    case "success":
      lines.push(["result", outcome.resultJson]);
      if (outcome.truncated === true) lines.push(["truncated", "true (the body was cut at the 10 MiB read cap)"]);
      break;
    case "error":
      lines.push(["message", outcome.message], ["error", `${outcome.error.name} (${outcome.error.code})`]);
      {
        const exit = stdioExitOf(outcome.error);
        if (exit !== undefined) lines.push(["server", describeMcpStdioExit(exit)]);
      }
      break;
    case "denied":
      lines.push(["message", outcome.message], ["reason", outcome.reason]);
      break;
    case "client":
      lines.push(["request", JSON.stringify(outcome.request)]);
      break;
  }
  let out = `Outcome: ${outcome.status}\n${block(lines)}${modelSeesSection(modelSees)}`;
  if (record !== undefined) {
    const r: [string, string][] = [
      ["callId", record.callId],
      ...(record.sessionId === undefined ? [] : [["sessionId", record.sessionId] as [string, string]]),
      ["toolName", record.toolName],
      ["handlerName", record.handlerName],
      ["handlerType", record.handlerType],
      ["execution", record.execution],
      ["status", record.status],
      ["arguments", jsonText(record.arguments)],
      ...(record.result === undefined ? [] : [["result", jsonText(record.result)] as [string, string]]),
      ...(record.errorMessage === undefined ? [] : [["errorMessage", record.errorMessage] as [string, string]]),
      ["startedAt", new Date(record.startedAt).toISOString()],
      ["durationMs", String(record.durationMs)],
      ["attempts", String(record.attempts)],
    ];
    out += `\nRecord:\n${block(r)}`;
  }
  return out;
}

function jsonText(value: JsonValue | string): string {
  return JSON.stringify(value);
}

function block(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join("");
}
