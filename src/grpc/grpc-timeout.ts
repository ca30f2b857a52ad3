import { MAX_TIMER_MS } from "../core/index.js";

/** The largest number a `grpc-timeout` value can carry: 8 digits. */
const MAX_TIMEOUT_VALUE = 99_999_999;

/** The largest deadline connect writes itself, as `<ms>m` (8 digits). */
export const CONNECT_MAX_TIMEOUT_MS = MAX_TIMEOUT_VALUE;

/** Go's longest `time.Duration` (2^63-1 ns) in whole milliseconds. */
export const GO_MAX_DURATION_MS = 9_223_372_036_854;

/** Milliseconds per unit, finest first: the coarser units `grpc-timeout` has past milliseconds. */
const COARSER_UNITS: readonly (readonly [string, number])[] = [
  ["S", 1_000],
  ["M", 60_000],
  ["H", 3_600_000],
];

/**
 * A deadline of more than {@link CONNECT_MAX_TIMEOUT_MS} as a `grpc-timeout`
 * value, the way grpc-go encodes one (`encodeTimeout`): the finest of
 * seconds, minutes and hours in which the count, rounded up, has at most 8
 * digits (`48h` is `172800S`), else `99999999H`.
 */
export function encodeLongGrpcTimeout(ms: number): string {
  for (const [unit, size] of COARSER_UNITS) {
    const count = Math.ceil(ms / size);
    if (count <= MAX_TIMEOUT_VALUE) return `${count}${unit}`;
  }
  return `${MAX_TIMEOUT_VALUE}H`;
}

/** Milliseconds per `grpc-timeout` unit. */
const UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };

/**
 * Whether a `grpc-timeout` value is a deadline longer than a Node timer can
 * wait ({@link MAX_TIMER_MS}, 24.8 days). connect-node's server arms such a
 * deadline with one `setTimeout`, which Node fires after 1 ms instead (with a
 * `TimeoutOverflowWarning`), so the call would fail at once.
 */
export function isBeyondTimerRange(value: string): boolean {
  const match = /^(\d{1,8})([HMSmun])$/.exec(value);
  if (match === null) return false;
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number) > MAX_TIMER_MS;
}
