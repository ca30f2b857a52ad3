import { compareUtf8, goJsonIndent, goJsonString } from "./go-json.js";

// Go's re-encoding of JSON text (`json.Unmarshal` into `any`, then
// `json.Marshal` or `json.MarshalIndent(v, "", "  ")`) straight from the text,
// without building the value: one pass that copies what Go would write
// unchanged (plain strings, short integers, `true`, `false`, `null`) and
// sorts each object's members. It is the fast path of the general encoder in
// go-json.ts and gives up (returns undefined) wherever that one must decide:
// text that is not one JSON value, nesting deeper than 64 levels, a repeated
// key, a key that is not valid Unicode, a number outside float64's range, or
// output beyond the caller's budget. When it returns a text, that text is
// exactly the general encoder's.

/** Deeper nesting goes to the general encoder, which is iterative. */
const MAX_FAST_DEPTH = 64;

/** Objects with at most this many members are sorted by insertion (no comparator call, no allocation). */
const INSERTION_SORT_MAX = 12;

/** A reason to leave the text to the general encoder. */
const GIVE_UP: unique symbol = Symbol("give-up");

/**
 * Re-encodes JSON text as Go does after decoding it into `any`: compact
 * (`json.Marshal`) or pretty-printed with two spaces (`json.MarshalIndent`),
 * object keys sorted by their UTF-8 bytes, strings with Go's escaping,
 * numbers as float64. Returns undefined where it leaves the decision to the
 * general decoder and encoder: the text is not one JSON value (with
 * whitespace around it), nests deeper than 64 levels, repeats a key in an
 * object, has a key that is not valid Unicode, holds a number outside
 * float64's range, or would produce more than `budget` characters. Linear in
 * the text, with one sort per object; throws only where the text it returns
 * would be longer than V8's longest string, as the general encoder does.
 * @internal Does not follow semver.
 */
export function goJsonReencode(text: string, pretty: boolean, budget: number): string | undefined {
  const reader = new Reencoder(text, pretty, budget);
  try {
    const out = reader.document();
    return out === GIVE_UP ? undefined : out;
  } finally {
    // Let go of the member strings the shared stacks still hold.
    for (let i = 0; i < reader.used; i++) {
      KEYS[i] = "";
      PARTS[i] = "";
    }
  }
}

/**
 * The members of the objects being read, innermost last, shared by every
 * call (a call runs to its end synchronously, and nothing it calls comes
 * back here): `KEYS[i]` the key member `i` sorts by, `PARTS[i]` the written
 * member. Emptied after each call.
 */
const KEYS: string[] = [];
const PARTS: string[] = [];

class Reencoder {
  /** How many entries of the shared member stacks are in use, and the most that were. */
  private top = 0;
  used = 0;
  private pos = 0;
  private written = 0;
  /** The last literal {@link stringEnd} scanned held an escape. */
  private escaped = false;
  /** The last literal {@link stringEnd} scanned held a character below `"` (a space or `!`). */
  private low = false;

  constructor(
    private readonly text: string,
    private readonly pretty: boolean,
    private readonly budget: number,
  ) {}

  document(): string | typeof GIVE_UP {
    const out = this.value(0);
    if (out === GIVE_UP) return GIVE_UP;
    this.space();
    return this.pos === this.text.length ? out : GIVE_UP;
  }

  /**
   * The code unit at `i`, or -1 past the end: reading past the end would
   * return NaN, which makes V8 stop inlining the read.
   */
  private at(i: number): number {
    return i < this.text.length ? this.text.charCodeAt(i) : -1;
  }

  /** Skips JSON whitespace. */
  private space(): void {
    this.pos = jsonSpaceEnd(this.text, this.pos);
  }

  private count(length: number): boolean {
    this.written += length;
    return this.written <= this.budget;
  }

