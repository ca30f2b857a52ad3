import { InvalidOptionError, rejectUnknownOptions } from "../core/index.js";

/**
 * Default first backoff, in ms (the operator's `initialBackoff` default, `100ms`).
 * @internal Does not follow semver.
 */
export const DEFAULT_INITIAL_BACKOFF_MS = 100;
/**
 * Default backoff multiplier (the operator's `backoffMultiplier` default, `"2.0"`).
 * @internal Does not follow semver.
 */
export const DEFAULT_BACKOFF_MULTIPLIER = 2;
/**
 * Default backoff cap, in ms (the operator's `maxBackoff` default, `30s`).
 * @internal Does not follow semver.
 */
export const DEFAULT_MAX_BACKOFF_MS = 30_000;
/**
 * Default per-attempt timeout, in ms (the handler `timeout` CRD default, `30s`).
 * @internal Does not follow semver.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;

/**
 * The transport-independent part of a `retryPolicy`, in milliseconds. The manifest
 * layer parses the Go duration strings; this takes the numbers.
 * @internal Does not follow semver.
 */
export interface RetryPolicyOptions {
  /** Every attempt, the first included; 1 means no retries. Default 1 (no policy = one attempt). */
  readonly maxAttempts?: number;
  /** Backoff before the second attempt, in ms. Default 100. */
  readonly initialBackoffMs?: number;
  /** Growth factor of the backoff per attempt, >= 1. Default 2. */
  readonly backoffMultiplier?: number;
  /** Cap of every delay, Retry-After included, in ms; >= initialBackoffMs. Default 30,000. */
  readonly maxBackoffMs?: number;
}

/**
 * A validated, fully defaulted, frozen retry policy.
 * @internal Does not follow semver.
 */
export type RetryPolicy = { readonly [K in keyof RetryPolicyOptions]-?: number };

const KEYS = ["maxAttempts", "initialBackoffMs", "backoffMultiplier", "maxBackoffMs"] as const;
const normalized = new WeakSet<object>();

/**
 * Validates a retry policy and fills in the defaults. A policy it returns is passed
 * through unchanged on a second call.
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) naming the field and the value received
 * @internal Does not follow semver.
 */
export function createRetryPolicy(options: RetryPolicyOptions = {}): RetryPolicy {
  if (normalized.has(options)) return options as RetryPolicy;
  const where = "createRetryPolicy";
  if (options === null || typeof options !== "object") {
    throw new InvalidOptionError(`${where}: options must be an object; got ${options === null ? "null" : typeof options}`);
  }
  rejectUnknownOptions(where, options, KEYS);
  const policy = {
    maxAttempts: options.maxAttempts ?? 1,
    initialBackoffMs: options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS,
    backoffMultiplier: options.backoffMultiplier ?? DEFAULT_BACKOFF_MULTIPLIER,
    maxBackoffMs: options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
  };
  const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : String(v));
  const fail = (key: keyof RetryPolicy, rule: string): never => {
    throw new InvalidOptionError(`${where}: ${key} must be ${rule}; got ${show(policy[key])}`);
  };
  const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  if (!finite(policy.maxAttempts) || !Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) fail("maxAttempts", "an integer >= 1");
  if (!finite(policy.initialBackoffMs) || policy.initialBackoffMs < 0) fail("initialBackoffMs", "a finite number >= 0");
  if (!finite(policy.backoffMultiplier) || policy.backoffMultiplier < 1) fail("backoffMultiplier", "a finite number >= 1");
  if (!finite(policy.maxBackoffMs) || policy.maxBackoffMs < policy.initialBackoffMs) {
    fail("maxBackoffMs", `a finite number >= initialBackoffMs (${policy.initialBackoffMs})`);
  }
  const frozen = Object.freeze(policy);
  normalized.add(frozen);
  return frozen;
}
