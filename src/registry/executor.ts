import {
  AbortedError,
  ClosedError,
  InvalidOptionError,
  rejectUnknownOptions,
  noopLogger,
  systemClock,
  toError,
  isOmniaToolsError,
  type Clock,
  type JsonValue,
  type Logger,
  type OmniaToolsError,
} from "../core/index.js";
import type { GrpcHandlerConfig, HandlerConfig, ToolDescriptor, ToolRegistry } from "../manifest/index.js";
import { buildOmniaGrpcMetadata, mergeGrpcToolMetadata, type AgentInfo, type Identity } from "../headers/index.js";
import { createToolServiceClient, type ToolServiceClient } from "../grpc/index.js";
import { createCircuitBreakers, type CircuitBreaker, type CircuitBreakers } from "../breaker/index.js";
import { runWithRetry, type AttemptAbort, type AttemptOutcome, type RetryPolicyOptions, type RetryResult } from "../retry/index.js";
import { decide, PolicyDeniedError, type PolicyAudit, type PolicyOption } from "../policy/index.js";
import type { Recorder, ToolCallRecord } from "../records/index.js";
import {
  interpretClientResult,
  NO_CLIENT_REASON,
  PendingClientCalls,
  type ClientToolRequest,
  type ClientToolResult,
} from "../client-tools/index.js";
import { BackendError, ClientToolError, InvalidArgumentsError, UnknownToolError, type CallContext, type ToolCall, type ToolOutcome } from "./outcome.js";
import { resolveAuthHeaders, resolveSecretHeaders, type SecretResolver, type WorkloadTokenAcquirer, type WorkloadTokenCache } from "./auth.js";
import { buildDecisionRequest } from "./decision-request.js";
import { createDefaultDispatcher, type HttpDispatcher } from "../http/index.js";
import { httpAttempt, httpExchange, httpRetrySetup, type BackendSuccess } from "./http-backend.js";
import { mcpAttempt } from "./mcp-backend.js";
import { createDiscovery, type Discovery, type ResolvedTool } from "./discovery.js";
import { dialOnce, SandboxUnreachableError, SANDBOX_DIAL_TIMEOUT_MS, sandboxTarget } from "./sandbox.js";
import { grpcAttempt, grpcRetrySetup, type PreparedGrpcCall } from "./grpc-backend.js";
import { executeOpenApiOperation } from "../openapi/index.js";

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
 * Options of {@link createToolExecutor}.
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
  /** Safety timeout for pending client calls, in ms; on expiry the call is recorded denied. Default: none. */
  readonly clientCallTimeoutMs?: number;
}

/**
 * Executes tool calls the way Omnia's runtime does.
 * @public
 */
export interface ToolExecutor {
  /**
   * Executes one call: policy → retry → (attempt timeout → breaker → backend) → record.
   * Resolves to an outcome for every backend or model fault.
   * @throws ClosedError after `close()`; AbortedError when `ctx.signal` aborts
   */
  execute(call: ToolCall, ctx?: CallContext): Promise<ToolOutcome>;
  /**
   * Completes a client call with the client's answer and records it.
   * @throws UnknownClientCallError for a call id that is not pending
   */
  completeClientCall(result: ClientToolResult): ToolOutcome;
  /**
   * Every tool this executor serves: the registry's static tools, then the
   * tools its mcp and openapi handlers discovered (after the first call that
   * needed them, or after {@link ToolExecutor.refresh}).
   */
  readonly tools: readonly ToolDescriptor[];
  /**
   * Runs discovery again for every mcp and openapi handler (MCP `tools/list`,
   * the OpenAPI spec fetch) and swaps the discovered tool set once every
   * handler succeeded. Discovery otherwise runs lazily on the first call of an
   * unknown tool.
   * @throws the discovery error (an `McpTransportError`, `OpenApiSpecError` or a
   *   `DuplicateToolError` when a discovered name collides); the previous set stays
   */
  refresh(): Promise<void>;
  /**
   * Subscribes to progress events; the returned handle unsubscribes. A listener
   * that throws is logged and does not affect the call.
   */
  on<E extends keyof ToolExecutorEvents>(event: E, listener: (payload: ToolExecutorEvents[E]) => void): { dispose(): void };
  /**
   * Closes what the executor created (its HTTP agent, gRPC and MCP clients) and waits for their sockets.
   * Calls still in flight end at once (abandoned attempts, never breaker failures). Idempotent.
   * Pending client calls are dropped.
   */
  close(): Promise<void>;
}

