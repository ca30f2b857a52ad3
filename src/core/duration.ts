import { ConfigError } from "./errors.js";
import { goQuote } from "./go-quote.js";

const UNIT_NS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  "\u00b5s": 1e3, // micro sign
  "\u03bcs": 1e3, // Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const VALID_UNITS = "valid units are ns, us, ms, s, m, h";
const MAX_DURATION_NS = 9223372036854775807;
const SEGMENT = /^(\d*)(?:\.(\d*))?([^\d.]*)/;

/**
 * Parses a Go duration string (`time.ParseDuration` syntax) into milliseconds.
 *
 * Accepts `300ms`, `1.5s`, `2m`, `1h30m`, an optional sign, and the units ns,
 * us, µs, ms, s, m and h. A bare `0` and the empty string mean 0 (Omnia's
 * manifest `Duration` reads `""` and `null` as zero). The result may be
 * fractional for sub-millisecond units.
 *
 * @param text - the duration text
 * @param path - where the value sits in the manifest, for the error
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) whose message contains `invalid duration "<text>"`;
 *   for a missing or unknown unit it ends with `valid units are ns, us, ms, s, m, h`
 * @public
 */
export function parseGoDuration(text: string, path = ""): number {
  const fail = (detail?: string): never => {
    throw new ConfigError({ path, message: `invalid duration ${goQuote(text)}${detail ? `: ${detail}` : ""}` });
  };
  if (text === "" || text === "0" || text === "+0" || text === "-0") return 0;
  let rest = text;
  let negative = false;
  if (rest[0] === "-" || rest[0] === "+") {
    negative = rest[0] === "-";
    rest = rest.slice(1);
  }
  if (rest === "") fail();
  let totalNs = 0;
  while (rest !== "") {
    const m = SEGMENT.exec(rest);
    if (m === null) return fail();
    const [whole, intPart = "", fracPart, unit = ""] = m;
    if (intPart === "" && (fracPart === undefined || fracPart === "")) fail();
    if (unit === "") fail(`missing unit; ${VALID_UNITS}`);
    const scale = UNIT_NS[unit];
    if (scale === undefined) return fail(`unknown unit ${goQuote(unit)}; ${VALID_UNITS}`);
    const value = Number(`${intPart === "" ? "0" : intPart}.${fracPart ?? ""}0`);
    totalNs += value * scale;
    if (totalNs > MAX_DURATION_NS) fail();
    rest = rest.slice(whole.length);
  }
  const ms = Math.round(totalNs) / 1e6;
  return negative ? -ms : ms;
}

/**
 * Formats milliseconds the way Go's `time.Duration.String()` does:
 * `0s`, `100ms`, `1.5s`, `1m30s`, `1h0m0s`, `2µs`.
 * @public
 */
export function formatGoDuration(ms: number): string {
  let ns = Math.round(ms * 1e6);
  if (ns === 0) return "0s";
  const negative = ns < 0;
  if (negative) ns = -ns;
  let out: string;
  if (ns < 1e9) {
    // Below one second: the largest of ns, µs, ms that keeps the integer part non-zero.
    if (ns < 1e3) out = `${ns}ns`;
    else if (ns < 1e6) out = `${trimFraction(ns, 1e3)}\u00b5s`;
    else out = `${trimFraction(ns, 1e6)}ms`;
  } else {
    const hours = Math.floor(ns / 3600e9);
    const minutes = Math.floor((ns % 3600e9) / 60e9);
    const secondsNs = ns % 60e9;
    out = `${trimFraction(secondsNs, 1e9)}s`;
    if (hours > 0 || minutes > 0) out = `${minutes}m${out}`;
    if (hours > 0) out = `${hours}h${out}`;
  }
  return negative ? `-${out}` : out;
}

/** `value / unit` printed with Go's trailing-zero-free fraction, exact on integers. */
function trimFraction(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const frac = value - whole * unit;
  if (frac === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(frac).padStart(digits, "0").replace(/0+$/, "")}`;
}
