// `checkBackend`: call each handler's real backend the way Omnia's runtime
// does (the executor, with its headers, credentials, timeouts and retries) and
// say, check by check, what the tool backend contract asks of it.
import { Agent } from "undici";
import { boundPeerText, ErrorCode, goJsonMarshal, InvalidOptionError, OmniaToolsError, systemClock, formatGoDuration, type Clock, type HttpDispatcher, type JsonValue } from "../core/index.js";
import type { Identity } from "../headers/index.js";
import { rebuildToolRegistry, type HandlerConfig, type ToolDescriptor, type ToolRegistry } from "../manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolOutcome } from "../executor/index.js";
import { validateArguments, validateResult } from "../turn/index.js";
import { CaptureDispatcher, exchangeText, type Exchange } from "./capture-dispatcher.js";
import { exampleArguments, invalidArguments } from "./example-args.js";
import { checkGrpcListTools } from "./grpc-list-tools.js";
import { NO_TIMEOUT_WAIT_MS, waitFor, within, type Emit, type Settled } from "./wait.js";
import { errorBodyProblems, ERROR_BODY_BYTES } from "./error-body.js";
import type { BackendCheckReport, BackendCheckResult, BackendCheckStatus, CheckBackendOptions } from "./types.js";

/** The identity a check's calls carry unless the host gives one: every field, one claim. */
export const SAMPLE_IDENTITY: Identity = Object.freeze({
  agentName: "backend-check",
  namespace: "default",
  sessionId: "backend-check-session",
  requestId: "backend-check-request",
  userId: "backend-check-user",
  subjectId: "backend-check-subject",
  userEmail: "backend-check@example.com",
  origin: "oidc",
  workspace: "default",
  provider: "openai",
  model: "backend-check-model",
  claims: Object.freeze({ tier: "backend-check" }) as Record<string, string>,
});

/** The HTTP methods defined as idempotent: a repeat is meant to act once. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);

/** gRPC codes that say the caller was wrong. */
const CALLER_CODES = new Set(["INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "UNAUTHENTICATED"]);

const KNOWN_OPTIONS = new Set(["handler", "args", "identity", "agent", "secrets", "workloadIdentity", "dispatcher", "clock", "logger"]);

/** The body of {@link checkBackend}, loaded on its first call. @internal */
export async function runBackendCheck(registry: ToolRegistry, options: CheckBackendOptions = {}): Promise<BackendCheckReport> {
  if (registry === null || typeof registry !== "object" || typeof registry.getHandler !== "function") {
    throw new InvalidOptionError("checkBackend: registry must be a ToolRegistry from loadToolRegistry()");
  }
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`checkBackend: options must be an object; got ${String(options)}`);
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new InvalidOptionError(`checkBackend: unknown option ${JSON.stringify(key)}; the options are ${[...KNOWN_OPTIONS].join(", ")}`);
  }
  if (options.handler !== undefined && registry.getHandler(options.handler) === undefined) {
    throw new InvalidOptionError(`checkBackend: the registry has no handler ${JSON.stringify(options.handler)}; its handlers are ${registry.handlers.map((h) => JSON.stringify(h.name)).join(", ") || "(none)"}`);
  }
  const args = options.args ?? {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) throw new InvalidOptionError("checkBackend: args must be an object of arguments by tool name");
  const results: BackendCheckResult[] = [];
  const own = options.dispatcher === undefined ? new Agent() : undefined;
  const dispatcher = options.dispatcher ?? (own as unknown as HttpDispatcher);
  const used = new Set<string>();
  try {
    for (const handler of registry.handlers) {
      if (options.handler !== undefined && handler.name !== options.handler) continue;
      await checkHandler(registry, handler, options, dispatcher, args, used, results);
    }
  } finally {
    await own?.close().catch(() => undefined);
  }
  for (const name of Object.keys(args)) {
    if (!used.has(name)) {
      results.push({ handler: "", handlerType: "", tool: name, check: "arguments", status: "fail", reason: "arguments were given for a tool that none of the checked handlers serves", fix: "name a tool the handlers serve (omnia-tools probe --target lists discovered tools)" });
    }
  }
  const count = (s: BackendCheckStatus): number => results.filter((r) => r.status === s).length;
  return { ok: count("fail") === 0, passed: count("pass"), warned: count("warn"), failed: count("fail"), skipped: count("skip"), results };
}

