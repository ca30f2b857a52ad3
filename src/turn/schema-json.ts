// A JSON reader that behaves like Go's encoding/json scanner (scanner.go):
// the same accepted texts, the same error messages, the same 10000-level
// nesting limit, numbers kept as their literal text (json.Number).
// Iterative: hostile nesting never grows the JavaScript stack.
import { jsonNumberEnd, jsonSpaceEnd } from "../core/index.js";

/** A JSON number as Go's `json.Number` keeps it: the literal text. @internal */
export class GoNumber {
  constructor(readonly text: string) {}
}

/** A decoded JSON value: objects are Maps (insertion order, a repeated key keeps its first place and its last value). @internal */
export type JNode = null | boolean | string | GoNumber | JNode[] | JObject;
/** A decoded JSON object. @internal */
export type JObject = Map<string, JNode>;

/** The outcome of reading JSON text. @internal */
export type JsonRead = { readonly ok: true; readonly value: JNode } | { readonly ok: false; readonly message: string };

const enum Op {
  Continue,
  BeginLiteral,
  BeginObject,
  ObjectKey,
  ObjectValue,
  EndObject,
  BeginArray,
  ArrayValue,
  EndArray,
  SkipSpace,
  End,
  Error,
}

const enum St {
  BeginValueOrEmpty,
  BeginValue,
  BeginStringOrEmpty,
  BeginString,
  EndValue,
  EndTop,
  InString,
  InStringEsc,
  InStringEscU,
  InStringEscU1,
  InStringEscU12,
  InStringEscU123,
  Neg,
  One,
  Zero,
  Dot,
  Dot0,
  E,
  ESign,
  E0,
  T,
  Tr,
  Tru,
  F,
  Fa,
  Fal,
  Fals,
  N,
  Nu,
  Nul,
  Error,
}

