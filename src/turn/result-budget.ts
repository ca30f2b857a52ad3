// The result budget: a host's limit on how much of one tool result's text the
// model reads, so that a huge result does not flood its context. Pure
// functions over the text the turn stage renders (a bare string, or JSON
// pretty-printed with two spaces); no I/O.
//
// Contract (all sizes and counts are UTF-8 bytes; a lone surrogate counts as
// the three bytes of the U+FFFD it is encoded as):
// - `checkResultBudget(budget, where)`: the error text for a bad budget, or
//   `undefined`;
// - `budgetBytes(budget)`: the limit in bytes (`maxTokens` × 4);
// - `applyResultBudget(text, budget)`: the text unchanged when it fits, else
//   cut as the budget's `cut` says (see {@link ResultBudgetCut} for the exact
//   texts).
//
// A notice says how much was left out, never what.
import { InvalidOptionError, jsonNumberEnd, jsonSpaceEnd } from "../core/index.js";

/**
 * How a result over its budget is cut. With `size` the text's UTF-8 length
 * and `omitted` the bytes left out:
 * - `"head"`: the text's first bytes (at most the limit, cut between
 *   characters), then `\n... [cut to the result budget: <omitted> of <size>
 *   bytes left out]`. The notice comes on top of the limit.
 * - `"head+tail"`: the first `floor(limit / 2)` bytes at most and as many of
 *   the last bytes as the rest of the limit allows (each cut between
 *   characters), joined by `\n... [cut to the result budget: <omitted> of
 *   <size> bytes left out] ...\n`. The notice comes on top of the limit.
 * - `"json-aware"`: for a JSON object or array, valid JSON of at most the
 *   limit in the turn stage's layout (two-space indent, `": "` after a key,
 *   `{}` and `[]` on one line; a text in another layout is laid out so),
 *   every key kept in its order, numbers, literals and keys copied as
 *   written. For a cap `t` found below:
 *   - an array of more than `t` items keeps its first `t`, then the string
 *     `"... [<n> more items cut to the result budget]"` (`<n>` the items
 *     cut), unless the items cut would take no more room than that string;
 *   - a string of more than `c ≥ 32·t` bytes (as written, escapes
 *     included) keeps its longest start of at most `c` bytes that splits no escape
 *     (a `\ud83d\ude00` pair counts as one) and no surrogate pair, then
 *     `... [<n> bytes cut]` inside the quotes (`<n>` the bytes as written),
 *     unless that would not make it shorter.
 *
 *   At `t = 0` this is the skeleton: all arrays at their marker, all long
 *   strings at theirs. `t` is the largest cap that fits the limit as a
 *   bisection over `0 … max(items, bytes / 32)` finds it (each step one
 *   pass over the kept part); then a second bisection raises the string
 *   cap alone, up to `32·t + 31`, as far as the limit allows. When even the skeleton is over the limit, the
 *   answer is the skeleton if it is no longer than the `"head+tail"` text,
 *   else that text: it never takes more room than the fallback. Any other
 *   text (a top-level string, number or literal; text that is not JSON) is
 *   cut as by `"head+tail"`.
 * @public
 */
export type ResultBudgetCut = "head" | "head+tail" | "json-aware";

/**
 * A limit on the text the model reads for one tool result.
 * @public
 */
export interface ResultBudget {
  /** The limit in UTF-8 bytes, a positive safe integer. Exactly one of `maxBytes` and `maxTokens`. */
  readonly maxBytes?: number;
  /**
   * The limit in approximate tokens, a positive safe integer: 4 UTF-8 bytes
   * per token (a common rule of thumb for English text and JSON; no tokenizer
   * is run). Exactly one of `maxBytes` and `maxTokens`.
   */
  readonly maxTokens?: number;
  /** How to cut a result over the limit (see {@link ResultBudgetCut}). Default `"head"`. */
  readonly cut?: ResultBudgetCut;
}

/**
 * A result's text after its budget.
 * @internal Does not follow semver.
 */
