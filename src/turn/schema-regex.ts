// Go regexp (RE2 syntax, Perl flags): the same patterns compile or fail as
// under Go's regexp.Compile (lookaround and backreferences fail), classes keep
// Go's meaning (\s is [\t\n\f\r ], `.` excludes only \n, \d \w are ASCII,
// \z, \A, \Q…\E, \x{…}, octal escapes, [[:alpha:]], \p{Greek}), and matching
// runs on a Thompson NFA like RE2's: time linear in the input whatever the
// pattern, no backtracking.

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

class Re2SyntaxError extends Error {}

const MAX_REPEAT = 1000;
const MAX_NESTING = 1000;

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

/** A set of code points: ranges plus Unicode property tests, possibly negated. */
interface CharSet {
  readonly ranges: readonly Range[];
  readonly props: readonly RegExp[];
  readonly negated: boolean;
}

type Node =
  | { readonly t: "char"; readonly set: CharSet }
  | { readonly t: "cat"; readonly items: readonly Node[] }
  | { readonly t: "alt"; readonly items: readonly Node[] }
  | { readonly t: "rep"; readonly min: number; readonly max: number; readonly node: Node }
  | { readonly t: "assert"; readonly kind: Assertion };

const enum Assertion {
  BeginText,
  EndText,
  BeginLine,
  EndLine,
  WordBoundary,
  NotWordBoundary,
}

function charNode(ranges: readonly Range[], negated = false, props: readonly RegExp[] = []): Node {
  return { t: "char", set: { ranges: normalise(ranges), props, negated } };
}

function normalise(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function inSet(set: CharSet, c: number): boolean {
  let hit = false;
  const r = set.ranges;
  let lo = 0;
  let hi = r.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = r[mid] as Range;
    if (c < range[0]) hi = mid - 1;
    else if (c > range[1]) lo = mid + 1;
    else {
      hit = true;
      break;
    }
  }
  if (!hit && set.props.length > 0) {
    const ch = String.fromCodePoint(c);
    for (const p of set.props) {
      if (p.test(ch)) {
        hit = true;
        break;
      }
    }
  }
  return hit !== set.negated;
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

/** \p{Name}: a Unicode general category (one or two letters) or script, tested by a one-character RegExp. */
function unicodeProperty(name: string): RegExp | undefined {
  if (!UNICODE_NAME.test(name)) throw new Re2SyntaxError("invalid character class range");
  if (name === "Any") return undefined;
  const source = name.length <= 2 ? `^\\p{${name}}$` : `^\\p{Script=${name}}$`;
  try {
    return new RegExp(source, "u");
  } catch {
    throw new Re2SyntaxError("invalid character class range");
  }
}

const ANY: readonly Range[] = [[0, 0x10ffff]];

/**
 * Go's `repeatIsValid` (regexp/syntax): whether the repetitions nested in
 * `node` make at most `n` copies of the innermost thing: each repetition's
 * count (its max, or its min when unbounded; a `{0}` is not walked) must not
 * exceed what is left, and divides it for what it nests. So `(?:x{999}){99}`
 * is `invalid repeat count` (99 × 999 copies), as under Go. Go calls it only
 * for a counted repetition whose min or max is at least 2, which bounds the
 * depth of a re-walk to 9 and keeps the parser linear.
 */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.t === "rep") {
    if (node.max === 0) return true;
    const m = node.max < 0 ? node.min : node.max;
    if (m > n) return false;
    if (m > 0) n = Math.floor(n / m);
    return repeatIsValid(node.node, n);
  }
  if (node.t === "cat" || node.t === "alt") {
    for (const item of node.items) if (!repeatIsValid(item, n)) return false;
  }
  return true;
}

class Translator {
  private i = 0;
  private readonly flags: Flags[] = [{ i: false, m: false, s: false, U: false }];

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

  translate(): Node {
    const out = this.alternation();
    if (this.i < this.src.length) throw new Re2SyntaxError("unexpected )");
    return out;
  }

  private alternation(): Node {
    const parts = [this.concatenation()];
    while (this.peek() === 0x7c) {
      this.i++;
      parts.push(this.concatenation());
    }
    return parts.length === 1 ? (parts[0] as Node) : { t: "alt", items: parts };
  }

  private concatenation(): Node {
    const items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === 0x7c || c === 0x29) return items.length === 1 ? (items[0] as Node) : { t: "cat", items };
      if (c === 0x2a || c === 0x2b || c === 0x3f) throw new Re2SyntaxError("missing argument to repetition operator");
      if (c === 0x7b && this.repeatAt() !== undefined) throw new Re2SyntaxError("missing argument to repetition operator");
      const atom = this.atom();
      if (atom === undefined) continue; // a flag group: (?i)
      items.push(this.repeats(atom));
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

