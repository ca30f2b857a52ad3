// Exact JSON numbers as gojsonschema sees them (big.Rat from the literal
// text), and the `%v` of a big.Float built from one, which is how bounds are
// printed in its messages (1e+06, 1.2345678901e+10, 1e-07).

/** A decimal number: value = (neg ? -1 : 1) × digits × 10^exp; digits has no leading or trailing zeros ("" is zero). @internal */
export interface Dec {
  readonly neg: boolean;
  readonly digits: string;
  readonly exp: number;
}

/** Parses a JSON number literal (already checked by the scanner). @internal */
export function parseDec(text: string): Dec {
  const n = text.length;
  let i = 0;
  const neg = text.charCodeAt(0) === 0x2d;
  if (neg) i++;
  let digits = "";
  let intEnd = i;
  while (intEnd < n && text.charCodeAt(intEnd) >= 0x30 && text.charCodeAt(intEnd) <= 0x39) intEnd++;
  digits = text.slice(i, intEnd);
  let exp = 0;
  let j = intEnd;
  if (j < n && text.charCodeAt(j) === 0x2e) {
    let k = j + 1;
    while (k < n && text.charCodeAt(k) >= 0x30 && text.charCodeAt(k) <= 0x39) k++;
    digits += text.slice(j + 1, k);
    exp -= k - j - 1;
    j = k;
  }
  if (j < n && (text.charCodeAt(j) | 0x20) === 0x65) exp += Number(text.slice(j + 1));
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === 0x30) start++;
  let end = digits.length;
  while (end > start && digits.charCodeAt(end - 1) === 0x30) end--;
  exp += digits.length - end;
  if (start === end) return { neg: false, digits: "", exp: 0 };
  return { neg, digits: start === 0 && end === digits.length ? digits : digits.slice(start, end), exp };
}

/** Whether a number literal is whole, without building its decimal when it has no fraction or exponent. @internal */
export function literalIsInt(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return decIsInt(parseDec(text));
  }
  return true;
}

/** big.Rat.IsInt of the literal. @internal */
export function decIsInt(d: Dec): boolean {
  return d.digits === "" || d.exp >= 0;
}

