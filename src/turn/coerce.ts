/**
 * PromptKit's argument coercion (`CoerceArgs` in `runtime/tools/validator.go`,
 * runtime/v1.5.5), which runs before validation for every tool call.
 *
 * Contract: `coerceArguments(schemaJson, argsText)` returns a
 * {@link CoercionResult}. `text` is what validation and the executor get:
 * Go's re-encoding of the coerced arguments when at least one coercion was
 * applied and kept (`changed`), else `argsText` untouched. `aborted` says
 * that a conversion failed (or produced ±Inf/NaN), in which case every change
 * was discarded and `text` is `argsText`.
 *
 * The rules:
 *
 * - Nothing happens without a schema, when the schema's narrow view (below)
 *   cannot be read or declares no properties, or when the arguments are not
 *   a JSON object (`null`, an array, a string, invalid JSON, trailing text).
 * - The narrow view is what Go's `encoding/json` reads into
 *   `{properties: {<name>: {type: string, enum: [string], items: {type:
 *   string}}}, required: [string]}`: keys match case-insensitively (`Type`,
 *   `PROPERTIES`), the later spelling wins and two `properties` spellings
 *   merge, `null` is accepted anywhere in the view, and any other mismatching
 *   value in it (a type list, a number in `enum`, tuple `items`, a boolean
 *   property schema) switches coercion off for every property.
 * - Phase 1, properties not listed in `required`: `null` is removed; `""` is
 *   removed unless the type is `string` without an `enum`.
 * - Phase 2, declared properties still present: a string is converted by the
 *   declared type (`integer`: a base-10 int64, else a Go float literal with a
 *   whole value; `number`: a Go float literal; `boolean`: Go's `ParseBool`
 *   forms, else `yes`/`no` trimmed and case-insensitive; `object`: JSON
 *   object text or `null`; `array`: JSON array text or `null`, else a
 *   one-element array of the string). Any failure but `array`'s aborts the
 *   whole coercion. A `string` with an `enum` is trimmed (Go's
 *   `strings.TrimSpace`) to an exact entry, else matched to the only entry
 *   equal under Go's `strings.EqualFold`. The number `0`/`1` becomes
 *   `false`/`true` for `boolean`. String elements of an array whose
 *   `items.type` is set and not `string` are converted by that type; an
 *   element that does not convert is left as it is.
 *
 * One deliberate divergence: a whole float outside the int64 range (`"1e20"`,
 * `"inf"`, `"9223372036854775808"`) for `integer` is a conversion error here
 * (the coercion aborts; as an array element, the element stays a string).
 * Go converts it with an architecture-dependent float-to-int64 conversion:
 * `-9223372036854775808` on amd64, a saturated value on arm64.
 *
 * One known gap: in a schema text that repeats a key of the narrow view
 * around another spelling of it (`{"type":"a","Type":"b","type":"c"}`), Go
 * reads `c` and this reads `b`. Go's own re-encoding of a schema, which is
 * what Omnia hands PromptKit, never repeats a key.
 * @packageDocumentation
 */
import { goJsonDecode, goJsonEncode, type GoJsonDecoded, type GoJsonValue, type JsonValue } from "../core/index.js";
import { GoNumber, type JNode } from "./schema-json.js";

/**
 * What argument coercion hands on.
 * @internal Does not follow semver.
 */
export interface CoercionResult {
  /** The bytes to validate and send: Go's re-encoding when `changed`, else the model's bytes untouched. */
  readonly text: string;
  /** At least one coercion was applied and kept. */
  readonly changed: boolean;
  /** A conversion failed (or produced ±Inf/NaN): every change was discarded. */
  readonly aborted: boolean;
}

/**
 * Coerces a tool call's arguments to the declared types, as PromptKit's
 * `CoerceArgs` does (see the module comment for every rule). `schemaJson` is
 * the tool's input schema text (Go's re-encoding of it in Omnia), `argsText`
 * the model's arguments; `decodedArgs`, when given, is `goJsonDecode(argsText)`,
 * which the coercion then changes in place (pass a value nothing else reads
 * afterwards). Linear in its inputs; never throws.
 * @internal Does not follow semver.
 */
