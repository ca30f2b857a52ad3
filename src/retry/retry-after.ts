const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY = "(?:mon|tue|wed|thu|fri|sat|sun)";
const WEEKDAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const MONTH = "(?<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
// Go accepts a fraction after the seconds even when the layout has none.
const CLOCK = "(?<hour>\\d{1,2}):(?<minute>\\d{2}):(?<second>\\d{2})(?<fraction>\\.\\d+)?";
/** RFC 1123 with a literal GMT (Go `http.TimeFormat`): `Mon, 02 Jan 2006 15:04:05 GMT`. */
const RFC1123 = new RegExp(`^${DAY}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${CLOCK} GMT$`, "i");
/** RFC 850: `Monday, 02-Jan-06 15:04:05 MST`. */
const RFC850 = new RegExp(`^${WEEKDAY}, (?<day>\\d{2})-${MONTH}-(?<yy>\\d{2}) ${CLOCK} [A-Z]{3,4}$`, "i");
/** asctime (Go `time.ANSIC`): `Mon Jan _2 15:04:05 2006`. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} (?<day> ?\\d{1,2}) ${CLOCK} (?<year>\\d{4})$`, "i");
const INTEGER = /^[+-]?\d+$/;
const INT64_MAX = 9223372036854775807n;

/**
 * Parses a `Retry-After` header value into a minimum delay in ms, as Omnia's
 * `parseRetryAfter` does (`internal/runtime/tools/retry_classify.go`):
 * - an integer as Go `Atoi` reads it (optional sign, digits only, int64 range) is
 *   seconds: `"5"` and `"+5"` give 5,000, `"-5"` gives -5,000 (no effect);
 * - otherwise an HTTP-date (RFC 1123 `... GMT`, RFC 850 or asctime) is "until then",
 *   measured from `nowMs`; a date in the past gives 0;
 * - anything else (`""`, `"1.5"`, `" 5"`, garbage) gives 0.
 *
 * Zone abbreviations in RFC 850 dates are read as UTC (Go fabricates a zero-offset
 * zone for an abbreviation it does not know). `nowMs` must be Unix-epoch
 * milliseconds (the injected clock's `now()`).
 * @internal Does not follow semver.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined, nowMs: number): number {
  const text = typeof value === "string" ? value : value?.[0];
  if (text === undefined || text === "") return 0;
  if (INTEGER.test(text)) {
    const big = BigInt(text);
    if (big > INT64_MAX || big < -INT64_MAX - 1n) return 0;
    return Number(text) * 1000;
  }
  const at = parseHttpDate(text);
  if (at === undefined) return 0;
  const delta = at - nowMs;
  return delta > 0 ? delta : 0;
}

/** An HTTP-date in one of Go's `http.ParseTime` formats, as Unix ms; undefined if invalid. */
function parseHttpDate(text: string): number | undefined {
  const g = (RFC1123.exec(text) ?? RFC850.exec(text) ?? ASCTIME.exec(text))?.groups;
  if (g === undefined) return undefined;
  const yy = g["yy"];
  const year = yy === undefined ? Number(g["year"]) : Number(yy) >= 69 ? 1900 + Number(yy) : 2000 + Number(yy);
  const month = MONTHS.indexOf((g["month"] ?? "").toLowerCase());
  const day = Number((g["day"] ?? "").trim());
  const hour = Number(g["hour"]);
  const minute = Number(g["minute"]);
  const second = Number(g["second"]);
  if (hour > 23 || minute > 59 || second > 59 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  const fractionMs = g["fraction"] === undefined ? 0 : Number(`0${g["fraction"]}`) * 1000;
  return Date.UTC(year, month, day, hour, minute, second) + fractionMs;
}
