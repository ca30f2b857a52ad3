// Validates a decoded JSON value against a compiled schema the way
// gojsonschema v1.2.0 does (validation.go): the same keyword order per node,
// the same "score" that picks the best anyOf/oneOf/contains branch, and the
// error strings `<field>: <description>` from its English locale.

import { canonicalJson, type SubSchema } from "./schema-compile.js";
import { checkFormat } from "./schema-format.js";
import { GoNumber, type JNode, type JObject } from "./schema-json.js";
import { decCmp, decIsMultiple, literalIsInt, parseDec, type Dec } from "./schema-number.js";
import { RegexBudgetExceeded, type GoRegexp, type RegexBudget } from "./schema-regex.js";
import { boundPeerText } from "../core/index.js";

/** Validation deeper than this many nested schema levels stops with an error. @internal */
export const MAX_VALIDATION_DEPTH = 1000;

/** A node of the JSON path, like gojsonschema's JsonContext. */
interface Ctx {
  readonly head: string;
  readonly tail: Ctx | undefined;
}

const ROOT: Ctx = { head: "(root)", tail: undefined };

function ctxString(c: Ctx): string {
  let s = c.head;
  for (let t = c.tail; t !== undefined; t = t.tail) s = `${t.head}.${s}`;
  return s;
}

function field(c: Ctx): string {
  const s = ctxString(c);
  return s.startsWith("(root).") ? s.slice(7) : s;
}

class Result {
  errors: string[] = [];
  score = 0;

  add(ctx: Ctx, description: (f: string) => string): void {
    const f = field(ctx);
    this.errors.push(`${f}: ${description(f)}`);
    this.score -= 2;
  }

  merge(other: Result): void {
    for (const e of other.errors) this.errors.push(e);
    this.score += other.score;
  }
}

class TooDeep extends Error {
  constructor(readonly ctx: Ctx) {
    super("too deep");
  }
}

/** A pattern match ran out of the validation's regex budget: validation stops there. */
class PatternTooCostly extends Error {
  constructor(
    readonly ctx: Ctx,
    readonly pattern: string,
    readonly steps: number,
  ) {
    super("pattern too costly");
  }
}

function kindOf(v: JNode): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  if (v instanceof GoNumber) return "number";
  if (Array.isArray(v)) return "array";
  return "object";
}

/** Code points of a string (utf8.RuneCount of the Go string). */
function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function canonicalOrNull(v: JNode): string | undefined {
  try {
    return canonicalJson(v);
  } catch {
    return undefined;
  }
}

class Validator {
  private depth = 0;

  constructor(private readonly budget: RegexBudget | undefined) {}

  /** `re.test(text)` on the validation's budget; past it, validation stops naming the pattern. */
  private matches(re: GoRegexp, text: string, pattern: string, ctx: Ctx): boolean {
    try {
      return re.test(text, this.budget);
    } catch (e) {
      if (e instanceof RegexBudgetExceeded) throw new PatternTooCostly(ctx, pattern, e.total);
      throw e;
    }
  }

  sub(s: SubSchema, node: JNode, ctx: Ctx): Result {
    const r = new Result();
    this.recursive(s, node, r, ctx);
    return r;
  }

  recursive(s: SubSchema, node: JNode, r: Result, ctx: Ctx): void {
    if (++this.depth > MAX_VALIDATION_DEPTH) throw new TooDeep(ctx);
    try {
      this.node(s, node, r, ctx);
    } finally {
      this.depth--;
    }
  }

