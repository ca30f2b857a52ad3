// Arguments for a tool the checker calls: a valid example built from the
// tool's input schema, and an invalid one (a required argument left out, or
// one of the wrong type). The schema may come from a hostile MCP server or
// OpenAPI document, so every walk is bounded: depth, steps, string and array
// sizes; a schema that asks for more gets no example (the checker then asks
// for `--args`), never a long walk or a large value.
import type { JsonObject, JsonValue } from "../core/index.js";

/** The deepest schema nesting (through `$ref` too) an example is built for. */
export const EXAMPLE_MAX_DEPTH = 32;
/** The most schema nodes one example visits. */
export const EXAMPLE_MAX_STEPS = 10_000;
/** The longest string an example holds (a larger `minLength` gets no example). */
export const EXAMPLE_MAX_STRING = 1_024;
/** The most items an example array holds (a larger `minItems` gets no example). */
export const EXAMPLE_MAX_ITEMS = 64;
/**
 * The largest example, as JSON text (about): a schema's own values (`const`,
 * `enum`, `default`, `examples`) count in full each time they are used, so a
 * large one reused through `$ref` gets no example instead of a large value.
 */
export const EXAMPLE_MAX_BYTES = 64 * 1024;

/** An example, or why none could be built. @internal */
export type Example = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly reason: string };

class NoExample extends Error {}

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  duration: "PT1M",
};

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function own(o: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** A local `$ref` (`#`, `#/definitions/x`, `#/$defs/x`) resolved against the root; anything else has no example. */
function resolveRef(root: JsonValue, ref: string, tick: (n: number) => void): JsonValue {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) throw new NoExample(`the schema refers to ${JSON.stringify(ref.slice(0, 100))}, which is not in the schema`);
  let at: JsonValue | undefined = root;
  const parts = ref.slice(2).split("/");
  tick(parts.length);
  for (const raw of parts) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      throw new NoExample(`the schema's $ref ${JSON.stringify(ref.slice(0, 100))} is not a valid reference`);
    }
    at = isObject(at) ? own(at, key) : Array.isArray(at) && /^\d+$/.test(key) ? at[Number(key)] : undefined;
    if (at === undefined) throw new NoExample(`the schema's $ref ${JSON.stringify(ref.slice(0, 100))} names nothing`);
  }
  return at;
}

class Builder {
  #steps = 0;
  #bytes = 0;
  readonly #tick = (n: number): void => {
    this.#steps += n;
    if (this.#steps > EXAMPLE_MAX_STEPS) throw new NoExample(`the schema has more than ${EXAMPLE_MAX_STEPS} parts to fill`);
  };
  constructor(private readonly root: JsonValue) {}

  /** Counts `n` bytes of example text against {@link EXAMPLE_MAX_BYTES}. */
  #charge(n: number): void {
    this.#bytes += n;
    if (this.#bytes > EXAMPLE_MAX_BYTES) throw new NoExample(`the example would be larger than ${EXAMPLE_MAX_BYTES} bytes`);
  }

