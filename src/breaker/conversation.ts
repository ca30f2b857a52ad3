import { InvalidOptionError } from "../core/index.js";
import { BreakerSet } from "./circuit-breakers.js";
import type { CircuitBreakers, CircuitBreakersOptions } from "./circuit-breakers.js";

/**
 * Which sandbox claims have been proven reachable (the reachability check of
 * Omnia's "Tool backend protocol" docs page). Before a call to a
 * proven claim the executor dials it once, without retries, and fails the call at
 * once if the dial fails; a claim not yet proven is dialled with waiting or retries
 * until it answers, and the first success proves it.
 * @public
 */
export interface ReachabilityMemory {
  /** Whether `claim` has been proven reachable. */
  isProven(claim: string): boolean;
  /** Records that `claim` answered. Idempotent. */
  markProven(claim: string): void;
  /** Forgets `claim`, so the next call waits for it again. */
  forget(claim: string): void;
  /** How many claims are proven. */
  readonly size: number;
}

/**
 * Creates an empty {@link ReachabilityMemory}. Keep one per conversation (session)
 * and hand it to each stream's {@link createConversation}: proof of reachability
 * outlives a message, while the per-claim breakers do not.
 * @public
 */
export function createReachabilityMemory(): ReachabilityMemory {
  const proven = new Set<string>();
  return {
    isProven: (claim) => proven.has(claim),
    markProven: (claim) => {
      proven.add(claim);
    },
    forget: (claim) => {
      proven.delete(claim);
    },
    get size() {
      return proven.size;
    },
  };
}

/**
 * Options of {@link createConversation}: the breaker options (the per-claim breakers
 * use the same thresholds as the per-tool ones) plus the reachability memory to use.
 * @public
 */
export interface ConversationOptions extends CircuitBreakersOptions {
  /**
   * The memory of proven claims. Default: a new, empty one. Pass the previous
   * stream's `conversation.reachability` (or one from {@link createReachabilityMemory}
   * kept per session) to carry proof across messages.
   */
  readonly reachability?: ReachabilityMemory;
}

/**
 * The per-stream scope of sandbox handlers: breakers keyed by the conversation's
 * sandbox claim, and the reachability memory. Create one per `Converse` stream
 * (the facade opens one per user message) and `dispose()` it when the stream ends.
 * @public
 */
export interface Conversation {
  /** Per-claim breakers (key = the sandbox claim). Throws ClosedError after `dispose()`. */
  readonly breakers: CircuitBreakers;
  /** The proven-reachable claims. Not cleared by `dispose()`, so it can outlive the stream. */
  readonly reachability: ReachabilityMemory;
  /** Whether `dispose()` was called. */
  readonly disposed: boolean;
  /** Drops the per-claim breakers. Idempotent. A later `breakers.get()` throws ClosedError. */
  dispose(): void;
}

/**
 * Creates a conversation scope: per-claim circuit breakers (1.9.0 thresholds unless
 * overridden) and a reachability memory. A claim's breaker only opens on failures
 * within one stream and starts closed in the next stream's conversation.
 * @example
 * ```ts
 * let conversation = createConversation({ clock });
 * await executor.execute(call, { conversation, signal });
 * conversation.dispose();
 * // next message: fresh breakers, same proof of reachability
 * conversation = createConversation({ clock, reachability: conversation.reachability });
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option or a threshold out of range
 * @public
 */
export function createConversation(options: ConversationOptions = {}): Conversation {
  const breakers = new BreakerSet("createConversation", options, ["reachability"]);
  const reachability = options.reachability ?? createReachabilityMemory();
  if (typeof reachability !== "object" || typeof reachability.isProven !== "function" || typeof reachability.markProven !== "function") {
    throw new InvalidOptionError(`createConversation: reachability must be a ReachabilityMemory; got ${typeof reachability}`);
  }
  let disposed = false;
  return {
    breakers,
    reachability,
    get disposed() {
      return disposed;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      breakers.close("conversation.dispose()");
    },
  };
}