  private node(s: SubSchema, node: JNode, r: Result, ctx: Ctx): void {
    if (s.pass !== undefined) {
      if (!s.pass) r.add(ctx, () => "False always fails validation");
      return;
    }
    if (s.refSchema !== undefined) {
      this.recursive(s.refSchema, node, r, ctx);
      return;
    }
    const typed = s.types.length > 0;
    const kind = kindOf(node);
    if (kind === "number") {
      const num = node as GoNumber;
      const isInt = literalIsInt(num.text);
      if (typed && !(s.types.includes("number") || (isInt && s.types.includes("integer")))) {
        const given = isInt ? "integer" : "number";
        r.add(ctx, () => `Invalid type. Expected: ${s.typesText}, given: ${given}`);
        return;
      }
      this.schema(s, node, r, ctx);
      // validateNumber
      if (s.hasNumberChecks) {
        const dec = parseDec(num.text);
        if (s.multipleOf !== undefined && !decIsMultiple(dec, s.multipleOf.dec)) {
          const b = s.multipleOf;
          r.add(ctx, () => `Must be a multiple of ${b.text}`);
        }
        this.numberBounds(s, dec, r, ctx);
      }
      if (s.format !== "" && s.formatKnown) {
        const f = s.format;
        r.add(ctx, () => `Does not match format '${f}'`);
      }
      r.score++;
      this.common(s, node, r, ctx);
    } else {
      if (typed && !s.types.includes(kind)) {
        r.add(ctx, () => `Invalid type. Expected: ${s.typesText}, given: ${kind}`);
        return;
      }
      this.schema(s, node, r, ctx);
      if (kind === "array") {
        this.array(s, node as JNode[], r, ctx);
        this.common(s, node, r, ctx);
      } else if (kind === "object") {
        const obj = node as JObject;
        this.object(s, obj, r, ctx);
        this.common(s, node, r, ctx);
        for (const [name, child] of s.properties) {
          const v = obj.get(name);
          if (v !== undefined || obj.has(name)) this.recursive(child, v as JNode, r, { head: name, tail: ctx });
        }
      } else {
        this.common(s, node, r, ctx);
        if (kind === "string") this.string(s, node as string, r, ctx);
      }
    }
    r.score++;
  }

  private numberBounds(s: SubSchema, dec: Dec, r: Result, ctx: Ctx): void {
    const max = s.maximum;
    if (max !== undefined && decCmp(dec, max.dec) === 1) r.add(ctx, () => `Must be less than or equal to ${max.text}`);
    const xmax = s.exclusiveMaximum;
    if (xmax !== undefined && decCmp(dec, xmax.dec) >= 0) r.add(ctx, () => `Must be less than ${xmax.text}`);
    const min = s.minimum;
    if (min !== undefined && decCmp(dec, min.dec) === -1) r.add(ctx, () => `Must be greater than or equal to ${min.text}`);
    const xmin = s.exclusiveMinimum;
    if (xmin !== undefined && decCmp(dec, xmin.dec) <= 0) r.add(ctx, () => `Must be greater than ${xmin.text}`);
  }

  private schema(s: SubSchema, node: JNode, r: Result, ctx: Ctx): void {
    if (!s.hasCombinators) {
      r.score++;
      return;
    }
    if (s.anyOf.length > 0) {
      let ok = false;
      let best: Result | undefined;
      for (const branch of s.anyOf) {
        const res = this.sub(branch, node, ctx);
        ok = res.errors.length === 0;
        if (ok) break;
        if (best === undefined || res.score > best.score) best = res;
      }
      if (!ok) {
        r.add(ctx, () => "Must validate at least one schema (anyOf)");
        if (best !== undefined) r.merge(best);
      }
    }
    if (s.oneOf.length > 0) {
      let valid = 0;
      let best: Result | undefined;
      for (const branch of s.oneOf) {
        const res = this.sub(branch, node, ctx);
        if (res.errors.length === 0) valid++;
        else if (valid === 0 && (best === undefined || res.score > best.score)) best = res;
      }
      if (valid !== 1) {
        r.add(ctx, () => "Must validate one and only one schema (oneOf)");
        if (valid === 0 && best !== undefined) r.merge(best);
      }
    }
    if (s.allOf.length > 0) {
      let valid = 0;
      for (const branch of s.allOf) {
        const res = this.sub(branch, node, ctx);
        if (res.errors.length === 0) valid++;
        r.merge(res);
      }
      if (valid !== s.allOf.length) r.add(ctx, () => "Must validate all the schemas (allOf)");
    }
    if (s.not !== undefined && this.sub(s.not, node, ctx).errors.length === 0) {
      r.add(ctx, () => "Must not validate the schema (not)");
    }
    if (s.dependencies !== undefined && s.dependencies.size > 0 && node instanceof Map) {
      for (const key of node.keys()) {
        const dep = s.dependencies.get(key);
        if (dep === undefined) continue;
        if (Array.isArray(dep)) {
          for (const on of dep) if (!node.has(on)) r.add(ctx, () => `Has a dependency on ${on}`);
        } else {
          this.recursive(dep, node, r, ctx);
        }
      }
    }
    if (s.ifSchema !== undefined) {
      const ifOk = this.sub(s.ifSchema, node, ctx).errors.length === 0;
      if (s.thenSchema !== undefined && ifOk) {
        const res = this.sub(s.thenSchema, node, ctx);
        if (res.errors.length > 0) {
          r.add(ctx, () => 'Must validate "then" as "if" was valid');
          r.merge(res);
        }
      }
      if (s.elseSchema !== undefined && !ifOk) {
        const res = this.sub(s.elseSchema, node, ctx);
        if (res.errors.length > 0) {
          r.add(ctx, () => 'Must validate "else" as "if" was not valid');
          r.merge(res);
        }
      }
    }
    r.score++;
  }

