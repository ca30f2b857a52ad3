import { compareUtf8 } from "../core/index.js";
/**
 * Go's `%g` (and `%v`) of a float64: shortest round-trip digits, in exponent
 * form when the decimal exponent is below −4 or at least 6 (not JavaScript's
 * 21), with a sign and at least two exponent digits: `1e+06`,
 * `1.234567e+06`, `1e-05`, `2.5e-07`, `1e+21`; otherwise plain decimal:
 * `100000`, `1.5`, `0.0001`. Negative zero is `-0`; the non-finite values,
 * which JSON cannot carry, are Go's `NaN`, `+Inf` and `-Inf`.
 * @public
 */
export function goFormatFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const a = value < 0 ? -value : value;
  // In [1e-4, 1e6) the shortest digits have a decimal exponent in [-4, 5], and
  // JavaScript prints that range in plain decimal with the same shortest digits.
  if (a >= 1e-4 && a < 1e6) return String(value);
  if (a !== a) return "NaN";
  if (a === Infinity) return value > 0 ? "+Inf" : "-Inf";
  return exponentForm(String(value));
}

/**
 * Rewrites JavaScript's shortest rendering of a number outside [1e-4, 1e6)
 * into Go's `%e`-style form. `String()` is used rather than `toExponential()`
 * because V8 caches number strings, which makes it about ten times faster;
 * both give the same shortest digits.
 */
function exponentForm(js: string): string {
  const start = js.charCodeAt(0) === 0x2d ? 1 : 0;
  const e = js.indexOf("e", start);
  if (e >= 0) {
    // "1e+21", "1.5e-7": only the exponent needs its second digit.
    return js.length - e - 2 >= 2 ? js : `${js.slice(0, e + 2)}0${js.slice(e + 2)}`;
  }
  // The first significant digit, the digits after it (no dot) and the exponent.
  let lead: number;
  let rest: string;
  let exponent: number;
  const dot = js.indexOf(".", start);
  if (js.charCodeAt(start) !== 0x30) {
    // 1e6 <= |x| < 1e21: "1234567.5", "12345678901234567000". A fraction
    // never ends in 0 (shortest digits); an integer's trailing zeros go.
    lead = start;
    if (dot < 0) {
      exponent = js.length - start - 1;
      let end = js.length;
      while (end > start + 1 && js.charCodeAt(end - 1) === 0x30) end--;
      rest = js.slice(start + 1, end);
    } else {
      exponent = dot - start - 1;
      rest = js.slice(start + 1, dot) + js.slice(dot + 1);
    }
  } else {
    // 1e-6 <= |x| < 1e-4: "0.0000123".
    let i = dot + 1;
    while (js.charCodeAt(i) === 0x30) i++;
    exponent = dot - i;
    lead = i;
    rest = js.slice(i + 1);
  }
  const mantissa = rest === "" ? js[lead]! : `${js[lead]!}.${rest}`;
  return `${start === 1 ? "-" : ""}${mantissa}${EXPONENTS[exponent + 6]!}`;
}

/** Go's exponent suffix of the exponents this path meets, −6 … 20, at index exponent + 6. */
const EXPONENTS: readonly string[] = Array.from({ length: 27 }, (_, i) => {
  const x = i - 6;
  const abs = x < 0 ? -x : x;
  return `e${x < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`;
});

/**
 * Go's `%v` of a JSON value decoded into Go's `any` (every number a float64),
 * as Omnia renders query values, `urlTemplate` substitutions and
 * `headerParams` (`internal/runtime/tools/http_client.go`):
 * - string: itself, unquoted; boolean: `true`/`false`; null: `<nil>`;
 * - number: {@link goFormatFloat} (`1e+06`, `-0`);
 * - array: elements space-separated in brackets: `[1 2 3]`, `[a b]`, `[]`;
 * - object: `map[k:v …]` with keys sorted in byte order of their UTF-8 form:
 *   `{"b":2,"a":1}` → `map[a:1 b:2]`, `{}` → `map[]`.
 *
 * `undefined` renders as `<nil>`, like a missing value.
 * @public
 */
export function goFormat(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      return goFormatFloat(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object": {
      if (value === null) return "<nil>";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : " ") + goFormat(value[i]);
        return `${out}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort(compareUtf8);
      let out = "map[";
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        out += `${i === 0 ? "" : " "}${k}:${goFormat(obj[k])}`;
      }
      return `${out}]`;
    }
    default:
      return "<nil>";
  }
}
