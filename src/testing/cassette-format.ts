// The cassette file format (version 1) and the executor surface a cassette
// records and replays. The layering keeps src/testing/ from importing the
// executor, the manifest and the client-tools types, so the surface is
// restated here field for field, as src/turn/ restates the part it uses
// (`TurnExecutor`); test/cassette.test.ts checks at compile time that a
// `ToolExecutor` is a `CassetteExecutor` and the other way round.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import {
  ErrorCode,
  InvalidOptionError,
  OmniaToolsError,
  goJsonDecode,
  goJsonEncode,
  type HandlerType,
  type JsonObject,
  type JsonValue,
  type ToolHandlerType,
} from "../core/index.js";

/**
 * One tool call as the model produced it (`ToolCall` of the executor).
 * @public
 */
export interface CassetteToolCall {
  /** The provider-assigned call id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The arguments: JSON text as the model produced it, or an already parsed value. */
  readonly arguments: string | JsonValue;
}

/**
 * A client-executed call to forward to the client (`ClientToolRequest`).
 * @public
 */
export interface CassetteClientRequest {
  readonly callId: string;
  readonly name: string;
  /** The arguments as JSON text (`null` when there were none). */
  readonly argumentsJson: string;
  readonly consentMessage?: string;
  readonly categories?: readonly string[];
}

/**
 * The client's answer to a client call (`ClientToolResult`).
 * @public
 */
export interface CassetteClientResult {
  readonly callId: string;
  readonly resultJson?: string;
  readonly isRejected?: boolean;
  readonly rejectionReason?: string;
  readonly isDenied?: boolean;
}

/**
 * A tool as an executor serves it (`ToolDescriptor`).
 * @public
 */
export interface CassetteToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly handlerName: string;
  readonly handlerType: ToolHandlerType;
  readonly execution: "server" | "client";
}

/**
 * What an executor's `execute()` resolves to (`ToolOutcome`, member for
 * member): a success, an error (with a typed `error`), a denial, or a client
 * hand-off.
 * @public
 */
export type CassetteOutcome =
  | {
      readonly status: "success";
      readonly result: JsonValue;
      readonly resultJson: string;
      readonly truncated?: true;
      readonly toolName: string;
      readonly callId: string;
      readonly handlerType: ToolHandlerType | "";
      readonly durationMs: number;
    }
  | {
      readonly status: "error";
      readonly message: string;
      readonly error: OmniaToolsError;
      readonly toolName: string;
      readonly callId: string;
      readonly handlerType: ToolHandlerType | "";
      readonly durationMs: number;
    }
  | {
      readonly status: "denied";
      readonly message: string;
      readonly reason: string;
      readonly toolName: string;
      readonly callId: string;
      readonly handlerType: ToolHandlerType | "";
      readonly durationMs: number;
    }
  | {
      readonly status: "client";
      readonly request: CassetteClientRequest;
      readonly toolName: string;
      readonly callId: string;
      readonly handlerType: ToolHandlerType | "";
      readonly durationMs: number;
    };

/**
 * The executor's progress events (`ToolExecutorEvents`).
 * @public
 */
export interface CassetteExecutorEvents {
  /** A call started. */
  tool_call: { readonly callId: string; readonly name: string };
  /** A call ended: `ok` is true for a success outcome. */
  tool_result: { readonly callId: string; readonly name: string; readonly ok: boolean; readonly durationMs: number };
}

/**
 * The executor surface a cassette records and replays: `ToolExecutor`'s
 * members, restated (omnia-tools/testing does not load the executor's
 * types). A `ToolExecutor` fits where a `CassetteExecutor` is asked for,
 * and a `CassetteExecutor` where a `ToolExecutor` is (`createTurn`,
 * `serveRuntime`, your own code). `ctx` is the executor's `CallContext`.
 * @public
 */