  private common(s: SubSchema, node: JNode, r: Result, ctx: Ctx): void {
    if (typeof node === "string" && s.constValue === undefined && s.enumValues.length > 0) {
      // A string's Go encoding is one-to-one, so membership can be decided on the decoded text.
      if (!s.enumStrings.has(node)) {
        const t = s.enumText;
        r.add(ctx, (f) => `${f} must be one of the following: ${t}`);
      }
    } else if (s.constValue !== undefined || s.enumValues.length > 0) {
      const v = canonicalOrNull(node);
      if (v === undefined) {
        r.add(ctx, () => `Internal Error json: cannot unmarshal number ${(node as GoNumber).text} into Go value of type float64`);
      } else {
        if (s.constValue !== undefined && v !== s.constValue) {
          const c = s.constValue;
          r.add(ctx, (f) => `${f} does not match: ${c}`);
        }
        if (s.enumValues.length > 0 && !s.enumSet.has(v)) {
          const t = s.enumText;
          r.add(ctx, (f) => `${f} must be one of the following: ${t}`);
        }
      }
    }
    r.score++;
  }

  private array(s: SubSchema, arr: JNode[], r: Result, ctx: Ctx): void {
    const n = arr.length;
    if (s.itemsSingle) {
      const item = s.items[0] as SubSchema;
      for (let i = 0; i < n; i++) r.merge(this.sub(item, arr[i] as JNode, { head: String(i), tail: ctx }));
    } else if (s.items.length > 0) {
      const k = s.items.length;
      for (let i = 0; i !== k && i !== n; i++) r.merge(this.sub(s.items[i] as SubSchema, arr[i] as JNode, { head: String(i), tail: ctx }));
      if (k < n) {
        const ai = s.additionalItems;
        if (ai === false) r.add(ctx, () => "No additional items allowed on array");
        else if (ai !== undefined && ai !== true) {
          for (let i = k; i !== n; i++) r.merge(this.sub(ai, arr[i] as JNode, { head: String(i), tail: ctx }));
        }
      }
    }
    if (s.minItems !== undefined && n < s.minItems) {
      const min = s.minItems;
      r.add(ctx, () => `Array must have at least ${min} items`);
    }
    if (s.maxItems !== undefined && n > s.maxItems) {
      const max = s.maxItems;
      r.add(ctx, () => `Array must have at most ${max} items`);
    }
    if (s.uniqueItems) {
      const seen = new Map<string, number>();
      for (let j = 0; j < n; j++) {
        const v = canonicalOrNull(arr[j] as JNode) ?? `\u0000${j}`;
        const i = seen.get(v);
        if (i !== undefined) r.add(ctx, () => `array items[${i},${j}] must be unique`);
        seen.set(v, j);
      }
    }
    if (s.contains !== undefined) {
      let ok = false;
      let best: Result | undefined;
      for (let i = 0; i < n; i++) {
        const res = this.sub(s.contains, arr[i] as JNode, { head: String(i), tail: ctx });
        if (res.errors.length === 0) {
          ok = true;
          break;
        }
        if (best === undefined || res.score > best.score) best = res;
      }
      if (!ok) {
        r.add(ctx, () => "At least one of the items must match");
        if (best !== undefined) r.merge(best);
      }
    }
    r.score++;
  }

