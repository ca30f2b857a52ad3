// Go regexp (RE2 syntax, Perl flags) translated to a JavaScript RegExp with
// the `u` flag: the same patterns compile or fail as under Go's
// regexp.Compile (lookaround and backreferences fail), and the translated
// classes keep Go's meaning (\s is [\t\n\f\r ], `.` excludes only \n, \d \w
// are ASCII, \z, \A, \Q…\E, \x{…}, octal escapes, [[:alpha:]], \p{Greek}).

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

class Re2SyntaxError extends Error {}

const MAX_REPEAT = 1000;

type Range = readonly [number, number];

const DIGIT: readonly Range[] = [[0x30, 0x39]];
const SPACE: readonly Range[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const POSIX: Readonly<Record<string, readonly Range[]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

function cp(c: number): string {
  return `\\u{${c.toString(16)}}`;
}

function rangesSource(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`)).join("");
}

/** Simple case folding orbit of one code point (what Go's (?i) matches). */
function foldOrbit(c: number): number[] {
  const out = new Set<number>([c]);
  const s = String.fromCodePoint(c);
  for (const t of [s.toLowerCase(), s.toUpperCase(), s.toLowerCase().toUpperCase(), s.toUpperCase().toLowerCase()]) {
    const x = t.codePointAt(0);
    if (x !== undefined && String.fromCodePoint(x) === t) out.add(x);
  }
  for (const [a, b] of SPECIAL_FOLDS) {
    if (out.has(a)) out.add(b);
    if (out.has(b)) out.add(a);
  }
  return [...out];
}

const SPECIAL_FOLDS: readonly (readonly [number, number])[] = [
  [0x6b, 0x212a],
  [0x73, 0x17f],
  [0xe5, 0x212b],
  [0x3b8, 0x3d1],
  [0x3c9, 0x2126],
];

const UNICODE_NAME = /^[A-Za-z_]+$/;

function unicodeClass(name: string, negated: boolean): string {
  if (!UNICODE_NAME.test(name)) throw new Re2SyntaxError("invalid character class range");
  if (name === "Any") return negated ? "[^\\u{0}-\\u{10ffff}]" : "[\\u{0}-\\u{10ffff}]";
  const p = negated ? "P" : "p";
  const gc = name.length <= 2 ? `\\${p}{${name}}` : `\\${p}{Script=${name}}`;
  try {
    new RegExp(gc, "u");
  } catch {
    throw new Re2SyntaxError("invalid character class range");
  }
  return gc;
}

class Translator {
  private i = 0;
  private readonly flags: Flags[] = [{ i: false, m: false, s: false, U: false }];
  usedFold = false;
  usedNoFold = false;

  constructor(private readonly src: string) {}

  private get f(): Flags {
    return this.flags[this.flags.length - 1] as Flags;
  }

  private peek(k = 0): number {
    return this.src.codePointAt(this.i + k) ?? -1;
  }

  private next(): number {
    const c = this.src.codePointAt(this.i);
    if (c === undefined) return -1;
    this.i += c > 0xffff ? 2 : 1;
    return c;
  }

  translate(): string {
    const out = this.alternation();
    if (this.i < this.src.length) throw new Re2SyntaxError("unexpected )");
    return out;
  }

  private alternation(): string {
    const parts = [this.concatenation()];
    while (this.peek() === 0x7c) {
      this.i++;
      parts.push(this.concatenation());
    }
    return parts.join("|");
  }

  private concatenation(): string {
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === 0x7c || c === 0x29) return out;
      if (c === 0x2a || c === 0x2b || c === 0x3f) throw new Re2SyntaxError("missing argument to repetition operator");
      if (c === 0x7b && this.repeatAt() !== undefined) throw new Re2SyntaxError("missing argument to repetition operator");
      const atom = this.atom();
      if (atom === undefined) continue; // a flag group: (?i)
      out += this.repeats(atom);
    }
  }

  /** Parses {n}, {n,}, {n,m} at the cursor without consuming; undefined when it is a literal `{`. */
  private repeatAt(): { min: number; max: number; len: number } | undefined {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i, this.i + 24));
    if (m === null) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? -1 : Number(m[3]);
    return { min, max, len: m[0].length };
  }

  private repeats(atom: string): string {
    let out = atom;
    let repeated = false;
    for (;;) {
      const c = this.peek();
      let op: string;
      if (c === 0x2a || c === 0x2b || c === 0x3f) {
        this.i++;
        op = String.fromCharCode(c);
      } else if (c === 0x7b) {
        const r = this.repeatAt();
        if (r === undefined) return out;
        if (r.min > MAX_REPEAT || r.max > MAX_REPEAT || (r.max >= 0 && r.min > r.max)) throw new Re2SyntaxError("invalid repeat count");
        this.i += r.len;
        op = r.max === r.min ? `{${r.min}}` : r.max < 0 ? `{${r.min},}` : `{${r.min},${r.max}}`;
      } else {
        return out;
      }
      if (repeated) throw new Re2SyntaxError("invalid nested repetition operator");
      repeated = true;
      let lazy = false;
      if (this.peek() === 0x3f) {
        this.i++;
        lazy = true;
      }
      if (this.f.U) lazy = !lazy;
      out = `(?:${out})${op}${lazy ? "?" : ""}`;
    }
  }

  private literal(c: number): string {
    if (this.f.i) {
      this.usedFold = true;
      const orbit = foldOrbit(c);
      return orbit.length === 1 ? cp(c) : `[${orbit.map(cp).join("")}]`;
    }
    this.usedNoFold = true;
    return cp(c);
  }

  private atom(): string | undefined {
    const c = this.next();
    switch (c) {
      case 0x28:
        return this.group();
      case 0x2e:
        return this.f.s ? "[\\u{0}-\\u{10ffff}]" : "[^\\n]";
      case 0x5e:
        return this.f.m ? "(?<![^\\n])" : "^";
      case 0x24:
        return this.f.m ? "(?![^\\n])" : "$";
      case 0x5b:
        return this.charClass();
      case 0x5c:
        return this.escape();
      default:
        return this.literal(c);
    }
  }

  private group(): string | undefined {
    if (this.peek() !== 0x3f) {
      this.flags.push({ ...this.f });
      const inner = this.alternation();
      if (this.next() !== 0x29) throw new Re2SyntaxError("missing )");
      this.flags.pop();
      return `(?:${inner})`;
    }
    this.i++;
    const rest = this.src.slice(this.i);
    const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest);
    if (named !== null && (rest.startsWith("P<") || rest.startsWith("<"))) {
      this.i += named[0].length;
      this.flags.push({ ...this.f });
      const inner = this.alternation();
      if (this.next() !== 0x29) throw new Re2SyntaxError("missing )");
      this.flags.pop();
      return `(?:${inner})`;
    }
    const flags = { ...this.f };
    let neg = false;
    let saw = false;
    for (;;) {
      const c = this.next();
      switch (c) {
        case 0x69:
          flags.i = !neg;
          saw = true;
          continue;
        case 0x6d:
          flags.m = !neg;
          saw = true;
          continue;
        case 0x73:
          flags.s = !neg;
          saw = true;
          continue;
        case 0x55:
          flags.U = !neg;
          saw = true;
          continue;
        case 0x2d:
          if (neg) throw new Re2SyntaxError("invalid or unsupported Perl syntax");
          neg = true;
          saw = false;
          continue;
        case 0x3a:
        case 0x29: {
          if (neg && !saw) throw new Re2SyntaxError("invalid or unsupported Perl syntax");
          if (c === 0x29) {
            this.flags[this.flags.length - 1] = flags;
            return undefined;
          }
          this.flags.push(flags);
          const inner = this.alternation();
          if (this.next() !== 0x29) throw new Re2SyntaxError("missing )");
          this.flags.pop();
          return `(?:${inner})`;
        }
        default:
          throw new Re2SyntaxError("invalid or unsupported Perl syntax");
      }
    }
  }

  private classOf(ranges: readonly Range[], negated: boolean): string {
    return `[${negated ? "^" : ""}${rangesSource(ranges)}]`;
  }

  /** An escape outside a class. */
  private escape(): string {
    const c = this.peek();
    switch (c) {
      case -1:
        throw new Re2SyntaxError("trailing backslash at end of expression");
      case 0x41: // \A
        this.i++;
        return "^";
      case 0x7a: // \z
        this.i++;
        return "$";
      case 0x62: // \b
        this.i++;
        return "(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))";
      case 0x42: // \B
        this.i++;
        return "(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))";
      case 0x51: {
        // \Q...\E
        this.i++;
        const end = this.src.indexOf("\\E", this.i);
        const lit = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end);
        this.i = end < 0 ? this.src.length : end + 2;
        let out = "";
        for (const ch of lit) out += this.literal(ch.codePointAt(0) as number);
        return `(?:${out})`;
      }
    }
    const cls = this.perlOrUnicode();
    if (cls !== undefined) return cls.negatedSource ?? cls.source;
    return this.literal(this.singleEscape());
  }

  /** \d \s \w \D \S \W \p \P at the cursor (after the backslash). */
  private perlOrUnicode(): { source: string; negatedSource?: string; ranges?: readonly Range[]; negated?: boolean } | undefined {
    const c = this.peek();
    const perl: Readonly<Record<number, readonly Range[]>> = { 0x64: DIGIT, 0x73: SPACE, 0x77: WORD };
    const lower = c | 0x20;
    if (perl[lower] !== undefined && (c === lower || c === (lower & ~0x20))) {
      this.i++;
      const ranges = perl[lower] as readonly Range[];
      const negated = c !== lower;
      return { source: this.classOf(ranges, negated), ranges, negated };
    }
    if (c === 0x70 || c === 0x50) {
      this.i++;
      let negated = c === 0x50;
      let name: string;
      if (this.peek() === 0x7b) {
        const end = this.src.indexOf("}", this.i);
        if (end < 0) throw new Re2SyntaxError("invalid character class range");
        name = this.src.slice(this.i + 1, end);
        this.i = end + 1;
        if (name.startsWith("^")) {
          negated = !negated;
          name = name.slice(1);
        }
      } else {
        const n = this.next();
        if (n === -1) throw new Re2SyntaxError("invalid character class range");
        name = String.fromCodePoint(n);
      }
      return { source: unicodeClass(name, negated) };
    }
    return undefined;
  }

  /** A single-character escape (after the backslash): its code point. */
  private singleEscape(): number {
    const c = this.next();
    switch (c) {
      case 0x61:
        return 0x07;
      case 0x66:
        return 0x0c;
      case 0x74:
        return 0x09;
      case 0x6e:
        return 0x0a;
      case 0x72:
        return 0x0d;
      case 0x76:
        return 0x0b;
      case 0x78: {
        if (this.peek() === 0x7b) {
          const end = this.src.indexOf("}", this.i);
          const hex = end < 0 ? "" : this.src.slice(this.i + 1, end);
          if (!/^[0-9A-Fa-f]+$/.test(hex)) throw new Re2SyntaxError("invalid escape sequence");
          const v = Number.parseInt(hex, 16);
          if (v > 0x10ffff) throw new Re2SyntaxError("invalid escape sequence");
          this.i = end + 1;
          return v;
        }
        const hex = this.src.slice(this.i, this.i + 2);
        if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Re2SyntaxError("invalid escape sequence");
        this.i += 2;
        return Number.parseInt(hex, 16);
      }
    }
    if (c >= 0x31 && c <= 0x37) {
      const d = this.peek();
      if (!(d >= 0x30 && d <= 0x37)) throw new Re2SyntaxError("invalid escape sequence");
    }
    if (c >= 0x30 && c <= 0x37) {
      let v = c - 0x30;
      for (let k = 0; k < 2; k++) {
        const d = this.peek();
        if (!(d >= 0x30 && d <= 0x37)) break;
        this.i++;
        v = v * 8 + (d - 0x30);
      }
      return v;
    }
    if (c >= 0 && c < 0x80 && !/[0-9A-Za-z]/.test(String.fromCharCode(c))) return c;
    throw new Re2SyntaxError("invalid escape sequence");
  }

  private charClass(): string {
    let negated = false;
    if (this.peek() === 0x5e) {
      this.i++;
      negated = true;
    }
    const items: string[] = [];
    const ranges: Range[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === -1) throw new Re2SyntaxError("missing closing ]");
      if (c === 0x5d && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === 0x5b && this.peek(1) === 0x3a) {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.i, this.i + 16));
        const posix = m === null ? undefined : POSIX[m[2] as string];
        if (m !== null && posix !== undefined) {
          this.i += m[0].length;
          ranges.push(...(m[1] === "^" ? complement(posix) : posix));
          continue;
        }
        if (m !== null) throw new Re2SyntaxError("invalid character class range");
      }
      let lo: number;
      if (c === 0x5c) {
        this.i++;
        const cls = this.perlOrUnicode();
        if (cls !== undefined) {
          if (cls.ranges !== undefined) ranges.push(...(cls.negated === true ? complement(cls.ranges) : cls.ranges));
          else items.push(cls.source);
          continue;
        }
        if (this.peek() === -1) throw new Re2SyntaxError("trailing backslash at end of expression");
        lo = this.singleEscape();
      } else {
        lo = this.next();
      }
      let hi = lo;
      if (this.peek() === 0x2d && this.peek(1) !== 0x5d && this.peek(1) !== -1) {
        this.i++;
        if (this.peek() === 0x5c) {
          this.i++;
          hi = this.singleEscape();
        } else {
          hi = this.next();
        }
        if (hi < lo) throw new Re2SyntaxError("invalid character class range");
      }
      ranges.push([lo, hi]);
    }
    if (this.f.i) {
      this.usedFold = true;
      const extra: Range[] = [];
      for (const [lo, hi] of ranges) {
        if (hi - lo > 5000) continue;
        for (let x = lo; x <= hi; x++) for (const y of foldOrbit(x)) if (y < lo || y > hi) extra.push([y, y]);
      }
      ranges.push(...extra);
    } else {
      this.usedNoFold = true;
    }
    const body = rangesSource(ranges) + items.join("");
    if (body === "") return negated ? "[\\u{0}-\\u{10ffff}]" : "[^\\u{0}-\\u{10ffff}]";
    return `[${negated ? "^" : ""}${body}]`;
  }
}

/**
 * Compiles a Go regular expression, or returns undefined where Go's
 * regexp.Compile fails. The RegExp has the `u` flag and is used with `test`.
 * @internal
 */
export function compileGoRegexp(pattern: string): RegExp | undefined {
  try {
    const t = new Translator(pattern);
    const source = t.translate();
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}