export interface CassetteExecutor {
  /** Runs one call (see `ToolExecutor.execute`). */
  execute(
    call: CassetteToolCall,
    ctx?: unknown,
    hooks?: {
      readonly recordResult?: (resultJson: string) => JsonValue;
      readonly approval?: "approved" | "edited" | "denied";
      readonly round?: { end(): void } | undefined;
    },
  ): Promise<CassetteOutcome>;
  /** Records a call a person refused before it ran (see `ToolExecutor.refuse`). */
  refuse(call: CassetteToolCall, ctx: unknown, reason: string): Promise<CassetteOutcome>;
  /** Completes a client call with the client's answer. */
  completeClientCall(result: CassetteClientResult): CassetteOutcome;
  /**
   * Opens the span of one round of a turn's calls (see
   * `ToolExecutor.startRound`). A recording cassette has it when the executor
   * it wraps does, so a turn's spans are the same recorded or not; a
   * replaying one has none (it records no spans).
   */
  startRound?(calls: number): { end(): void } | undefined;
  /** Every tool the executor serves. */
  readonly tools: readonly CassetteToolDescriptor[];
  /** Runs discovery again. */
  refresh(): Promise<void>;
  /** Runs discovery, then lists every tool. */
  listTools(): Promise<readonly CassetteToolDescriptor[]>;
  /** Probes the health of every handler (or of the one named). */
  checkHealth(handlerName?: string): Promise<
    readonly {
      readonly handler: string;
      readonly handlerType: HandlerType;
      readonly healthy: boolean;
      readonly detail: string;
      readonly latencyMs: number;
    }[]
  >;
  /** Subscribes to progress events; the returned handle unsubscribes. */
  on<E extends keyof CassetteExecutorEvents>(event: E, listener: (payload: CassetteExecutorEvents[E]) => void): { dispose(): void };
  /** Closes the executor; never rejects. */
  close(): Promise<void>;
}

/**
 * An outcome as a cassette line holds it: the status and the text the model
 * saw, without `toolName`, `callId`, `handlerType` and `durationMs` (kept
 * beside it in the line). An error keeps its error's `name`, `code` and
 * `message`, and its typed fields whose values are JSON scalars (`status`,
 * `timeoutMs`, `scope`, ...).
 * @public
 */
export type CassetteRecordedOutcome =
  | { readonly status: "success"; readonly resultJson: string; readonly truncated?: true }
  | {
      readonly status: "error";
      readonly message: string;
      readonly error: { readonly name: string; readonly code: string; readonly message: string; readonly [field: string]: string | number | boolean | null };
    }
  | { readonly status: "denied"; readonly message: string; readonly reason: string }
  | { readonly status: "client"; readonly request: CassetteClientRequest };

/**
 * One line of a cassette file, format version 1: a JSON object per line
 * (JSON Lines, UTF-8), each with `"v": 1` and a `kind`, in the order the
 * recording wrote them.
 *
 * - `"tools"`: the tools the recorded executor served, written before the
 *   first call and again whenever its list changed (after a discovery):
 *   `{ "v": 1, "kind": "tools", "tools": [<descriptor>, ...] }`, each
 *   descriptor `{ name, description, inputSchema, outputSchema?, handlerName, handlerType, execution }`.
 * - `"call"`: one executed call, written when it completed (so in completion
 *   order): `{ "v": 1, "kind": "call", "tool", "callId", "handler",
 *   "handlerType", "key", "arguments", "outcome", "durationMs" }`. `handler`
 *   and `handlerType` are the tool's (`""` for a tool the executor did not
 *   serve). `arguments` is the parsed arguments with the redacted values
 *   written `"***"` (`null` for empty arguments; the text itself, as a string,
 *   for arguments that are not JSON), and `key` their canonical JSON (Go's
 *   encoding: sorted keys, compact; empty for empty arguments, the text for
 *   text that is not JSON): what a replay matches calls by, with the tool.
 *   `outcome` is a {@link CassetteRecordedOutcome}; a client hand-off is
 *   `{ "status": "client", "request": {...} }`, whose `argumentsJson` holds the
 *   redacted arguments when anything was redacted. `durationMs` is the
 *   outcome's.
 * - `"client-result"`: the client's answer to a client call, written when
 *   `completeClientCall()` returned: `{ "v": 1, "kind": "client-result",
 *   "tool", "callId", "result", "outcome", "durationMs" }`, where `callId` is
 *   the id of the call (its `call` line's `callId`), `result` the client's
 *   answer as given and `outcome` the resulting outcome.
 *
 * Nothing of the outbound request (URL, headers, body) is recorded: only
 * what the model and the host saw.
 * @public
 */