  /**
   * A value the schema gives (`const`, `enum`, `default`, `examples`), charged
   * by its size and checked for depth, walking no further than the budget left.
   */
  #literal(value: JsonValue, depth: number): JsonValue {
    const stack: [JsonValue, number][] = [[value, depth]];
    while (stack.length > 0) {
      const [v, d] = stack.pop() as [JsonValue, number];
      if (d > EXAMPLE_MAX_DEPTH) throw new NoExample(`the schema nests deeper than ${EXAMPLE_MAX_DEPTH} levels`);
      if (typeof v === "string") this.#charge(v.length + 2);
      else if (Array.isArray(v)) {
        this.#charge(2 + v.length);
        for (const item of v) stack.push([item, d + 1]);
      } else if (v !== null && typeof v === "object") {
        for (const key of Object.keys(v)) {
          this.#charge(key.length + 4);
          stack.push([v[key] as JsonValue, d + 1]);
        }
      } else this.#charge(8);
    }
    return value;
  }

  value(schema: JsonValue | undefined, depth: number): JsonValue {
    this.#tick(1);
    if (depth > EXAMPLE_MAX_DEPTH) throw new NoExample(`the schema nests deeper than ${EXAMPLE_MAX_DEPTH} levels`);
    if (schema === undefined || schema === true) return this.#literal("example", depth);
    if (schema === false) throw new NoExample("the schema accepts no value (false)");
    if (!isObject(schema)) return this.#literal("example", depth);
    const ref = own(schema, "$ref");
    if (typeof ref === "string") return this.value(resolveRef(this.root, ref, this.#tick), depth + 1);
    const constant = own(schema, "const");
    if (constant !== undefined) return this.#literal(constant, depth);
    const enumeration = own(schema, "enum");
    if (Array.isArray(enumeration) && enumeration.length > 0) return this.#literal(enumeration[0] as JsonValue, depth);
    const dflt = own(schema, "default");
    if (dflt !== undefined) return this.#literal(dflt, depth);
    const examples = own(schema, "examples");
    if (Array.isArray(examples) && examples.length > 0) return this.#literal(examples[0] as JsonValue, depth);
    const allOf = own(schema, "allOf");
    if (Array.isArray(allOf) && allOf.length > 0) return this.#allOf(schema, allOf, depth);
    for (const key of ["anyOf", "oneOf"]) {
      const branches = own(schema, key);
      if (Array.isArray(branches) && branches.length > 0) {
        // The first branch that is not only null: a model fills the field rather than nulling it.
        const pick = branches.find((b) => !(isObject(b) && own(b, "type") === "null")) ?? branches[0];
        return this.value(pick, depth + 1);
      }
    }
    return this.#typed(schema, typeOf(schema), depth);
  }

  #allOf(schema: JsonObject, parts: readonly JsonValue[], depth: number): JsonValue {
    const own = typeOf(schema);
    const values = [...(own === "" ? [] : [this.#typed(schema, own, depth)]), ...parts.map((p) => this.value(p, depth + 1))];
    const objects = values.filter(isObject);
    if (objects.length !== values.length) return values[values.length - 1] as JsonValue;
    // Merged key by key as data properties: a part's "__proto__" key stays a key.
    const merged: Record<string, JsonValue> = {};
    for (const part of objects) for (const key of Object.keys(part)) Object.defineProperty(merged, key, { value: part[key] as JsonValue, enumerable: true, writable: true, configurable: true });
    return merged;
  }

  #typed(schema: JsonObject, type: string, depth: number): JsonValue {
    switch (type) {
      case "object":
        return this.#object(schema, depth);
      case "array":
        return this.#array(schema, depth);
      case "string":
        return this.#literal(stringFor(schema), depth);
      case "integer":
      case "number":
        return this.#literal(numberFor(schema, type === "integer"), depth);
      case "boolean":
        return this.#literal(true, depth);
      case "null":
        return this.#literal(null, depth);
      default:
        return this.#literal("example", depth);
    }
  }

  #object(schema: JsonObject, depth: number): JsonObject {
    const properties = isObject(own(schema, "properties")) ? (own(schema, "properties") as JsonObject) : {};
    const additional = own(schema, "additionalProperties");
    const out: Record<string, JsonValue> = {};
    const required = own(schema, "required");
    const names = Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
    const minProperties = own(schema, "minProperties");
    const min = typeof minProperties === "number" ? minProperties : 0;
    if (min > EXAMPLE_MAX_ITEMS) throw new NoExample(`the schema asks for at least ${min} properties`);
    // Each required name is read once per visit, and counted: a long list reached through many $refs costs steps.
    this.#tick(names.length);
    for (const name of names) this.#fill(out, name, properties, additional, depth);
    if (Object.keys(out).length < min) {
      const keys = Object.keys(properties);
      this.#tick(keys.length);
      for (const name of keys) {
        if (Object.keys(out).length >= min) break;
        this.#fill(out, name, properties, additional, depth);
      }
    }
    return out;
  }

  /** Fills one property of `out` (once: a repeated name is skipped), as a data property whatever its name. */
  #fill(out: Record<string, JsonValue>, name: string, properties: JsonObject, additional: JsonValue | undefined, depth: number): void {
    if (Object.prototype.hasOwnProperty.call(out, name)) return;
    const sub = Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : additional === false ? undefined : isObject(additional) ? additional : undefined;
    this.#charge(name.length + 4);
    Object.defineProperty(out, name, { value: this.value(sub, depth + 1), enumerable: true, writable: true, configurable: true });
  }

  #array(schema: JsonObject, depth: number): JsonValue[] {
    const minItems = own(schema, "minItems");
    const count = typeof minItems === "number" && minItems > 0 ? Math.ceil(minItems) : 0;
    if (count > EXAMPLE_MAX_ITEMS) throw new NoExample(`the schema asks for at least ${minItems} items`);
    const items = own(schema, "items");
    const prefix = Array.isArray(items) ? items : Array.isArray(own(schema, "prefixItems")) ? (own(schema, "prefixItems") as JsonValue[]) : undefined;
    if (prefix !== undefined) return prefix.slice(0, Math.max(count, prefix.length)).map((s) => this.value(s, depth + 1));
    const out: JsonValue[] = [];
    for (let i = 0; i < count; i++) out.push(this.value(items, depth + 1));
    return out;
  }
}

