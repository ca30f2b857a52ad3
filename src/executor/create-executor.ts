import { ClosedError, InvalidOptionError, noopLogger, systemClock, toError } from "../core/index.js";
import { createCircuitBreakers } from "../breaker/index.js";
import { onSharedAbort } from "../retry/index.js";
import { interpretClientResult, PendingClientCalls, type ClientToolResult } from "../client-tools/index.js";
import { createDefaultDispatcher, type HttpDispatcher } from "../http/index.js";
import { createBackendTable } from "../backends/index.js";
import { createTelemetry, logExecuteEnter, logToolsInitialized } from "../telemetry/index.js";
import { resolveAuthHeaders, type WorkloadTokenCache } from "./auth.js";
import { CallState } from "./call-state.js";
import { CallDeadline, checkDeadline } from "./deadline.js";
import { createDiscovery } from "./discovery.js";
import { validateOptions } from "./options.js";
import { ClientToolError } from "../core/index.js";
import type { CallContext, ToolCall, ToolOutcome } from "./outcome.js";
import { bindPlatformTools } from "./platform-tools.js";
import { createReport } from "./report.js";
import { probeHandler } from "./health.js";
import type { ExecutorRuntime } from "./runtime.js";
import { runAttempts } from "./stages/attempts.js";
import { handOffClientCall } from "./stages/client-handoff.js";
import { resolveCredentials } from "./stages/credentials.js";
import { checkArguments } from "./stages/parse-arguments.js";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "./arguments.js";
import { decidePolicy } from "./stages/policy.js";
import { resolveTool } from "./stages/resolve-tool.js";
import type { HandlerHealth, ToolCallHooks, ToolExecutor, ToolExecutorOptions } from "./types.js";

const KEEP_LISTENER = (): void => {};

/** What a stage returns: an outcome ends the call, undefined goes on. */
type Step = ToolOutcome | undefined | Promise<ToolOutcome | undefined>;

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | undefined)?.then === "function";
}