const enum Ps {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

/** Go's maxNestingDepth. */
const MAX_DEPTH = 10000;

/** Go's quoteChar: the byte as Go prints it in a SyntaxError. */
function quoteChar(byte: number): string {
  if (byte === 0x27) return "'\\''";
  if (byte === 0x22) return "'\"'";
  return `'${goQuoteRune(byte)}'`;
}

/** strconv.Quote of string(rune(b)) without its quotes, for b < 0x100. */
function goQuoteRune(c: number): string {
  switch (c) {
    case 0x07:
      return "\\a";
    case 0x08:
      return "\\b";
    case 0x0c:
      return "\\f";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x0b:
      return "\\v";
    case 0x5c:
      return "\\\\";
  }
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, "0")}`;
  if ((c >= 0x80 && c < 0xa1) || c === 0xad) return `\\u00${c.toString(16).padStart(2, "0")}`;
  return String.fromCharCode(c);
}

/** The first UTF-8 byte of the code point at `i` (what Go's byte scanner would see). */
function firstByte(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return c;
  if (c < 0x800) return 0xc0 | (c >> 6);
  if (c >= 0xd800 && c < 0xdc00) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d < 0xe000) return 0xf0;
  }
  if (c >= 0xd800 && c < 0xe000) return 0xef; // a lone surrogate reaches Go as U+FFFD
  return 0xe0 | (c >> 12);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

class Scanner {
  step: St = St.BeginValue;
  readonly parse: Ps[] = [];
  endTop = false;
  err: string | undefined;

  error(byte: number, context: string): Op {
    this.step = St.Error;
    this.err = `invalid character ${quoteChar(byte)} ${context}`;
    return Op.Error;
  }

  push(byte: number, ps: Ps, next: St, op: Op): Op {
    this.parse.push(ps);
    if (this.parse.length <= MAX_DEPTH) {
      this.step = next;
      return op;
    }
    return this.error(byte, "exceeded max depth");
  }

  pop(): void {
    this.parse.pop();
    if (this.parse.length === 0) {
      this.step = St.EndTop;
      this.endTop = true;
    } else {
      this.step = St.EndValue;
    }
  }

  /** One byte (c is the code unit, b the UTF-8 byte Go would see for it). */
  feed(c: number, b: number): Op {
    switch (this.step) {
      case St.BeginValueOrEmpty:
        if (isSpace(c)) return Op.SkipSpace;
        if (c === 0x5d) return this.endValue(c, b);
        return this.beginValue(c, b);
      case St.BeginValue:
        return this.beginValue(c, b);
      case St.BeginStringOrEmpty:
        if (isSpace(c)) return Op.SkipSpace;
        if (c === 0x7d) {
          this.parse[this.parse.length - 1] = Ps.ObjectValue;
          return this.endValue(c, b);
        }
        return this.beginString(c, b);
      case St.BeginString:
        return this.beginString(c, b);
      case St.EndValue:
        return this.endValue(c, b);
      case St.EndTop:
        if (!isSpace(c)) this.error(b, "after top-level value");
        return Op.End;
      case St.InString:
        if (c === 0x22) {
          this.step = St.EndValue;
          return Op.Continue;
        }
        if (c === 0x5c) {
          this.step = St.InStringEsc;
          return Op.Continue;
        }
        if (c < 0x20) return this.error(b, "in string literal");
        return Op.Continue;
      case St.InStringEsc:
        switch (c) {
          case 0x62:
          case 0x66:
          case 0x6e:
          case 0x72:
          case 0x74:
          case 0x5c:
          case 0x2f:
          case 0x22:
            this.step = St.InString;
            return Op.Continue;
          case 0x75:
            this.step = St.InStringEscU;
            return Op.Continue;
        }
        return this.error(b, "in string escape code");
      case St.InStringEscU:
      case St.InStringEscU1:
      case St.InStringEscU12:
      case St.InStringEscU123:
        if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)) {
          this.step = this.step === St.InStringEscU123 ? St.InString : this.step + 1;
          return Op.Continue;
        }
        return this.error(b, "in \\u hexadecimal character escape");
      case St.Neg:
        if (c === 0x30) {
          this.step = St.Zero;
          return Op.Continue;
        }
        if (c >= 0x31 && c <= 0x39) {
          this.step = St.One;
          return Op.Continue;
        }
        return this.error(b, "in numeric literal");
      case St.One:
        if (c >= 0x30 && c <= 0x39) return Op.Continue;
        return this.zero(c, b);
      case St.Zero:
        return this.zero(c, b);
      case St.Dot:
        if (c >= 0x30 && c <= 0x39) {
          this.step = St.Dot0;
          return Op.Continue;
        }
        return this.error(b, "after decimal point in numeric literal");
      case St.Dot0:
        if (c >= 0x30 && c <= 0x39) return Op.Continue;
        if (c === 0x65 || c === 0x45) {
          this.step = St.E;
          return Op.Continue;
        }
        return this.endValue(c, b);
      case St.E:
        if (c === 0x2b || c === 0x2d) {
          this.step = St.ESign;
          return Op.Continue;
        }
        return this.eSign(c, b);
      case St.ESign:
        return this.eSign(c, b);
      case St.E0:
        if (c >= 0x30 && c <= 0x39) return Op.Continue;
        return this.endValue(c, b);
      case St.T:
        return this.lit(c, b, 0x72, St.Tr, "in literal true (expecting 'r')");
      case St.Tr:
        return this.lit(c, b, 0x75, St.Tru, "in literal true (expecting 'u')");
      case St.Tru:
        return this.lit(c, b, 0x65, St.EndValue, "in literal true (expecting 'e')");
      case St.F:
        return this.lit(c, b, 0x61, St.Fa, "in literal false (expecting 'a')");
      case St.Fa:
        return this.lit(c, b, 0x6c, St.Fal, "in literal false (expecting 'l')");
      case St.Fal:
        return this.lit(c, b, 0x73, St.Fals, "in literal false (expecting 's')");
      case St.Fals:
        return this.lit(c, b, 0x65, St.EndValue, "in literal false (expecting 'e')");
      case St.N:
        return this.lit(c, b, 0x75, St.Nu, "in literal null (expecting 'u')");
      case St.Nu:
        return this.lit(c, b, 0x6c, St.Nul, "in literal null (expecting 'l')");
      case St.Nul:
        return this.lit(c, b, 0x6c, St.EndValue, "in literal null (expecting 'l')");
      default:
        return Op.Error;
    }
  }

  lit(c: number, b: number, want: number, next: St, context: string): Op {
    if (c === want) {
      this.step = next;
      return Op.Continue;
    }
    return this.error(b, context);
  }

  beginValue(c: number, b: number): Op {
    if (isSpace(c)) return Op.SkipSpace;
    switch (c) {
      case 0x7b:
        return this.push(b, Ps.ObjectKey, St.BeginStringOrEmpty, Op.BeginObject);
      case 0x5b:
        return this.push(b, Ps.ArrayValue, St.BeginValueOrEmpty, Op.BeginArray);
      case 0x22:
        this.step = St.InString;
        return Op.BeginLiteral;
      case 0x2d:
        this.step = St.Neg;
        return Op.BeginLiteral;
      case 0x30:
        this.step = St.Zero;
        return Op.BeginLiteral;
      case 0x74:
        this.step = St.T;
        return Op.BeginLiteral;
      case 0x66:
        this.step = St.F;
        return Op.BeginLiteral;
      case 0x6e:
        this.step = St.N;
        return Op.BeginLiteral;
    }
    if (c >= 0x31 && c <= 0x39) {
      this.step = St.One;
      return Op.BeginLiteral;
    }
    return this.error(b, "looking for beginning of value");
  }

  beginString(c: number, b: number): Op {
    if (isSpace(c)) return Op.SkipSpace;
    if (c === 0x22) {
      this.step = St.InString;
      return Op.BeginLiteral;
    }
    return this.error(b, "looking for beginning of object key string");
  }

  zero(c: number, b: number): Op {
    if (c === 0x2e) {
      this.step = St.Dot;
      return Op.Continue;
    }
    if (c === 0x65 || c === 0x45) {
      this.step = St.E;
      return Op.Continue;
    }
    return this.endValue(c, b);
  }

  eSign(c: number, b: number): Op {
    if (c >= 0x30 && c <= 0x39) {
      this.step = St.E0;
      return Op.Continue;
    }
    return this.error(b, "in exponent of numeric literal");
  }

  endValue(c: number, b: number): Op {
    const n = this.parse.length;
    if (n === 0) {
      this.step = St.EndTop;
      this.endTop = true;
      return this.feed(c, b);
    }
    if (isSpace(c)) {
      this.step = St.EndValue;
      return Op.SkipSpace;
    }
    switch (this.parse[n - 1]) {
      case Ps.ObjectKey:
        if (c === 0x3a) {
          this.parse[n - 1] = Ps.ObjectValue;
          this.step = St.BeginValue;
          return Op.ObjectKey;
        }
        return this.error(b, "after object key");
      case Ps.ObjectValue:
        if (c === 0x2c) {
          this.parse[n - 1] = Ps.ObjectKey;
          this.step = St.BeginString;
          return Op.ObjectValue;
        }
        if (c === 0x7d) {
          this.pop();
          return Op.EndObject;
        }
        return this.error(b, "after object key:value pair");
      default:
        if (c === 0x2c) {
          this.step = St.BeginValue;
          return Op.ArrayValue;
        }
        if (c === 0x5d) {
          this.pop();
          return Op.EndArray;
        }
        return this.error(b, "after array element");
    }
  }
}

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A raw run of string text as Go holds it: lone surrogates become U+FFFD. */
function sanitize(raw: string): string {
  return SURROGATE.test(raw) ? raw.replace(LONE_SURROGATE, "\ufffd") : raw;
}

function hex4(text: string, i: number): number {
  const s = text.slice(i, i + 4);
  return s.length === 4 && /^[0-9a-fA-F]{4}$/.test(s) ? Number.parseInt(s, 16) : -1;
}

/** Decodes the body of a string literal (between its quotes) already checked by the scanner, as Go's unquote does. */
function decodeString(body: string): string {
  if (!body.includes("\\")) return sanitize(body);
  let out = "";
  let i = 0;
  while (i < body.length) {
    const j = body.indexOf("\\", i);
    if (j < 0) {
      out += sanitize(body.slice(i));
      break;
    }
    out += sanitize(body.slice(i, j));
    const e = body.charCodeAt(j + 1);
    i = j + 2;
    switch (e) {
      case 0x62:
        out += "\b";
        break;
      case 0x66:
        out += "\f";
        break;
      case 0x6e:
        out += "\n";
        break;
      case 0x72:
        out += "\r";
        break;
      case 0x74:
        out += "\t";
        break;
      case 0x75: {
        const r = hex4(body, i);
        i += 4;
        if (r >= 0xd800 && r < 0xdc00 && body.charCodeAt(i) === 0x5c && body.charCodeAt(i + 1) === 0x75) {
          const r2 = hex4(body, i + 2);
          if (r2 >= 0xdc00 && r2 < 0xe000) {
            out += String.fromCharCode(r, r2);
            i += 6;
            break;
          }
        }
        out += r >= 0xd800 && r < 0xe000 ? "\ufffd" : String.fromCharCode(r);
        break;
      }
      default:
        out += String.fromCharCode(e);
    }
  }
  return out;
}

function literal(text: string, start: number, end: number): JNode {
  switch (text.charCodeAt(start)) {
    case 0x22:
      return decodeString(text.slice(start + 1, end - 1));
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    default:
      return new GoNumber(text.slice(start, end));
  }
}

interface Frame {
  readonly container: JNode[] | JObject;
  key: string | undefined;
}

/** Assembles values from the scanner's events. */
class Builder {
  readonly stack: Frame[] = [];
  root: JNode = null;
  done = false;

  deliver(v: JNode): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      this.root = v;
      this.done = true;
      return;
    }
    if (Array.isArray(top.container)) {
      top.container.push(v);
    } else if (top.key === undefined) {
      top.key = v as string;
    } else {
      top.container.set(top.key, v);
      top.key = undefined;
    }
  }
}

/**
 * Reads JSON text as Go does. `decoder` mode is `json.Decoder.Decode` (what
 * gojsonschema uses): only the first value is read, data after it is ignored,
 * whitespace-only text is `EOF` and a cut value `unexpected EOF`. `unmarshal`
 * mode is `json.Unmarshal`: the whole text must be one value, a cut text is
 * `unexpected end of JSON input`.
 * @internal
 */
export function readGoJson(text: string, mode: "decoder" | "unmarshal"): JsonRead {
  const fast = new FastReader(text).document(mode);
  return fast !== undefined ? { ok: true, value: fast } : scanGoJson(text, mode);
}

/**
 * {@link readGoJson} through Go's scanner alone, without the fast path for
 * ordinary objects and arrays; the same outcome for every text.
 * @internal
 */
export function scanGoJson(text: string, mode: "decoder" | "unmarshal"): JsonRead {
  const sc = new Scanner();
  const b = new Builder();
  let litStart = -1;
  let nonSpace = false;

  const n = text.length;
  let i = 0;
  for (; i < n; i++) {
    if (sc.step === St.InString) {
      // Plain string content changes nothing in the scanner: skip to the next quote, backslash or control byte.
      let c = text.charCodeAt(i);
      while (c !== 0x22 && c !== 0x5c && c >= 0x20) {
        if (++i === n) break;
        c = text.charCodeAt(i);
      }
      if (i === n) break;
    }
    const c = text.charCodeAt(i);
    const op = sc.feed(c, c < 0x80 ? c : firstByte(text, i));
    if (op === Op.Continue) continue;
    if (op === Op.Error) return { ok: false, message: sc.err ?? "invalid JSON" };
    if (op !== Op.SkipSpace) nonSpace = true;
    if (litStart >= 0 && op !== Op.BeginLiteral) {
      b.deliver(literal(text, litStart, i));
      litStart = -1;
    }
    switch (op) {
      case Op.BeginLiteral:
        litStart = i;
        break;
      case Op.BeginObject:
        b.stack.push({ container: new Map(), key: undefined });
        break;
      case Op.BeginArray:
        b.stack.push({ container: [], key: undefined });
        break;
      case Op.EndObject:
      case Op.EndArray:
        b.deliver((b.stack.pop() as Frame).container);
        break;
      default:
        break;
    }
    if (b.done && mode === "decoder") return { ok: true, value: b.root };
    if (b.done && sc.err !== undefined) return { ok: false, message: sc.err };
    // A code unit pair is one code point: Go saw its 4 bytes, all inside a string or an error.
    if (c >= 0xd800 && c < 0xdc00) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) i++;
    }
  }
  if (sc.err !== undefined) return { ok: false, message: sc.err };
  if (!b.done) {
    // End of input: Go feeds one space to finish a top-level literal.
    const op = sc.feed(0x20, 0x20);
    if (op === Op.End && litStart >= 0) b.deliver(literal(text, litStart, n));
  }
  if (b.done) return { ok: true, value: b.root };
  if (mode === "decoder") return { ok: false, message: nonSpace || litStart >= 0 || b.stack.length > 0 ? "unexpected EOF" : "EOF" };
  return { ok: false, message: sc.err ?? "unexpected end of JSON input" };
}

/** Deeper nesting goes to the scanner, which is iterative. */
const MAX_FAST_DEPTH = 64;

/**
 * The fast path of {@link readGoJson} for the common case, an object or an
 * array of ordinary JSON: a recursive reader that builds the same value and
 * gives up (undefined) on anything the scanner must judge: a top-level
 * scalar, a syntax error, nesting deeper than 64 levels, or (in `unmarshal`
 * mode) anything but whitespace after the value. Strings with escapes or
 * surrogates are decoded as the scanner's reader decodes them.
 */
class FastReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(mode: "decoder" | "unmarshal"): JNode | undefined {
    this.space();
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x7b && c !== 0x5b) return undefined;
    const value = this.value(0);
    if (value === undefined || mode === "decoder") return value;
    this.space();
    return this.pos === this.text.length ? value : undefined;
  }

  private space(): void {
    this.pos = jsonSpaceEnd(this.text, this.pos);
  }

  private value(depth: number): JNode | undefined {
    this.space();
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    if (c === 0x22) return this.string();
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (c === 0x74) return this.word("true") ? true : undefined;
    if (c === 0x66) return this.word("false") ? false : undefined;
    if (c === 0x6e) return this.word("null") ? null : undefined;
    return undefined;
  }

  private word(word: string): boolean {
    if (!this.text.startsWith(word, this.pos)) return false;
    this.pos += word.length;
    return true;
  }

  /** A string literal: its body as it is when plain, else decoded as the scanner's reader does. */
  private string(): string | undefined {
    const text = this.text;
    const n = text.length;
    const start = this.pos + 1;
    let plain = true;
    for (let i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        const body = text.slice(start, i);
        return plain ? body : decodeString(body);
      }
      if (c === 0x5c) {
        plain = false;
        const e = text.charCodeAt(++i);
        if (e === 0x75) {
          if (hex4(text, i + 1) < 0) return undefined;
          i += 4;
        } else if (e !== 0x22 && e !== 0x5c && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) return undefined;
      } else if (c < 0x20) return undefined;
      else if (c >= 0xd800 && c < 0xe000) plain = false;
    }
    return undefined;
  }

  /** A number literal, kept as its text, with JSON's grammar checked. */
  private number(): GoNumber | undefined {
    const start = this.pos;
    const end = jsonNumberEnd(this.text, start);
    if (end < 0) return undefined;
    this.pos = end;
    return new GoNumber(this.text.slice(start, end));
  }

  private array(depth: number): JNode[] | undefined {
    if (depth >= MAX_FAST_DEPTH) return undefined;
    const text = this.text;
    this.pos++;
    this.space();
    const items: JNode[] = [];
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return items;
    }
    for (;;) {
      const item = this.value(depth + 1);
      if (item === undefined) return undefined;
      items.push(item);
      this.space();
      const c = text.charCodeAt(this.pos++);
      if (c === 0x5d) return items;
      if (c !== 0x2c) return undefined;
    }
  }

  private object(depth: number): JObject | undefined {
    if (depth >= MAX_FAST_DEPTH) return undefined;
    const text = this.text;
    this.pos++;
    this.space();
    const members: JObject = new Map();
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return members;
    }
    for (;;) {
      this.space();
      if (text.charCodeAt(this.pos) !== 0x22) return undefined;
      const key = this.string();
      if (key === undefined) return undefined;
      this.space();
      if (text.charCodeAt(this.pos++) !== 0x3a) return undefined;
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      members.set(key, value);
      this.space();
      const c = text.charCodeAt(this.pos++);
      if (c === 0x7d) return members;
      if (c !== 0x2c) return undefined;
    }
  }
}