function cmpMagnitude(a: Dec, b: Dec): number {
  const ma = a.digits.length + a.exp;
  const mb = b.digits.length + b.exp;
  if (ma !== mb) return ma < mb ? -1 : 1;
  const n = Math.max(a.digits.length, b.digits.length);
  for (let i = 0; i < n; i++) {
    const x = i < a.digits.length ? a.digits.charCodeAt(i) : 0x30;
    const y = i < b.digits.length ? b.digits.charCodeAt(i) : 0x30;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Exact comparison (big.Rat.Cmp). @internal */
export function decCmp(a: Dec, b: Dec): number {
  const sa = a.digits === "" ? 0 : a.neg ? -1 : 1;
  const sb = b.digits === "" ? 0 : b.neg ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const m = cmpMagnitude(a, b);
  return sa > 0 ? m : -m;
}

/** Whether a / m is an integer (m > 0, a short decimal from the schema). @internal */
export function decIsMultiple(a: Dec, m: Dec): boolean {
  if (a.digits === "") return true;
  const k = a.exp - m.exp;
  if (k >= 0) {
    // m | A·10^k; m's digits are at most a few dozen, so 10^64 already holds every factor 2 and 5 it can have.
    const kk = Math.min(k, 64 + m.digits.length * 4);
    return (BigInt(a.digits) * 10n ** BigInt(kk)) % BigInt(m.digits) === 0n;
  }
  // M·10^-k | A: impossible once 10^-k alone exceeds A.
  if (-k > a.digits.length) return false;
  return BigInt(a.digits) % (BigInt(m.digits) * 10n ** BigInt(-k)) === 0n;
}

function bitLen(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

interface Decimal {
  mant: string; // digits, no leading/trailing zeros
  exp: number; // value = 0.mant × 10^exp
}

/** Exact decimal of n × 2^e (n > 0). */
function decimalOf(n: bigint, e: number): Decimal {
  let digits: string;
  let shift: number; // value = digits × 10^-shift
  if (e >= 0) {
    digits = (n << BigInt(e)).toString();
    shift = 0;
  } else {
    digits = (n * 5n ** BigInt(-e)).toString();
    shift = -e;
  }
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 0x30) end--;
  return { mant: digits.slice(0, end), exp: digits.length - shift };
}

function at(d: Decimal, i: number): number {
  return i < d.mant.length ? d.mant.charCodeAt(i) : 0x30;
}

function roundUp(d: Decimal, n: number): void {
  let i = n - 1;
  while (i >= 0 && d.mant.charCodeAt(i) === 0x39) i--;
  if (i < 0) {
    d.mant = "1";
    d.exp++;
    return;
  }
  d.mant = d.mant.slice(0, i) + String.fromCharCode(d.mant.charCodeAt(i) + 1);
}

function roundDown(d: Decimal, n: number): void {
  let m = d.mant.slice(0, n);
  let end = m.length;
  while (end > 0 && m.charCodeAt(end - 1) === 0x30) end--;
  m = m.slice(0, end);
  d.mant = m;
}

function roundHalfEven(d: Decimal, n: number): void {
  if (n < 0 || n >= d.mant.length) return;
  const c = d.mant.charCodeAt(n);
  const up = c === 0x35 && n + 1 === d.mant.length ? n > 0 && ((d.mant.charCodeAt(n - 1) - 0x30) & 1) !== 0 : c >= 0x35;
  if (up) roundUp(d, n);
  else roundDown(d, n);
}

/**
 * Prints a decimal number the way `fmt.Sprint(new(big.Float).SetRat(r))`
 * does: the Float has the precision SetRat gives it (at least 64 bits), and
 * `%v` is `%g` with the shortest digits that identify it, exponent form for
 * exponents below -4 or from 6 up.
 * @internal
 */
export function formatBigFloat(d: Dec): string {
  if (d.digits === "") return "0";
  let num = BigInt(d.digits);
  let den = 1n;
  if (d.exp >= 0) num *= 10n ** BigInt(d.exp);
  else den = 10n ** BigInt(-d.exp);
  const g = gcd(num, den);
  num /= g;
  den /= g;
  let dec: Decimal;
  if (den === 1n) {
    dec = decimalOf(num, 0);
  } else {
    const prec = Math.max(bitLen(num), 64, bitLen(den), 64);
    // q = round(num / den × 2^s) with exactly prec bits.
    let s = prec - (bitLen(num) - bitLen(den));
    let q: bigint;
    let r: bigint;
    let dd: bigint;
    for (;;) {
      const nn = s >= 0 ? num << BigInt(s) : num;
      dd = s >= 0 ? den : den << BigInt(-s);
      q = nn / dd;
      r = nn % dd;
      const bl = bitLen(q);
      if (bl > prec) s--;
      else if (bl < prec) s++;
      else break;
    }
    const twice = 2n * r;
    if (twice > dd || (twice === dd && (q & 1n) === 1n)) {
      q += 1n;
      if (bitLen(q) > prec) {
        q >>= 1n;
        s--;
      }
    }
    dec = decimalOf(q, -s);
    // Shortest digits: Go's roundShortest over [x - ulp/2, x + ulp/2].
    const mant = q << 1n;
    const e = -s - 1;
    const lower = decimalOf(mant - 1n, e);
    const upper = decimalOf(mant + 1n, e);
    const inclusive = (q & 1n) === 0n;
    for (let i = 0; i < dec.mant.length; i++) {
      const m = dec.mant.charCodeAt(i);
      const l = at(lower, i);
      const u = at(upper, i);
      const okdown = l !== m || (inclusive && i + 1 === lower.mant.length);
      const okup = m !== u && (inclusive || m + 1 < u || i + 1 < upper.mant.length);
      if (okdown && okup) {
        roundHalfEven(dec, i + 1);
        break;
      }
      if (okdown) {
        roundDown(dec, i + 1);
        break;
      }
      if (okup) {
        roundUp(dec, i + 1);
        break;
      }
    }
  }
  const sign = d.neg ? "-" : "";
  const x = dec.exp - 1;
  if (x < -4 || x >= 6) {
    const tail = dec.mant.length > 1 ? `.${dec.mant.slice(1)}` : "";
    const ax = Math.abs(x);
    return `${sign}${dec.mant[0] ?? "0"}${tail}e${x < 0 ? "-" : "+"}${ax < 10 ? "0" : ""}${ax}`;
  }
  if (dec.exp <= 0) return `${sign}0.${"0".repeat(-dec.exp)}${dec.mant}`;
  if (dec.exp >= dec.mant.length) return `${sign}${dec.mant}${"0".repeat(dec.exp - dec.mant.length)}`;
  return `${sign}${dec.mant.slice(0, dec.exp)}.${dec.mant.slice(dec.exp)}`;
}
