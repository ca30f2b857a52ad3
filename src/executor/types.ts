import type { Clock, JsonValue, Logger } from "../core/index.js";
import type { HandlerType, ToolDescriptor, ToolRegistry } from "../manifest/index.js";
import type { AgentInfo, Identity } from "../headers/index.js";
import type { CircuitBreakers } from "../breaker/index.js";
import type { PolicyOption } from "../policy/index.js";
import type { Recorder } from "../records/index.js";
import type { ClientToolResult } from "../client-tools/index.js";
import type { HttpDispatcher } from "../http/index.js";
import type { PlatformTool } from "../backends/index.js";
import type { TelemetryOptions } from "../telemetry/index.js";
import type { CallContext, ToolCall, ToolOutcome } from "./outcome.js";
import type { SecretResolver, WorkloadTokenAcquirer } from "./auth.js";

/**
 * Mints the delegation JWT sent as `x-omnia-delegation` for a handler with
 * `delegation.enabled` (contract 1.9.0).
 * @public
 */
export type DelegationSource = (request: {
  readonly toolName: string;
  readonly handlerName: string;
  readonly identity: Identity | undefined;
}) => string | Promise<string>;

/**
 * Progress events of the executor, for watchers such as `WatchInvocation`:
 * they carry no arguments and no results, by design.
 * @public
 */
export interface ToolExecutorEvents {
  /** A call started. */
  tool_call: { readonly callId: string; readonly name: string };
  /** A call ended: `ok` is true for a success outcome. */
  tool_result: { readonly callId: string; readonly name: string; readonly ok: boolean; readonly durationMs: number };
}

/**
 * Options of `createToolExecutor`.
 * @public
 */
export interface ToolExecutorOptions {
  /** The loaded registry (`loadToolRegistry`). Required. */
  readonly registry: ToolRegistry;
  /** The runtime's agent: name, namespace, workspace, provider, model (x-omnia-* on every call). */
  readonly agent?: AgentInfo;
  /** The per-tool breaker set. Default: a new set owned by this executor. Share one set to share breakers. */
  readonly breakers?: CircuitBreakers;
  /** A policy decision hook, called once per server-executed call before any backend call. Default: none. */
  readonly policy?: PolicyOption;
  /** Receives one record per call. Default: none. */
  readonly recorder?: Recorder;
  /** Default: discard. */
  readonly logger?: Logger;
  /** Every timeout, backoff and breaker runs on it. Default `systemClock`. */
  readonly clock?: Clock;
  /** The undici dispatcher for HTTP backends. Default: an `Agent` the executor creates lazily and closes in `close()`. */
  readonly dispatcher?: HttpDispatcher;
  /** Resolves `auth.secretRef` and `headersFromSecret`. Default: read the operator's mounted token files. */
  readonly secrets?: SecretResolver;
  /** Acquires workload-identity tokens. Default: none (such handlers fail every call). */
  readonly workloadIdentity?: WorkloadTokenAcquirer;
  /** Mints delegation tokens. Default: none (no `x-omnia-delegation`). */
  readonly delegation?: DelegationSource;
  /** Jitter source for retry backoff, values in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /**
   * Safety timeout for pending client calls, in ms; on expiry the call is
   * recorded denied (`client tool timeout (<d>)`). Default: none. A pending
   * call whose `ctx.signal` aborts first is recorded denied then (`the client
   * never answered`), whatever this is.
   */
  readonly clientCallTimeoutMs?: number;
  /**
   * Tools that run in this process, beside the registry's (memory, skills, or
   * anything else a runtime registers itself), keyed by tool name. They are
   * listed in `tools` with `handlerType: "platform"`, `handlerName: "platform"`
   * and `execution: "server"`, and go through the same policy, records and
   * events as any server tool, with a per-call timeout (`timeoutMs`, default
   * 30 s) and no circuit breaker or retry. A name that a registry tool has too is
   * refused with `DuplicateToolError`. Default: none.
   */
  readonly platformTools?: Readonly<Record<string, PlatformTool>>;
  /**
   * OpenTelemetry: an `omnia.tool.call` span per call (CLIENT, a child of the
   * host's active span, with Omnia's attributes, `retry.attempt` and
   * `retry.exhausted` events and an Error status on every error or denial), W3C
   * trace context on HTTP and OpenAPI requests, and Omnia's
   * `omnia_tool_calls_total` and `omnia_tool_call_duration_seconds` metrics.
   * Every field is optional: by default the global tracer, meter and propagator
   * of `@opentelemetry/api` are used when it is installed (a no-op until the
   * host registers an SDK), and nothing happens when it is not. `agent` and
   * `namespace` metric attributes default to `agent.name` and
   * `agent.namespace`. `false` turns telemetry off. The package never sets an
   * OpenTelemetry global.
   */
  readonly telemetry?: TelemetryOptions | false;
  /**
   * The largest argument text a call may carry, in UTF-8 bytes; a larger one is
   * refused with `InvalidArgumentsError` before anything is parsed or sent
   * (`invalid arguments for tool "<name>": arguments of <n> bytes exceed the
   * limit of <max> bytes`). Default 10 485 760 (10 MiB, the response read cap).
   * Arguments nested deeper than 1 000 levels are refused the same way
   * (`... JSON nested deeper than 1000 levels`), whatever this limit.
   */
  readonly maxArgumentBytes?: number;
  /**
   * For an `openapi` handler without `openAPIConfig.baseURL`: accept only a
   * spec whose `servers[0]` (or Swagger `host`) has the spec URL's own origin,
   * so the document cannot send the handler's calls, with their credentials, to
   * a host of its choosing; a spec that names another origin fails the
   * handler's discovery. Default false: as Omnia, the calls go where the spec's
   * `servers[0]` says.
   */
  readonly pinOpenApiOriginToSpec?: boolean;
  /**
   * An mcp handler's `toolFilter` entries ending in `*` match by prefix
   * (`allowlist: ["read_*"]` serves `read_file` and `read_dir`), in the
   * allowlist and the blocklist, as PromptKit 1.5.11's MCP `ToolFilter` does;
   * the text before the `*` is literal. Default false: every entry is an
   * exact name, as Omnia's `ToolFilter` matches it (an entry `read_*` then
   * only serves a tool named `read_*`).
   */
  readonly mcpToolFilterWildcards?: boolean;
}

