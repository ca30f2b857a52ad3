// Compiles a JSON Schema the way gojsonschema v1.2.0 does (schema.go
// parseSchema, draft.go, schemaPool.go): the hybrid draft 4/6/7 keyword set
// unless `$schema` names draft 4, 6 or 7, the same structural checks in the
// same order, and the same compile messages. Local `$ref`s (JSON pointers into
// the document) resolve; remote ones are never fetched.

import { compareUtf8, goJsonMarshal, goJsonString } from "../core/index.js";
import { GoNumber, readGoJson, type JNode, type JObject } from "./schema-json.js";
import { formatBigFloat, parseDec, type Dec } from "./schema-number.js";
import { compileGoRegexp, type GoRegexp } from "./schema-regex.js";
import { isKnownFormat } from "./schema-format.js";
import { META_SCHEMAS } from "./schema-meta.js";

/** A numeric bound: its exact value and its text in messages. @internal */
export interface Bound {
  readonly dec: Dec;
  readonly text: string;
}

/** One compiled (sub)schema, gojsonschema's subSchema. @internal */
export interface SubSchema {
  pass: boolean | undefined;
  refSchema: SubSchema | undefined;
  types: string[];
  typesText: string;
  properties: [string, SubSchema][];
  propertyNames: Set<string>;
  additionalProperties: boolean | SubSchema | undefined;
  /** Each key's regexp, its schema, and the key itself (named when a match runs out of budget). */
  patternProperties: [GoRegexp, SubSchema, string][] | undefined;
  propertyNamesSchema: SubSchema | undefined;
  dependencies: Map<string, string[] | SubSchema> | undefined;
  items: SubSchema[];
  itemsSingle: boolean;
  additionalItems: boolean | SubSchema | undefined;
  multipleOf: Bound | undefined;
  maximum: Bound | undefined;
  exclusiveMaximum: Bound | undefined;
  minimum: Bound | undefined;
  exclusiveMinimum: Bound | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  pattern: GoRegexp | undefined;
  patternText: string;
  format: string;
  formatKnown: boolean;
  minProperties: number | undefined;
  maxProperties: number | undefined;
  required: string[];
  minItems: number | undefined;
  maxItems: number | undefined;
  uniqueItems: boolean;
  contains: SubSchema | undefined;
  constValue: string | undefined;
  enumValues: string[];
  enumSet: Set<string>;
  enumText: string;
  /** The enum's string entries as decoded text. */
  enumStrings: Set<string>;
  /** multipleOf or a bound is set. */
  hasNumberChecks: boolean;
  /** anyOf, oneOf, allOf, not, dependencies or if is set. */
  hasCombinators: boolean;
  oneOf: SubSchema[];
  anyOf: SubSchema[];
  allOf: SubSchema[];
  not: SubSchema | undefined;
  ifSchema: SubSchema | undefined;
  thenSchema: SubSchema | undefined;
  elseSchema: SubSchema | undefined;
}

/** The outcome of compiling a schema text. @internal */
export type Compiled = { readonly ok: true; readonly root: SubSchema } | { readonly ok: false; readonly message: string };

const DRAFT4 = 4;
const DRAFT6 = 6;
const DRAFT7 = 7;
const HYBRID = 2147483647;

/** Deeper schemas are refused: compiling them would exhaust the stack. @internal */
export const MAX_SCHEMA_DEPTH = 512;

const JSON_TYPES = ["array", "boolean", "integer", "number", "null", "object", "string"];

class CompileError extends Error {}

function fail(message: string): never {
  throw new CompileError(message);
}

function isMap(v: JNode | undefined): v is JObject {
  return v instanceof Map;
}

function isBool(v: JNode | undefined): v is boolean {
  return typeof v === "boolean";
}

function canonicalNumber(n: GoNumber): string {
  const f = Number(n.text);
  if (!Number.isFinite(f)) throw new CompileError(`json: cannot unmarshal number ${n.text} into Go value of type float64`);
  return goJsonMarshal(f);
}

/**
 * Go's marshalWithoutNumber: the value as Go re-encodes it after a round
 * trip through float64 (sorted keys, Go escaping). Iterative, so that the
 * deepest value the reader accepts cannot exhaust the stack.
 * @internal
 */