export function coerceArguments(schemaJson: string | undefined, argsText: string, decodedArgs?: GoJsonDecoded): CoercionResult {
  const unchanged: CoercionResult = { text: argsText, changed: false, aborted: false };
  if (schemaJson === undefined || schemaJson === "") return unchanged;
  const view = schemaView(schemaJson);
  if (view === undefined) return unchanged;
  const decoded = decodedArgs ?? goJsonDecode(argsText);
  if (!decoded.ok) return unchanged;
  const data = decoded.value;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return unchanged;
  const args = data as { [key: string]: GoJsonValue };
  const { properties, required } = view;
  let coercions = 0;

  // Phase 1: strip null, and "" where it cannot be meant, from optional properties.
  for (const [key, prop] of properties) {
    if (!Object.hasOwn(args, key) || required.has(key)) continue;
    const value = args[key];
    if (value === null || (value === "" && (prop.type !== "string" || prop.enum.length > 0))) {
      delete args[key];
      coercions++;
    }
  }

  // Phase 2: conversions of the declared properties still present.
  for (const [key, prop] of properties) {
    if (!Object.hasOwn(args, key)) continue;
    const value = args[key];
    if (typeof value === "string") {
      const converted = convertString(value, prop.type);
      if (converted === FAILED) return { text: argsText, changed: false, aborted: true };
      if (converted !== NONE) {
        args[key] = converted;
        coercions++;
      }
      if (prop.type === "string" && prop.enum.length > 0) {
        const normalised = normaliseEnum(value, prop.entries);
        if (normalised !== undefined) {
          args[key] = normalised;
          coercions++;
        }
      }
      continue;
    }
    if (typeof value === "number" && prop.type === "boolean" && (value === 0 || value === 1)) {
      args[key] = value === 1;
      coercions++;
    }
    if (Array.isArray(value) && prop.type === "array" && prop.items.type !== "" && prop.items.type !== "string") {
      const elements = convertElements(value as readonly GoJsonValue[], prop.items.type);
      if (elements !== undefined) {
        args[key] = elements;
        coercions++;
      }
    }
  }

  if (coercions === 0) return unchanged;
  const text = goJsonEncode(args);
  return text === undefined ? { text: argsText, changed: false, aborted: true } : { text, changed: true, aborted: false };
}

/**
 * Whether {@link coerceArguments} may change anything for arguments whose
 * first JSON value is `value` (as `readGoJson(argsText, "decoder")` reads
 * it): false means it certainly returns the text unchanged, so the caller
 * can skip it and its decoding. True when an optional declared property is
 * `null` or an `""` it would remove, or a declared property holds a string
 * its type converts, an enum string that normalises, a number for a
 * `boolean`, or an array whose items' type converts strings. Never throws.
 * @internal Does not follow semver.
 */
export function coercionPossible(schemaJson: string, value: JNode): boolean {
  if (!(value instanceof Map)) return false;
  const view = schemaView(schemaJson);
  if (view === undefined) return false;
  for (const [key, prop] of view.properties) {
    if (!value.has(key)) continue;
    const v = value.get(key);
    if (!view.required.has(key) && (v === null || (v === "" && (prop.type !== "string" || prop.enum.length > 0)))) return true;
    if (typeof v === "string") {
      if (CONVERTED_TYPES.has(prop.type)) return true;
      if (prop.type === "string" && prop.enum.length > 0 && normaliseEnum(v, prop.entries) !== undefined) return true;
    } else if (v instanceof GoNumber) {
      if (prop.type === "boolean") return true;
    } else if (Array.isArray(v) && prop.type === "array" && prop.items.type !== "" && prop.items.type !== "string") return true;
  }
  return false;
}

/** The declared types {@link convertString} converts a string for. */
const CONVERTED_TYPES: ReadonlySet<string> = new Set(["integer", "number", "boolean", "object", "array"]);

// ---------------------------------------------------------------------------
// The narrow view, read with Go's encoding/json rules

/** A Go `[]string` being decoded into: its backing array outlives its length. */
interface GoSlice {
  backing: string[];
  length: number;
}