  private repeats(atom: Node): Node {
    let out = atom;
    let repeated = false;
    let counted = false;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === 0x2a || c === 0x2b || c === 0x3f) {
        this.i++;
        min = c === 0x2b ? 1 : 0;
        max = c === 0x3f ? 1 : -1;
      } else if (c === 0x7b) {
        const r = this.repeatAt();
        if (r === undefined) return out;
        if (r.min > MAX_REPEAT || r.max > MAX_REPEAT || (r.max >= 0 && r.min > r.max)) throw new Re2SyntaxError("invalid repeat count");
        this.i += r.len;
        min = r.min;
        max = r.max;
        counted = true;
      } else {
        return out;
      }
      if (repeated) throw new Re2SyntaxError("invalid nested repetition operator");
      repeated = true;
      if (this.peek() === 0x3f) this.i++; // non-greedy: the same set of matches
      out = { t: "rep", min, max, node: out };
      // Go's parser: a counted repetition of 2 or more may not make more than 1000 copies of what it nests.
      if (counted && (min >= 2 || max >= 2) && !repeatIsValid(out, MAX_REPEAT)) throw new Re2SyntaxError("invalid repeat count");
    }
  }

  private literal(c: number): Node {
    if (this.f.i) return charNode(foldOrbit(c).map((x) => [x, x] as const));
    return charNode([[c, c]]);
  }

  private atom(): Node | undefined {
    const c = this.next();
    switch (c) {
      case 0x28:
        return this.group();
      case 0x2e:
        return this.f.s ? charNode(ANY) : charNode([[0x0a, 0x0a]], true);
      case 0x5e:
        return { t: "assert", kind: this.f.m ? Assertion.BeginLine : Assertion.BeginText };
      case 0x24:
        return { t: "assert", kind: this.f.m ? Assertion.EndLine : Assertion.EndText };
      case 0x5b:
        return this.charClass();
      case 0x5c:
        return this.escape();
      default:
        return this.literal(c);
    }
  }

  private groupBody(flags: Flags): Node {
    // Go refuses nesting deeper than 1000 ("expression nests too deeply").
    if (this.flags.length > MAX_NESTING) throw new Re2SyntaxError("expression nests too deeply");
    this.flags.push(flags);
    const inner = this.alternation();
    if (this.next() !== 0x29) throw new Re2SyntaxError("missing )");
    this.flags.pop();
    return inner;
  }

  private group(): Node | undefined {
    if (this.peek() !== 0x3f) return this.groupBody({ ...this.f });
    this.i++;
    const rest = this.src.slice(this.i);
    const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest);
    if (named !== null) {
      this.i += named[0].length;
      return this.groupBody({ ...this.f });
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
        case 0x29:
          if (neg && !saw) throw new Re2SyntaxError("invalid or unsupported Perl syntax");
          if (c === 0x29) {
            this.flags[this.flags.length - 1] = flags;
            return undefined;
          }
          return this.groupBody(flags);
        default:
          throw new Re2SyntaxError("invalid or unsupported Perl syntax");
      }
    }
  }

  /** An escape outside a class. */
  private escape(): Node {
    const c = this.peek();
    switch (c) {
      case -1:
        throw new Re2SyntaxError("trailing backslash at end of expression");
      case 0x41: // \A
        this.i++;
        return { t: "assert", kind: Assertion.BeginText };
      case 0x7a: // \z
        this.i++;
        return { t: "assert", kind: Assertion.EndText };
      case 0x62: // \b
        this.i++;
        return { t: "assert", kind: Assertion.WordBoundary };
      case 0x42: // \B
        this.i++;
        return { t: "assert", kind: Assertion.NotWordBoundary };
      case 0x51: {
        // \Q...\E
        this.i++;
        const end = this.src.indexOf("\\E", this.i);
        const lit = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end);
        this.i = end < 0 ? this.src.length : end + 2;
        const items: Node[] = [];
        for (const ch of lit) items.push(this.literal(ch.codePointAt(0) as number));
        return { t: "cat", items };
      }
    }
    const cls = this.perlOrUnicode();
    if (cls !== undefined) return charNode(cls.ranges, cls.negated, cls.props);
    return this.literal(this.singleEscape());
  }

  /** \d \s \w \D \S \W \p \P at the cursor (after the backslash). */
  private perlOrUnicode(): { ranges: readonly Range[]; props: readonly RegExp[]; negated: boolean } | undefined {
    const c = this.peek();
    const perl: Readonly<Record<number, readonly Range[]>> = { 0x64: DIGIT, 0x73: SPACE, 0x77: WORD };
    const lower = c | 0x20;
    if (perl[lower] !== undefined && (c === lower || c === (lower & ~0x20))) {
      this.i++;
      return { ranges: perl[lower] as readonly Range[], props: [], negated: c !== lower };
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
      const prop = unicodeProperty(name);
      return prop === undefined ? { ranges: ANY, props: [], negated } : { ranges: [], props: [prop], negated };
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

  private charClass(): Node {
    let negated = false;
    if (this.peek() === 0x5e) {
      this.i++;
      negated = true;
    }
    const ranges: Range[] = [];
    const props: RegExp[] = [];
    // A negated \P or \W inside a class: its complement, as a sub-set to union in.
    const subsets: CharSet[] = [];
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
          if (cls.props.length === 0) ranges.push(...(cls.negated ? complement(normalise(cls.ranges)) : cls.ranges));
          else if (!cls.negated) props.push(...cls.props);
          else subsets.push({ ranges: [], props: cls.props, negated: true });
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
      const extra: Range[] = [];
      for (const [lo, hi] of ranges) {
        if (hi - lo > 5000) continue;
        for (let x = lo; x <= hi; x++) for (const y of foldOrbit(x)) if (y < lo || y > hi) extra.push([y, y]);
      }
      ranges.push(...extra);
    }
    if (subsets.length === 0) return charNode(ranges, negated, props);
    // [^…\PL…]: fold the negated property sets in through a predicate set.
    const base: CharSet = { ranges: normalise(ranges), props, negated: false };
    const all = [base, ...subsets];
    const union: CharSet = { ranges: [], props: [{ test: (ch: string) => all.some((set) => inSet(set, ch.codePointAt(0) as number)) } as unknown as RegExp], negated };
    return { t: "char", set: union };
  }
}