export function canonicalJson(v: JNode): string {
  if (typeof v === "string") return goJsonString(v);
  if (v instanceof GoNumber) return canonicalNumber(v);
  if (!(v instanceof Map) && !Array.isArray(v)) return v === null ? "null" : v ? "true" : "false";
  let out = "";
  // Work items: a value to write, or literal text (a separator or a closing bracket).
  const stack: ({ readonly text: string } | { readonly value: JNode })[] = [{ value: v }];
  while (stack.length > 0) {
    const item = stack.pop() as { readonly text: string } | { readonly value: JNode };
    if ("text" in item) {
      out += item.text;
      continue;
    }
    const x = item.value;
    if (typeof x === "string") out += goJsonString(x);
    else if (x instanceof GoNumber) out += canonicalNumber(x);
    else if (x === null) out += "null";
    else if (typeof x === "boolean") out += x ? "true" : "false";
    else if (Array.isArray(x)) {
      out += "[";
      stack.push({ text: "]" });
      for (let i = x.length - 1; i >= 0; i--) {
        stack.push({ value: x[i] as JNode });
        if (i > 0) stack.push({ text: "," });
      }
    } else {
      out += "{";
      stack.push({ text: "}" });
      const keys = [...x.keys()].sort(compareUtf8);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        stack.push({ value: x.get(k) as JNode });
        stack.push({ text: `${i > 0 ? "," : ""}${goJsonString(k)}:` });
      }
    }
  }
  return out;
}

function newSub(): SubSchema {
  return {
    pass: undefined,
    refSchema: undefined,
    types: [],
    typesText: "",
    properties: [],
    propertyNames: new Set(),
    additionalProperties: undefined,
    patternProperties: undefined,
    propertyNamesSchema: undefined,
    dependencies: undefined,
    items: [],
    itemsSingle: false,
    additionalItems: undefined,
    multipleOf: undefined,
    maximum: undefined,
    exclusiveMaximum: undefined,
    minimum: undefined,
    exclusiveMinimum: undefined,
    minLength: undefined,
    maxLength: undefined,
    pattern: undefined,
    patternText: "",
    format: "",
    formatKnown: false,
    minProperties: undefined,
    maxProperties: undefined,
    required: [],
    minItems: undefined,
    maxItems: undefined,
    uniqueItems: false,
    contains: undefined,
    constValue: undefined,
    enumValues: [],
    enumSet: new Set(),
    enumText: "",
    enumStrings: new Set(),
    hasNumberChecks: false,
    hasCombinators: false,
    oneOf: [],
    anyOf: [],
    allOf: [],
    not: undefined,
    ifSchema: undefined,
    thenSchema: undefined,
    elseSchema: undefined,
  };
}

function invalidType(expected: string, given: string): never {
  fail(`Invalid type. Expected: ${expected}, given: ${given}`);
}

function bound(v: JNode | undefined): Bound | undefined {
  if (!(v instanceof GoNumber)) return undefined;
  const dec = parseDec(v.text);
  return { dec, text: formatBigFloat(dec) };
}

/** gojsonschema's mustBeInteger: a whole json.Number that strconv.ParseInt accepts. */
function mustBeInteger(v: JNode | undefined): number | undefined {
  if (!(v instanceof GoNumber)) return undefined;
  if (!/^-?\d+$/.test(v.text)) return undefined;
  const n = BigInt(v.text);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return Number(n);
}

/** The draft named by `$schema` (exact http URLs of drafts 4, 6, 7, with or without `#`), or undefined. */
function detectDraft(doc: JNode): number | undefined {
  if (!isMap(doc) || !doc.has("$schema")) return undefined;
  const s = doc.get("$schema");
  if (typeof s !== "string") fail("$schema must be of type string");
  let url = s;
  const hash = url.indexOf("#");
  if (hash >= 0 && hash === url.length - 1) url = url.slice(0, -1);
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(url);
  if (m !== null) url = `${(m[1] as string).toLowerCase()}:${m[2] as string}`;
  switch (url) {
    case "http://json-schema.org/draft-04/schema":
      return DRAFT4;
    case "http://json-schema.org/draft-06/schema":
      return DRAFT6;
    case "http://json-schema.org/draft-07/schema":
      return DRAFT7;
    default:
      return undefined;
  }
}