export type CassetteEntry =
  | { readonly v: 1; readonly kind: "tools"; readonly tools: readonly CassetteToolDescriptor[] }
  | {
      readonly v: 1;
      readonly kind: "call";
      readonly tool: string;
      readonly callId: string;
      readonly handler: string;
      readonly handlerType: ToolHandlerType | "";
      readonly key: string;
      readonly arguments: JsonValue;
      readonly outcome: CassetteRecordedOutcome;
      readonly durationMs: number;
    }
  | {
      readonly v: 1;
      readonly kind: "client-result";
      readonly tool: string;
      readonly callId: string;
      readonly result: CassetteClientResult;
      readonly outcome: Exclude<CassetteRecordedOutcome, { readonly status: "client" }>;
      readonly durationMs: number;
    };

/** The format version this code writes and reads. */
export const CASSETTE_VERSION = 1;

/** What a redacted value is written as. */
export const REDACTED = "***";

const HANDLER_TYPES: ReadonlySet<string> = new Set(["http", "grpc", "mcp", "openapi", "client", "platform"]);
const ERROR_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));
/** Error properties that are not typed fields. */
const ERROR_BASICS: ReadonlySet<string> = new Set(["name", "code", "message", "stack", "cause"]);

/** A call's arguments as a cassette holds them: redacted, and their canonical key. */
export interface CassetteArguments {
  /** The canonical JSON of the redacted arguments (see {@link CassetteEntry}). */
  readonly key: string;
  /** The redacted arguments. */
  readonly value: JsonValue;
  /** Whether a value was redacted. */
  readonly redacted: boolean;
}

/**
 * The redaction list as a lookup: names compared case-insensitively, so that
 * a header name matches however it is spelled.
 */
export function redactionSet(where: string, redact: unknown): ReadonlySet<string> {
  if (redact === undefined) return new Set();
  if (!Array.isArray(redact)) throw new InvalidOptionError(`${where}: redact must be an array of key names; got ${describeValue(redact)}`);
  const out = new Set<string>();
  for (const [i, name] of redact.entries()) {
    if (typeof name !== "string" || name === "") throw new InvalidOptionError(`${where}: redact[${i}] must be a non-empty string; got ${describeValue(name)}`);
    out.add(name.toLowerCase());
  }
  return out;
}

/** The arguments of a call, redacted, with their key. */
export function cassetteArguments(args: string | JsonValue | undefined, redact: ReadonlySet<string>): CassetteArguments {
  const text = typeof args === "string" ? args : args === undefined ? "" : (JSON.stringify(args) ?? "");
  if (text === "") return { key: "", value: null, redacted: false };
  const decoded = goJsonDecode(text);
  // Text Go cannot decode is its own key (as the turn's identical-call guard keys it); nothing inside it can be redacted.
  if (!decoded.ok) return { key: text, value: text, redacted: false };
  const state = { redacted: false };
  const value = redact.size === 0 ? decoded.value : redactValue(decoded.value, redact, state);
  return { key: goJsonEncode(value) ?? text, value, redacted: state.redacted };
}

function redactValue(value: JsonValue, redact: ReadonlySet<string>, state: { redacted: boolean }): JsonValue {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, state));
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (redact.has(k.toLowerCase())) {
      out[k] = REDACTED;
      state.redacted = true;
    } else {
      out[k] = redactValue(v, redact, state);
    }
  }
  return out;
}

