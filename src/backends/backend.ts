import type { Clock, JsonValue, Logger } from "../core/index.js";
import type { HandlerConfig, HandlerConfigBase } from "../manifest/index.js";
import type { AgentInfo, Identity } from "../headers/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import type { AttemptOutcome, RetryPolicyOptions } from "../retry/index.js";
import type { HttpDispatcher } from "../http/index.js";
import type { McpCallOptions, McpToolClient } from "../mcp/index.js";
import type { OpenApiOperation } from "../openapi/index.js";
import type { PlatformTool } from "./platform-tool.js";

/** The success value of an attempt, whatever the transport. @internal Does not follow semver. */
export interface BackendSuccess {
  readonly result: JsonValue;
  readonly resultJson: string;
  readonly truncated?: true;
}

/**
 * The pseudo-handler of a platform tool: platform tools run in the host's
 * process and have no manifest handler, so each gets this frozen stand-in
 * (`name` is `"platform"`, no auth, no delegation, no sandbox).
 * @internal Does not follow semver.
 */
export interface PlatformHandlerConfig extends Omit<HandlerConfigBase, "type"> {
  readonly type: "platform";
  readonly tool: PlatformTool;
}

/** Every handler a call can resolve to: a manifest handler or a platform tool's stand-in. @internal Does not follow semver. */
export type ExecutableHandler = HandlerConfig | PlatformHandlerConfig;

/**
 * What a backend reads of one call, prepared by the stages before it: the
 * arguments (as the model wrote them and parsed), the caller, and the
 * credentials resolved once per call.
 * @internal Does not follow semver.
 */
export interface BackendCall {
  readonly callId: string;
  readonly toolName: string;
  readonly handler: ExecutableHandler;
  /** For an openapi tool: the operation it calls. */
  readonly operation: OpenApiOperation | undefined;
  /** The arguments as the model produced them: JSON text or an already parsed value. */
  readonly rawArgs: string | JsonValue | undefined;
  /** The parsed arguments (`undefined` for empty text). */
  readonly args: JsonValue | undefined;
  readonly identity: Identity | undefined;
  /** The handler's own auth headers (`{}` without auth). */
  readonly auth: Readonly<Record<string, string>>;
  /** An http handler's `headersFromSecret`, resolved (`{}` without). */
  readonly secretHeaders: Readonly<Record<string, string>>;
  /** Headers the policy broker asked to inject. */
  readonly injected: Readonly<Record<string, string>> | undefined;
  /** The `x-omnia-delegation` token, when the handler delegates. */
  readonly delegationToken: string | undefined;
  /** Writes the call's trace context into an HTTP or OpenAPI attempt's headers (a gRPC call's metadata with `grpcMetadata`), last; absent when tracing is off. */
  readonly injectTrace: ((headers: Record<string, string>) => void) | undefined;
  /** Follows an MCP call's `tools/call` (its span, its `_meta` trace context); absent unless telemetry asks for it. */
  readonly mcpObserver?: McpCallOptions["observer"];
  /** The breaker every attempt passes (the tool's, or the conversation's per-claim one); none for platform tools. */
  readonly breaker: CircuitBreaker | undefined;
}

/**
 * What a backend needs from its executor; shared by every call.
 * @internal Does not follow semver.
 */
export interface BackendEnv {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly agent: AgentInfo | undefined;
  /** The HTTP dispatcher (the host's, or the executor's own, created on first use). */
  dispatcher(): HttpDispatcher;
  /** Aborts when the executor closes (every call in flight then ends). */
  readonly closing: AbortSignal;
  /** The MCP client of a handler (created on first use, shared with discovery). */
  mcpClient(handler: Extract<HandlerConfig, { type: "mcp" }>): McpToolClient;
}

/**
 * A prepared call: the retry policy and one attempt. `attempt` passes the
 * breaker, runs under the per-attempt timeout and interprets what came back;
 * the retry loop calls it once per attempt.
 * @internal Does not follow semver.
 */
export interface PreparedCall {
  readonly policy: RetryPolicyOptions;
  /** A breaker rejection throws `CircuitOpenError` (never counted as an attempt). */
  attempt(signal: AbortSignal | undefined): Promise<AttemptOutcome<BackendSuccess>>;
}

/**
 * One handler type's way of executing a call. `prepare` runs once per call,
 * after the policy decision and the credentials; it throws a typed error for a
 * call that cannot be made at all (it fails with no attempt and no breaker
 * event). Adding a handler type means one module implementing this and one
 * entry in the executor's backend table.
 * @internal Does not follow semver.
 */
export interface Backend {
  prepare(call: BackendCall): PreparedCall;
  /**
   * The handler's health probe: resolves with what it saw (`HTTP 200`,
   * `SERVING`, `ping ok`) or rejects with the reason it is unhealthy. `auth` is
   * the handler's own auth header(s). Absent: the type is not probed.
   */
  probe?(handler: HandlerConfig, auth: Readonly<Record<string, string>>, signal: AbortSignal): Promise<string>;
  /** Closes what the backend created (clients, sessions). */
  close?(): Promise<void>;
}