/** The document a subschema lives in: refs without a URL resolve inside it. */
interface DocCtx {
  readonly doc: JNode;
  /** The document's URL without fragment ("" for the schema being compiled). */
  readonly base: string;
  readonly draft: number;
}

class Compiler {
  private readonly refs = new Map<string, SubSchema>();
  private readonly metas = new Map<string, DocCtx>();
  private draft: number;

  constructor(
    private readonly doc: JNode,
    rootDraft: number,
  ) {
    this.draft = rootDraft;
  }

  /** A $ref's target document, fragment and pool key, as gojsonschema's schema pool finds them. */
  private target(ref: string, dc: DocCtx): { ctx: DocCtx; fragment: string; key: string } {
    const hash = ref.indexOf("#");
    const base = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : ref.slice(hash + 1);
    if (base === "") return { ctx: dc, fragment, key: `${dc.base}#${fragment}` };
    let absolute = base;
    try {
      absolute = dc.base === "" ? base : new URL(base, dc.base).href;
    } catch {
      // keep it as written
    }
    const hashless = absolute.replace(/#.*$/s, "");
    const meta = META_SCHEMAS.get(hashless);
    if (meta !== undefined) {
      let ctx = this.metas.get(hashless);
      if (ctx === undefined) {
        const read = readGoJson(meta, "decoder");
        const doc = read.ok ? read.value : null;
        ctx = { doc, base: hashless, draft: detectDraft(doc) ?? this.draft };
        this.metas.set(hashless, ctx);
      }
      return { ctx, fragment, key: `${hashless}#${fragment}` };
    }
    if (dc.base === "" && this.isSelf(base)) return { ctx: dc, fragment, key: `#${fragment}` };
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(absolute)) fail(`Reference ${ref} is remote; remote references are not loaded`);
    fail(`Reference ${ref} must be canonical`);
  }