/** The `argumentsJson` the executor gives a client hand-off for these arguments. */
export function clientArgumentsJson(args: string | JsonValue | undefined): string {
  if (typeof args === "string") return args !== "" ? args : "null";
  return JSON.stringify(args ?? null) ?? "null";
}

/** Pretty JSON with sorted keys, for a diff of two arguments. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) ?? "undefined";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
  return out;
}

/** An outcome as a line holds it. */
export function recordOutcome(outcome: CassetteOutcome, redactedArguments: CassetteArguments | undefined): CassetteRecordedOutcome {
  switch (outcome.status) {
    case "success":
      return outcome.truncated === true ? { status: "success", resultJson: outcome.resultJson, truncated: true } : { status: "success", resultJson: outcome.resultJson };
    case "error":
      return { status: "error", message: outcome.message, error: recordError(outcome.error) };
    case "denied":
      return { status: "denied", message: outcome.message, reason: outcome.reason };
    case "client": {
      const r = outcome.request;
      // A redacted value must not come back through the request's copy of the arguments.
      const argumentsJson = redactedArguments?.redacted === true ? (JSON.stringify(redactedArguments.value) ?? "null") : r.argumentsJson;
      return {
        status: "client",
        request: {
          callId: r.callId,
          name: r.name,
          argumentsJson,
          ...(r.consentMessage === undefined ? {} : { consentMessage: r.consentMessage }),
          ...(r.categories === undefined ? {} : { categories: [...r.categories] }),
        },
      };
    }
  }
}

function recordError(error: unknown): { name: string; code: string; message: string; [field: string]: string | number | boolean | null } {
  const e = error as { name?: unknown; code?: unknown; message?: unknown } | null | undefined;
  const out: { name: string; code: string; message: string; [field: string]: string | number | boolean | null } = {
    name: typeof e?.name === "string" ? e.name : "Error",
    code: typeof e?.code === "string" ? e.code : ErrorCode.BACKEND,
    message: typeof e?.message === "string" ? e.message : "",
  };
  if (e !== null && typeof e === "object") {
    for (const [k, v] of Object.entries(e)) {
      if (ERROR_BASICS.has(k)) continue;
      if (v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) out[k] = v;
    }
  }
  return out;
}

/**
 * The outcome a recorded one gives for a replayed call: this call's id and
 * tool name, the recorded handler type and duration.
 */
export function replayOutcome(recorded: CassetteRecordedOutcome, call: { readonly id: string; readonly name: string; readonly arguments?: string | JsonValue }, handlerType: ToolHandlerType | "", durationMs: number): CassetteOutcome {
  const toolName = call.name;
  const callId = call.id;
  switch (recorded.status) {
    case "success": {
      const result = JSON.parse(recorded.resultJson) as JsonValue;
      const { resultJson } = recorded;
      return recorded.truncated === true
        ? { status: "success", result, resultJson, truncated: true, toolName, callId, handlerType, durationMs }
        : { status: "success", result, resultJson, toolName, callId, handlerType, durationMs };
    }
    case "error":
      return { status: "error", message: recorded.message, error: replayError(recorded.error), toolName, callId, handlerType, durationMs };
    case "denied":
      return { status: "denied", message: recorded.message, reason: recorded.reason, toolName, callId, handlerType, durationMs };
    case "client": {
      const r = recorded.request;
      const request: CassetteClientRequest = {
        callId,
        name: toolName,
        argumentsJson: clientArgumentsJson(call.arguments),
        ...(r.consentMessage === undefined ? {} : { consentMessage: r.consentMessage }),
        ...(r.categories === undefined ? {} : { categories: r.categories }),
      };
      return { status: "client", request, toolName, callId, handlerType, durationMs };
    }
  }
}

/**
 * The recorded error as an OmniaToolsError with its code (so `instanceof`
 * the original class holds, by the code's brand), name, message and typed
 * fields.
 */