const enum Op {
  Char,
  Split,
  Jmp,
  Assert,
  Match,
}

interface Inst {
  op: Op;
  set: CharSet | undefined;
  x: number;
  y: number;
  kind: Assertion;
}

/** Programs larger than this are refused (Go refuses some such patterns as "expression too large"). */
const MAX_PROGRAM = 100_000;

class Program {
  readonly insts: Inst[] = [];

  emit(op: Op, set?: CharSet, kind: Assertion = Assertion.BeginText): number {
    if (this.insts.length >= MAX_PROGRAM) throw new Re2SyntaxError("expression too large");
    this.insts.push({ op, set, x: -1, y: -1, kind });
    return this.insts.length - 1;
  }

  compile(n: Node): void {
    switch (n.t) {
      case "char":
        this.emit(Op.Char, n.set);
        return;
      case "assert":
        this.emit(Op.Assert, undefined, n.kind);
        return;
      case "cat":
        for (const item of n.items) this.compile(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        n.items.forEach((item, k) => {
          if (k < n.items.length - 1) {
            const split = this.emit(Op.Split);
            (this.insts[split] as Inst).x = split + 1;
            this.compile(item);
            jumps.push(this.emit(Op.Jmp));
            (this.insts[split] as Inst).y = this.insts.length;
          } else {
            this.compile(item);
          }
        });
        for (const j of jumps) (this.insts[j] as Inst).x = this.insts.length;
        return;
      }
      case "rep": {
        for (let k = 0; k < n.min; k++) this.compile(n.node);
        if (n.max < 0) {
          const split = this.emit(Op.Split);
          (this.insts[split] as Inst).x = split + 1;
          this.compile(n.node);
          (this.insts[this.emit(Op.Jmp)] as Inst).x = split;
          (this.insts[split] as Inst).y = this.insts.length;
        } else {
          const splits: number[] = [];
          for (let k = n.min; k < n.max; k++) {
            const split = this.emit(Op.Split);
            (this.insts[split] as Inst).x = split + 1;
            splits.push(split);
            this.compile(n.node);
          }
          for (const sp of splits) (this.insts[sp] as Inst).y = this.insts.length;
        }
        return;
      }
    }
  }
}

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x61 && c <= 0x7a);
}

/**
 * The regex work one validation may spend: {@link REGEX_STEP_BASE} steps plus
 * {@link REGEX_STEPS_PER_UNIT} per UTF-16 unit of the validated JSON text,
 * shared by every `pattern` and `patternProperties` match of that validation.
 * A step is one NFA thread state visited or advanced. Benign patterns spend a
 * few steps per character; a pattern whose program is large (tens of
 * thousands of instructions, as a schema a peer listed can be) spends up to
 * the program size per character, and is stopped here instead of blocking
 * the event loop for minutes.
 * @internal
 */