interface PropView {
  type: string;
  readonly enum: GoSlice;
  readonly items: { type: string };
}

interface SchemaView {
  properties: Map<string, PropView> | null;
  readonly required: GoSlice;
}

/** What coercion reads of a schema: the declared properties (with their enum entries) and the required names. */
interface CoercionView {
  readonly properties: ReadonlyMap<string, PropView & { readonly entries: readonly string[] }>;
  readonly required: ReadonlySet<string>;
}

/** Schema views kept, least recently used first out (the validator's compiled-schema cache holds as many). */
const VIEW_CACHE_SIZE = 128;
const views = new Map<string, CoercionView | undefined>();
let lastView: { readonly text: string | undefined; readonly view: CoercionView | undefined } = { text: undefined, view: undefined };

/**
 * The coercion view of a schema text, read once per text (a bounded cache:
 * reading is deterministic, so the cache changes only the cost of a call);
 * undefined when coercion does nothing for the schema (it cannot be read, or
 * declares no properties).
 */
function schemaView(schemaJson: string): CoercionView | undefined {
  // The most recently used view is the map's last entry already: a hit on it moves nothing.
  if (schemaJson === lastView.text) return lastView.view;
  if (views.has(schemaJson)) {
    const hit = views.get(schemaJson);
    views.delete(schemaJson);
    views.set(schemaJson, hit);
    lastView = { text: schemaJson, view: hit };
    return hit;
  }
  const read = readSchemaView(schemaJson);
  let view: CoercionView | undefined;
  if (read !== undefined && read.properties !== null && read.properties.size > 0) {
    const properties = new Map<string, PropView & { readonly entries: readonly string[] }>();
    for (const [name, prop] of read.properties) properties.set(name, { ...prop, entries: sliceValues(prop.enum) });
    view = { properties, required: new Set(sliceValues(read.required)) };
  }
  if (views.size >= VIEW_CACHE_SIZE) {
    const oldest = views.keys().next();
    if (oldest.done !== true) views.delete(oldest.value);
  }
  views.set(schemaJson, view);
  lastView = { text: schemaJson, view };
  return view;
}

/** The slice's visible elements. */
function sliceValues(slice: GoSlice): string[] {
  return slice.backing.slice(0, slice.length);
}

type Obj = { readonly [key: string]: JsonValue };

function isObject(v: JsonValue | undefined): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The field a JSON key decodes into: an exact name, else the name equal under
 * Go's key folding (upper-casing: ASCII letters, `ı` to `I` and `ſ` to `S`,
 * the only non-ASCII letters whose upper case is ASCII).
 */
function fieldOf<F extends string>(key: string, fields: readonly F[]): F | undefined {
  for (const f of fields) if (key === f) return f;
  if (key.length > 10) return undefined;
  const folded = foldKey(key);
  for (const f of fields) if (folded === f.toUpperCase()) return f;
  return undefined;
}

function foldKey(key: string): string {
  let out = "";
  for (const ch of key) {
    if (ch === "ı") out += "I";
    else if (ch === "ſ") out += "S";
    else out += ch < "\u0080" ? ch.toUpperCase() : ch;
  }
  return out;
}

const TOP_FIELDS = ["properties", "required"] as const;
const PROP_FIELDS = ["type", "enum", "items"] as const;
const ITEMS_FIELDS = ["type"] as const;

/** Reads the schema as Go decodes it into PromptKit's `parsedSchema`; undefined where Go reports an error. */
function readSchemaView(schemaJson: string): SchemaView | undefined {
  const decoded = goJsonDecode(schemaJson, { allowOverflow: true });
  if (!decoded.ok) return undefined;
  const view: SchemaView = { properties: null, required: { backing: [], length: 0 } };
  const root = decoded.value;
  if (root === null) return view;
  if (!isObject(root)) return undefined;
  for (const key of Object.keys(root)) {
    const field = fieldOf(key, TOP_FIELDS);
    const value = root[key] as JsonValue;
    if (field === "required") {
      if (!decodeSlice(value, view.required)) return undefined;
    } else if (field === "properties") {
      if (value === null) {
        view.properties = null;
        continue;
      }
      if (!isObject(value)) return undefined;
      view.properties ??= new Map();
      for (const name of Object.keys(value)) {
        const prop: PropView = { type: "", enum: { backing: [], length: 0 }, items: { type: "" } };
        if (!decodeProp(value[name] as JsonValue, prop)) return undefined;
        view.properties.set(name, prop);
      }
    }
  }
  return view;
}