/**
 * Per-call hooks of {@link ToolExecutor.execute}, for a stage in front of the
 * executor (such as `createTurn`) that shows the model something other than
 * the tools layer's result.
 * @public
 */
export interface ToolCallHooks {
  /**
   * Maps a success's `resultJson` to what the call's record holds as `result`
   * and `resultJson`: the text the model is shown (formatted and cut to size),
   * as Omnia's session row holds it. The outcome itself is unchanged.
   */
  readonly recordResult?: (resultJson: string) => JsonValue;
  /**
   * What a person decided about the call before it ran (a turn's approval
   * gate): `approved`, or `edited` when they changed its arguments. The
   * call's record carries it as `approval`; nothing else changes.
   */
  readonly approval?: "approved" | "edited" | "denied";
  /**
   * The round this call belongs to ({@link ToolExecutor.startRound}): the
   * call's spans are children of the round's span.
   */
  readonly round?: ToolRoundSpan | undefined;
}

/**
 * The span of one round of tool calls ({@link ToolExecutor.startRound}).
 * @public
 */
export interface ToolRoundSpan {
  /** Ends the round's span; later calls are ignored. */
  end(): void;
}

/**
 * Executes tool calls the way Omnia's runtime does.
 * @public
 */
export interface ToolExecutor {
  /**
   * Executes one call: resolve the tool → parse the arguments → hand a client
   * tool off → policy → credentials → retry of (attempt timeout → breaker →
   * backend attempt) → record and emit.
   * Resolves to an outcome for every backend or model fault, and to a
   * `TimeoutError` outcome (`timed out after <ms>ms`) when `ctx.timeoutMs`
   * passes first: a deadline is an answer for the model. An abort of
   * `ctx.signal` is not: the call is recorded and abandoned.
   * @throws ClosedError after `close()`; AbortedError when `ctx.signal` aborts;
   *   InvalidOptionError for a `ctx.timeoutMs` that is not a positive finite number
   */
  execute(call: ToolCall, ctx?: CallContext, hooks?: ToolCallHooks): Promise<ToolOutcome>;
  /**
   * Records a call a person refused before it ran (a turn's `deny()`): the
   * tool is resolved and the call recorded once, `denied`, with
   * `errorMessage` `<reason>`, `approval: "denied"` and no attempts; the
   * outcome's message is `Tool call rejected: <reason>`. Nothing is sent to a
   * client, a policy broker or a backend, and no breaker counts it. A name
   * the executor does not serve ends as `execute()` ends it.
   * @throws ClosedError after `close()`
   */
  refuse(call: ToolCall, ctx: CallContext | undefined, reason: string): Promise<ToolOutcome>;
  /**
   * Completes a client call with the client's answer and records it.
   * @throws UnknownClientCallError for a call id that is not pending
   */
  completeClientCall(result: ClientToolResult): ToolOutcome;
  /**
   * Every tool this executor serves: the registry's static tools, then the
   * tools its mcp and openapi handlers discovered (after the first call that
   * needed them, or after {@link ToolExecutor.refresh} or
   * {@link ToolExecutor.listTools}), then its platform tools.
   */
  readonly tools: readonly ToolDescriptor[];
  /**
   * Runs discovery again for every mcp and openapi handler (MCP `tools/list`,
   * the OpenAPI spec fetch), each on its own: a handler that fails keeps the
   * tools it listed before (none the first time) and does not affect the
   * others, whose new tools are served at once. A discovered name that a
   * static, platform or earlier handler's tool has stays with the first, and
   * only that name is not served by the later handler. Discovery otherwise runs
   * lazily on the first call of an unknown tool, and again on such a call while
   * a handler's last discovery failed; a call of a name no handler listed then
   * fails with the failed handler's error.
   * @throws the first failed handler's error (an `McpTransportError`,
   *   `OpenApiSpecError`, ...) or a `DuplicateToolError` naming the colliding
   *   names, after the rest is installed
   */
  refresh(): Promise<void>;
  /**
   * What the model may be offered: runs discovery for every mcp and openapi
   * handler, as {@link ToolExecutor.refresh} does, then returns every tool
   * this executor serves, in the order and shape {@link ToolExecutor.tools}
   * lists them: the registry's static tools, then the discovered tools (by
   * handler, in manifest order), then the platform tools. A model can call
   * only the tools it was offered, so pass these names to `reconcileTools`
   * and offer these descriptors, rather than `executor.tools` before any
   * discovery ran (which lists no mcp or openapi tool yet).
   * @throws ClosedError after `close()`; otherwise what `refresh()` throws
   *   (the first failed handler's error, after the other handlers' tools are
   *   installed: `executor.tools` then lists what could be discovered)
   */
  listTools(): Promise<readonly ToolDescriptor[]>;
  /**
   * Probes the health of every handler (or of the one named), as Omnia's
   * `CheckHealth` does, and what a registry's `spec.probe` configures: http and
   * openapi handlers get a `HEAD` of their endpoint (a 5xx or a transport error
   * is unhealthy, any other status healthy), grpc handlers
   * `grpc.health.v1.Health/Check` (healthy only when `SERVING`), mcp handlers a
   * connect and `ping`; client handlers are reported healthy, not probed. Each
   * probe uses the handler's credentials and the executor's dispatcher, runs
   * under `spec.probe.timeoutMs` (default 5 s) on the clock and counts nothing
   * against a breaker. Probes run one after another, in manifest order. The
   * library starts no timer for `spec.probe.intervalMs`: call this on the
   * schedule you choose.
   * @throws ClosedError after `close()`; InvalidOptionError for a handler name the registry does not have
   */
  checkHealth(handlerName?: string): Promise<readonly HandlerHealth[]>;
  /**
   * Subscribes to progress events; the returned handle unsubscribes. A listener
   * that throws is logged and does not affect the call.
   */
  on<E extends keyof ToolExecutorEvents>(event: E, listener: (payload: ToolExecutorEvents[E]) => void): { dispose(): void };
  /**
   * Opens the span of one round of `calls` tool calls (`createTurn` calls it
   * for every round): with the `gen_ai` conventions on, spans recorded and no
   * span active, an `omnia_tools.turn.round` span (INTERNAL) that the round's
   * calls name as {@link ToolCallHooks.round} become children of. Otherwise
   * (and after `close()`) `undefined`: the calls' spans keep the active parent.
   * Optional, so that other implementations of this interface need not have it.
   */
  startRound?(calls: number): ToolRoundSpan | undefined;
  /**
   * Closes what the executor created (its HTTP agent, gRPC and MCP clients) and waits for their sockets.
   * Calls still in flight end at once (abandoned attempts, never breaker failures).
   * Pending client calls are dropped. A second or concurrent call returns the first one's promise, which
   * resolves once everything is released; it never rejects (a part that fails to close is logged).
   */
  close(): Promise<void>;
}

/**
 * The health of one handler, as {@link ToolExecutor.checkHealth} probed it.
 * @public
 */
export interface HandlerHealth {
  /** The handler's name. */
  readonly handler: string;
  /** The handler's type. */
  readonly handlerType: HandlerType;
  /** False when the probe failed: a 5xx, a transport error, a gRPC status other than SERVING, no MCP answer, a credential that could not be resolved, or the probe timeout. */
  readonly healthy: boolean;
  /**
   * What the probe saw: `HTTP 200`, `SERVING`, `ping ok`; for a failure Omnia's
   * texts, such as `health check: HTTP 503` or `health check failed: Head "http://…": dial tcp …: connect: connection refused`.
   * For a stdio MCP server that exited, the failure is followed by how it ended
   * and the end of its stderr: `… (the server exited with code 1; its stderr ended: <line> | <line>)`.
   */
  readonly detail: string;
  /** How long the probe took, in the executor's clock's milliseconds. */
  readonly latencyMs: number;
}
