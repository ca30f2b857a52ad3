import type { Clock, Logger } from "../core/index.js";
import type { ToolRegistry } from "../manifest/index.js";
import type { AgentInfo } from "../headers/index.js";
import type { CircuitBreakers } from "../breaker/index.js";
import type { PolicyOption } from "../policy/index.js";
import type { PendingClientCalls } from "../client-tools/index.js";
import type { BackendTable } from "../backends/index.js";
import type { Telemetry } from "../telemetry/index.js";
import type { CallState } from "./call-state.js";
import type { CredentialSources, WorkloadTokenCache } from "./auth.js";
import type { Discovery } from "./discovery.js";
import type { Report } from "./report.js";
import type { DelegationSource } from "./types.js";

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