  private value(depth: number): string | typeof GIVE_UP {
    this.space();
    const c = this.at(this.pos);
    let out: string | typeof GIVE_UP;
    if (c === 0x22) {
      const start = this.pos;
      const end = this.stringEnd();
      if (end < 0) return GIVE_UP;
      out = end > 0 ? this.text.slice(start, end) : this.decodedString(start);
      if (out === GIVE_UP) return GIVE_UP;
    } else if (c === 0x7b) return this.object(depth);
    else if (c === 0x5b) return this.array(depth);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) out = this.number();
    else if (c === 0x74) out = this.literal("true");
    else if (c === 0x66) out = this.literal("false");
    else if (c === 0x6e) out = this.literal("null");
    else return GIVE_UP;
    if (out === GIVE_UP || !this.count(out.length)) return GIVE_UP;
    return out;
  }

  private literal(word: string): string | typeof GIVE_UP {
    if (!this.text.startsWith(word, this.pos)) return GIVE_UP;
    this.pos += word.length;
    return word;
  }

  /**
   * Scans the string literal at `pos` (its opening quote) and moves past it.
   * Returns the index after the closing quote when Go writes the literal
   * unchanged (printable ASCII without `<`, `>`, `&`; escapes only `\"`,
   * `\\`, `\b`, `\f`, `\n`, `\r`, `\t`), 0 when the literal must be decoded
   * and re-escaped, and -1 when it is not a valid literal.
   */
  private stringEnd(): number {
    const text = this.text;
    const n = text.length;
    let plain = true;
    this.escaped = false;
    this.low = false;
    for (let i = this.pos + 1; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x22) {
        if (c < 0x20) return -1;
        this.low = true;
        continue;
      }
      if (c === 0x22) {
        this.pos = i + 1;
        return plain ? i + 1 : 0;
      }
      if (c === 0x5c) {
        this.escaped = true;
        const e = this.at(++i);
        if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) continue;
        if (e !== 0x2f && e !== 0x75) return -1;
        plain = false; // `\/` and `\uXXXX` are written differently by Go; the decoder checks them
      } else if (c > 0x7e || c === 0x3c || c === 0x3e || c === 0x26) plain = false;
    }
    return -1;
  }

  /** The literal from `start` to `pos` decoded, as Go writes the string (HTML-safe, U+FFFD for a lone surrogate). */
  private decodedString(start: number): string | typeof GIVE_UP {
    const decoded = this.decode(start);
    return decoded === GIVE_UP ? GIVE_UP : goJsonString(decoded);
  }

  private decode(start: number): string | typeof GIVE_UP {
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return GIVE_UP;
    }
  }

  /**
   * A number literal as Go writes the float64 it decodes to: as it is when
   * that is its float64's shortest form ({@link writtenAsIs}), any other
   * through the float64 (`1.0` → `1`, `1E3` → `1000`, `-0.0` → `-0`). Gives
   * up on bad syntax and overflow.
   */
  private number(): string | typeof GIVE_UP {
    const start = this.pos;
    const end = jsonNumberEnd(this.text, start);
    if (end < 0) return GIVE_UP;
    this.pos = end;
    const literal = this.text.slice(start, end);
    if (writtenAsIs(this.text, start, end)) return literal;
    const n = Number(literal);
    if (!Number.isFinite(n)) return GIVE_UP;
    return Object.is(n, -0) ? "-0" : String(n);
  }

  private array(depth: number): string | typeof GIVE_UP {
    if (depth >= MAX_FAST_DEPTH) return GIVE_UP;
    this.pos++;
    this.space();
    if (this.at(this.pos) === 0x5d) {
      this.pos++;
      return this.count(2) ? "[]" : GIVE_UP;
    }
    const separator = this.pretty ? prettySeparator(depth + 1) : ",";
    let out = this.pretty ? `[${goJsonIndent(depth + 1)}` : "[";
    for (let first = true; ; first = false) {
      const item = this.value(depth + 1);
      if (item === GIVE_UP) return GIVE_UP;
      out += first ? item : separator + item;
      if (!this.count(separator.length)) return GIVE_UP;
      this.space();
      const c = this.at(this.pos++);
      if (c === 0x5d) break;
      if (c !== 0x2c) return GIVE_UP;
    }
    const close = this.pretty ? goJsonIndent(depth) : "";
    return this.count(close.length + 2) ? `${out}${close}]` : GIVE_UP;
  }

  private object(depth: number): string | typeof GIVE_UP {
    if (depth >= MAX_FAST_DEPTH) return GIVE_UP;
    const text = this.text;
    this.pos++;
    this.space();
    if (this.at(this.pos) === 0x7d) {
      this.pos++;
      return this.count(2) ? "{}" : GIVE_UP;
    }
    const colon = this.pretty ? ": " : ":";
    const separator = this.pretty ? prettySeparator(depth + 1) : ",";
    // Members as they come, from `base` on the shared stacks. While every key is a literal without
    // escapes, spaces or `!`, the literal itself (quotes included) is the key: it sorts as the key
    // does, the closing quote sorting below any character in it.
    const base = this.top;
    let quoted = true;
    let sorted = true;
    for (;;) {
      this.space();
      if (this.at(this.pos) !== 0x22) return GIVE_UP;
      const start = this.pos;
      const end = this.stringEnd();
      if (end < 0) return GIVE_UP;
      let key: string;
      let written: string;
      if (end > 0) {
        written = text.slice(start, end);
        if (quoted && !this.escaped && !this.low) key = written;
        else {
          if (quoted) quoted = unquote(base, this.top);
          key = text.slice(start + 1, end - 1);
          // A plain literal may still hold escapes; decode those for the sort and the repeat check.
          if (this.escaped) {
            const decoded = this.decode(start);
            if (decoded === GIVE_UP) return GIVE_UP;
            key = decoded;
          }
        }
      } else {
        const decoded = this.decode(start);
        if (decoded === GIVE_UP || !isWellFormed(decoded)) return GIVE_UP;
        if (quoted) quoted = unquote(base, this.top);
        key = decoded;
        written = goJsonString(decoded);
      }
      this.space();
      if (this.at(this.pos++) !== 0x3a) return GIVE_UP;
      // The member's entry is taken before its value, whose own members go above it.
      const at = this.top++;
      if (this.top > this.used) this.used = this.top;
      KEYS[at] = key;
      const value = this.value(depth + 1);
      if (value === GIVE_UP) return GIVE_UP;
      this.top = at + 1;
      PARTS[at] = written + colon + value;
      if (!this.count(written.length + colon.length + separator.length)) return GIVE_UP;
      if (at > base && sorted) {
        const prev = KEYS[at - 1] as string;
        if (prev === key) return GIVE_UP;
        if (compareUtf8(prev, key) > 0) sorted = false;
      }
      this.space();
      const c = this.at(this.pos++);
      if (c === 0x7d) break;
      if (c !== 0x2c) return GIVE_UP;
    }
    const top = this.top;
    this.top = base;
    if (!sorted && !sortMembers(base, top)) return GIVE_UP;
    const close = this.pretty ? goJsonIndent(depth) : "";
    if (!this.count(close.length + 2)) return GIVE_UP;
    let out = (this.pretty ? `{${goJsonIndent(depth + 1)}` : "{") + (PARTS[base] as string);
    for (let i = base + 1; i < top; i++) out += separator + (PARTS[i] as string);
    return `${out}${close}}`;
  }
}

