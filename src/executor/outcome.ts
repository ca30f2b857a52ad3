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
  /**
   * The conversation's signal: abort = the call is abandoned. `execute()`
   * then records the call and **rejects** with `AbortedError`
   * (`ERR_OMNIA_ABORTED`): nobody is waiting for an outcome. Never a breaker
   * failure.
   */
  readonly signal?: AbortSignal;
  /**
   * A deadline for the whole call, in ms on the executor's clock, counted from
   * `execute()`: the policy decision, the credentials, every attempt and every
   * backoff sleep between attempts. When it passes, the call ends at once and
   * `execute()` **resolves** an error outcome with a `TimeoutError`
   * (`ERR_OMNIA_TIMEOUT`, `scope: "call"`) whose message, the text the model
   * sees, is `timed out after <timeoutMs>ms`; the call is recorded once, with
   * the attempts made so far. The attempt in flight is abandoned, which is not
   * a breaker failure (the backend was not given its own timeout).
   *
   * It is not the handler's `timeout`, which still bounds each attempt as
   * Omnia's does (`timed out after <timeout>ms`, a breaker failure, retried per
   * the `retryPolicy`); a deadline shorter than that timeout ends the call
   * first. Unlike `signal`, a deadline is an answer for the model, not an
   * abandoned call. A client tool's hand-off returns at once and is not bound
   * by it (see `clientCallTimeoutMs`). A host callback that does not take a
   * signal (a secret resolver, a delegation source) is waited for; the call
   * ends as soon as it returns. Default: none.
   * @throws InvalidOptionError from `execute()` for a value that is not a positive finite number
   */
  readonly timeoutMs?: number;
  /** Scope for sandbox handlers' per-claim breakers and reachability (`createConversation`). */
  readonly conversation?: Conversation;
  /** Whether a connected client can execute client tools (`x-omnia-client-tools: true`). Absent = no. */
  readonly clientToolsAvailable?: boolean;
  /**
   * Whether tool backends receive `x-omnia-session-id` (HTTP, OpenAPI and gRPC
   * metadata). Omnia sends it for A2A and function-invocation calls but not
   * for WebSocket conversations: pass `false` for those (in a runtime, a turn
   * whose `clientToolsAvailable` is true came from the WebSocket facade).
   * Records and logs keep the session id either way. Default true.
   */
  readonly sessionHeader?: boolean;
  /**
   * Numbers the records of the conversation: a call that is recorded takes
   * `next()` once, when its first row is written (the start row and the record
   * share it), as `sequenceNum`. In a runtime pass `turn.recordSequence`, which
   * counts from the facade's `record_sequence_base` and reports the last one
   * used in `Done.record_sequence_high_water`. Default: records carry none.
   */
  readonly recordSequence?: RecordSequence;
}

/**
 * Hands out ordering positions for records, one per `next()`.
 * @public
 */
export interface RecordSequence {
  next(): bigint | number;
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