export interface BudgetedText {
  /** The text the model reads. */
  readonly content: string;
  /** The text was over the budget and was cut. */
  readonly cut: boolean;
  /** The UTF-8 length of the text before any cut. */
  readonly originalBytes: number;
}

const BYTES_PER_TOKEN = 4;
const BUDGET_KEYS: readonly string[] = ["maxBytes", "maxTokens", "cut"];
const CUTS: readonly string[] = ["head", "head+tail", "json-aware"];

/**
 * The error text for a budget a host passed (any value), or `undefined` when
 * it is a plain object with only `maxBytes`, `maxTokens` and `cut` (an
 * `undefined` value counts as absent), exactly one of the first two, that
 * one a positive safe integer, and `cut` one of {@link ResultBudgetCut}.
 * Texts read `<where>: <what is wrong>; got <value>`, naming the field.
 * Calls no getter of the budget's own properties; never throws.
 * @internal Does not follow semver.
 */
export function checkResultBudget(budget: unknown, where: string): string | undefined {
  if (budget === null || typeof budget !== "object" || Array.isArray(budget)) {
    return `${where}: must be an object { maxBytes | maxTokens, cut? }; got ${budget === null ? "null" : Array.isArray(budget) ? "an array" : typeof budget}`;
  }
  const values = new Map<string, unknown>();
  try {
    const proto: unknown = Object.getPrototypeOf(budget);
    if (proto !== Object.prototype && proto !== null) return `${where}: must be a plain object { maxBytes | maxTokens, cut? }; got an instance of ${className(budget)}`;
    for (const key of Reflect.ownKeys(budget)) {
      if (typeof key !== "string" || !BUDGET_KEYS.includes(key)) return `${where}: unknown option ${typeof key === "string" ? JSON.stringify(key) : String(key)}; expected one of ${BUDGET_KEYS.join(", ")}`;
      const desc = Object.getOwnPropertyDescriptor(budget, key);
      // A getter may throw or answer differently on the next read: only a plain value is checked and then used.
      if (desc === undefined || !("value" in desc)) return `${where}.${key}: must be a plain value; got an accessor`;
      if (desc.value !== undefined) values.set(key, desc.value);
    }
  } catch {
    // A proxy's traps may throw.
    return `${where}: must be a plain object { maxBytes | maxTokens, cut? }; got an object that cannot be read`;
  }
  const bytes = values.has("maxBytes");
  const tokens = values.has("maxTokens");
  if (bytes === tokens) return `${where}: set exactly one of maxBytes and maxTokens; got ${bytes ? "both" : "neither"}`;
  const field = bytes ? "maxBytes" : "maxTokens";
  const limit = values.get(field);
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit <= 0) return `${where}.${field}: must be a positive safe integer; got ${describe(limit)}`;
  const cut = values.get("cut");
  if (cut !== undefined && (typeof cut !== "string" || !CUTS.includes(cut))) return `${where}.cut: must be one of "head", "head+tail", "json-aware"; got ${describe(cut)}`;
  return undefined;
}

/**
 * The limit in UTF-8 bytes of a budget that passed {@link checkResultBudget}:
 * `maxBytes`, or `maxTokens` × 4.
 * @internal Does not follow semver.
 */
export function budgetBytes(budget: ResultBudget): number {
  return budget.maxBytes ?? (budget.maxTokens as number) * BYTES_PER_TOKEN;
}

/**
 * Cuts a result's text to its budget. Text whose UTF-8 length is at most the
 * limit comes back unchanged (the same string) with `cut: false`; longer text
 * is cut as {@link ResultBudgetCut} describes. Linear in the text (the
 * JSON-aware cut: O(log n) passes, each bounded by the limit or the text);
 * memory O(text + output); no recursion, however deep the JSON.
 * @throws InvalidOptionError when the budget does not pass {@link checkResultBudget}
 * @internal Does not follow semver.
 */
