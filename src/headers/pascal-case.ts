/**
 * Go's `unicode.ToUpper` for the few code points whose JavaScript upper case
 * expands to several characters although Unicode gives them a one-to-one
 * simple upper-case mapping: the Greek letters with ypogegrammeni.
 */
const SIMPLE_UPPER: ReadonlyMap<number, number> = new Map([
  ...range(0x1f80, 0x1f87, 8),
  ...range(0x1f90, 0x1f97, 8),
  ...range(0x1fa0, 0x1fa7, 8),
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);

function range(from: number, to: number, delta: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let c = from; c <= to; c++) out.push([c, c + delta]);
  return out;
}

/** Unicode simple upper-case mapping of one code point, as Go's `unicode.ToUpper`. */
function upperCodePoint(cp: number): string {
  const s = String.fromCodePoint(cp);
  const u = s.toUpperCase();
  if (u.length === 1 || (u.length === 2 && u.codePointAt(0)! > 0xffff)) return u;
  // A full-case expansion (ß → SS, ﬀ → FF): Go's simple mapping keeps one code point.
  const simple = SIMPLE_UPPER.get(cp);
  return simple === undefined ? s : String.fromCodePoint(simple);
}

/**
 * Omnia's `ToPascalCase`, used for `x-omnia-param-<Name>`: `_` and `-` are
 * dropped and the code point after them is upper-cased, as is the first one;
 * nothing is ever lower-cased. Upper-casing is Unicode's one-to-one simple
 * mapping (Go `unicode.ToUpper`): `ß` stays `ß`, `é` becomes `É`.
 *
 * `customer_id` → `CustomerId`, `first-name` → `FirstName`,
 * `already_Pascal_Case` → `AlreadyPascalCase`, `HTTP_url` → `HTTPUrl`,
 * `a_1b` → `A1b` (a digit takes the capital), `-_-` → `""`.
 * @public
 */
export function toPascalCase(name: string): string {
  const n = name.length;
  let out = "";
  let cap = true;
  let start = 0; // start of the pending run of unchanged characters
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x5f || c === 0x2d) {
      out += name.slice(start, i);
      start = i + 1;
      cap = true;
      continue;
    }
    if (!cap) continue;
    cap = false;
    if (c < 0x80) {
      if (c >= 0x61 && c <= 0x7a) {
        out += name.slice(start, i) + String.fromCharCode(c - 0x20);
        start = i + 1;
      }
      continue;
    }
    const cp = name.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    out += name.slice(start, i) + upperCodePoint(cp);
    i += width - 1;
    start = i + 1;
  }
  return start === 0 ? name : out + name.slice(start);
}