function replayError(recorded: Extract<CassetteRecordedOutcome, { status: "error" }>["error"]): OmniaToolsError {
  const error = new OmniaToolsError(recorded.message, { code: recorded.code as ErrorCode });
  for (const [k, v] of Object.entries(recorded)) {
    if (!ERROR_BASICS.has(k)) Object.defineProperty(error, k, { value: v, enumerable: true, writable: false, configurable: true });
  }
  error.name = recorded.name;
  return error;
}

/** One line of a cassette that was read, with its 1-based line number. */
export type ReadEntry = CassetteEntry & { readonly line: number };

/**
 * Reads and checks a cassette file: every non-blank line must be a version 1
 * entry.
 * @throws InvalidOptionError naming the file and the line
 */
export function readCassette(where: string, path: string): ReadEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new InvalidOptionError(`${where}: cannot read the cassette ${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const out: ReadEntry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === "") continue;
    const at = `${where}: ${path} line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new InvalidOptionError(`${at}: not JSON; got ${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)}`);
    }
    out.push({ ...checkEntry(at, value), line: i + 1 });
  }
  return out;
}

function checkEntry(at: string, value: unknown): CassetteEntry {
  if (!isObject(value)) throw new InvalidOptionError(`${at}: expected a JSON object; got ${describeValue(value)}`);
  if (value["v"] !== CASSETTE_VERSION) throw new InvalidOptionError(`${at}: "v" must be ${CASSETTE_VERSION} (the cassette format version); got ${describeValue(value["v"])}`);
  switch (value["kind"]) {
    case "tools": {
      const tools = value["tools"];
      if (!Array.isArray(tools)) throw new InvalidOptionError(`${at}: "tools" must be an array; got ${describeValue(tools)}`);
      tools.forEach((t, i) => checkDescriptor(`${at}: tools[${i}]`, t));
      return value as unknown as CassetteEntry;
    }
    case "call": {
      for (const field of ["tool", "callId", "handler", "key"]) checkString(at, value, field);
      const handlerType = value["handlerType"];
      if (handlerType !== "" && !(typeof handlerType === "string" && HANDLER_TYPES.has(handlerType))) {
        throw new InvalidOptionError(`${at}: "handlerType" must be one of "", ${[...HANDLER_TYPES].map((t) => JSON.stringify(t)).join(", ")}; got ${describeValue(handlerType)}`);
      }
      if (!("arguments" in value)) throw new InvalidOptionError(`${at}: "arguments" is missing`);
      checkOutcome(at, value["outcome"], true);
      checkDuration(at, value);
      return value as unknown as CassetteEntry;
    }
    case "client-result": {
      for (const field of ["tool", "callId"]) checkString(at, value, field);
      const result = value["result"];
      if (!isObject(result) || typeof result["callId"] !== "string") throw new InvalidOptionError(`${at}: "result" must be a client result object with a string "callId"; got ${describeValue(result)}`);
      checkOutcome(at, value["outcome"], false);
      checkDuration(at, value);
      return value as unknown as CassetteEntry;
    }
    default:
      throw new InvalidOptionError(`${at}: "kind" must be "tools", "call" or "client-result"; got ${describeValue(value["kind"])}`);
  }
}

