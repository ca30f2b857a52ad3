import type { Clock, HandlerType, HttpDispatcher, JsonValue, Logger } from "../core/index.js";
import type { AgentInfo, Identity } from "../headers/index.js";
import type { SecretResolver, WorkloadTokenAcquirer } from "../executor/index.js";

/**
 * A check's verdict: `pass`; `warn`, something Omnia copes with but the model
 * or the operator pays for; `fail`, something that breaks calls; `skip`, not
 * judged (and why).
 * @public
 */
export type BackendCheckStatus = "pass" | "warn" | "fail" | "skip";

/**
 * What a check looks at:
 * - `health`: the probe Omnia's health check makes (http and openapi a `HEAD`
 *   of the endpoint, below 500 is healthy; grpc `grpc.health.v1` `SERVING`;
 *   mcp a connect and `ping`).
 * - `list-tools`: MCP `tools/list`, the OpenAPI operations, gRPC `ListTools`.
 * - `input-schema`: PromptKit compiles the tool's input schema.
 * - `arguments`: the arguments given for a tool pass its schema.
 * - `valid-call`: a call with arguments the schema accepts gets a 2xx JSON
 *   answer (http, openapi), a result that is JSON (grpc), a result that is
 *   not an error (mcp).
 * - `identity-headers`: that call carried every caller-identity header.
 * - `timeout`: that call was answered well inside the handler's timeout.
 * - `output-schema`: the result matches the tool's `outputSchema`.
 * - `error-status`: a call with arguments the schema refuses gets an answer
 *   that blames the caller (4xx, `is_error`, `INVALID_ARGUMENT`, an MCP
 *   error result).
 * - `error-body`: that answer's text is short and plain.
 * - `retry-policy`: a handler with a `retryPolicy` looks safe to retry.
 * - `client`: a client handler, which has no backend to call.
 * @public
 */
export type BackendCheckName =
  | "health"
  | "list-tools"
  | "input-schema"
  | "arguments"
  | "valid-call"
  | "identity-headers"
  | "timeout"
  | "output-schema"
  | "error-status"
  | "error-body"
  | "retry-policy"
  | "client";

/**
 * One check's verdict on one handler, or on one of its tools.
 * @public
 */
export interface BackendCheckResult {
  /** The handler's name; `""` for a result about the options (arguments given for a tool nobody serves). */
  readonly handler: string;
  /** The handler's type; `""` with an empty `handler`. */
  readonly handlerType: HandlerType | "";
  /** The tool, for a per-tool check. */
  readonly tool?: string;
  /** What was checked. */
  readonly check: BackendCheckName;
  /** The verdict. */
  readonly status: BackendCheckStatus;
  /** What was seen. Backend text in it is cut at 1,024 bytes. */
  readonly reason: string;
  /** What to change, for a `warn` or a `fail`. */
  readonly fix?: string;
}

/**
 * What {@link checkBackend} found: every result in order (handler by handler,
 * in manifest order; per tool, in the order of {@link BackendCheckName}), and
 * the counts. `ok` is false when any result is `fail`.
 * @public
 */
export interface BackendCheckReport {
  /** No result is `fail`. */
  readonly ok: boolean;
  /** How many results are `pass`. */
  readonly passed: number;
  /** How many results are `warn`. */
  readonly warned: number;
  /** How many results are `fail`. */
  readonly failed: number;
  /** How many results are `skip`. */
  readonly skipped: number;
  /** Every result, in order. */
  readonly results: readonly BackendCheckResult[];
}

/**
 * Options of {@link checkBackend}.
 * @public
 */
export interface CheckBackendOptions {
  /** Check only this handler. Default: every handler. */
  readonly handler?: string;
  /**
   * Arguments per tool name, as the model would send them (JSON text, or a
   * value). A tool with none gets an example built from its input schema.
   */
  readonly args?: Readonly<Record<string, string | JsonValue>>;
  /**
   * The caller identity the calls carry. Default: every identity field and
   * one claim set to a sample value, so that the backend sees every header a
   * real call may carry; `x-omnia-session-id` is sent.
   */
  readonly identity?: Identity;
  /** The agent the executor runs as (`x-omnia-agent-name`, …). */
  readonly agent?: AgentInfo;
  /** Where credentials come from, as for `createToolExecutor`. Default: the executor's. */
  readonly secrets?: SecretResolver;
  /** Workload-identity tokens, as for `createToolExecutor`. */
  readonly workloadIdentity?: WorkloadTokenAcquirer;
  /** Where HTTP requests go out. Default: an undici `Agent` made for the run and closed after it. */
  readonly dispatcher?: HttpDispatcher;
  /** The clock of the executor's timeouts and of the latencies reported. Default: the system clock. */
  readonly clock?: Clock;
  /** Receives the executor's log lines. Default: discards. */
  readonly logger?: Logger;
}
