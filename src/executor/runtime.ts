import { noopLogger, systemClock, type Clock, type Logger } from "../core/index.js";
import type { ToolRegistry } from "../manifest/index.js";
import type { AgentInfo } from "../headers/index.js";
import { createCircuitBreakers, type CircuitBreakers } from "../breaker/index.js";
import type { PolicyOption } from "../policy/index.js";
import { PendingClientCalls } from "../client-tools/index.js";
import { createBackendTable, type BackendTable } from "../backends/index.js";
import { createDefaultDispatcher, type HttpDispatcher } from "../http/index.js";
import { onSharedAbort } from "../retry/index.js";
import { createTelemetry, logToolsInitialized, type Telemetry } from "../telemetry/index.js";
import type { CallState } from "./call-state.js";
import { resolveAuthHeaders, type CredentialSources, type WorkloadTokenCache } from "./auth.js";
import { createDiscovery, type Discovery } from "./discovery.js";
import { bindPlatformTools } from "./platform-tools.js";
import { createReport, type Report } from "./report.js";
import type { DelegationSource, ToolExecutorOptions } from "./types.js";

const KEEP_LISTENER = (): void => {};

/**
 * What the stages of one executor share: its options, normalised, and the
 * objects it owns. Created once by `createToolExecutor`.
 * @internal Does not follow semver.
 */
export interface ExecutorRuntime {
  readonly registry: ToolRegistry;
  readonly agent: AgentInfo | undefined;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly random: () => number;
  readonly breakers: CircuitBreakers;
  readonly policy: PolicyOption | undefined;
  readonly delegation: DelegationSource | undefined;
  readonly credentials: CredentialSources;
  readonly workloadCache: WorkloadTokenCache;
  readonly telemetry: Telemetry;
  readonly report: Report;
  readonly discovery: Discovery;
  readonly backends: BackendTable;
  readonly pending: PendingClientCalls<CallState>;
  /** Aborts (reason: a ClosedError) when `close()` starts: every call in flight ends at once. */
  readonly closing: AbortSignal;
}

/** An executor's runtime and what only `close()` needs: the abort of every call in flight and the parts to release. */
export interface OwnedRuntime {
  readonly rt: ExecutorRuntime;
  /** Aborts {@link ExecutorRuntime.closing}. */
  abort(reason: Error): void;
  /** Closes discovery and every backend, then destroys the executor's own HTTP pool; each settles on its own. */
  release(): Promise<PromiseSettledResult<unknown>[]>;
}

/**
 * Wires an executor's runtime from its (validated) options: the clock,
 * logger and credentials, the HTTP dispatcher (the host's, or one of its own
 * created on first use), discovery, telemetry, the breakers, the report,
 * the backends and the pending client calls.
 * @internal Does not follow semver.
 */
export function createExecutorRuntime(options: ToolExecutorOptions): OwnedRuntime {
  const { registry } = options;
  const logger = options.logger ?? noopLogger;
  const clock = options.clock ?? systemClock;
  const credentials = { secrets: options.secrets, workloadIdentity: options.workloadIdentity, clock };
  const workloadCache: WorkloadTokenCache = new Map();
  let ownAgent: ReturnType<typeof createDefaultDispatcher> | undefined;
  const dispatcher = (): HttpDispatcher => options.dispatcher ?? (ownAgent ??= createDefaultDispatcher());
  const telemetry = options.telemetry === false ? createTelemetry(undefined, () => undefined) : createTelemetry({ logger, ...options.telemetry, attributes: { agent: options.agent?.name, namespace: options.agent?.namespace, ...options.telemetry?.attributes } });
  const discovery = createDiscovery({
    registry,
    platform: bindPlatformTools(registry, options.platformTools),
    dispatcher,
    clock,
    logger,
    authHeaders: (handler) => resolveAuthHeaders(handler, credentials, workloadCache),
    pinOpenApiOriginToSpec: options.pinOpenApiOriginToSpec,
    mcpToolFilterWildcards: options.mcpToolFilterWildcards,
    mcpObserver: telemetry.mcp,
  });
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
  return {
    rt,
    abort: (reason) => closing.abort(reason),
    async release() {
      const parts = await Promise.allSettled([discovery.close(), ...Object.values(rt.backends).map((b) => b.close?.())]);
      // destroy(), not close(): undici's close() would wait for calls still in flight (forever with
      // timeout 0); those calls end as abandoned attempts instead, never as breaker failures.
      parts.push(...(await Promise.allSettled([ownAgent?.destroy()])));
      return parts;
    },
  };
}
