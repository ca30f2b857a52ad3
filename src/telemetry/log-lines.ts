import { noopLogger, type Logger } from "../core/index.js";

// The log lines Omnia's runtime writes around tool execution, with its messages and
// field names (internal/runtime/tools/omnia_executor*.go, internal/runtime/events.go).
// Go's V(1) lines are `debug`. Each function returns at once for the no-op logger, so a
// host that logs nothing pays no field object per call.

/**
 * `OmniaExecutor.Execute ENTER` (debug): a call reached the executor.
 * @internal Does not follow semver.
 */
export function logExecuteEnter(logger: Logger, tool: string): void {
  if (logger !== noopLogger) logger.debug("OmniaExecutor.Execute ENTER", { tool });
}

/**
 * `OmniaExecutor.Execute tool NOT FOUND` (debug): no handler serves the tool.
 * @internal Does not follow semver.
 */
export function logToolNotFound(logger: Logger, tool: string): void {
  if (logger !== noopLogger) logger.debug("OmniaExecutor.Execute tool NOT FOUND", { tool });
}

/**
 * `OmniaExecutor.dispatch ENTER` (debug): the call is dispatched to its handler.
 * @internal Does not follow semver.
 */
export function logDispatchEnter(logger: Logger, tool: string, handlerType: string): void {
  if (logger !== noopLogger) logger.debug("OmniaExecutor.dispatch ENTER", { tool, handlerType });
}

/**
 * `enforcePolicy calling broker` (debug): the policy decision is about to be asked.
 * @internal Does not follow semver.
 */
export function logPolicyCall(logger: Logger, tool: string, registry: string, brokerEnabled: boolean): void {
  if (logger !== noopLogger) logger.debug("enforcePolicy calling broker", { tool, registry, brokerEnabled });
}

/**
 * `enforcePolicy decision` (debug): what the policy decided.
 * @internal Does not follow semver.
 */
export function logPolicyDecision(logger: Logger, tool: string, allow: boolean, wouldDeny: boolean, deniedBy: string): void {
  if (logger !== noopLogger) logger.debug("enforcePolicy decision", { tool, allow, wouldDeny, deniedBy });
}

/**
 * `OmniaExecutor.dispatch DENIED by policy` (debug), with the denial's text as `err`.
 * @internal Does not follow semver.
 */
export function logPolicyDenied(logger: Logger, tool: string, err: string): void {
  if (logger !== noopLogger) logger.debug("OmniaExecutor.dispatch DENIED by policy", { tool, err });
}

/**
 * What a finished call logs as the runtime's event line.
 * @internal Does not follow semver.
 */
export interface CallEventLine {
  readonly sessionId: string | undefined;
  readonly toolName: string;
  readonly callId: string;
  /** The outcome's status; `client` is a call handed to the client. */
  readonly status: "success" | "error" | "denied" | "client";
  readonly durationMs: number;
  /** The error text, for a call refused before any handler ran. */
  readonly error?: string | undefined;
  /** True for a call refused before any handler ran (unknown tool, invalid arguments). */
  readonly rejectedBeforeExecution?: boolean | undefined;
}

/**
 * The runtime's per-call event line (debug): `event: tool call failed` (`sessionID`,
 * `toolName`, `callID`, `error`, `durationMs`) for a call refused before any handler
 * ran, else `event: tool call completed` (`sessionID`, `toolName`, `callID`, `status`,
 * `durationMs`) with PromptKit's status: `complete` for a success, `pending` for a
 * call handed to the client, `failed` for every other error or denial.
 * @internal Does not follow semver.
 */
export function logCallEvent(logger: Logger, line: CallEventLine): void {
  if (logger === noopLogger) return;
  const sessionID = line.sessionId ?? "";
  if (line.rejectedBeforeExecution === true) {
    logger.debug("event: tool call failed", { sessionID, toolName: line.toolName, callID: line.callId, error: line.error ?? "", durationMs: line.durationMs });
    return;
  }
  const status = line.status === "success" ? "complete" : line.status === "client" ? "pending" : "failed";
  logger.debug("event: tool call completed", { sessionID, toolName: line.toolName, callID: line.callId, status, durationMs: line.durationMs });
}

/**
 * `event: client tool requested` (debug): a call was handed to the client.
 * @internal Does not follow semver.
 */
export function logClientToolRequested(
  logger: Logger,
  line: { readonly sessionId: string | undefined; readonly toolName: string; readonly callId: string; readonly consentMsg: string; readonly categories: readonly string[] },
): void {
  if (logger !== noopLogger) {
    logger.debug("event: client tool requested", { sessionID: line.sessionId ?? "", toolName: line.toolName, callID: line.callId, consentMsg: line.consentMsg, categories: line.categories });
  }
}

const REGISTERED: Readonly<Record<string, string>> = {
  http: "registered HTTP tool",
  client: "registered client tool",
  grpc: "registered gRPC tool",
  mcp: "registered MCP tool",
  openapi: "registered OpenAPI tool",
};

/**
 * Startup: `registered HTTP tool` / `registered client tool` / `registered gRPC tool` /
 * `registered MCP tool` / `registered OpenAPI tool` (debug, `tool`, `handler`) for each
 * tool, then `tools initialized` (info, `toolCount`).
 * @internal Does not follow semver.
 */
export function logToolsInitialized(logger: Logger, tools: Iterable<{ readonly name: string; readonly handlerName: string; readonly handlerType: string }>): void {
  if (logger === noopLogger) return;
  let toolCount = 0;
  for (const tool of tools) {
    toolCount++;
    const message = REGISTERED[tool.handlerType];
    if (message !== undefined) logger.debug(message, { tool: tool.name, handler: tool.handlerName });
  }
  logger.info("tools initialized", { toolCount });
}