/** The schema's type: the first non-null one it names, else what its keywords imply. */
function typeOf(schema: JsonObject): string {
  const t = own(schema, "type");
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    const named = t.filter((x): x is string => typeof x === "string");
    return named.find((x) => x !== "null") ?? named[0] ?? "";
  }
  if (own(schema, "properties") !== undefined || own(schema, "required") !== undefined) return "object";
  if (own(schema, "items") !== undefined) return "array";
  return "";
}

function stringFor(schema: JsonObject): string {
  const format = own(schema, "format");
  let text = typeof format === "string" && Object.prototype.hasOwnProperty.call(FORMAT_EXAMPLES, format) ? (FORMAT_EXAMPLES[format] as string) : "example";
  const minLength = own(schema, "minLength");
  if (typeof minLength === "number" && minLength > text.length) {
    if (minLength > EXAMPLE_MAX_STRING) throw new NoExample(`the schema asks for a string of at least ${minLength} characters`);
    text = text.padEnd(Math.ceil(minLength), "x");
  }
  const maxLength = own(schema, "maxLength");
  if (typeof maxLength === "number" && maxLength >= 0 && maxLength < text.length) text = text.slice(0, Math.floor(maxLength));
  return text;
}

function numberFor(schema: JsonObject, integer: boolean): number {
  const num = (key: string): number | undefined => {
    const v = own(schema, key);
    return typeof v === "number" && Number.isFinite(v) ? v : undefined;
  };
  let value = 1;
  const min = num("minimum");
  const exMin = num("exclusiveMinimum");
  if (min !== undefined && value < min) value = min;
  if (exMin !== undefined && value <= exMin) value = exMin + 1;
  const max = num("maximum");
  const exMax = num("exclusiveMaximum");
  if (max !== undefined && value > max) value = max;
  if (exMax !== undefined && value >= exMax) value = exMax - 1;
  if (integer) value = Math.ceil(value);
  const multipleOf = num("multipleOf");
  if (multipleOf !== undefined && multipleOf > 0) value = Math.ceil(value / multipleOf) * multipleOf;
  return value;
}

/**
 * A valid-looking example of a tool's arguments, built from its input schema:
 * each required property (and enough optional ones for `minProperties`), the
 * first `enum` value, `const`, `default` or `examples` entry where the schema
 * gives one, a sample value for a known `format`, the bounds of numbers and
 * lengths met. The caller validates the result; this does not promise it
 * validates (a `pattern` is not solved).
 * @internal
 */
export function exampleArguments(schema: JsonValue): Example {
  try {
    const value = new Builder(schema).value(schema, 0);
    return { ok: true, value: isObject(value) ? value : {} };
  } catch (error) {
    if (error instanceof NoExample) return { ok: false, reason: error.message };
    throw error;
  }
}

const WRONG_TYPE: Readonly<Record<string, JsonValue>> = {
  string: 12345,
  integer: "not a number",
  number: "not a number",
  boolean: "not a boolean",
  object: "not an object",
  array: "not an array",
};

/**
 * Arguments the schema refuses, made from a valid example: the first required
 * property (in sorted order) left out, else the first property with a plain
 * `type` given a value of another type. Undefined when the schema requires
 * and types nothing (every object is valid). Describes what was broken.
 * @internal
 */
export function invalidArguments(schema: JsonValue, valid: JsonValue): { readonly value: JsonObject; readonly broken: string } | undefined {
  if (!isObject(schema) || !isObject(valid)) return undefined;
  const required = own(schema, "required");
  const names = Array.isArray(required) ? required.filter((r): r is string => typeof r === "string" && Object.prototype.hasOwnProperty.call(valid, r)).sort() : [];
  const first = names[0];
  if (first !== undefined) {
    const value: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(valid)) if (k !== first) Object.defineProperty(value, k, { value: v, enumerable: true, writable: true, configurable: true });
    return { value, broken: `the required argument ${JSON.stringify(first)} left out` };
  }
  const properties = own(schema, "properties");
  if (!isObject(properties)) return undefined;
  for (const name of Object.keys(properties).sort()) {
    const sub = properties[name];
    const type = isObject(sub) ? own(sub, "type") : undefined;
    if (typeof type !== "string" || !Object.prototype.hasOwnProperty.call(WRONG_TYPE, type)) continue;
    const value: Record<string, JsonValue> = { ...valid };
    Object.defineProperty(value, name, { value: WRONG_TYPE[type] as JsonValue, enumerable: true, writable: true, configurable: true });
    return { value, broken: `the argument ${JSON.stringify(name)} given a value that is not ${type === "integer" ? "an" : "a"} ${type}` };
  }
  return undefined;
}