export function applyResultBudget(text: string, budget: ResultBudget): BudgetedText {
  const error = checkResultBudget(budget, "applyResultBudget: budget");
  if (error !== undefined) throw new InvalidOptionError(error);
  const size = Buffer.byteLength(text, "utf8");
  const limit = budgetBytes(budget);
  if (size <= limit) return { content: text, cut: false, originalBytes: size };
  switch (budget.cut ?? "head") {
    case "head": {
      const end = utf8Prefix(text, limit);
      return { content: `${text.slice(0, end)}\n${notice(size - scanned, size)}`, cut: true, originalBytes: size };
    }
    case "head+tail":
      return { content: headTail(text, size, limit).content(), cut: true, originalBytes: size };
    case "json-aware":
      return { content: jsonAware(text, size, limit), cut: true, originalBytes: size };
  }
}

function notice(omitted: number, size: number): string {
  return `... [cut to the result budget: ${omitted} of ${size} bytes left out]`;
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return `${value}n`;
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function className(value: object): string {
  const ctor: unknown = (value as { constructor?: unknown }).constructor;
  return typeof ctor === "function" && ctor.name !== "" ? ctor.name : "a class";
}

/**
 * The UTF-8 bytes counted by the last {@link utf8Prefix}, {@link utf8Suffix}
 * or {@link jsonStringPrefix}; a module variable so that the per-string scans
 * of the JSON-aware passes allocate nothing.
 */
let scanned = 0;

/** The end of the longest prefix of `text` of at most `limit` UTF-8 bytes that ends between characters; its bytes in {@link scanned}. */
function utf8Prefix(text: string, limit: number): number {
  const end = text.length;
  let bytes = 0;
  let i = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    let size = 1;
    let units = 1;
    if (c >= 0x80) {
      size = c < 0x800 ? 2 : 3;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          size = 4;
          units = 2;
        }
      }
    }
    if (bytes + size > limit) break;
    bytes += size;
    i += units;
  }
  scanned = bytes;
  return i;
}

/** The start of the longest suffix of `text` of at most `limit` UTF-8 bytes that starts between characters; its bytes in {@link scanned}. */
function utf8Suffix(text: string, limit: number): number {
  let bytes = 0;
  let i = text.length;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    let size = 1;
    let units = 1;
    if (c >= 0x80) {
      size = c < 0x800 ? 2 : 3;
      if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
        const h = text.charCodeAt(i - 2);
        if (h >= 0xd800 && h <= 0xdbff) {
          size = 4;
          units = 2;
        }
      }
    }
    if (bytes + size > limit) break;
    bytes += size;
    i -= units;
  }
  scanned = bytes;
  return i;
}

/** The head+tail cut of `text` (of `size` bytes, over `limit`): its UTF-8 length, and the text built only when asked for. */
function headTail(text: string, size: number, limit: number): { readonly bytes: number; readonly content: () => string } {
  const headEnd = utf8Prefix(text, Math.floor(limit / 2));
  const headBytes = scanned;
  // Bytes the head could not use (a character across its end) go to the tail.
  const tailStart = utf8Suffix(text, limit - headBytes);
  const kept = headBytes + scanned;
  const joint = `\n${notice(size - kept, size)} ...\n`;
  return { bytes: kept + joint.length, content: () => text.slice(0, headEnd) + joint + text.slice(tailStart) };
}

// ---- json-aware ----

/** String bytes a string may keep per array item kept: the one knob that ties the string cap to the item cap. */
const STRING_BYTES_PER_ITEM = 32;

const OBJECT = 0;
const ARRAY = 1;
const STRING = 2;
const LITERAL = 3;

// The fields of one value in JsonTree.nodes.
/** OBJECT, ARRAY, STRING or LITERAL. */
const KIND = 0;
/** A string: after its opening quote; a literal: its first character. */
const START = 1;
/** A string: its closing quote; a literal: after its last character. */
const END = 2;
/** A string: the UTF-8 bytes between its quotes as written; a literal: its length; a container: its member count. */
const SIZE = 3;
/** The index of the value after this one and everything in it: its next sibling. */
const AFTER = 4;
/** A member of an object: where its key's literal (quotes included) starts; else -1. */
const KEY_START = 5;
const KEY_END = 6;
/** The UTF-8 bytes of the key's literal, quotes included. */
const KEY_BYTES = 7;
/** The value's UTF-8 size laid out whole at its depth, at most {@link FULL_MAX}. */
const FULL = 8;
const FIELDS = 9;
/** Where {@link FULL} stops counting: only sizes below a marker's are ever compared with it. */
const FULL_MAX = 0x7fffffff;

