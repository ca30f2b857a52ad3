import type { Clock, JsonObject, JsonValue, Logger } from "../core/index.js";
import type { Identity } from "../headers/index.js";

/**
 * What a platform tool's `execute` receives besides its arguments.
 * @public
 */
export interface PlatformToolContext {
  /** The model's call id. */
  readonly callId: string;
  /** The caller's identity, as given in the call's context. */
  readonly identity: Identity | undefined;
  /** Aborts when the call times out, the caller's signal aborts or the executor closes. */
  readonly signal: AbortSignal;
  /** The executor's logger. */
  readonly logger: Logger;
  /** The executor's clock. */
  readonly clock: Clock;
}

/**
 * A tool that runs in the host's own process, beside the registry's server
 * tools: a capability such as memory or skills, which Omnia's runtime
 * registers through the PromptKit SDK (`memory__`, `skill__`, `a2a__` and
 * `workflow__` namespaces). Its calls go through the same policy, records and
 * events as every other server tool, with a per-call timeout and no circuit
 * breaker.
 * @public
 */
export interface PlatformTool {
  /** Shown to the model. */
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly inputSchema: JsonObject;
  /**
   * Runs the call. Returns a JSON value (or a promise of one), which becomes the
   * success result; a thrown error (or rejection) becomes an error outcome whose
   * message is the error's message. `args` is the call's own copy (`{}` for
   * none): changing it changes neither the record nor the call's span.
   */
  execute(args: JsonValue, ctx: PlatformToolContext): JsonValue | Promise<JsonValue>;
  /** Per-call timeout in ms; 0 means none. Default 30 000 (a handler's default `timeout`). */
  readonly timeoutMs?: number;
}