function decodeProp(value: JsonValue, prop: PropView): boolean {
  if (value === null) return true;
  if (!isObject(value)) return false;
  for (const key of Object.keys(value)) {
    const field = fieldOf(key, PROP_FIELDS);
    const v = value[key] as JsonValue;
    if (field === "type") {
      if (v === null) continue;
      if (typeof v !== "string") return false;
      prop.type = v;
    } else if (field === "enum") {
      if (!decodeSlice(v, prop.enum)) return false;
    } else if (field === "items") {
      if (v === null) continue;
      if (!isObject(v)) return false;
      for (const k of Object.keys(v)) {
        if (fieldOf(k, ITEMS_FIELDS) === undefined) continue;
        const t = v[k] as JsonValue;
        if (t === null) continue;
        if (typeof t !== "string") return false;
        prop.items.type = t;
      }
    }
  }
  return true;
}

/**
 * Decodes a JSON array into a Go `[]string` the way `encoding/json` does:
 * `null` resets the slice to nil; an array overwrites the elements in place,
 * a `null` element keeping what the backing array held there.
 */
function decodeSlice(value: JsonValue, slice: GoSlice): boolean {
  if (value === null) {
    slice.backing = [];
    slice.length = 0;
    return true;
  }
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const element = value[i] as JsonValue;
    if (i >= slice.backing.length) slice.backing.push("");
    if (element === null) continue;
    if (typeof element !== "string") return false;
    slice.backing[i] = element;
  }
  slice.length = value.length;
  return true;
}

// ---------------------------------------------------------------------------
// Conversions

const FAILED: unique symbol = Symbol("failed");
const NONE: unique symbol = Symbol("none");

/** Converts a string by the declared type: the value, FAILED (aborts the coercion) or NONE (no conversion for the type). */
function convertString(s: string, type: string): GoJsonValue | typeof FAILED | typeof NONE {
  switch (type) {
    case "integer":
      return toInteger(s) ?? FAILED;
    case "number": {
      const f = parseGoFloat(s);
      return f === undefined ? FAILED : f;
    }
    case "boolean":
      return toBoolean(s) ?? FAILED;
    case "object": {
      const decoded = goJsonDecode(s);
      if (!decoded.ok) return FAILED;
      return decoded.value === null || isObject(decoded.value) ? decoded.value : FAILED;
    }
    case "array": {
      const decoded = goJsonDecode(s);
      return decoded.ok && (decoded.value === null || Array.isArray(decoded.value)) ? decoded.value : [s];
    }
    default:
      return NONE;
  }
}

/** Converts the string elements of an array; undefined when none converted. */
function convertElements(items: readonly GoJsonValue[], type: string): GoJsonValue[] | undefined {
  let changed = false;
  const out = items.map((element) => {
    if (typeof element !== "string") return element;
    const converted = convertString(element, type);
    if (converted === FAILED || converted === NONE) return element;
    changed = true;
    return converted;
  });
  return changed ? out : undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TWO_63 = 2 ** 63;

/**
 * `strconv.ParseInt(s, 10, 64)`, else `strconv.ParseFloat(s, 64)` with a
 * whole value inside the int64 range (see the module comment for the range).
 */
function toInteger(s: string): bigint | undefined {
  const exact = parseInt64(s);
  if (exact !== undefined) return exact;
  const f = parseGoFloat(s);
  if (f === undefined || f !== Math.trunc(f)) return undefined; // NaN fails here too
  if (!(f >= -TWO_63 && f < TWO_63)) return undefined;
  return BigInt(f);
}

/** `strconv.ParseInt(s, 10, 64)`: an optional sign and decimal digits, in range. */
function parseInt64(s: string): bigint | undefined {
  let i = s.charCodeAt(0) === 0x2b || s.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i === s.length) return undefined;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  while (i < s.length - 1 && s.charCodeAt(i) === 0x30) i++;
  if (s.length - i > 19) return undefined;
  const magnitude = BigInt(s.slice(i));
  const v = s.charCodeAt(0) === 0x2d ? -magnitude : magnitude;
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/** `strconv.ParseBool`, else `yes`/`no` after Go's `TrimSpace`, any case. */
function toBoolean(s: string): boolean | undefined {
  switch (s) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true;
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
      return false;
  }
  const word = goTrimSpace(s);
  // Go lower-cases with unicode.ToLower; no non-ASCII rune lower-cases to y, e, s, n or o.
  if (word.length === 3 && word.toLowerCase() === "yes" && /^[a-z]+$/i.test(word)) return true;
  if (word.length === 2 && word.toLowerCase() === "no" && /^[a-z]+$/i.test(word)) return false;
  return undefined;
}

