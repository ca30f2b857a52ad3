/**
 * Go's `%v` of a float64 (`strconv.FormatFloat(v, 'g', -1, 64)`): the shortest
 * round-trip digits, in exponent form when the decimal exponent is < -4 or >= 6
 * (`0.5`, `1e-05`, `1e+06`). Used to quote numbers inside Omnia's operator
 * messages exactly as the operator prints them.
 */
export function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return String(value);
}