const KNOWN_OPTIONS = new Set([
  "registry",
  "agent",
  "breakers",
  "policy",
  "recorder",
  "logger",
  "clock",
  "dispatcher",
  "secrets",
  "workloadIdentity",
  "delegation",
  "random",
  "clientCallTimeoutMs",
]);

interface PendingClient {
  readonly request: ClientToolRequest;
  readonly startedAt: number;
  readonly handler: HandlerConfig;
  readonly sessionId: string | undefined;
  readonly args: JsonValue | string;
}

/**
 * Creates a tool executor over a loaded registry.
 *
 * @example
 * ```ts
 * const registry = loadToolRegistry(readFileSync("registry.yaml", "utf8"));
 * const executor = createToolExecutor({ registry, agent: { name: "support", namespace: "agents" } });
 * const outcome = await executor.execute({ id: "c1", name: "lookup", arguments: '{"id":1}' });
 * if (outcome.status === "success") console.log(outcome.resultJson);
 * await executor.close();
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option or a missing registry
 * @public
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  validateOptions(options);
  const registry = options.registry;
  const logger = options.logger ?? noopLogger;
  const clock = options.clock ?? systemClock;
  const breakers = options.breakers ?? createCircuitBreakers({ clock, logger });
  const random = options.random ?? Math.random;
  const workloadCache: WorkloadTokenCache = new Map();
  const pending = new PendingClientCalls<PendingClient>(clock, options.clientCallTimeoutMs);
  let ownAgent: HttpDispatcher | undefined;
  const grpcClients = new Map<string, ToolServiceClient>();
  const listeners: { [E in keyof ToolExecutorEvents]: Set<(payload: ToolExecutorEvents[E]) => void> } = { tool_call: new Set(), tool_result: new Set() };
  function emit<E extends keyof ToolExecutorEvents>(event: E, payload: ToolExecutorEvents[E]): void {
    for (const listener of listeners[event]) {
      try {
        listener(payload);
      } catch (e) {
        logger.error("tool executor: an event listener threw", { event, error: toError(e).message });
      }
    }
  }
  const discovery: Discovery = createDiscovery({
    registry,
    dispatcher: () => dispatcher(),
    clock,
    logger,
    authHeaders: (handler) => resolveAuthHeaders(handler, { secrets: options.secrets, workloadIdentity: options.workloadIdentity, clock }, workloadCache),
  });
  let closed = false;

  const dispatcher = (): HttpDispatcher => options.dispatcher ?? (ownAgent ??= createDefaultDispatcher());

  const record = (r: ToolCallRecord): void => {
    const recorder = options.recorder;
    if (recorder === undefined) return;
    try {
      const out = recorder.record(r);
      if (out !== undefined && typeof (out as Promise<void>).then === "function") {
        (out as Promise<void>).then(undefined, (e: unknown) => logger.error("failed to record tool call", { toolName: r.toolName, callId: r.callId, error: toError(e).message }));
      }
    } catch (e) {
      logger.error("failed to record tool call", { toolName: r.toolName, callId: r.callId, error: toError(e).message });
    }
  };

  function finish(
    call: ToolCall,
    handler: HandlerConfig | undefined,
    startedAt: number,
    sessionId: string | undefined,
    args: JsonValue | string,
    attempts: number,
    outcome:
      | { status: "success"; result: JsonValue; resultJson: string; truncated?: true }
      | { status: "error"; message: string; error: OmniaToolsError }
      | { status: "denied"; message: string; reason: string },
    extra: { readonly recordMessage?: string; readonly policyAudit?: PolicyAudit | undefined } = {},
  ): ToolOutcome {
    const durationMs = clock.now() - startedAt;
    const handlerType = handler?.type ?? "";
    // No recorder: no record to build (it was most of this function's cost per call).
    if (options.recorder !== undefined) record({
      callId: call.id,
      ...(sessionId === undefined ? {} : { sessionId }),
      toolName: call.name,
      handlerName: handler?.name ?? "",
      handlerType,
      execution: handler?.type === "client" ? "client" : "server",
      status: outcome.status,
      arguments: args,
      ...(outcome.status === "success" ? { result: outcome.result } : { errorMessage: extra.recordMessage ?? outcome.message }),
      ...(extra.policyAudit === undefined ? {} : { policyAudit: extra.policyAudit }),
      startedAt,
      durationMs,
      attempts,
    });
    if (listeners.tool_result.size > 0) emit("tool_result", { callId: call.id, name: call.name, ok: outcome.status === "success", durationMs });
    if (outcome.status !== "success") return { ...outcome, toolName: call.name, callId: call.id, handlerType, durationMs };
    // The success outcome as one literal (same keys, same order): spreading it cost more than the rest of the call's bookkeeping.
    const { result, resultJson } = outcome;
    return outcome.truncated === true
      ? { status: "success", result, resultJson, truncated: true, toolName: call.name, callId: call.id, handlerType, durationMs }
      : { status: "success", result, resultJson, toolName: call.name, callId: call.id, handlerType, durationMs };
  }

  async function execute(call: ToolCall, ctx: CallContext = {}): Promise<ToolOutcome> {
    if (closed) throw new ClosedError("execute: the executor is closed");
    const startedAt = clock.now();
    if (listeners.tool_call.size > 0) emit("tool_call", { callId: call.id, name: call.name });
    const sessionId = ctx.identity?.sessionId || undefined;
    const parsed = parseArguments(call.arguments);
    const recordedArgs = parsed.ok ? (parsed.value ?? null) : (call.arguments as string);

    let resolved: ResolvedTool | undefined;
    try {
      // A static tool resolves synchronously: no await (and no allocation) on the common path.
      resolved = discovery.resolveStatic(call.name) ?? (await discovery.resolve(call.name));
    } catch (e) {
      // Discovery of an mcp/openapi handler failed: this call fails; the next one tries again.
      const error = asOmniaError(e);
      return finish(call, undefined, startedAt, sessionId, recordedArgs, 0, { status: "error", message: error.message, error });
    }
    if (resolved === undefined) {
      const error = new UnknownToolError(`tool ${JSON.stringify(call.name)} not found`);
      return finish(call, undefined, startedAt, sessionId, recordedArgs, 0, { status: "error", message: error.message, error });
    }
    const handler = resolved.handler;
    if (!parsed.ok) {
      const error = new InvalidArgumentsError(`invalid arguments for tool ${JSON.stringify(call.name)}: ${parsed.message}`);
      return finish(call, handler, startedAt, sessionId, recordedArgs, 0, { status: "error", message: error.message, error });
    }
    const argsValue = parsed.value;

    if (handler.type === "client") {
      if (ctx.clientToolsAvailable !== true) {
        return finish(call, handler, startedAt, sessionId, recordedArgs, 0, { status: "denied", message: `Tool rejected: ${NO_CLIENT_REASON}`, reason: NO_CLIENT_REASON }, { recordMessage: NO_CLIENT_REASON });
      }
      const request: ClientToolRequest = {
        callId: call.id,
        name: call.name,
        argumentsJson: typeof call.arguments === "string" && call.arguments !== "" ? call.arguments : JSON.stringify(argsValue ?? null),
        ...(handler.clientConfig.consentMessage === undefined ? {} : { consentMessage: handler.clientConfig.consentMessage }),
        ...(handler.clientConfig.categories.length === 0 ? {} : { categories: handler.clientConfig.categories }),
      };
      pending.add(call.id, { request, startedAt, handler, sessionId, args: recordedArgs }, (entry, reason) => {
        finish({ id: entry.request.callId, name: entry.request.name, arguments: entry.args }, entry.handler, entry.startedAt, entry.sessionId, entry.args, 0, {
          status: "denied",
          message: `Tool rejected: ${reason}`,
          reason,
        }, { recordMessage: reason });
      });
      return { status: "client", request, toolName: call.name, callId: call.id, handlerType: "client", durationMs: clock.now() - startedAt };
    }

    // Policy: once per call, before any backend call, outside the retry loop.
    let injected: Readonly<Record<string, string>> | undefined;
    let audit: PolicyAudit | undefined;
    if (options.policy !== undefined) {
      const request = buildDecisionRequest({ call, handler, registry, identity: ctx.identity, agent: options.agent, args: argsValue, logger });
      const decision = await decide(options.policy, request, ctx.signal, logger);
      // The conversation ended while the policy decided: the call is abandoned, not denied.
      if (ctx.signal?.aborted === true) {
        const error = new AbortedError("execute: the caller's signal aborted during the policy decision", { cause: ctx.signal.reason });
        finish(call, handler, startedAt, sessionId, recordedArgs, 0, { status: "error", message: error.message, error });
        throw error;
      }
      if (!decision.allow) {
        const error = new PolicyDeniedError(decision.reason);
        return finish(call, handler, startedAt, sessionId, recordedArgs, 0, { status: "denied", message: error.message, reason: decision.reason });
      }
      injected = decision.headers;
      audit = decision.audit;
    }

    const claim = sandboxClaim(handler, ctx);
    const breaker = claim === undefined ? breakers.get(call.name) : ctx.conversation!.breakers.get(claim);
    const fail = (error: OmniaToolsError, attempts = 0): ToolOutcome =>
      finish(call, handler, startedAt, sessionId, recordedArgs, attempts, { status: "error", message: error.message, error }, { policyAudit: audit });

    // Credentials and delegation: once per call, before the breaker. A failure here is never a breaker event.
    let auth: Record<string, string>;
    let token: string | undefined;
    try {
      // Awaited only when there is something to resolve (most handlers have neither).
      auth = handler.auth === undefined ? {} : await resolveAuthHeaders(handler, { secrets: options.secrets, workloadIdentity: options.workloadIdentity, clock }, workloadCache);
      token = handler.delegation?.enabled === true ? await delegationToken(handler, call.name, ctx.identity) : undefined;
    } catch (e) {
      return fail(asOmniaError(e));
    }

    // Attempts that got past the breaker: a rejected attempt never reached the backend.
    let sent = 0;
    let attempt: (signal: AbortSignal | undefined) => Promise<AttemptOutcome<BackendSuccess>>;
    let policy: RetryPolicyOptions;
    const rawArgs = typeof call.arguments === "string" ? call.arguments : argsValue;
    switch (handler.type) {
      case "http": {
        let headersFromSecret: Record<string, string>;
        try {
          const refs = handler.httpConfig.headersFromSecret;
          headersFromSecret = hasKeys(refs) ? await resolveSecretHeaders(handler.name, refs, options.secrets) : {};
        } catch (e) {
          return fail(asOmniaError(e));
        }
        const exchange = httpExchange(
          handler,
          rawArgs,
          { identity: ctx.identity, agent: options.agent, auth, headersFromSecret, injected, delegationToken: token, logger },
          dispatcher,
          argsValue,
        );
        const setup = httpRetrySetup(handler.httpConfig.retryPolicy);
        policy = setup.policy;
        attempt = (signal) => httpAttempt(exchange, { breaker, clock, timeoutMs: handler.timeoutMs, rules: setup.rules, signal, logger, toolName: call.name });
        break;
      }
      case "openapi": {
        const operation = resolved.operation;
        if (operation === undefined) return fail(new UnknownToolError(`tool ${JSON.stringify(call.name)} not found`));
        const context = { identity: ctx.identity, agent: options.agent, auth, injected, delegationToken: token, logger };
        const exchange = async (abort: AttemptAbort) => {
          const out = await executeOpenApiOperation(dispatcher(), operation, rawArgs, context, { abort });
          const raw = out.response.headers["retry-after"];
          return { status: out.response.status, retryAfter: Array.isArray(raw) ? raw[0] : raw, interpretation: out.interpretation };
        };
        const setup = httpRetrySetup(handler.openAPIConfig.retryPolicy);
        policy = setup.policy;
        attempt = (signal) => httpAttempt(exchange, { breaker, clock, timeoutMs: handler.timeoutMs, rules: setup.rules, signal, logger, toolName: call.name });
        break;
      }
      case "mcp": {
        const client = discovery.mcpClient(handler);
        const rp = handler.mcpConfig.retryPolicy;
        policy = rp === undefined ? { maxAttempts: 1 } : { maxAttempts: rp.maxAttempts, initialBackoffMs: rp.initialBackoffMs, backoffMultiplier: rp.backoffMultiplier, maxBackoffMs: rp.maxBackoffMs };
        attempt = (signal) => mcpAttempt(client, call.name, rawArgs, { breaker, clock, timeoutMs: handler.timeoutMs, injected, signal });
        break;
      }
      case "grpc": {
        let client: ToolServiceClient;
        try {
          client = grpcClient(handler);
        } catch (e) {
          return fail(asOmniaError(e));
        }
        // Most handlers have no auth and no injected headers: no rest/spread copies for them.
        let authorization: string | undefined;
        let extra: Readonly<Record<string, string>> | undefined = injected;
        if (handler.auth !== undefined) {
          const { Authorization, ...otherAuth } = auth;
          authorization = Authorization;
          extra = { ...otherAuth, ...injected };
        }
        const prepared: PreparedGrpcCall = {
          handler,
          client,
          argumentsJson: typeof call.arguments === "string" ? call.arguments : JSON.stringify(argsValue ?? {}),
          metadata: mergeGrpcToolMetadata(
            {
              omnia: buildOmniaGrpcMetadata({ identity: ctx.identity, agent: options.agent, toolName: call.name, handlerName: handler.name, delegationToken: token, logger }),
              authorization,
              injected: extra,
            },
            { logger },
          ),
        };
        const setup = grpcRetrySetup(handler);
        policy = setup.policy;
        attempt = (signal) => grpcAttempt(prepared, { breaker, clock, retryable: setup.retryable, signal, logger });
        break;
      }
      default:
        return fail(new UnknownToolError(`tool ${JSON.stringify(call.name)} not found`));
    }

    // A sandbox claim already proven reachable in this conversation is dialled once first:
    // a dead sandbox fails the call at once, with no retry and no breaker event (seed 004).
    if (claim !== undefined && ctx.conversation!.reachability.isProven(claim)) {
      const target = sandboxTarget(handler);
      const reason = target === undefined ? undefined : await dialOnce(target, clock, SANDBOX_DIAL_TIMEOUT_MS, ctx.signal);
      if (reason !== undefined) return fail(new SandboxUnreachableError(claim, reason));
    }

    let result: RetryResult<BackendSuccess>;
    try {
      result = await runWithRetry<BackendSuccess>(
        async (a) => {
          const out = await attempt(a.signal); // a breaker rejection throws here and is not counted
          sent++;
          return out;
        },
        { policy, clock, random, logger, signal: ctx.signal },
      );
    } catch (e) {
      // The caller's signal: the call is abandoned. Recorded, then thrown to the host.
      fail(asOmniaError(e), sent);
      throw e;
    }
    if (result.status === "success") {
      if (claim !== undefined) ctx.conversation!.reachability.markProven(claim);
      return finish(call, handler, startedAt, sessionId, recordedArgs, sent, { status: "success", ...result.value }, { policyAudit: audit });
    }
    return fail(asOmniaError(result.error), sent);
  }

  function grpcClient(handler: GrpcHandlerConfig): ToolServiceClient {
    let client = grpcClients.get(handler.name);
    if (client === undefined) {
      const g = handler.grpcConfig;
      client = createToolServiceClient({
        endpoint: g.endpoint,
        tls: g.tls,
        tlsInsecureSkipVerify: g.tlsInsecureSkipVerify,
        ...(g.tlsCertPath === undefined ? {} : { tlsCertPath: g.tlsCertPath }),
        ...(g.tlsKeyPath === undefined ? {} : { tlsKeyPath: g.tlsKeyPath }),
        ...(g.tlsCAPath === undefined ? {} : { tlsCAPath: g.tlsCAPath }),
        logger,
      });
      grpcClients.set(handler.name, client);
    }
    return client;
  }

  /**
   * The sandbox claim of a call: a handler with a `sandbox` block reaches a
   * different sandbox in each conversation, so its breaker and reachability are
   * the conversation's, keyed by the handler name (the conversation's claim on
   * that handler's sandbox). Without a conversation, the per-tool breaker applies.
   */
  function sandboxClaim(handler: HandlerConfig, ctx: CallContext): string | undefined {
    return handler.sandbox !== undefined && ctx.conversation !== undefined ? handler.name : undefined;
  }

  async function delegationToken(handler: HandlerConfig, toolName: string, identity: Identity | undefined): Promise<string | undefined> {
    if (handler.delegation?.enabled !== true || options.delegation === undefined) return undefined;
    return options.delegation({ toolName, handlerName: handler.name, identity });
  }

  function completeClientCall(result: ClientToolResult): ToolOutcome {
    const entry = pending.take(result.callId);
    const meaning = interpretClientResult(result);
    const call = { id: entry.request.callId, name: entry.request.name, arguments: entry.args };
    if (meaning.status === "success") {
      return finish(call, entry.handler, entry.startedAt, entry.sessionId, entry.args, 0, meaning);
    }
    // The record keeps the client's reason (runtime-tools.md §4.5); the model sees `Tool rejected: <reason>`.
    if (meaning.status === "denied") return finish(call, entry.handler, entry.startedAt, entry.sessionId, entry.args, 0, meaning, { recordMessage: meaning.reason });
    const error = new ClientToolError(meaning.message);
    return finish(call, entry.handler, entry.startedAt, entry.sessionId, entry.args, 0, { status: "error", message: meaning.message, error }, { recordMessage: meaning.reason });
  }

  return {
    execute,
    completeClientCall,
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      set.add(listener);
      return { dispose: () => void set.delete(listener) };
    },
    get tools() {
      return discovery.tools();
    },
    async refresh() {
      if (closed) throw new ClosedError("refresh: the executor is closed");
      await discovery.refresh();
    },
    async close() {
      if (closed) return;
      closed = true;
      pending.clear();
      await Promise.all([discovery.close(), ...[...grpcClients.values()].map((c) => c.close())]);
      // destroy(), not close(): undici's close() would wait for calls still in flight (forever with
      // timeout 0); those calls end as abandoned attempts instead, never as breaker failures.
      await ownAgent?.destroy();
      grpcClients.clear();
    },
  };
}