/**
 * A JSON text parsed into one flat table, a row of {@link FIELDS} numbers per
 * value in document order (a container before its members), so every pass is
 * a loop, never a recursion, and skips a cut item in O(1). Offsets and sizes
 * fit 32 bits: a JavaScript string is shorter than 2^30 characters.
 */
interface JsonTree {
  readonly text: string;
  readonly nodes: Int32Array;
  readonly maxItems: number;
  readonly maxStringBytes: number;
}

/**
 * The JSON-aware cut of `text` (of `size` bytes, over `limit`): see
 * {@link ResultBudgetCut}. The item cap `t` and the string cap `32·t` grow
 * together, then the string cap alone up to `32·t + 31`; the size of an
 * output is measured in one pass that stops once past the limit, and
 * bisections find the largest caps that fit.
 */
function jsonAware(text: string, size: number, limit: number): string {
  const first = text.charCodeAt(jsonSpaceEnd(text, 0));
  const tree = first === 0x7b || first === 0x5b ? parseTree(text) : undefined;
  const fallback = headTail(text, size, limit);
  if (tree === undefined) return fallback.content();
  const skeleton = walk(tree, 0, 0, Math.max(limit, fallback.bytes), undefined);
  if (skeleton > limit) return skeleton <= fallback.bytes ? render(tree, 0, 0) : fallback.content();
  // lo fits; hi is past the point where nothing is cut any more.
  let lo = 0;
  let hi = Math.max(tree.maxItems, Math.ceil(tree.maxStringBytes / STRING_BYTES_PER_ITEM)) + 1;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (walk(tree, mid, mid * STRING_BYTES_PER_ITEM, limit, undefined) <= limit) lo = mid;
    else hi = mid;
  }
  // Then the string cap alone, within the step to the next item cap: strings need not wait for a whole item.
  let capLo = lo * STRING_BYTES_PER_ITEM;
  let capHi = capLo + STRING_BYTES_PER_ITEM;
  while (capHi - capLo > 1) {
    const mid = capLo + Math.floor((capHi - capLo) / 2);
    if (walk(tree, lo, mid, limit, undefined) <= limit) capLo = mid;
    else capHi = mid;
  }
  return render(tree, lo, capLo);
}

function render(tree: JsonTree, items: number, stringCap: number): string {
  const out: string[] = [];
  walk(tree, items, stringCap, Number.POSITIVE_INFINITY, out);
  return out.join("");
}

/** Indentation pieces for the shallow depths, built once; deeper ones are built when written (they are rare and long). */
const NEWLINES: string[] = Array.from({ length: 64 }, (_, d) => `\n${"  ".repeat(d)}`);

function newline(depth: number): string {
  return NEWLINES[depth] ?? `\n${"  ".repeat(depth)}`;
}

/**
 * The UTF-8 size of the tree laid out with at most `t` items per array and
 * `stringCap` bytes per string, written to `out` when given. Stops and returns a
 * size above `stop` as soon as the size passes it, so a pass costs at most
 * about `stop` bytes of work beyond the items it skips.
 */
