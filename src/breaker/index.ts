// The breaker folder's surface for sibling folders (registry) and the package entry.
export { createCircuitBreakers } from "./circuit-breakers.js";
export type { CircuitBreakers, CircuitBreakersOptions } from "./circuit-breakers.js";
export type { CircuitBreaker, BreakerTicket, BreakerState, BreakerSnapshot } from "./circuit-breaker.js";
export { CircuitOpenError } from "./circuit-open-error.js";
export type { CircuitRejectionState } from "./circuit-open-error.js";
export { DEFAULT_BREAKER_SETTINGS } from "./breaker-settings.js";
export type { BreakerThresholds, BreakerSettings } from "./breaker-settings.js";
export type {
  BreakerEventMap,
  BreakerBreakEvent,
  BreakerHalfOpenEvent,
  BreakerResetEvent,
  BreakReason,
  Disposable,
} from "./breaker-events.js";
export { createConversation, createReachabilityMemory } from "./conversation.js";
export type { Conversation, ConversationOptions, ReachabilityMemory } from "./conversation.js";
export { isBreakerFailure } from "./is-breaker-failure.js";
