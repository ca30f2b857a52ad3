import { InvalidOptionError, noopLogger, systemClock, type Clock, type Logger } from "../core/index.js";
import { DEFAULT_HEARTBEAT_INTERVAL_MS } from "./constants.js";
import { isLoopbackAddress } from "./peer.js";
import type { RuntimeHandler } from "./types.js";

/**
 * Options of `createRuntimeService` (and of `serveRuntime`).
 * @public
 */
export interface RuntimeServiceOptions {
  /**
   * The advertised capabilities, for both Health and every hello. Default:
   * `handler.capabilities()`, else `["invoke"]` when `invoke` is implemented.
   * De-duplicated; `duplex_audio` and `interruption` are always removed, and
   * `invoke` is removed when the handler has no `invoke`.
   */
  capabilities?: readonly string[] | undefined;
  /** A `heartbeat` frame goes out this often while a turn runs. Default 30000 (30 s); 0 disables. */
  heartbeatIntervalMs?: number | undefined;
  /** Drives heartbeats and measured invocation durations. Default: `systemClock`. */
  clock?: Clock | undefined;
  /** Handler failures (with the real error), dropped results and slow watchers. Default: discard. */
  logger?: Logger | undefined;
  /**
   * Which peers `WatchInvocation` serves; others get `PermissionDenied`.
   * Receives the peer address (the `RUNTIME_PEER_ADDRESS` context value),
   * `undefined` when unknown. Default: {@link isLoopbackAddress}, as Omnia's
   * runtime serves it to loopback callers only.
   */
  isPeerAllowed?: ((address: string | undefined) => boolean) | undefined;
  /**
   * Also serve the standard `grpc.health.v1.Health` (`Check("")` and
   * `Check("omnia.runtime.v1.RuntimeService")` answer `SERVING`), as the Go
   * SDK does. Default true.
   */
  grpcHealth?: boolean | undefined;
}

/** Fully defaulted service options. @internal Does not follow semver. */
export interface ResolvedServiceOptions {
  readonly capabilities: readonly string[] | undefined;
  readonly heartbeatIntervalMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly isPeerAllowed: (address: string | undefined) => boolean;
  readonly grpcHealth: boolean;
}

const SERVICE_KEYS = ["capabilities", "heartbeatIntervalMs", "clock", "logger", "isPeerAllowed", "grpcHealth"] as const;

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" || value == null) return String(value);
  return Array.isArray(value) ? "array" : typeof value;
}

/** Checks the handler and the service options eagerly. @internal Does not follow semver. */
export function resolveServiceOptions(
  where: string,
  handler: RuntimeHandler,
  options: RuntimeServiceOptions | undefined,
  extraKeys: readonly string[] = [],
): ResolvedServiceOptions {
  if (handler === null || typeof handler !== "object") throw new InvalidOptionError(`${where}: handler must be an object; got ${describe(handler)}`);
  if (typeof handler.converse !== "function") {
    throw new InvalidOptionError(`${where}: handler.converse must be a function; got ${describe(handler.converse)}`);
  }
  for (const hook of ["capabilities", "invoke", "hasConversation", "endConversation"] as const) {
    const fn: unknown = handler[hook];
    if (fn !== undefined && typeof fn !== "function") throw new InvalidOptionError(`${where}: handler.${hook} must be a function when set; got ${describe(fn)}`);
  }
  const o = options ?? {};
  if (typeof o !== "object") throw new InvalidOptionError(`${where}: options must be an object; got ${describe(o)}`);
  const known = new Set<string>([...SERVICE_KEYS, ...extraKeys]);
  for (const key of Object.keys(o)) {
    if (!known.has(key)) throw new InvalidOptionError(`${where}: unknown option ${JSON.stringify(key)}; known options are ${[...known].join(", ")}`);
  }
  const caps = o.capabilities;
  if (caps !== undefined && (!Array.isArray(caps) || caps.some((c) => typeof c !== "string"))) {
    throw new InvalidOptionError(`${where}: capabilities must be an array of strings; got ${describe(caps)}`);
  }
  const heartbeat = o.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  if (typeof heartbeat !== "number" || !Number.isFinite(heartbeat) || heartbeat < 0) {
    throw new InvalidOptionError(`${where}: heartbeatIntervalMs must be a finite number >= 0 (0 disables); got ${describe(heartbeat)}`);
  }
  const clock = o.clock ?? systemClock;
  if (typeof clock.now !== "function" || typeof clock.setTimeout !== "function") {
    throw new InvalidOptionError(`${where}: clock must have now() and setTimeout(); got ${describe(clock)}`);
  }
  const logger = o.logger ?? noopLogger;
  const isPeerAllowed = o.isPeerAllowed ?? isLoopbackAddress;
  if (typeof isPeerAllowed !== "function") throw new InvalidOptionError(`${where}: isPeerAllowed must be a function; got ${describe(isPeerAllowed)}`);
  const grpcHealth = o.grpcHealth ?? true;
  if (typeof grpcHealth !== "boolean") throw new InvalidOptionError(`${where}: grpcHealth must be a boolean; got ${describe(grpcHealth)}`);
  return Object.freeze({
    capabilities: caps === undefined ? undefined : Object.freeze([...caps]),
    heartbeatIntervalMs: heartbeat,
    clock,
    logger,
    isPeerAllowed,
    grpcHealth,
  });
}