function walk(tree: JsonTree, t: number, stringCap: number, stop: number, out: string[] | undefined): number {
  const { text, nodes } = tree;
  // The open containers: the container, its next member, members left to write, items cut, members written.
  const fNode: number[] = [];
  const fNext: number[] = [];
  const fLeft: number[] = [];
  const fCut: number[] = [];
  const fWritten: number[] = [];
  let size = 0;
  let value = 0;
  for (;;) {
    if (value >= 0) {
      const k = nodes[value * FIELDS + KIND] as number;
      const n = nodes[value * FIELDS + SIZE] as number;
      if (k === STRING) {
        const s = nodes[value * FIELDS + START] as number;
        const e = nodes[value * FIELDS + END] as number;
        let whole = n <= stringCap;
        if (!whole) {
          const cutEnd = jsonStringPrefix(text, s, e, stringCap);
          const cutBytes = n - scanned;
          const marker = `... [${cutBytes} bytes cut]`;
          // A cut that would not make the string shorter is not made.
          whole = scanned + marker.length >= n;
          if (!whole) {
            size += scanned + marker.length + 2;
            out?.push(`"${text.slice(s, cutEnd)}${marker}"`);
          }
        }
        if (whole) {
          size += n + 2;
          out?.push(text.slice(s - 1, e + 1));
        }
      } else if (k === LITERAL) {
        size += n;
        out?.push(text.slice(nodes[value * FIELDS + START] as number, nodes[value * FIELDS + END] as number));
      } else if (n === 0) {
        size += 2;
        out?.push(k === OBJECT ? "{}" : "[]");
      } else {
        const kept = k === ARRAY && n > t ? t : n;
        size += 1;
        out?.push(k === OBJECT ? "{" : "[");
        fNode.push(value);
        fNext.push(value + 1);
        fLeft.push(kept);
        fCut.push(n - kept);
        fWritten.push(0);
      }
      if (size > stop) return size;
      value = -1;
    }
    const top = fNode.length - 1;
    if (top < 0) return size;
    const depth = top + 1;
    const written = fWritten[top] as number;
    const cut = fCut[top] as number;
    let marker = "";
    if (cut > 0 && fLeft[top] === 0) {
      marker = `"... [${cut} more items cut to the result budget]"`;
      if (tailFits(nodes, fNext[top] as number, cut, depth, marker.length)) {
        // The items cut would take no more room than the marker: keep them.
        fLeft[top] = cut;
        fCut[top] = 0;
      }
    }
    if ((fLeft[top] as number) > 0 || (fCut[top] as number) > 0) {
      size += (written > 0 ? 2 : 1) + 2 * depth;
      if (out !== undefined) {
        if (written > 0) out.push(",");
        out.push(newline(depth));
      }
      fWritten[top] = written + 1;
      if ((fLeft[top] as number) > 0) {
        const child = fNext[top] as number;
        fNext[top] = nodes[child * FIELDS + AFTER] as number;
        fLeft[top] = (fLeft[top] as number) - 1;
        if (nodes[(fNode[top] as number) * FIELDS + KIND] === OBJECT) {
          size += (nodes[child * FIELDS + KEY_BYTES] as number) + 2;
          out?.push(text.slice(nodes[child * FIELDS + KEY_START] as number, nodes[child * FIELDS + KEY_END] as number), ": ");
        }
        value = child;
        continue;
      }
      fCut[top] = 0;
      size += marker.length;
      out?.push(marker);
    } else {
      size += 2 + 2 * top;
      out?.push(newline(top), nodes[(fNode[top] as number) * FIELDS + KIND] === OBJECT ? "}" : "]");
      fNode.pop();
      fNext.pop();
      fLeft.pop();
      fCut.pop();
      fWritten.pop();
    }
    if (size > stop) return size;
  }
}

/**
 * Whether the `count` items from `first` on, laid out whole at `depth`, take
 * at most `room` bytes beyond the one separator and indentation a marker
 * in their place would take. Reads at most about `room / 3` items.
 */
function tailFits(nodes: Int32Array, first: number, count: number, depth: number, room: number): boolean {
  let bytes = 0;
  let item = first;
  for (let i = 0; i < count; i++) {
    bytes += (nodes[item * FIELDS + FULL] as number) + (i > 0 ? 2 + 2 * depth : 0);
    if (bytes > room) return false;
    item = nodes[item * FIELDS + AFTER] as number;
  }
  return true;
}

/**
 * The end of the longest start of the string literal's content
 * `text[start, end)` of at most `cap` bytes as written, cut only between
 * units: an escape (`\"`, `\u00e9`; a `\uD83D\uDE00` pair as one unit), a
 * character (a surrogate pair as one unit). Its bytes in {@link scanned}.
 */