/**
 * PromptKit's `normalizeEnum`: the trimmed value when it equals an entry and
 * differs from the value; else the one entry equal to it under Go's
 * `strings.EqualFold`; else undefined (no change).
 */
function normaliseEnum(value: string, entries: readonly string[]): string | undefined {
  const trimmed = goTrimSpace(value);
  if (entries.includes(trimmed)) return trimmed !== value ? trimmed : undefined;
  let match: string | undefined;
  let count = 0;
  for (const e of entries) {
    if (goEqualFold(e, trimmed)) {
      match = e;
      count++;
    }
  }
  return count === 1 ? match : undefined;
}

/** Go's `unicode.IsSpace`. */
function isGoSpace(c: number): boolean {
  if (c <= 0xa0) return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Go's `strings.TrimSpace` (no U+FEFF, no U+200B, but U+0085). */
function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * Go's `strings.EqualFold`: equal rune by rune under simple Unicode case
 * folding. A rune's fold class is found through its single-rune upper then
 * lower case (`ſ` → `S` → `s`, the Kelvin sign → `k`); a rune whose case
 * mapping is several runes (`ß` → `SS`) keeps itself, as simple folding does.
 */
function goEqualFold(a: string, b: string): boolean {
  if (a === b) return true;
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done === true || q.done === true) return p.done === true && q.done === true;
    if (p.value !== q.value && foldRune(p.value) !== foldRune(q.value)) return false;
  }
}

function foldRune(ch: string): string {
  if (ch < "\u0080") return ch.toLowerCase();
  const upper = single(ch.toUpperCase()) ?? ch;
  return single(upper.toLowerCase()) ?? upper;
}

/** The string when it is exactly one code point. */
function single(s: string): string | undefined {
  const cp = s.codePointAt(0);
  return cp !== undefined && s.length === (cp > 0xffff ? 2 : 1) ? s : undefined;
}

// ---------------------------------------------------------------------------
// strconv.ParseFloat(s, 64)

/**
 * Go's `strconv.ParseFloat(s, 64)`: the float64, or undefined for a syntax
 * error or a value beyond float64's range. Accepts `inf`, `infinity` (with a
 * sign) and `nan` in any case; decimal literals with an optional exponent;
 * hexadecimal literals with a mandatory `p` exponent; `_` between digits.
 * As in Go, an exponent's digits stop counting once its value reaches 10000
 * (`1e-99999999` reads as `1e-99999`).
 */