/** `next(state)` when `step` goes on (at once, or once its promise does), else the outcome `step` ended with. */
function thenStage(step: Step, state: CallState, next: (state: CallState) => ToolOutcome | Promise<ToolOutcome>): ToolOutcome | Promise<ToolOutcome> {
  if (step === undefined) return next(state);
  if (!isPromise(step)) return step;
  return step.then((s) => (s !== undefined ? s : next(state)));
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
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option, a missing registry or a malformed platform tool
 * @throws DuplicateToolError (`ERR_OMNIA_DUPLICATE_TOOL`) for a platform tool named like a registry tool
 * @public
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  validateOptions(options);
  const { registry } = options;
  const logger = options.logger ?? noopLogger;
  const clock = options.clock ?? systemClock;
  const maxArgumentBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
  const credentials = { secrets: options.secrets, workloadIdentity: options.workloadIdentity, clock };
  const workloadCache: WorkloadTokenCache = new Map();
  let ownAgent: ReturnType<typeof createDefaultDispatcher> | undefined;
  const dispatcher = (): HttpDispatcher => options.dispatcher ?? (ownAgent ??= createDefaultDispatcher());
  const discovery = createDiscovery({
    registry,
    platform: bindPlatformTools(registry, options.platformTools),
    dispatcher,
    clock,
    logger,
    authHeaders: (handler) => resolveAuthHeaders(handler, credentials, workloadCache),
    pinOpenApiOriginToSpec: options.pinOpenApiOriginToSpec,
  });
  const telemetry = options.telemetry === false ? createTelemetry(undefined, () => undefined) : createTelemetry({ logger, ...options.telemetry, attributes: { agent: options.agent?.name, namespace: options.agent?.namespace, ...options.telemetry?.attributes } });
  const breakers = options.breakers ?? createCircuitBreakers({ clock, logger });
  // The breaker-transition counter, for the set this executor owns (a shared set is the host's to count).
  if (telemetry.enabled && options.breakers === undefined) {
    for (const transition of ["break", "half-open", "reset"] as const) breakers.on(transition, (e) => telemetry.onBreakerTransition(e.name, transition));
  }
  const closing = new AbortController();
  // Every attempt listens on this signal through one shared listener; this permanent member keeps that listener
  // registered between calls, so a call adds and removes a set entry, not an event listener.
  onSharedAbort(closing.signal, KEEP_LISTENER);
  const rt: ExecutorRuntime = {
    registry,
    agent: options.agent,
    logger,
    clock,
    random: options.random ?? Math.random,
    breakers,
    policy: options.policy,
    delegation: options.delegation,
    credentials,
    workloadCache,
    telemetry,
    report: createReport({
      recorder: options.recorder,
      logger,
      clock,
      telemetry,
      propagation: options.telemetry === false ? "never" : (options.telemetry?.propagation ?? "auto"),
      registryName: registry.name,
      registryNamespace: registry.namespace,
    }),
    discovery,
    backends: createBackendTable({ clock, logger, agent: options.agent, dispatcher, mcpClient: (handler) => discovery.mcpClient(handler), closing: closing.signal }),
    pending: new PendingClientCalls<CallState>(clock, options.clientCallTimeoutMs),
    closing: closing.signal,
  };
  logToolsInitialized(logger, discovery.tools());
  let closed = false;
  let closeDone: Promise<void> | undefined;

  /**
   * Omnia's order of stages. Each returns an outcome to end the call or
   * undefined to go on; a stage with nothing to wait for returns synchronously,
   * and only a promise is awaited (each await costs the call a microtask).
   */
  function execute(call: ToolCall, ctx: CallContext = {}, hooks?: ToolCallHooks): Promise<ToolOutcome> {
    return ctx?.timeoutMs === undefined ? runStages(call, ctx, hooks, undefined) : executeWithin(call, ctx, hooks);
  }

  /**
   * A call with a deadline: the stages see the deadline's signal; an abandonment it caused resolves its outcome.
   * A `then`, not an async function: a suspended async frame stays on the heap while the call is in flight.
   */
  function executeWithin(call: ToolCall, ctx: CallContext, hooks: ToolCallHooks | undefined): Promise<ToolOutcome> {
    let deadline: CallDeadline;
    try {
      if (closed) throw new ClosedError("execute: the executor is closed");
      deadline = new CallDeadline(clock, ctx, checkDeadline(ctx.timeoutMs));
    } catch (e) {
      return Promise.reject(e);
    }
    return runStages(call, deadline.ctx, hooks, deadline).then(
      (outcome) => {
        deadline.dispose();
        return outcome;
      },
      (e: unknown) => {
        const outcome = deadline.outcome;
        deadline.dispose();
        if (outcome !== undefined) return outcome;
        throw e;
      },
    );
  }

  /**
   * The stages in order, as a chain of `then`s rather than an async function: a call waiting on its
   * attempts holds no suspended frame. A stage that throws rejects the returned promise.
   */
  function runStages(call: ToolCall, ctx: CallContext, hooks: ToolCallHooks | undefined, deadline: CallDeadline | undefined): Promise<ToolOutcome> {
    let out: ToolOutcome | Promise<ToolOutcome>;
    try {
      if (closed) throw new ClosedError("execute: the executor is closed");
      logExecuteEnter(logger, call.name);
      const state = new CallState(call, ctx, clock.now(), maxArgumentBytes);
      if (hooks !== undefined) state.hooks = hooks;
      if (deadline !== undefined) state.deadline = deadline;
      rt.report.started(state);
      out = thenStage(resolveTool(rt, state), state, afterResolve);
    } catch (e) {
      return Promise.reject(e);
    }
    return isPromise(out) ? out : Promise.resolve(out);
  }

  /** Stages 2 to 4 (arguments, client hand-off, policy), then the rest. */
  function afterResolve(state: CallState): ToolOutcome | Promise<ToolOutcome> {
    let step: ToolOutcome | undefined;
    if ((step = checkArguments(rt.report, state)) !== undefined) return step;
    if ((step = handOffClientCall(rt, state)) !== undefined) return step;
    return thenStage(decidePolicy(rt, state), state, afterPolicy);
  }

  /** Stage 5 (credentials), then the attempts. */
  function afterPolicy(state: CallState): ToolOutcome | Promise<ToolOutcome> {
    return thenStage(resolveCredentials(rt, state), state, attempts);
  }

  function attempts(state: CallState): Promise<ToolOutcome> {
    return runAttempts(rt, state);
  }

  function completeClientCall(result: ClientToolResult): ToolOutcome {
    const state = rt.pending.take(result.callId);
    const meaning = interpretClientResult(result);
    if (meaning.status === "success") return rt.report.finish(state, meaning);
    // The record keeps the client's reason; the model sees `Tool rejected: <reason>`.
    if (meaning.status === "denied") return rt.report.finish(state, meaning, meaning.reason);
    return rt.report.finish(state, { status: "error", message: meaning.message, error: new ClientToolError(meaning.message) }, meaning.reason);
  }

  return {
    execute,
    completeClientCall,
    on: (event, listener) => rt.report.on(event, listener),
    get tools() {
      return discovery.tools();
    },
    async checkHealth(handlerName) {
      if (closed) throw new ClosedError("checkHealth: the executor is closed");
      const handlers = handlerName === undefined ? registry.handlers : registry.handlers.filter((h) => h.name === handlerName);
      if (handlerName !== undefined && handlers.length === 0) {
        throw new InvalidOptionError(`checkHealth: no handler named ${JSON.stringify(handlerName)}; expected one of ${registry.handlers.map((h) => JSON.stringify(h.name)).join(", ")}`);
      }
      const out: HandlerHealth[] = [];
      for (const handler of handlers) out.push(await probeHandler(rt, handler));
      return out;
    },
    async refresh() {
      if (closed) throw new ClosedError("refresh: the executor is closed");
      await discovery.refresh();
    },
    async listTools() {
      if (closed) throw new ClosedError("listTools: the executor is closed");
      await discovery.refresh();
      return discovery.tools();
    },
    close() {
      // A second or concurrent close() gets the first one's promise: it resolves once everything is released.
      return (closeDone ??= (async () => {
        closed = true;
        // Every call in flight (attempts, backoff sleeps, a host dispatcher's requests) ends now with ERR_OMNIA_CLOSED.
        closing.abort(new ClosedError("execute: the executor closed while the call was in flight"));
        // Client calls still waiting for the client: each recorded once, as abandoned.
        for (const state of rt.pending.clear()) rt.report.fail(state, new ClosedError("client tool call abandoned: the executor closed before the client answered"));
        // Each part settles on its own: one that fails to close is logged and never makes close() reject.
        const parts = await Promise.allSettled([discovery.close(), ...Object.values(rt.backends).map((b) => b.close?.())]);
        // destroy(), not close(): undici's close() would wait for calls still in flight (forever with
        // timeout 0); those calls end as abandoned attempts instead, never as breaker failures.
        parts.push(...(await Promise.allSettled([ownAgent?.destroy()])));
        for (const part of parts) if (part.status === "rejected") logger.error("tool executor: a part failed to close", { error: toError(part.reason).message });
      })());
    },
  };
}