  /** Resolves a JSON pointer (the fragment, percent-decoded, ~1 and ~0 unescaped) in a document. */
  private resolve(ref: string, doc: JNode, fragmentText: string): JNode {
    let fragment = fragmentText;
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      fail(`parse "${ref}": invalid URL escape`);
    }
    if (fragment === "") return doc;
    if (!fragment.startsWith("/")) fail(`Object has no key '${fragment}'`);
    let node: JNode = doc;
    for (const token of fragment.slice(1).split("/")) {
      if (isMap(node)) {
        const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
        if (!node.has(key)) fail(`Object has no key '${key}'`);
        node = node.get(key) as JNode;
      } else if (Array.isArray(node)) {
        if (!/^[+-]?\d+$/.test(token)) fail(`Invalid array index '${token}'`);
        const idx = Number(token);
        if (idx < 0 || idx >= node.length) fail(`Out of bound array[0,${node.length}] index '${idx}'`);
        node = node[idx] as JNode;
      } else {
        fail(`Invalid token reference '${token}'`);
      }
    }
    return node;
  }

  /** Whether a reference's URL (without fragment) names this document through its root `$id`. */
  private isSelf(base: string): boolean {
    if (!isMap(this.doc)) return false;
    const id = this.doc.get("$id") ?? this.doc.get("id");
    if (typeof id !== "string") return false;
    try {
      const root = new URL(id);
      root.hash = "";
      const target = new URL(base, root);
      target.hash = "";
      return target.href === root.href;
    } catch {
      return false;
    }
  }

  parse(node: JNode | undefined, cur: SubSchema, depth: number, dc: DocCtx): void {
    if (depth > MAX_SCHEMA_DEPTH) fail(`schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const saved = this.draft;
    this.draft = dc.draft;
    try {
      this.parseNode(node, cur, depth, dc);
    } finally {
      this.draft = saved;
    }
  }

  private parseNode(node: JNode | undefined, cur: SubSchema, depth: number, dc: DocCtx): void {
    const draft = this.draft;
    if (draft >= DRAFT6 && isBool(node)) {
      cur.pass = node;
      return;
    }
    if (!isMap(node)) fail("Expected: valid schema, given: Invalid JSON");
    const m = node;
    const d = depth + 1;

    let keyId = draft === DRAFT4 ? "id" : "$id";
    if (draft === HYBRID && m.has("id")) keyId = "id";
    if (m.has(keyId) && typeof m.get(keyId) !== "string") invalidType("string", keyId);

    if (m.has("definitions")) {
      const defs = m.get("definitions");
      if (!isMap(defs)) invalidType("array of schemas", "definitions");
      for (const k of [...defs.keys()].sort(compareUtf8)) {
        const dv = defs.get(k);
        if (!isMap(dv) && !isBool(dv)) invalidType("array of schemas", "definitions");
        this.parse(dv, newSub(), d, dc);
      }
    }
    if (m.has("title") && typeof m.get("title") !== "string") invalidType("string", "title");
    if (m.has("description") && typeof m.get("description") !== "string") invalidType("string", "description");
    if (m.has("$ref") && typeof m.get("$ref") !== "string") invalidType("string", "$ref");
    const ref = m.get("$ref");
    if (typeof ref === "string") {
      const where = this.target(ref, dc);
      const pooled = this.refs.get(where.key);
      if (pooled !== undefined) {
        cur.refSchema = pooled;
      } else {
        const target = newSub();
        this.refs.set(where.key, target);
        const refd = this.resolve(ref, where.ctx.doc, where.fragment);
        if (!isMap(refd) && !isBool(refd)) fail("valid schema must be of type object");
        this.parse(refd, target, d, where.ctx);
        cur.refSchema = target;
        return;
      }
    }

    if (m.has("type")) {
      const t = m.get("type");
      const add = (name: string): void => {
        if (!JSON_TYPES.includes(name)) {
          fail(`has a primitive type that is NOT VALID -- given: /${name}/ Expected valid values are:[${JSON_TYPES.join(" ")}]`);
        }
        if (cur.types.includes(name)) fail(`${name} type is duplicated`);
        cur.types.push(name);
      };
      if (typeof t === "string") add(t);
      else if (Array.isArray(t)) {
        for (const x of t) {
          if (typeof x !== "string") invalidType("string/array of strings", "type");
          add(x);
        }
      } else invalidType("string/array of strings", "type");
      cur.typesText = cur.types.length > 1 ? `[${cur.types.join(",")}]` : (cur.types[0] ?? "");
    }

    if (m.has("properties")) {
      const props = m.get("properties");
      if (!isMap(props)) fail("properties must be of type object");
      for (const k of [...props.keys()].sort(compareUtf8)) {
        const child = newSub();
        cur.properties.push([k, child]);
        cur.propertyNames.add(k);
        this.parse(props.get(k), child, d, dc);
      }
    }

    if (m.has("additionalProperties")) {
      const ap = m.get("additionalProperties");
      if (isBool(ap)) cur.additionalProperties = ap;
      else if (isMap(ap)) {
        const child = newSub();
        cur.additionalProperties = child;
        this.parse(ap, child, d, dc);
      } else invalidType("boolean/valid schema", "additionalProperties");
    }

    if (m.has("patternProperties")) {
      const pp = m.get("patternProperties");
      if (!isMap(pp)) invalidType("valid schema", "patternProperties");
      if (pp.size > 0) {
        cur.patternProperties = [];
        for (const k of [...pp.keys()].sort(compareUtf8)) {
          const re = compileGoRegexp(k);
          if (re === undefined) fail(`Invalid regex pattern '${k}'`);
          const child = newSub();
          this.parse(pp.get(k), child, d, dc);
          cur.patternProperties.push([re, child, k]);
        }
      }
    }

    if (m.has("propertyNames") && draft >= DRAFT6) {
      const pn = m.get("propertyNames");
      if (!isMap(pn) && !isBool(pn)) invalidType("valid schema", "patternProperties");
      const child = newSub();
      cur.propertyNamesSchema = child;
      this.parse(pn, child, d, dc);
    }

    if (m.has("dependencies")) {
      const deps = m.get("dependencies");
      if (!isMap(deps)) fail("dependencies must be of type object");
      cur.dependencies = new Map();
      for (const k of [...deps.keys()].sort(compareUtf8)) {
        const dv = deps.get(k);
        if (Array.isArray(dv)) {
          const names: string[] = [];
          for (const x of dv) {
            if (typeof x !== "string") fail("dependency must be of type schema or array of strings");
            names.push(x);
            cur.dependencies.set(k, names);
          }
        } else if (isMap(dv) || isBool(dv)) {
          const child = newSub();
          this.parse(dv, child, d, dc);
          cur.dependencies.set(k, child);
        } else fail("dependency must be of type schema or array of strings");
      }
    }

    if (m.has("items")) {
      const items = m.get("items");
      if (Array.isArray(items)) {
        for (const it of items) {
          if (!isMap(it) && !isBool(it)) invalidType("valid schema/array of schemas", "items");
          const child = newSub();
          cur.items.push(child);
          this.parse(it, child, d, dc);
          cur.itemsSingle = false;
        }
      } else if (isMap(items) || isBool(items)) {
        const child = newSub();
        cur.items.push(child);
        this.parse(items, child, d, dc);
        cur.itemsSingle = true;
      } else invalidType("valid schema/array of schemas", "items");
    }

    if (m.has("additionalItems")) {
      const ai = m.get("additionalItems");
      if (isBool(ai)) cur.additionalItems = ai;
      else if (isMap(ai)) {
        const child = newSub();
        cur.additionalItems = child;
        this.parse(ai, child, d, dc);
      } else invalidType("boolean/valid schema", "additionalItems");
    }

    if (m.has("multipleOf")) {
      const b = bound(m.get("multipleOf"));
      if (b === undefined) invalidType("number", "multipleOf");
      if (b.dec.digits === "" || b.dec.neg) fail("multipleOf must be strictly greater than 0");
      cur.multipleOf = b;
    }
    if (m.has("minimum")) {
      const b = bound(m.get("minimum"));
      if (b === undefined) fail("minimum must be of a number");
      cur.minimum = b;
    }
    if (m.has("exclusiveMinimum")) {
      const [lower, exclusive] = this.exclusive(m.get("exclusiveMinimum"), cur.minimum, "exclusiveMinimum", "minimum");
      cur.minimum = lower;
      cur.exclusiveMinimum = exclusive;
    }
    if (m.has("maximum")) {
      const b = bound(m.get("maximum"));
      if (b === undefined) fail("maximum must be of a number");
      cur.maximum = b;
    }
    if (m.has("exclusiveMaximum")) {
      const [upper, exclusive] = this.exclusive(m.get("exclusiveMaximum"), cur.maximum, "exclusiveMaximum", "maximum");
      cur.maximum = upper;
      cur.exclusiveMaximum = exclusive;
    }

    cur.minLength = this.count(m, "minLength");
    cur.maxLength = this.count(m, "maxLength");
    if (cur.minLength !== undefined && cur.maxLength !== undefined && cur.minLength > cur.maxLength) {
      fail("minLength cannot be greater than maxLength");
    }

    if (m.has("pattern")) {
      const p = m.get("pattern");
      if (typeof p !== "string") fail("pattern must be of a string");
      const re = compileGoRegexp(p);
      if (re === undefined) fail("pattern must be a valid regex");
      cur.pattern = re;
      cur.patternText = p;
    }

    if (m.has("format")) {
      const f = m.get("format");
      if (typeof f !== "string") fail("format must be of type string");
      cur.format = f;
      cur.formatKnown = isKnownFormat(f);
    }

    cur.minProperties = this.count(m, "minProperties");
    cur.maxProperties = this.count(m, "maxProperties");
    if (cur.minProperties !== undefined && cur.maxProperties !== undefined && cur.minProperties > cur.maxProperties) {
      fail("minProperties cannot be greater than maxProperties");
    }

    if (m.has("required")) {
      const req = m.get("required");
      if (!Array.isArray(req)) fail("required must be of an array");
      for (const r of req) {
        if (typeof r !== "string") fail("required items must be string");
        if (cur.required.includes(r)) fail("required items must be unique");
        cur.required.push(r);
      }
    }

    cur.minItems = this.count(m, "minItems");
    cur.maxItems = this.count(m, "maxItems");

    if (m.has("uniqueItems")) {
      const u = m.get("uniqueItems");
      if (!isBool(u)) fail("uniqueItems must be of a boolean");
      cur.uniqueItems = u;
    }

    if (m.has("contains") && draft >= DRAFT6) {
      const child = newSub();
      cur.contains = child;
      this.parse(m.get("contains"), child, d, dc);
    }

    if (m.has("const") && draft >= DRAFT6) cur.constValue = canonicalJson(m.get("const") as JNode);

    if (m.has("enum")) {
      const e = m.get("enum");
      if (!Array.isArray(e)) fail("enum must be of an array");
      for (const v of e) {
        const s = canonicalJson(v);
        if (cur.enumSet.has(s)) fail("enum items must be unique");
        cur.enumSet.add(s);
        cur.enumValues.push(s);
        if (typeof v === "string") cur.enumStrings.add(v);
      }
      cur.enumText = cur.enumValues.join(", ");
    }

    this.list(m, "oneOf", "oneOf", cur.oneOf, d, dc);
    this.list(m, "anyOf", "anyOf", cur.anyOf, d, dc);
    this.list(m, "allOf", "anyOf", cur.allOf, d, dc);

    if (m.has("not")) {
      const n = m.get("not");
      if (!isMap(n) && !isBool(n)) fail("not must be of an object");
      cur.not = newSub();
      this.parse(n, cur.not, d, dc);
    }

    if (draft >= DRAFT7) {
      cur.ifSchema = this.conditional(m, "if", d, dc);
      cur.thenSchema = this.conditional(m, "then", d, dc);
      cur.elseSchema = this.conditional(m, "else", d, dc);
    }
    cur.hasNumberChecks =
      cur.multipleOf !== undefined || cur.maximum !== undefined || cur.exclusiveMaximum !== undefined || cur.minimum !== undefined || cur.exclusiveMinimum !== undefined;
    cur.hasCombinators =
      cur.anyOf.length > 0 || cur.oneOf.length > 0 || cur.allOf.length > 0 || cur.not !== undefined || cur.dependencies !== undefined || cur.ifSchema !== undefined;
  }

  private conditional(m: JObject, key: string, depth: number, dc: DocCtx): SubSchema | undefined {
    if (!m.has(key)) return undefined;
    const v = m.get(key);
    if (!isMap(v) && !isBool(v)) fail(`${key} must be of an object`);
    const child = newSub();
    this.parse(v, child, depth, dc);
    return child;
  }

  private list(m: JObject, key: string, errorKey: string, into: SubSchema[], depth: number, dc: DocCtx): void {
    if (!m.has(key)) return;
    const v = m.get(key);
    if (!Array.isArray(v)) fail(`${errorKey} must be of an array`);
    for (const s of v) {
      const child = newSub();
      into.push(child);
      this.parse(s, child, depth, dc);
    }
  }

  private count(m: JObject, key: string): number | undefined {
    if (!m.has(key)) return undefined;
    const n = mustBeInteger(m.get(key));
    if (n === undefined) fail(`${key} must be of an integer`);
    if (n < 0) fail(`${key} must be greater than or equal to 0`);
    return n;
  }

  /** exclusiveMinimum/exclusiveMaximum per draft: returns the new [inclusive, exclusive] pair. */
  private exclusive(v: JNode | undefined, inclusive: Bound | undefined, key: string, base: string): [Bound | undefined, Bound | undefined] {
    const draft = this.draft;
    if (draft === DRAFT4 || (draft === HYBRID && isBool(v))) {
      if (!isBool(v)) invalidType("boolean", key);
      if (inclusive === undefined) fail(`${key} cannot be used without ${base}`);
      return v ? [undefined, inclusive] : [inclusive, undefined];
    }
    const b = bound(v);
    if (b === undefined) invalidType(draft === HYBRID ? "boolean/number" : "number", key);
    return [inclusive, b];
  }
}

/**
 * Compiles a schema text as gojsonschema.NewSchema(NewStringLoader(text))
 * does; the message of a failure is gojsonschema's.
 * @internal
 */
export function compileSchema(text: string): Compiled {
  const read = readGoJson(text, "decoder");
  if (!read.ok) return { ok: false, message: read.message };
  const doc = read.value;
  try {
    if (!isMap(doc) && !isBool(doc)) fail("schema is invalid");
    const draft = detectDraft(doc) ?? HYBRID;
    const root = newSub();
    new Compiler(doc, draft).parse(doc, root, 0, { doc, base: "", draft });
    return { ok: true, root };
  } catch (e) {
    if (e instanceof CompileError) return { ok: false, message: e.message };
    if (e instanceof RangeError) return { ok: false, message: `schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels` };
    throw e;
  }
}