function parseGoFloat(s: string): number | undefined {
  if (s.length <= 9) {
    switch (s.toLowerCase()) {
      case "inf":
      case "+inf":
      case "infinity":
      case "+infinity":
        return Infinity;
      case "-inf":
      case "-infinity":
        return -Infinity;
      case "nan":
        return NaN;
    }
  }
  const n = s.length;
  let i = 0;
  let negative = false;
  if (s[0] === "+" || s[0] === "-") {
    negative = s[0] === "-";
    i = 1;
  }
  let hex = false;
  if (i + 2 < n && s[i] === "0" && (s[i + 1] === "x" || s[i + 1] === "X")) {
    hex = true;
    i += 2;
  }
  const mantissaStart = i;
  let underscores = false;
  let sawDot = false;
  let sawDigits = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5f) underscores = true;
    else if (c === 0x2e) {
      if (sawDot) break;
      sawDot = true;
    } else if ((c >= 0x30 && c <= 0x39) || (hex && ((c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)))) sawDigits = true;
    else break;
  }
  if (!sawDigits) return undefined;
  const mantissaEnd = i;
  let exponent = 0;
  if (i < n && (s[i] === (hex ? "p" : "e") || s[i] === (hex ? "P" : "E"))) {
    i++;
    if (i >= n) return undefined;
    let sign = 1;
    if (s[i] === "+" || s[i] === "-") {
      sign = s[i] === "-" ? -1 : 1;
      i++;
    }
    if (i >= n || s.charCodeAt(i) < 0x30 || s.charCodeAt(i) > 0x39) return undefined;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x5f) underscores = true;
      else if (c >= 0x30 && c <= 0x39) {
        if (exponent < 10000) exponent = exponent * 10 + (c - 0x30);
      } else break;
    }
    exponent *= sign;
  } else if (hex) {
    return undefined;
  }
  if (i !== n) return undefined;
  if (underscores && !underscoreOk(s)) return undefined;
  let value: number;
  if (hex) {
    const v = hexFloat(s.slice(mantissaStart, mantissaEnd), exponent);
    if (v === undefined) return undefined;
    value = negative ? -v : v;
  } else {
    // With Go's exponent (saturated while read), not the literal's: Go's value
    // for `1<200000 zeros>e-200000` is +Inf, not 1.
    const mantissa = s.slice(0, mantissaEnd);
    value = Number(`${underscores ? mantissa.replaceAll("_", "") : mantissa}e${exponent}`);
  }
  return Number.isFinite(value) ? value : undefined;
}

/** Go's `underscoreOK`: every `_` sits between digits, or after a base prefix and before a digit. */
function underscoreOk(s: string): boolean {
  let saw = "^";
  let i = 0;
  if (s[0] === "+" || s[0] === "-") i = 1;
  let hex = false;
  if (s.length - i >= 2 && s[i] === "0" && "bBoOxX".includes(s[i + 1] as string)) {
    hex = s[i + 1] === "x" || s[i + 1] === "X";
    i += 2;
    saw = "0";
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (hex && ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) {
      saw = "0";
      continue;
    }
    if (c === 0x5f) {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}

/**
 * The float64 nearest (ties to even) to the hexadecimal mantissa `digits`
 * (hex digits, an optional `.`, `_`) times 2^`exponent`; undefined when it
 * rounds beyond float64's range. Keeps 16 significant digits and a sticky
 * bit for the rest, as Go's parser does.
 */
function hexFloat(digits: string, exponent: number): number | undefined {
  let mantissa = 0n;
  let kept = 0;
  let sticky = false;
  let scale = 0; // power of 16 applied to the kept digits
  let afterDot = false;
  for (const ch of digits) {
    if (ch === "_") continue;
    if (ch === ".") {
      afterDot = true;
      continue;
    }
    const d = Number.parseInt(ch, 16);
    if (kept === 0 && d === 0) {
      if (afterDot) scale--;
      continue;
    }
    if (kept < 16) {
      mantissa = mantissa * 16n + BigInt(d);
      kept++;
      if (afterDot) scale--;
    } else {
      if (d !== 0) sticky = true;
      if (!afterDot) scale++;
    }
  }
  if (mantissa === 0n) return 0;
  const e2 = exponent + 4 * scale;
  const bits = mantissa.toString(2).length;
  if (e2 + bits - 1 > 1023) return undefined;
  const lsb = Math.max(e2 + bits - 53, -1074);
  const shift = lsb - e2;
  let m: bigint;
  if (shift <= 0) {
    m = mantissa << BigInt(-shift);
  } else if (shift > bits + 1) {
    return 0;
  } else {
    const s = BigInt(shift);
    m = mantissa >> s;
    const rest = mantissa & ((1n << s) - 1n);
    const half = 1n << (s - 1n);
    if (rest > half || (rest === half && (sticky || (m & 1n) === 1n))) m += 1n;
  }
  const v = Number(m) * 2 ** lsb;
  return Number.isFinite(v) ? v : undefined;
}
