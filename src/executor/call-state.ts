import type { JsonValue } from "../core/index.js";
import type { Identity } from "../headers/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import type { PolicyAudit } from "../policy/index.js";
import type { OpenApiOperation } from "../openapi/index.js";
import type { ExecutableHandler } from "../backends/index.js";
import type { CallSpan, McpRequestObserver } from "../telemetry/index.js";
import type { CallContext, ToolCall } from "./outcome.js";
import type { ToolCallHooks } from "./types.js";
import type { CallDeadline } from "./deadline.js";
import { parseArguments } from "./arguments.js";

const NONE: Readonly<Record<string, string>> = Object.freeze({});

/**
 * One call on its way through the stages: what the call is, and what each
 * stage found so far. It is the backend's view of the call too, so a backend
 * reads the arguments and credentials without a copy (once resolved, it is a
 * `BackendCall`). One class (every field
 * set in the constructor) keeps the object's shape the same for every call.
 * @internal Does not follow semver.
 */
export class CallState {
  // Not the call itself: what it says is in callId, toolName and rawArgs, and the host's object is not kept while the call is in flight.
  readonly ctx: CallContext;
  readonly callId: string;
  readonly toolName: string;
  readonly identity: Identity | undefined;
  readonly startedAt: number;
  readonly sessionId: string | undefined;
  /** The resolve stage: the handler (undefined until resolved, and for an unknown tool). */
  handler: ExecutableHandler | undefined = undefined;
  operation: OpenApiOperation | undefined = undefined;
  /** The arguments as the model produced them: JSON text or a parsed value. */
  readonly rawArgs: string | JsonValue | undefined;
  /** The parsed arguments (`undefined` for empty text). */
  readonly args: JsonValue | undefined;
  /** Why the argument text is not JSON; reported by the parse stage, after the tool is resolved. */
  readonly argsError: string | undefined;
  /** The arguments as recorded: the parsed value (`null` for none), or the raw text when it is not JSON. */
  readonly recordedArgs: JsonValue | string;
  /** The policy stage. */
  injected: Readonly<Record<string, string>> | undefined = undefined;
  audit: PolicyAudit | undefined = undefined;
  /** The credentials stage. */
  auth: Readonly<Record<string, string>> = NONE;
  secretHeaders: Readonly<Record<string, string>> = NONE;
  delegationToken: string | undefined = undefined;
  breaker: CircuitBreaker | undefined = undefined;
  /** Attempts that got past the breaker. */
  attempts = 0;
  /** The call's `omnia.tool.call` span, when telemetry is on (opened once the tool is resolved). */
  span: CallSpan | undefined = undefined;
  /** The caller's per-call hooks (a turn's record mapping). */
  hooks: ToolCallHooks | undefined = undefined;
  /** The executor's trace-context writer, for an HTTP or OpenAPI call with a span (one function for every call). */
  traceWriter: ((span: CallSpan, headers: Record<string, string>) => void) | undefined = undefined;
  /** The call's record position (`ctx.recordSequence`), taken when its first row is written. */
  sequenceNum: number | undefined = undefined;
  /** A person's reason for refusing the call (`refuse()`): it ends `denied` once the tool is resolved. */
  refusal: string | undefined = undefined;
  /** The call's `ctx.timeoutMs` deadline, when it has one. */
  deadline: CallDeadline | undefined = undefined;

  constructor(call: ToolCall, ctx: CallContext, startedAt: number, maxArgumentBytes: number) {
    this.ctx = ctx;
    this.callId = call.id;
    this.toolName = call.name;
    // What backends see: without the session id when the host says this conversation must not send it.
    this.identity = ctx.sessionHeader === false && ctx.identity?.sessionId !== undefined ? { ...ctx.identity, sessionId: undefined } : ctx.identity;
    this.startedAt = startedAt;
    this.sessionId = ctx.identity?.sessionId || undefined;
    this.rawArgs = call.arguments;
    // Parsed at once, as Omnia's executor does, so that every record (an unknown tool's too)
    // carries the parsed arguments; a parse failure is reported by the parse stage.
    const parsed = parseArguments(call.arguments, maxArgumentBytes);
    if (parsed.ok) {
      this.args = parsed.value;
      this.argsError = undefined;
      this.recordedArgs = parsed.value ?? null;
    } else {
      this.args = undefined;
      this.argsError = parsed.message;
      this.recordedArgs = call.arguments as string;
    }
  }

  /**
   * Writes the span's trace context into an HTTP attempt's headers, when propagation is on
   * (made when asked for: the backend calls it once, as it builds the request).
   */
  get injectTrace(): ((headers: Record<string, string>) => void) | undefined {
    const writer = this.traceWriter;
    const span = this.span;
    return writer === undefined || span === undefined ? undefined : (headers) => writer(span, headers);
  }

  /** The span's MCP observer, when telemetry follows MCP requests. */
  get mcpObserver(): McpRequestObserver | undefined {
    return this.span?.mcp;
  }

  /** The resolved handler: only stages after resolution call it. */
  get resolvedHandler(): ExecutableHandler {
    return this.handler!;
  }
}