function jsonStringPrefix(text: string, start: number, end: number, cap: number): number {
  let bytes = 0;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    let size: number;
    let units: number;
    if (c === 0x5c) {
      size = units = 2;
      if (text.charCodeAt(i + 1) === 0x75) {
        size = units = 6;
        if (surrogateEscape(text, i + 2) === 1 && i + 12 <= end && text.charCodeAt(i + 6) === 0x5c && text.charCodeAt(i + 7) === 0x75 && surrogateEscape(text, i + 8) === 2) size = units = 12;
      }
    } else if (c < 0x80) {
      size = units = 1;
    } else {
      size = c < 0x800 ? 2 : 3;
      units = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          size = 4;
          units = 2;
        }
      }
    }
    if (bytes + size > cap) break;
    bytes += size;
    i += units;
  }
  scanned = bytes;
  return i;
}

/**
 * What the four hex digits at `at` (validated by the parser) encode: 1 a high
 * surrogate (D800–DBFF), 2 a low one (DC00–DFFF), 0 anything else. Only the
 * first two digits decide it.
 */
function surrogateEscape(text: string, at: number): number {
  const d = text.charCodeAt(at) | 0x20;
  if (d !== 0x64) return 0;
  const e = text.charCodeAt(at + 1) | 0x20;
  if (e === 0x38 || e === 0x39 || e === 0x61 || e === 0x62) return 1;
  return e >= 0x63 && e <= 0x66 ? 2 : 0;
}

/** Whether `c` is a JSON hex digit. */
function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/**
 * Reads the string literal whose opening quote is at `at` (RFC 8259: no raw
 * control character, only JSON's escapes): the index of its closing quote,
 * its content's UTF-8 bytes as written in {@link scanned}; -1 when invalid.
 */
function scanString(text: string, at: number): number {
  const n = text.length;
  let bytes = 0;
  let i = at + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      scanned = bytes;
      return i;
    }
    if (c < 0x20) return -1;
    if (c === 0x5c) {
      const e = text.charCodeAt(i + 1);
      if (e === 0x75) {
        if (!(isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)) && isHex(text.charCodeAt(i + 5)))) return -1;
        i += 6;
        bytes += 6;
      } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        i += 2;
        bytes += 2;
      } else return -1;
    } else if (c < 0x80) {
      i++;
      bytes++;
    } else if (c < 0x800) {
      i++;
      bytes += 2;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      i += 2;
      bytes += 4;
    } else {
      i++;
      bytes += 3;
    }
  }
  return -1;
}

/** The end of the key's literal read by the last {@link readKey}. */
let scannedKeyEnd = 0;

/**
 * Reads `"key" :` and the space after it from `at`: where the value starts,
 * or -1 when it is not there. The end of the key's literal in
 * {@link scannedKeyEnd}, its content's bytes in {@link scanned}.
 */
function readKey(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x22) return -1;
  const close = scanString(text, at);
  if (close < 0) return -1;
  scannedKeyEnd = close + 1;
  const colon = jsonSpaceEnd(text, close + 1);
  return text.charCodeAt(colon) === 0x3a ? jsonSpaceEnd(text, colon + 1) : -1;
}

/**
 * Parses a JSON text (RFC 8259, as `JSON.parse` accepts it) into a
 * {@link JsonTree}, or `undefined` when it is not JSON. One pass with an
 * explicit stack: any depth is fine.
 */