function validateOptions(options: ToolExecutorOptions): void {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`createToolExecutor: options must be an object; got ${String(options)}`);
  rejectUnknownOptions("createToolExecutor", options, KNOWN_OPTIONS);
  const registry = options.registry as Partial<ToolRegistry> | undefined;
  if (registry === undefined || typeof registry.getTool !== "function" || typeof registry.getHandler !== "function") {
    throw new InvalidOptionError("createToolExecutor: registry must be a ToolRegistry from loadToolRegistry(); got " + (registry === undefined ? "undefined" : typeof registry));
  }
  const dispatcher = options.dispatcher as { dispatch?: unknown } | null | undefined;
  if (dispatcher !== undefined && typeof dispatcher?.dispatch !== "function") {
    throw new InvalidOptionError(`createToolExecutor: dispatcher must be an undici Dispatcher (Agent, Pool, Client or compose()) with a dispatch() method; got ${dispatcher === null ? "null" : typeof dispatcher}`);
  }
  if (options.clientCallTimeoutMs !== undefined && !(Number.isFinite(options.clientCallTimeoutMs) && options.clientCallTimeoutMs > 0)) {
    throw new InvalidOptionError(`createToolExecutor: clientCallTimeoutMs must be a positive number of ms; got ${String(options.clientCallTimeoutMs)}`);
  }
}

/** Everything that reaches an outcome is an OmniaToolsError; anything else is wrapped, never passed raw. */
function asOmniaError(e: unknown): OmniaToolsError {
  if (isOmniaToolsError(e)) return e;
  const error = toError(e);
  return new BackendError(error.message, { cause: error });
}

function hasKeys(object: object): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
  return false;
}

type ParsedArgs = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

/** Arguments as JSON text must parse (empty text means none); a parsed value is taken as is. */
function parseArguments(args: string | JsonValue): ParsedArgs {
  if (typeof args !== "string") return { ok: true, value: args };
  if (args.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(args) as JsonValue };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
