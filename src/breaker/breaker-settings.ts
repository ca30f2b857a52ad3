import { InvalidOptionError, rejectUnknownOptions } from "../core/index.js";

/**
 * The thresholds of a circuit breaker. Every field is optional; the defaults are
 * the numbers of Omnia's runtime contract 1.9.0, as Omnia's "Tool backend protocol"
 * docs page states them.
 * @public
 */
export interface BreakerThresholds {
  /** Length of the rolling counting window, in ms. Must be a whole number of buckets. Default `60_000`. */
  readonly windowMs?: number;
  /** Length of one window bucket, in ms; the window expires a whole bucket at a time. Default `1_000`. */
  readonly bucketMs?: number;
  /** Calls the window must hold before the failure-ratio rule applies. Default `20`. */
  readonly minimumCalls?: number;
  /** Failure ratio (failures / calls, compared with `>=`) that opens the breaker. In (0, 1]. Default `0.5`. */
  readonly failureRatio?: number;
  /** Consecutive failures inside the window that open the breaker. Default `10`. */
  readonly consecutiveFailures?: number;
  /** How long the breaker stays open before the next call enters half-open, in ms. Default `10_000`. */
  readonly openDurationMs?: number;
  /** Trial calls half-open admits; that many successes close the breaker. Default `5`. */
  readonly halfOpenTrials?: number;
}

/**
 * Fully defaulted, validated, frozen thresholds.
 * @public
 */
export type BreakerSettings = { readonly [K in keyof BreakerThresholds]-?: number };

/** @internal Does not follow semver. */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = Object.freeze({
  windowMs: 60_000,
  bucketMs: 1_000,
  minimumCalls: 20,
  failureRatio: 0.5,
  consecutiveFailures: 10,
  openDurationMs: 10_000,
  halfOpenTrials: 5,
});

const THRESHOLD_KEYS = Object.keys(DEFAULT_BREAKER_SETTINGS) as (keyof BreakerSettings)[];

/**
 * Validates thresholds (unknown keys included) and fills in the defaults.
 * @param where - the factory name, for the error message
 * @param extraKeys - other option keys the caller accepts beside the thresholds
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) naming the option and the value received
 * @internal Does not follow semver.
 */
export function resolveBreakerSettings(where: string, options: object, extraKeys: readonly string[]): BreakerSettings {
  rejectUnknownOptions(where, options, [...THRESHOLD_KEYS, ...extraKeys]);
  const given = options as Record<string, unknown>;
  const out = { ...DEFAULT_BREAKER_SETTINGS } as Record<keyof BreakerSettings, number>;
  for (const key of THRESHOLD_KEYS) {
    const value = given[key];
    if (value !== undefined) out[key] = value as number;
  }
  const fail = (key: string, rule: string): never => {
    const value = key in given ? given[key] : out[key as keyof BreakerSettings];
    throw new InvalidOptionError(`${where}: ${key} must be ${rule}; got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  };
  const positiveInt = (key: keyof BreakerSettings): void => {
    const v = out[key];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) fail(key, "an integer >= 1");
  };
  positiveInt("bucketMs");
  positiveInt("windowMs");
  positiveInt("minimumCalls");
  positiveInt("consecutiveFailures");
  positiveInt("halfOpenTrials");
  if (out.windowMs % out.bucketMs !== 0) fail("windowMs", `a multiple of bucketMs (${out.bucketMs})`);
  const ratio = out.failureRatio;
  if (typeof ratio !== "number" || !(ratio > 0 && ratio <= 1)) fail("failureRatio", "a number in (0, 1]");
  const open = out.openDurationMs;
  if (typeof open !== "number" || !Number.isFinite(open) || open < 0) fail("openDurationMs", "a finite number >= 0");
  return Object.freeze(out);
}