function checkOutcome(at: string, outcome: unknown, clientAllowed: boolean): void {
  if (!isObject(outcome)) throw new InvalidOptionError(`${at}: "outcome" must be an object; got ${describeValue(outcome)}`);
  const where = `${at}: outcome`;
  switch (outcome["status"]) {
    case "success":
      checkString(where, outcome, "resultJson");
      try {
        JSON.parse(outcome["resultJson"] as string);
      } catch {
        throw new InvalidOptionError(`${where}: "resultJson" must be JSON text; got ${describeValue(outcome["resultJson"])}`);
      }
      if ("truncated" in outcome && outcome["truncated"] !== true) throw new InvalidOptionError(`${where}: "truncated" must be true when present; got ${describeValue(outcome["truncated"])}`);
      return;
    case "error": {
      checkString(where, outcome, "message");
      const error = outcome["error"];
      if (!isObject(error) || typeof error["name"] !== "string" || typeof error["message"] !== "string" || typeof error["code"] !== "string" || !ERROR_CODES.has(error["code"])) {
        throw new InvalidOptionError(`${where}: "error" must be { name, code, message } with a code of this package; got ${describeValue(error)}`);
      }
      for (const [k, v] of Object.entries(error)) {
        if (!(v === null || typeof v === "string" || typeof v === "boolean" || typeof v === "number")) throw new InvalidOptionError(`${where}: error field ${JSON.stringify(k)} must be a JSON scalar; got ${describeValue(v)}`);
      }
      return;
    }
    case "denied":
      checkString(where, outcome, "message");
      checkString(where, outcome, "reason");
      return;
    case "client": {
      if (!clientAllowed) break;
      const request = outcome["request"];
      if (!isObject(request) || typeof request["callId"] !== "string" || typeof request["name"] !== "string" || typeof request["argumentsJson"] !== "string") {
        throw new InvalidOptionError(`${where}: "request" must be { callId, name, argumentsJson } strings; got ${describeValue(request)}`);
      }
      return;
    }
  }
  throw new InvalidOptionError(`${where}: "status" must be ${clientAllowed ? '"success", "error", "denied" or "client"' : '"success", "error" or "denied"'}; got ${describeValue(outcome["status"])}`);
}

function checkDescriptor(at: string, value: unknown): void {
  if (!isObject(value)) throw new InvalidOptionError(`${at}: expected a tool descriptor object; got ${describeValue(value)}`);
  for (const field of ["name", "description", "handlerName"]) checkString(at, value, field);
  if (!isObject(value["inputSchema"])) throw new InvalidOptionError(`${at}: "inputSchema" must be an object; got ${describeValue(value["inputSchema"])}`);
  if (!(typeof value["handlerType"] === "string" && HANDLER_TYPES.has(value["handlerType"]))) throw new InvalidOptionError(`${at}: "handlerType" must be a handler type; got ${describeValue(value["handlerType"])}`);
  if (value["execution"] !== "server" && value["execution"] !== "client") throw new InvalidOptionError(`${at}: "execution" must be "server" or "client"; got ${describeValue(value["execution"])}`);
}

function checkDuration(at: string, value: Record<string, unknown>): void {
  const d = value["durationMs"];
  if (typeof d !== "number" || !Number.isFinite(d) || d < 0) throw new InvalidOptionError(`${at}: "durationMs" must be a number from 0; got ${describeValue(d)}`);
}

function checkString(at: string, value: Record<string, unknown>, field: string): void {
  if (typeof value[field] !== "string") throw new InvalidOptionError(`${at}: "${field}" must be a string; got ${describeValue(value[field])}`);
}

/** A tool descriptor with exactly the descriptor's fields (a copy, frozen). */
export function descriptorCopy(d: CassetteToolDescriptor): CassetteToolDescriptor {
  return Object.freeze({
    name: d.name,
    description: d.description,
    inputSchema: d.inputSchema,
    ...(d.outputSchema === undefined ? {} : { outputSchema: d.outputSchema }),
    handlerName: d.handlerName,
    handlerType: d.handlerType,
    execution: d.execution,
  });
}

/** Whether two client answers say the same, the call id aside. */
export function sameClientAnswer(a: CassetteClientResult, b: CassetteClientResult): boolean {
  return isDeepStrictEqual(answerView(a), answerView(b));
}

/** A client answer without its call id and without absent fields, for comparing and printing. */
export function answerView(r: CassetteClientResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ["resultJson", "isRejected", "rejectionReason", "isDenied"] as const) if (r[k] !== undefined) out[k] = r[k];
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short description of a value for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return `${value}n`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return typeof value;
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
