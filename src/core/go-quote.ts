/**
 * Go's `%q` verb for a string (`strconv.Quote`): double quotes, `\"` and `\\`,
 * the C escapes `\a \b \f \n \r \t \v`, `\xNN` for other ASCII controls and DEL,
 * `\uNNNN` / `\UNNNNNNNN` for non-printable runes above ASCII, and every printable
 * rune (letters, marks, numbers, punctuation, symbols, the ASCII space) kept as is.
 * Used wherever Omnia formats with `%q`: the conformance suite's version detail,
 * the policy broker's `(rule %q)`, duration errors.
 * @internal Does not follow semver.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const escape = C_ESCAPES[ch];
    if (escape !== undefined) out += escape;
    else if (cp < 0x80) out += cp < 0x20 || cp === 0x7f ? `\\x${hex(cp, 2)}` : ch;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (cp === 0xfffd) out += ch; // the replacement rune is printable in Go
    else out += cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

const C_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
};

/** Go's `unicode.IsPrint` above ASCII: categories L, M, N, P, S (no spaces besides U+0020). */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}
