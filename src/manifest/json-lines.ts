// Line lookup for JSON text parsed with JSON.parse: a scan of the text itself,
// so that an issue in a large JSON manifest never sends it through the YAML
// parser (which costs seconds and far more memory than the text).
import type { PathSegment } from "./issues.js";

/**
 * Returns a lookup from a path to the 1-based line of the value at that path,
 * or of its nearest existing ancestor (what the YAML parser's node ranges
 * gave). `text` must be text that `JSON.parse` accepted. Each lookup scans only
 * up to the value it finds, skipping every value before it without recursion,
 * so text nested deeply costs no stack.
 */
export function jsonLineLookup(text: string): (path: readonly PathSegment[]) => number | undefined {
  let newlines: number[] | undefined;
  const lineOfOffset = (offset: number): number => {
    if (newlines === undefined) {
      newlines = [];
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) newlines.push(i);
    }
    // Lines before `offset` = newlines at positions < offset.
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((newlines[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  return (path) => lineOfOffset(locate(text, path));
}

/** The offset of the value at `path`, or of the deepest ancestor that exists. */
function locate(text: string, path: readonly PathSegment[]): number {
  let at = skipSpace(text, 0);
  for (const segment of path) {
    const child = childOffset(text, at, segment);
    if (child === -1) return at;
    at = child;
  }
  return at;
}

/** The offset of the value of `segment` in the container starting at `at`, or -1. */
function childOffset(text: string, at: number, segment: PathSegment): number {
  const open = text.charCodeAt(at);
  if (open === 0x7b /* { */ && typeof segment === "string") {
    let i = skipSpace(text, at + 1);
    while (text.charCodeAt(i) === 0x22 /* " */) {
      const keyEnd = stringEnd(text, i);
      const raw = text.slice(i + 1, keyEnd - 1);
      const key = raw.includes("\\") ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
      i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the ':'
      if (key === segment) return i;
      i = skipSpace(text, valueEnd(text, i));
      if (text.charCodeAt(i) !== 0x2c /* , */) return -1;
      i = skipSpace(text, i + 1);
    }
    return -1;
  }
  if (open === 0x5b /* [ */ && typeof segment === "number") {
    let i = skipSpace(text, at + 1);
    if (text.charCodeAt(i) === 0x5d /* ] */) return -1;
    for (let index = 0; ; index++) {
      if (index === segment) return i;
      i = skipSpace(text, valueEnd(text, i));
      if (text.charCodeAt(i) !== 0x2c) return -1;
      i = skipSpace(text, i + 1);
    }
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** The offset just past the string literal starting at `i`. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const quote = text.indexOf('"', j);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    j = quote + 1;
  }
}

/** The offset just past the value starting at `i` (iterative: depth is a counter, not the stack). */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === 0x22) return stringEnd(text, i);
  if (first !== 0x7b && first !== 0x5b) {
    let j = i;
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c) || c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return j;
      j++;
    }
  }
  let depth = 0;
  for (let j = i; j < text.length; ) {
    const c = text.charCodeAt(j);
    if (c === 0x22) {
      j = stringEnd(text, j);
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return text.length;
}