/** `,` then a newline and `depth` levels of indentation, for the first nesting levels. */
const PRETTY_SEPARATORS: readonly string[] = Array.from({ length: MAX_FAST_DEPTH + 1 }, (_, depth) => `,${goJsonIndent(depth)}`);

function prettySeparator(depth: number): string {
  return PRETTY_SEPARATORS[depth] as string;
}

/** Turns the keys from `base` to `top`, kept as their quoted literals, into the keys themselves; returns false (no longer quoted). */
function unquote(base: number, top: number): false {
  for (let i = base; i < top; i++) KEYS[i] = (KEYS[i] as string).slice(1, -1);
  return false;
}

/**
 * The index of the first character at or after `start` that is not JSON
 * whitespace (space, tab, newline, carriage return): `text.length` when there
 * is none. Reads nothing past the end of `text`.
 * @internal Does not follow semver.
 */
export function jsonSpaceEnd(text: string, start: number): number {
  const n = text.length;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/**
 * The end of the JSON number literal at `start` (JSON's grammar: an optional
 * `-`, `0` or digits without a leading zero, an optional fraction, an optional
 * exponent), or -1 when there is none. Reads nothing past the end of `text`.
 * @internal Does not follow semver.
 */
export function jsonNumberEnd(text: string, start: number): number {
  const n = text.length;
  const at = (i: number): number => (i < n ? text.charCodeAt(i) : -1);
  let i = start;
  if (at(i) === 0x2d) i++;
  const first = at(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) {
    i++;
    while (isDigit(at(i))) i++;
  } else return -1;
  if (at(i) === 0x2e) {
    i++;
    if (!isDigit(at(i))) return -1;
    while (isDigit(at(i))) i++;
  }
  const e = at(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = at(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(at(i))) return -1;
    while (isDigit(at(i))) i++;
  }
  return i;
}

/**
 * Whether the number literal from `start` to `end` is what both JavaScript
 * and Go print for its float64: an integer of at most 15 digits, or a decimal
 * without exponent with at most 15 significant digits (so it is the shortest
 * form of its float64), no trailing zero, and not below 1e-6.
 */
function writtenAsIs(text: string, start: number, end: number): boolean {
  let i = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const intStart = i;
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  const intDigits = i - intStart;
  if (intDigits > 15) return false;
  if (i === end) return true;
  if (text.charCodeAt(i) !== 0x2e) return false; // an exponent
  const fraction = ++i;
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  if (i !== end || text.charCodeAt(end - 1) === 0x30) return false;
  if (text.charCodeAt(intStart) !== 0x30) return intDigits + (end - fraction) <= 15;
  let zeros = fraction;
  while (text.charCodeAt(zeros) === 0x30) zeros++;
  return zeros - fraction <= 5 && end - zeros <= 15;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const wellFormed = String.prototype as unknown as { readonly isWellFormed: (this: string) => boolean };

function isWellFormed(text: string): boolean {
  return wellFormed.isWellFormed.call(text);
}

/**
 * Sorts the members from `base` to `top` of the shared stacks by key in
 * UTF-8 byte order, in place. Returns false when two keys are equal.
 */
function sortMembers(base: number, top: number): boolean {
  const n = top - base;
  if (n <= INSERTION_SORT_MAX) {
    for (let i = base + 1; i < top; i++) {
      const key = KEYS[i] as string;
      const part = PARTS[i] as string;
      let j = i - 1;
      for (; j >= base; j--) {
        const other = KEYS[j] as string;
        if (other === key) return false;
        if (compareUtf8(other, key) < 0) break;
        KEYS[j + 1] = other;
        PARTS[j + 1] = PARTS[j] as string;
      }
      KEYS[j + 1] = key;
      PARTS[j + 1] = part;
    }
    return true;
  }
  const order = Array.from({ length: n }, (_, i) => base + i);
  let repeated = false;
  order.sort((a, b) => {
    const x = KEYS[a] as string;
    const y = KEYS[b] as string;
    if (x === y) {
      repeated = true;
      return 0;
    }
    return compareUtf8(x, y);
  });
  if (repeated) return false;
  const sortedKeys = order.map((i) => KEYS[i] as string);
  const sortedParts = order.map((i) => PARTS[i] as string);
  for (let i = 0; i < n; i++) {
    KEYS[base + i] = sortedKeys[i] as string;
    PARTS[base + i] = sortedParts[i] as string;
  }
  return true;
}
