import type { JsonValue, OmniaToolsError, ToolHandlerType } from "../core/index.js";
import type { ClientToolRequest } from "../client-tools/index.js";
import type { Identity } from "../headers/index.js";
import type { Conversation } from "../breaker/index.js";

/**
 * One tool call as the model produced it.
 * @public
 */
export interface ToolCall {
  /** The provider-assigned call id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The arguments: JSON text as the model produced it, or an already parsed value. */
  readonly arguments: string | JsonValue;
}

/**
 * Per-call context from the host.
 * @public
 */
export interface CallContext {
  /** The caller identity (from the facade's x-omnia-* metadata). */
  readonly identity?: Identity;
  /** The conversation's signal: abort = the call is abandoned (never a breaker failure). */
  readonly signal?: AbortSignal;
  /** Scope for sandbox handlers' per-claim breakers and reachability (`createConversation`). */
  readonly conversation?: Conversation;
  /** Whether a connected client can execute client tools (`x-omnia-client-tools: true`). Absent = no. */
  readonly clientToolsAvailable?: boolean;
}

/**
 * Fields every outcome carries.
 * @public
 */
export interface OutcomeBase {
  readonly toolName: string;
  readonly callId: string;
  /** The type of the tool's handler (`http`, `grpc`, `mcp`, `openapi`, `client`, `platform`); `""` for an unknown tool. */
  readonly handlerType: ToolHandlerType | "";
  /** From start to outcome, in the clock's milliseconds. */
  readonly durationMs: number;
}

/**
 * The tool succeeded. `resultJson` is the exact JSON text the model sees (a
 * 2xx JSON body passes through byte for byte); `result` is its parsed value.
 * @public
 */
export interface SuccessOutcome extends OutcomeBase {
  readonly status: "success";
  readonly result: JsonValue;
  readonly resultJson: string;
  /** The HTTP body was cut at the 10 MiB read cap. */
  readonly truncated?: true;
}

/**
 * The tool failed. `message` is the exact text the model sees
 * (`HTTP 503: down`, `tool error: boom`); `error` is typed for the host.
 * @public
 */
export interface ErrorOutcome extends OutcomeBase {
  readonly status: "error";
  readonly message: string;
  readonly error: OmniaToolsError;
}

/**
 * The call was refused: a policy denial, a client that declined or never
 * answered, or no client to answer.
 * @public
 */
export interface DeniedOutcome extends OutcomeBase {
  readonly status: "denied";
  readonly message: string;
  readonly reason: string;
}

/**
 * A client tool: the host must forward `request` to the client as a ToolCall
 * with execution CLIENT, then call `completeClientCall()` with its answer.
 * @public
 */
export interface ClientOutcome extends OutcomeBase {
  readonly status: "client";
  readonly request: ClientToolRequest;
}

/**
 * What `execute()` resolves to. It never rejects for a backend or model fault.
 * @public
 */
export type ToolOutcome = SuccessOutcome | ErrorOutcome | DeniedOutcome | ClientOutcome;