  private object(s: SubSchema, obj: JObject, r: Result, ctx: Ctx): void {
    const size = obj.size;
    if (s.minProperties !== undefined && size < s.minProperties) {
      const min = s.minProperties;
      r.add(ctx, () => `Must have at least ${min} properties`);
    }
    if (s.maxProperties !== undefined && size > s.maxProperties) {
      const max = s.maxProperties;
      r.add(ctx, () => `Must have at most ${max} properties`);
    }
    for (const name of s.required) {
      if (obj.has(name)) r.score++;
      else r.add(ctx, () => `${name} is required`);
    }
    const ap = s.additionalProperties;
    const pp = s.patternProperties;
    if (pp !== undefined || (ap !== undefined && ap !== true)) {
      for (const [key, value] of obj) {
        const found = s.propertyNames.has(key);
        let matched = false;
        if (pp !== undefined) {
          for (const [re, child, source] of pp) {
            if (this.matches(re, key, source, ctx)) {
              matched = true;
              r.merge(this.sub(child, value, { head: key, tail: ctx }));
            }
          }
          if (matched) r.score++;
        }
        if (!found && !matched) {
          if (ap === false) r.add(ctx, () => `Additional property ${key} is not allowed`);
          else if (ap !== undefined && ap !== true) r.merge(this.sub(ap, value, { head: key, tail: ctx }));
        }
      }
    }
    if (s.propertyNamesSchema !== undefined) {
      for (const key of obj.keys()) {
        const res = this.sub(s.propertyNamesSchema, key, ctx);
        if (res.errors.length > 0) {
          r.add(ctx, () => `Property name of "${key}" does not match`);
          r.merge(res);
        }
      }
    }
    r.score++;
  }

  private string(s: SubSchema, value: string, r: Result, ctx: Ctx): void {
    if (s.minLength !== undefined || s.maxLength !== undefined) {
      const n = runeCount(value);
      if (s.minLength !== undefined && n < s.minLength) {
        const min = s.minLength;
        r.add(ctx, () => `String length must be greater than or equal to ${min}`);
      }
      if (s.maxLength !== undefined && n > s.maxLength) {
        const max = s.maxLength;
        r.add(ctx, () => `String length must be less than or equal to ${max}`);
      }
    }
    if (s.pattern !== undefined && !this.matches(s.pattern, value, s.patternText, ctx)) {
      const p = s.patternText;
      r.add(ctx, () => `Does not match pattern '${p}'`);
    }
    if (s.format !== "" && !checkFormat(s.format, value)) {
      const f = s.format;
      r.add(ctx, () => `Does not match format '${f}'`);
    }
    r.score++;
  }
}

/**
 * The outcome of validating one value: `errors`, or `stopped`, the one
 * `<field>: <description>` entry of a validation that could not finish.
 * @internal
 */
export type Validation = { readonly ok: true; readonly errors: readonly string[] } | { readonly ok: false; readonly stopped: string };

/**
 * Validates a decoded value (gojsonschema Schema.Validate after decoding):
 * `errors` is gojsonschema's list of `<field>: <description>` strings, empty
 * when the value is valid. Nesting beyond {@link MAX_VALIDATION_DEPTH} schema
 * levels (only reachable through recursive `$ref`s) is not validated. With
 * `budget`, every `pattern` and `patternProperties` match takes its steps
 * from it; once it is spent the validation stops with
 * `<field>: Matching pattern '<pattern>' needs more than the <n> regex steps this value may spend`
 * (the pattern cut at 512 UTF-8 bytes).
 * @internal
 */
export function validateValue(root: SubSchema, value: JNode, budget?: RegexBudget): Validation {
  const v = new Validator(budget);
  const r = new Result();
  try {
    v.recursive(root, value, r, ROOT);
  } catch (e) {
    if (e instanceof TooDeep) return { ok: false, stopped: `${field(e.ctx)}: Nesting deeper than ${MAX_VALIDATION_DEPTH} schema levels is not validated` };
    if (e instanceof PatternTooCostly) {
      return { ok: false, stopped: `${field(e.ctx)}: Matching pattern '${boundPeerText(e.pattern)}' needs more than the ${e.steps} regex steps this value may spend` };
    }
    throw e;
  }
  return { ok: true, errors: r.errors };
}
