import type { JsonValue, ToolHandlerType } from "../core/index.js";

/**
 * The terminal status of a tool call. `denied` is a refusal: a policy denial,
 * a client that declined or never answered, or no client to answer.
 * @public
 */
export type ToolCallStatus = "success" | "error" | "denied";

/**
 * A tool call as it starts, before the policy decision and any backend call:
 * what Omnia's runtime writes as the `pending` row of session-api's `tool_calls`.
 * Every call that is recorded with {@link Recorder.record} was started first,
 * with the same `callId` and `startedAt`.
 * @public
 */
export interface ToolCallStart {
  /** The model's (provider-assigned) call id. */
  readonly callId: string;
  /** The session, from the caller's identity, when known. */
  readonly sessionId?: string;
  /** The tool name. */
  readonly toolName: string;
  /** The ToolRegistry handler that serves the tool; empty for an unknown tool. */
  readonly handlerName: string;
  /** The handler type (`http`, `grpc`, `mcp`, `openapi`, `client`, `platform`); empty for an unknown tool. */
  readonly handlerType: ToolHandlerType | "";
  /** Where the call runs: in the runtime (`server`) or in the connected client (`client`). */
  readonly execution: "server" | "client";
  /** The agent's ToolRegistry name (`metadata.name`), when the registry has one. */
  readonly registryName?: string;
  /** The agent's ToolRegistry namespace, when the registry has one. */
  readonly registryNamespace?: string;
  /** The arguments: the parsed value, or the raw text when it was not valid JSON. */
  readonly arguments: JsonValue | string;
  /** When execution started, in the clock's milliseconds. */
  readonly startedAt: number;
  /**
   * The call's ordering position in the conversation, when the host numbers
   * its records (`ctx.recordSequence`, a runtime's `turn.recordSequence`): the
   * start row and the record of one call share it.
   */
  readonly sequenceNum?: number;
}

/**
 * One tool call, recorded once when its outcome is known: the fields of its
 * start, and how it ended. This is the signal that always exists: server-side
 * calls never appear on the client stream, so the record is where a call — and
 * a denial — is visible.
 *
 * Never holds a secret: auth headers and credentials are not part of it.
 * @public
 */
export interface ToolCallRecord extends ToolCallStart {
  readonly status: ToolCallStatus;
  /** On success: the result handed to the model. */
  readonly result?: JsonValue;
  /** On success: the result's text as handed to the model (the outcome's `resultJson`), when known. */
  readonly resultJson?: string;
  /** On error or denied: the text the model saw. */
  readonly errorMessage?: string;
  /** From start to outcome, in milliseconds. */
  readonly durationMs: number;
  /** Backend attempts made (0 when none was: denied, unknown tool, bad arguments, breaker open). */
  readonly attempts: number;
  /**
   * Audit mode: the policy let the call proceed but would have denied it in
   * enforce mode (the broker's `wouldDeny`), with the rule (`deniedBy`) and its
   * text (`message`) as the policy reported them. Absent for every other call.
   */
  readonly policyAudit?: { readonly deniedBy: string; readonly message: string };
  /**
   * A person's decision before the call ran (`createTurn`'s approval gate):
   * `approved`, `edited` (approved with changed arguments; the record's
   * `arguments` are the ones that ran) or `denied` (the call never ran).
   * Absent for every call that needed no approval.
   */
  readonly approval?: "approved" | "edited" | "denied";
}

/**
 * Where tool-call records go. The host supplies it; a recorder that throws or
 * rejects is logged and never changes the call's outcome.
 * @public
 */
export interface Recorder {
  /** Called once per call when its outcome is known. */
  record(record: ToolCallRecord): void | Promise<void>;
  /**
   * Optional: called once per call when it starts, before {@link Recorder.record} for the same call. It comes
   * before the request is built: its `arguments` are a copy of the call's own, so a recorder that changes the row
   * (masking a value in place) changes neither what the backend is sent nor the call's record.
   */
  start?(start: ToolCallStart): void | Promise<void>;
}