function parseTree(text: string): JsonTree | undefined {
  const n = text.length;
  // Every value takes at least one character; start small and double (a pretty text has few values per byte).
  let nodes = new Int32Array(FIELDS * Math.min(n, 1024));
  let count = 0;
  let maxItems = 0;
  let maxStringBytes = 0;
  const open: number[] = [];
  // The whole layout's size of each open container so far (its bracket and its members' lines).
  const openFull: number[] = [];
  let pos = jsonSpaceEnd(text, 0);
  // The key of the member whose value comes next: -1 in an array.
  let key = -1;
  let keyEnd = 0;
  let keyBytes = 0;
  for (;;) {
    // A value at pos.
    if ((count + 1) * FIELDS > nodes.length) {
      const grown = new Int32Array(nodes.length * 2);
      grown.set(nodes);
      nodes = grown;
    }
    const node = count++;
    const row = node * FIELDS;
    const c = text.charCodeAt(pos);
    nodes[row + KEY_START] = key;
    nodes[row + KEY_END] = keyEnd;
    nodes[row + KEY_BYTES] = keyBytes;
    nodes[row + AFTER] = node + 1;
    key = -1;
    if (c === 0x7b || c === 0x5b) {
      nodes[row + KIND] = c === 0x7b ? OBJECT : ARRAY;
      nodes[row + START] = nodes[row + END] = pos;
      pos = jsonSpaceEnd(text, pos + 1);
      // `}` and `]` are two code points after `{` and `[`.
      if (text.charCodeAt(pos) === c + 2) {
        pos++;
        nodes[row + FULL] = 2;
      } else {
        open.push(node);
        openFull.push(1);
        if (c === 0x7b) {
          key = pos;
          pos = readKey(text, pos);
          if (pos < 0) return undefined;
          keyEnd = scannedKeyEnd;
          keyBytes = scanned + 2;
        }
        continue;
      }
    } else if (c === 0x22) {
      const close = scanString(text, pos);
      if (close < 0) return undefined;
      nodes[row + KIND] = STRING;
      nodes[row + START] = pos + 1;
      nodes[row + END] = close;
      nodes[row + SIZE] = scanned;
      nodes[row + FULL] = scanned + 2;
      if (scanned > maxStringBytes) maxStringBytes = scanned;
      pos = close + 1;
    } else {
      let stop = -1;
      if (text.startsWith("true", pos)) stop = pos + 4;
      else if (text.startsWith("false", pos)) stop = pos + 5;
      else if (text.startsWith("null", pos)) stop = pos + 4;
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) stop = jsonNumberEnd(text, pos);
      if (stop < 0) return undefined;
      nodes[row + KIND] = LITERAL;
      nodes[row + START] = pos;
      nodes[row + END] = stop;
      nodes[row + SIZE] = nodes[row + FULL] = stop - pos;
      pos = stop;
    }
    // After a value: a comma, or the end of its container (and maybe of theirs).
    let done = node;
    for (;;) {
      pos = jsonSpaceEnd(text, pos);
      const top = open.length - 1;
      const parent = open[top];
      if (parent === undefined) return pos === n ? { text, nodes, maxItems, maxStringBytes } : undefined;
      const members = (nodes[parent * FIELDS + SIZE] as number) + 1;
      nodes[parent * FIELDS + SIZE] = members;
      const d = text.charCodeAt(pos);
      const object = nodes[parent * FIELDS + KIND] === OBJECT;
      // The member's line: separator, indentation, key, value.
      const line = (members > 1 ? 2 : 1) + 2 * (top + 1) + (object ? (nodes[done * FIELDS + KEY_BYTES] as number) + 2 : 0) + (nodes[done * FIELDS + FULL] as number);
      openFull[top] = Math.min((openFull[top] as number) + line, FULL_MAX);
      if (d === 0x2c) {
        pos = jsonSpaceEnd(text, pos + 1);
        if (object) {
          key = pos;
          pos = readKey(text, pos);
          if (pos < 0) return undefined;
          keyEnd = scannedKeyEnd;
          keyBytes = scanned + 2;
        }
        break;
      }
      if (d !== (object ? 0x7d : 0x5d)) return undefined;
      pos++;
      nodes[parent * FIELDS + AFTER] = count;
      nodes[parent * FIELDS + FULL] = Math.min((openFull[top] as number) + 2 + 2 * top, FULL_MAX);
      if (!object && members > maxItems) maxItems = members;
      open.pop();
      openFull.pop();
      done = parent;
    }
  }
}