export const REGEX_STEP_BASE = 1_000_000;
/** See {@link REGEX_STEP_BASE}. @internal */
export const REGEX_STEPS_PER_UNIT = 64;

/** The steps a validation has left; {@link RegexBudgetExceeded} when they run out. @internal */
export interface RegexBudget {
  left: number;
  /** The whole budget, for the error text. */
  readonly total: number;
}

/** A match ran out of its validation's {@link RegexBudget}. @internal */
export class RegexBudgetExceeded extends Error {
  constructor(readonly total: number) {
    super(`regex budget of ${total} steps exceeded`);
  }
}

/** A compiled Go regular expression. @internal */
export interface GoRegexp {
  /**
   * regexp.MatchString: whether the pattern matches anywhere in the text.
   * With `budget`, each step is taken from it, and the match throws
   * {@link RegexBudgetExceeded} once it is spent (at most one text position
   * of work past it).
   */
  test(text: string, budget?: RegexBudget): boolean;
}

class NfaRegexp implements GoRegexp {
  private readonly marks: Int32Array;
  private stamp = 0;

  constructor(private readonly insts: readonly Inst[]) {
    this.marks = new Int32Array(insts.length);
  }

  test(text: string, budget?: RegexBudget): boolean {
    const insts = this.insts;
    const n = text.length;
    let steps = 0;
    let clist: number[] = [];
    let nlist: number[] = [];
    const stack: number[] = [];
    let prev = -1;
    for (let pos = 0; ; ) {
      const cur = pos < n ? (text.codePointAt(pos) as number) : -1;
      // Epsilon closure of the carried threads plus a new thread at pc 0 (unanchored search).
      if (++this.stamp === 0x7fffffff) {
        this.marks.fill(0);
        this.stamp = 1;
      }
      const stamp = this.stamp;
      const marks = this.marks;
      const seeds = nlist;
      nlist = clist;
      nlist.length = 0;
      clist = [];
      for (let k = seeds.length - 1; k >= 0; k--) stack.push(seeds[k] as number);
      stack.push(0);
      while (stack.length > 0) {
        const pc = stack.pop() as number;
        steps++;
        if (marks[pc] === stamp) continue;
        marks[pc] = stamp;
        const inst = insts[pc] as Inst;
        switch (inst.op) {
          case Op.Match:
            return true;
          case Op.Jmp:
            stack.push(inst.x);
            break;
          case Op.Split:
            stack.push(inst.y, inst.x);
            break;
          case Op.Char:
            clist.push(pc);
            break;
          case Op.Assert: {
            let ok: boolean;
            switch (inst.kind) {
              case Assertion.BeginText:
                ok = pos === 0;
                break;
              case Assertion.EndText:
                ok = pos === n;
                break;
              case Assertion.BeginLine:
                ok = pos === 0 || prev === 0x0a;
                break;
              case Assertion.EndLine:
                ok = pos === n || cur === 0x0a;
                break;
              case Assertion.WordBoundary:
                ok = isWordChar(prev) !== isWordChar(cur);
                break;
              default:
                ok = isWordChar(prev) === isWordChar(cur);
            }
            if (ok) stack.push(pc + 1);
            break;
          }
        }
      }
      if (pos >= n) return false;
      const next: number[] = nlist;
      steps += clist.length;
      for (const pc of clist) if (inSet((insts[pc] as Inst).set as CharSet, cur)) next.push(pc + 1);
      if (budget !== undefined) {
        budget.left -= steps;
        steps = 0;
        if (budget.left < 0) throw new RegexBudgetExceeded(budget.total);
      }
      nlist = next;
      clist = [];
      prev = cur;
      pos += cur > 0xffff ? 2 : 1;
    }
  }
}

/**
 * Compiles a Go regular expression, or returns undefined where Go's
 * regexp.Compile fails. Matching is a Thompson NFA simulation: linear in the
 * text for every pattern.
 * @internal
 */
export function compileGoRegexp(pattern: string): GoRegexp | undefined {
  try {
    const ast = new Translator(pattern).translate();
    const prog = new Program();
    prog.compile(ast);
    prog.emit(Op.Match);
    return new NfaRegexp(prog.insts);
  } catch (e) {
    if (e instanceof Re2SyntaxError || e instanceof RangeError) return undefined;
    throw e;
  }
}