async function checkHandler(
  registry: ToolRegistry,
  handler: HandlerConfig,
  options: CheckBackendOptions,
  dispatcher: HttpDispatcher,
  args: Readonly<Record<string, string | JsonValue>>,
  used: Set<string>,
  results: BackendCheckResult[],
): Promise<void> {
  const emitFor =
    (tool?: string): Emit =>
    (check, status, reason, fix) =>
      results.push({ handler: handler.name, handlerType: handler.type, ...(tool === undefined ? {} : { tool }), check, status, reason, ...(fix === undefined ? {} : { fix }) });
  const emit = emitFor();
  if (handler.type === "client") {
    emit("client", "skip", "a client tool runs in the user's client; there is no backend to call");
    return;
  }
  // Only an http or openapi answer is judged by its raw status and body; MCP's event streams go straight through.
  const capture = new CaptureDispatcher(dispatcher, options.clock ?? systemClock);
  const executor = createToolExecutor({
    registry: rebuildToolRegistry(registry, [handler]),
    dispatcher: handler.type === "http" || handler.type === "openapi" ? capture : dispatcher,
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    ...(options.workloadIdentity === undefined ? {} : { workloadIdentity: options.workloadIdentity }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const caller: Caller = { executor, capture, clock: options.clock ?? systemClock, handlerType: handler.type, timeoutMs: handler.timeoutMs, calls: 0 };
  try {
    await checkHealth(executor, handler, emit);
    let tools: readonly ToolDescriptor[];
    if (handler.type === "mcp" || handler.type === "openapi") {
      const waitMs = waitFor(handler);
      let listed: Settled<readonly ToolDescriptor[]>;
      try {
        listed = await within(executor.listTools(), waitMs, caller.clock);
      } catch (error) {
        emit("list-tools", "fail", handler.type === "mcp" ? `tools/list failed: ${errorText(error)}` : `the OpenAPI document could not be read: ${errorText(error)}`, handler.type === "mcp" ? "serve tools/list with valid tool definitions" : "serve a valid OpenAPI 3 document at specURL");
        return;
      }
      if (!listed.settled) {
        emit("list-tools", "fail", `${handler.type === "mcp" ? "tools/list" : "the OpenAPI document"} was not answered within ${formatGoDuration(waitMs)}`, handler.type === "mcp" ? "answer tools/list" : "serve the OpenAPI document at specURL");
        return;
      }
      tools = listed.value.filter((t) => t.handlerName === handler.name && t.execution === "server");
      const what = handler.type === "mcp" ? "tools/list" : "the OpenAPI document";
      if (tools.length === 0) emit("list-tools", "warn", `${what} gave no tools${handler.type === "mcp" ? " (after toolFilter)" : " (after operationFilter)"}`, "serve at least one tool, or check the handler's filter");
      else emit("list-tools", "pass", `${what} gave ${tools.length} ${tools.length === 1 ? "tool" : "tools"}: ${boundPeerText(tools.map((t) => t.name).join(", "))}`);
    } else {
      tools = executor.tools.filter((t) => t.handlerName === handler.name);
      if (handler.type === "grpc") await checkGrpcListTools(handler, emit);
    }
    for (const tool of tools) {
      if (Object.prototype.hasOwnProperty.call(args, tool.name)) used.add(tool.name);
      const emitTool = emitFor(tool.name);
      try {
        await checkTool(caller, handler, tool, Object.prototype.hasOwnProperty.call(args, tool.name) ? args[tool.name] : undefined, options.identity ?? SAMPLE_IDENTITY, emitTool);
      } catch (error) {
        // A fault of the checker's own: this tool's report ends here, the others go on.
        emitTool("valid-call", "skip", `not judged: checking this tool failed: ${errorText(error)}`);
      }
    }
  } finally {
    await executor.close().catch(() => undefined);
  }
}

async function checkHealth(executor: ToolExecutor, handler: HandlerConfig, emit: Emit): Promise<void> {
  let health;
  try {
    [health] = await executor.checkHealth(handler.name);
  } catch (error) {
    emit("health", "fail", `the health probe failed: ${errorText(error)}`, healthFix(handler));
    return;
  }
  if (health === undefined) return;
  const ms = `${Math.round(health.latencyMs)}ms`;
  const detail = boundPeerText(health.detail);
  if (!health.healthy) emit("health", "fail", `unhealthy: ${detail} (${ms})`, healthFix(handler));
  else if ((handler.type === "http" || handler.type === "openapi") && health.detail === "HTTP 404") {
    emit("health", "warn", `HEAD of the endpoint answered HTTP 404 (${ms}): healthy as Omnia counts it (below 500), but the path may be wrong`, "check the endpoint's path, or answer HEAD on it");
  } else emit("health", "pass", `${detail} (${ms})`);
}

function healthFix(handler: HandlerConfig): string {
  switch (handler.type) {
    case "grpc":
      return 'serve grpc.health.v1.Health/Check answering SERVING for the service ""';
    case "mcp":
      return "accept the MCP connection (initialize) and answer ping";
    default:
      return "answer a HEAD of the endpoint with a status below 500";
  }
}

interface CallSeen {
  readonly outcome: ToolOutcome;
  /** The whole call, retries and backoff included. */
  readonly ms: number;
  readonly exchange: Exchange | undefined;
}

/** One handler's executor, with the dispatcher that sees its HTTP answers. */
interface Caller {
  readonly executor: ToolExecutor;
  readonly capture: CaptureDispatcher;
  readonly clock: Clock;
  readonly handlerType: HandlerConfig["type"];
  /** The handler's timeout (0: none). */
  readonly timeoutMs: number;
  calls: number;
}

async function call(caller: Caller, tool: ToolDescriptor, argsText: string, identity: Identity | undefined): Promise<CallSeen> {
  caller.capture.reset();
  const start = caller.clock.now();
  // A handler without a timeout would wait on a silent backend for ever: the call gets a deadline instead.
  const deadline = caller.timeoutMs > 0 ? {} : { timeoutMs: NO_TIMEOUT_WAIT_MS };
  const outcome = await caller.executor.execute({ id: `backend-check-${++caller.calls}`, name: tool.name, arguments: argsText }, identity === undefined ? deadline : { identity, sessionHeader: true, ...deadline });
  return { outcome, ms: caller.clock.now() - start, exchange: caller.capture.last };
}

async function checkTool(caller: Caller, handler: HandlerConfig, tool: ToolDescriptor, given: string | JsonValue | undefined, identity: Identity, emit: Emit): Promise<void> {
  const schemaJson = goJsonMarshal(tool.inputSchema);
  let argsText: string;
  if (given === undefined) {
    const example = exampleArguments(tool.inputSchema);
    if (!example.ok) {
      emit("valid-call", "skip", `no example arguments could be built from the input schema: ${example.reason}`, `give arguments for ${tool.name} (--args ${tool.name}='{...}')`);
      return;
    }
    argsText = JSON.stringify(example.value);
  } else argsText = typeof given === "string" ? given : JSON.stringify(given);
  const verdict = validateArguments(tool.name, schemaJson, argsText);
  if (!verdict.ok && verdict.class === "schema_invalid") {
    emit("input-schema", "fail", `PromptKit cannot compile it, so every call fails before it reaches the backend: ${boundPeerText(verdict.error)}`, "serve an input schema that is valid JSON Schema (draft 4 to 7)");
    return;
  }
  emit("input-schema", "pass", "PromptKit compiles it");
  if (!verdict.ok) {
    if (given !== undefined) emit("arguments", "fail", `the arguments given fail the tool's schema, so PromptKit would not send them: ${boundPeerText(verdict.error)}`, "give arguments the input schema accepts");
    else emit("valid-call", "skip", `the example built from the input schema does not pass it: ${boundPeerText(verdict.error)}`, `give arguments for ${tool.name} (--args ${tool.name}='{...}')`);
    return;
  }
  const seen = await call(caller, tool, argsText, identity);
  const refused = rootError(seen.outcome);
  if (refused?.code === ErrorCode.INVALID_ARGUMENTS || refused?.code === ErrorCode.MCP_ARGUMENTS) {
    // The executor's own limits refused them before anything was sent: not the backend's doing.
    const text = `the executor refused the arguments before sending them: ${modelSees(seen.outcome)}`;
    if (given !== undefined) emit("arguments", "fail", text, "give arguments the executor accepts");
    else emit("valid-call", "skip", `not judged: ${text}`, `give arguments for ${tool.name} (--args ${tool.name}='{...}')`);
    return;
  }
  const ok = judgeValidCall(handler, seen, emit);
  await judgeIdentity(caller, tool, argsText, seen, emit);
  judgeTimeout(caller, seen, emit);
  if (ok && tool.outputSchema !== undefined && seen.outcome.status === "success") {
    const result = validateResult(tool.name, goJsonMarshal(tool.outputSchema), seen.outcome.resultJson);
    if (result.ok) emit("output-schema", "pass", "the result matches the tool's outputSchema");
    else emit("output-schema", "fail", `the result does not match the tool's outputSchema; the model sees "Tool execution failed: ${boundPeerText(result.error)}"`, "return results the outputSchema describes, or correct the outputSchema");
  }
  await judgeErrorAnswer(caller, handler, tool, argsText, identity, emit);
  await judgeRetry(caller, handler, tool, argsText, identity, seen, ok, emit);
}

/** The JSON-RPC error code an MCP server answered with (an `McpTransportError` that carries one). */
function rpcCodeOf(error: OmniaToolsError | undefined): number | undefined {
  if (error?.code !== ErrorCode.MCP_TRANSPORT) return undefined;
  const code = (error as { rpcCode?: unknown }).rpcCode;
  return typeof code === "number" ? code : undefined;
}

/** Whether the backend answered at all (a status, an `is_error`, an error result, a JSON-RPC error), as opposed to a call that got no answer. */
function answered(outcome: ToolOutcome): boolean {
  if (outcome.status === "success") return true;
  const error = rootError(outcome);
  switch (error?.code) {
    case ErrorCode.HTTP_STATUS:
    case ErrorCode.TOOL_ERROR:
    case ErrorCode.MCP_TOOL_ERROR:
      return true;
    case ErrorCode.GRPC_STATUS: {
      const code = (error as { grpcCode?: string }).grpcCode;
      return code !== "UNAVAILABLE" && code !== "DEADLINE_EXCEEDED" && code !== "CANCELLED";
    }
    default:
      return rpcCodeOf(error) !== undefined;
  }
}

/** Whether the call ended on its timeout (the handler's, or the checker's deadline when the handler sets none). */
function timedOut(outcome: ToolOutcome): boolean {
  const error = rootError(outcome);
  return error?.code === ErrorCode.TIMEOUT || (error?.code === ErrorCode.GRPC_STATUS && (error as { grpcCode?: string }).grpcCode === "DEADLINE_EXCEEDED");
}

/** The error an outcome carries, under any `RetriesExhaustedError`. */
function rootError(outcome: ToolOutcome): OmniaToolsError | undefined {
  if (outcome.status !== "error") return undefined;
  let error: OmniaToolsError = outcome.error;
  for (let i = 0; i < 8 && error.code === ErrorCode.RETRIES_EXHAUSTED; i++) {
    const last = (error as { lastError?: unknown }).lastError ?? error.cause;
    if (!(last instanceof OmniaToolsError)) break;
    error = last;
  }
  return error;
}

/** The most bytes of a model-visible text a reason quotes: room for Omnia's own 512-byte cut of an HTTP error body and its prefix. */
const QUOTE_MAX_BYTES = 1024;

function modelSees(outcome: ToolOutcome): string {
  if (outcome.status === "error" || outcome.status === "denied") return boundPeerText(outcome.message, QUOTE_MAX_BYTES);
  if (outcome.status === "success") return `a ${Buffer.byteLength(outcome.resultJson)}-byte result`;
  return "(a client call)";
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function judgeValidCall(handler: HandlerConfig, seen: CallSeen, emit: Emit): boolean {
  const { outcome, exchange } = seen;
  if (outcome.status === "success") {
    if ((handler.type === "http" || handler.type === "openapi") && exchange?.status !== undefined) {
      const body = exchangeText(exchange);
      if (!isJsonText(body)) {
        const type = exchange.contentType === "" ? "no Content-Type" : `Content-Type ${exchange.contentType}`;
        emit("valid-call", "fail", `HTTP ${exchange.status} with a ${exchange.bytes}-byte body that is not JSON (${boundPeerText(type)}); the model gets it wrapped as {"result": "..."}`, "answer a valid call with a JSON body (Content-Type: application/json)");
        return false;
      }
      emit("valid-call", "pass", `HTTP ${exchange.status} with a ${exchange.bytes}-byte JSON body`);
      return true;
    }
    if (handler.type === "grpc" && !isJsonText(outcome.resultJson)) {
      emit("valid-call", "fail", `Execute answered with a ${Buffer.byteLength(outcome.resultJson)}-byte result_json that is not JSON`, "put the result in result_json as JSON text");
      return false;
    }
    emit("valid-call", "pass", handler.type === "grpc" ? "Execute answered with a JSON result_json" : "tools/call answered with a result");
    return true;
  }
  const error = rootError(outcome);
  const status = (error as { status?: unknown } | undefined)?.status;
  let reason = `the model sees "${modelSees(outcome)}"`;
  let fix = "answer a call with valid arguments with a 2xx JSON result";
  if (timedOut(outcome)) {
    reason = `no answer within the handler's timeout: ${reason}`;
    fix = "answer faster, or raise the handler's timeout";
  } else if (error?.code === ErrorCode.HTTP_STATUS && typeof status === "number") {
    if (status < 500) {
      reason = `HTTP ${status} for arguments the schema accepts (a 4xx blames the caller): ${reason}`;
      fix = "accept these arguments, or, if they are not realistic for your backend, give realistic ones (--args)";
    } else {
      reason = `HTTP ${status}, the backend failed: ${reason}`;
      fix = "answer a valid call with a 2xx JSON result";
    }
  } else if (error?.code === ErrorCode.TOOL_ERROR) {
    reason = `Execute answered is_error for arguments the schema accepts: ${reason}`;
    fix = "answer a valid call with is_error false and a result, or give realistic arguments (--args)";
  } else if (error?.code === ErrorCode.GRPC_STATUS) {
    reason = `Execute failed: ${reason}`;
    fix = "implement omnia.tools.v1.ToolService/Execute and answer a valid call with status OK";
  } else if (error?.code === ErrorCode.MCP_TOOL_ERROR) {
    reason = `tools/call answered an error result for arguments the schema accepts: ${reason}`;
    fix = "answer a valid call with a result, or give realistic arguments (--args)";
  } else if (rpcCodeOf(error) !== undefined) {
    reason = `tools/call answered a JSON-RPC error (${rpcCodeOf(error)}) for arguments the schema accepts: ${reason}`;
    fix = "answer a valid call with a result, or give realistic arguments (--args)";
  } else if (error?.code === ErrorCode.TRANSPORT || error?.code === ErrorCode.MCP_TRANSPORT || error?.code === ErrorCode.HTTP_REQUEST) {
    reason = `the backend could not be reached or broke the connection: ${reason}`;
    fix = "check that the backend is running at the handler's endpoint";
  }
  emit("valid-call", "fail", reason, fix);
  return false;
}

async function judgeIdentity(caller: Caller, tool: ToolDescriptor, argsText: string, seen: CallSeen, emit: Emit): Promise<void> {
  // Omnia sends MCP servers no caller identity.
  if (caller.handlerType === "mcp") return;
  const sent = seen.exchange?.headerNames.filter((n) => n.startsWith("x-omnia-")).length;
  // A success is an answer to the call that carried them, whatever the body it came with.
  if (seen.outcome.status === "success") {
    emit("identity-headers", "pass", sent === undefined ? "a call carrying every caller-identity field as metadata was answered" : `a call carrying ${sent} x-omnia-* headers was answered`);
    return;
  }
  if (seen.outcome.status !== "error" || timedOut(seen.outcome)) {
    emit("identity-headers", "skip", "not judged: the call with them was not answered");
    return;
  }
  const bare = await call(caller, tool, argsText, undefined);
  if (bare.outcome.status === "success") {
    emit("identity-headers", "fail", "the call failed with the caller-identity headers and was answered without them", "accept (or ignore) every x-omnia-* header, whatever its value; check any limit on header count or size");
  } else emit("identity-headers", "skip", "not judged: the call fails without the caller-identity headers too");
}

function judgeTimeout(caller: Caller, seen: CallSeen, emit: Emit): void {
  const timeoutMs = caller.timeoutMs;
  if (timedOut(seen.outcome)) {
    if (timeoutMs > 0) emit("timeout", "fail", `no answer within the handler's timeout of ${formatGoDuration(timeoutMs)}`, "answer faster, or raise the handler's timeout");
    else emit("timeout", "fail", `no answer within ${formatGoDuration(NO_TIMEOUT_WAIT_MS)}, the checker's wait; the handler sets no timeout, so Omnia would wait for ever`, "answer, and set a timeout on the handler");
    return;
  }
  if (!answered(seen.outcome)) {
    emit("timeout", "skip", "not judged: the call was not answered");
    return;
  }
  // The handler's timeout bounds each attempt: an HTTP answer is timed from its own request; others as the whole call.
  const exchange = seen.exchange;
  const attemptMs = exchange?.endedAt !== undefined ? exchange.endedAt - exchange.startedAt : seen.ms;
  const ms = Math.round(attemptMs);
  if (!(timeoutMs > 0)) emit("timeout", "warn", `answered in ${ms}ms; the handler sets no timeout, so a backend that never answers holds the call for ever`, "set a timeout on the handler");
  else if (attemptMs > timeoutMs / 2) emit("timeout", "warn", `answered in ${ms}ms, more than half the handler's timeout of ${formatGoDuration(timeoutMs)}`, "answer faster, or raise the handler's timeout so that a slow call is not cut off");
  else emit("timeout", "pass", `answered in ${ms}ms, inside the handler's timeout of ${formatGoDuration(timeoutMs)}`);
}

async function judgeErrorAnswer(caller: Caller, handler: HandlerConfig, tool: ToolDescriptor, argsText: string, identity: Identity, emit: Emit): Promise<void> {
  let valid: JsonValue;
  try {
    valid = JSON.parse(argsText) as JsonValue;
  } catch {
    return;
  }
  const invalid = invalidArguments(tool.inputSchema, valid);
  const invalidText = invalid === undefined ? undefined : JSON.stringify(invalid.value);
  if (invalid === undefined || invalidText === undefined || validateArguments(tool.name, goJsonMarshal(tool.inputSchema), invalidText).ok) {
    emit("error-status", "skip", "not judged: the input schema refuses no arguments this check can build (nothing required, no typed property)");
    return;
  }
  const seen = await call(caller, tool, invalidText, identity);
  const { outcome, exchange } = seen;
  const what = invalid.broken;
  if (outcome.status === "success") {
    emit("error-status", "warn", `a call with ${what} was answered as a success; the model learns nothing about its mistake`, "answer arguments you cannot use with an error that says what is wrong (HTTP 400 or 422, is_error, an MCP error result)");
    return;
  }
  if (outcome.status !== "error") {
    emit("error-status", "skip", `not judged: the call with ${what} was not run (${outcome.status})`);
    return;
  }
  const error = rootError(outcome);
  let text: string;
  let bytes: number | undefined;
  // Whether every byte of the answer was seen: the executor stops reading an error body past what it shows.
  let whole = true;
  let html = false;
  if ((handler.type === "http" || handler.type === "openapi") && exchange?.status !== undefined) {
    const status = exchange.status;
    if (status >= 400 && status < 500) emit("error-status", "pass", `HTTP ${status} for ${what}`);
    else if (status >= 500) emit("error-status", "warn", `HTTP ${status} for ${what}: a 5xx says the backend failed, counts against the circuit breaker and may be retried`, "answer 400 or 422 for arguments you cannot use");
    else emit("error-status", "warn", `HTTP ${status} for ${what}`, "answer 400 or 422 for arguments you cannot use");
    text = exchangeText(exchange);
    // What the answer said it holds, else what was read: all of it when the answer ended, else at least that.
    bytes = exchange.declaredLength ?? exchange.bytes;
    whole = exchange.declaredLength !== undefined || exchange.endedAt !== undefined;
    html = /html/i.test(exchange.contentType);
  } else if (rpcCodeOf(error) !== undefined) {
    emit("error-status", "warn", `a JSON-RPC error (${rpcCodeOf(error)}) for ${what}: Omnia reads it as a transport failure, so it counts against the circuit breaker and a retryPolicy retries it`, "answer arguments you cannot use with a CallToolResult with isError: true and a short text");
    text = outcome.message;
  } else if (error?.code === ErrorCode.TOOL_ERROR || error?.code === ErrorCode.MCP_TOOL_ERROR) {
    emit("error-status", "pass", `${handler.type === "grpc" ? "is_error" : "an error result"} for ${what}`);
    text = outcome.message;
  } else if (error?.code === ErrorCode.GRPC_STATUS) {
    const code = (error as { grpcCode?: string }).grpcCode ?? "UNKNOWN";
    if (CALLER_CODES.has(code)) emit("error-status", "pass", `status ${code} for ${what}`);
    else emit("error-status", "warn", `status ${code} for ${what}: it says the backend failed, and counts against the circuit breaker`, "answer is_error with an error_message (or INVALID_ARGUMENT) for arguments you cannot use");
    text = (error as { statusMessage?: string }).statusMessage ?? outcome.message;
  } else {
    emit("error-status", "skip", `not judged: the call with ${what} got no answer: ${modelSees(outcome)}`);
    return;
  }
  const size = bytes ?? Buffer.byteLength(text);
  const problems = errorBodyProblems(text, size, whole, html);
  if (problems.length === 0) emit("error-body", "pass", `${size} bytes of plain text; the model sees "${modelSees(outcome)}"`);
  else emit("error-body", "warn", `${problems.join("; ")}; the model sees "${modelSees(outcome)}"`, `answer errors with one short line of plain text (at most ${ERROR_BODY_BYTES} bytes) that says what to change`);
}

function retryPolicyOf(handler: HandlerConfig): unknown {
  switch (handler.type) {
    case "http":
      return handler.httpConfig.retryPolicy;
    case "grpc":
      return handler.grpcConfig.retryPolicy;
    case "mcp":
      return handler.mcpConfig.retryPolicy;
    case "openapi":
      return handler.openAPIConfig.retryPolicy;
    default:
      return undefined;
  }
}

async function judgeRetry(caller: Caller, handler: HandlerConfig, tool: ToolDescriptor, argsText: string, identity: Identity, seen: CallSeen, ok: boolean, emit: Emit): Promise<void> {
  if (retryPolicyOf(handler) === undefined) return;
  const method = seen.exchange?.method.toUpperCase();
  if (method !== undefined && IDEMPOTENT_METHODS.has(method)) {
    emit("retry-policy", "pass", `${method} is idempotent by HTTP's rules, so a retry is safe`);
    return;
  }
  if (!ok || seen.outcome.status !== "success") {
    emit("retry-policy", "skip", "not judged: the valid call failed");
    return;
  }
  const again = await call(caller, tool, argsText, identity);
  const how = method === undefined ? "" : `${method} is not idempotent by HTTP's rules, and `;
  if (again.outcome.status === "success" && again.outcome.resultJson === seen.outcome.resultJson) {
    emit("retry-policy", "pass", `${how}the same call was answered the same twice: it looks safe to retry`);
  } else {
    emit("retry-policy", "warn", `${how}the same call was answered differently the second time (${again.outcome.status === "success" ? `${Buffer.byteLength(seen.outcome.resultJson)} bytes, then ${Buffer.byteLength(again.outcome.resultJson)} bytes` : `the model sees "${modelSees(again.outcome)}"`}): a retried call may act twice`, "make the operation idempotent (the same call, the same effect), or remove the retryPolicy");
  }
}

function errorText(error: unknown): string {
  return boundPeerText(error instanceof Error ? error.message : String(error));
}
