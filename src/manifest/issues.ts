// Turns zod issues into `<path>: <what is wrong>; got <value>` lines,
// and formats manifest paths the way users read them: `spec.handlers[2].httpConfig.method`.
import type { z } from "zod";
import { didYouMean } from "../core/index.js";

/** A path inside a manifest document, as zod reports it. */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `["spec","handlers",2,"headers","x-key"]` -> `spec.handlers[2].headers["x-key"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** A short rendering of a received value for `; got <value>`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return "an array";
  if (value instanceof Uint8Array) return "binary data";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  int: "integer",
  object: "object",
  array: "array",
  record: "object",
  string: "string",
  number: "number",
  boolean: "boolean",
};

/** One issue from zod, or a warning for an unknown field. */
export interface TranslatedIssue {
  readonly path: readonly PathSegment[];
  readonly message: string;
  readonly warning: boolean;
  /** An unknown field: the Kubernetes API server rejects it under strict field validation. */
  readonly unknownField?: true;
}

/** The definition zod keeps on every schema, as far as this file reads it. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly innerType?: unknown;
  readonly element?: unknown;
  readonly valueType?: unknown;
  readonly in?: unknown;
}

const defOf = (schema: unknown): SchemaDef | undefined => (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;

/** Unwraps optional, nullable, default and pipe wrappers down to the schema that checks the value. */
function unwrap(schema: unknown): SchemaDef | undefined {
  let def = defOf(schema);
  for (let i = 0; def !== undefined && i < 16; i++) {
    if (def.innerType !== undefined) def = defOf(def.innerType);
    else if (def.type === "pipe") def = defOf(def.in);
    else break;
  }
  return def;
}

/** The field names of the object schema found at `path` inside `schema`, or none. */
export function knownFieldsAt(schema: unknown, path: readonly PathSegment[]): readonly string[] {
  let def = unwrap(schema);
  for (const seg of path) {
    if (def === undefined) return [];
    if (def.type === "object" && typeof seg === "string") def = unwrap(def.shape?.[seg]);
    else if (def.type === "array" && typeof seg === "number") def = unwrap(def.element);
    else if (def.type === "record") def = unwrap(def.valueType);
    else return [];
  }
  return def?.type === "object" && def.shape !== undefined ? Object.keys(def.shape) : [];
}

/**
 * Converts one zod issue (parsed with `reportInput: true`) into our wording;
 * `base` prefixes its path, and `schema` (the schema that was parsed) names
 * the known field nearest to an unknown one.
 */
export function translateZodIssue(issue: z.core.$ZodIssue, base: readonly PathSegment[] = [], schema?: unknown): TranslatedIssue[] {
  const path = [...base, ...(issue.path as PathSegment[])];
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = schema === undefined ? [] : knownFieldsAt(schema, issue.path as PathSegment[]);
      return issue.keys.map((key) => ({ path: [...path, key], message: unknownFieldMessage(path, key, known), warning: true, unknownField: true }));
    }
    case "custom":
      return [{ path, message: issue.message, warning: false }];
    case "invalid_type": {
      if (input === undefined) return [{ path, message: "is required", warning: false }];
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (issue.expected === "int" && typeof input === "number") {
        return [{ path, message: `expected an integer; got ${describeValue(input)}`, warning: false }];
      }
      return [{ path, message: `expected ${article(expected)}; got ${describeValue(input)}`, warning: false }];
    }
    case "invalid_value": {
      if (input === undefined) return [{ path, message: "is required", warning: false }];
      const values = issue.values.map((v) => String(v));
      const hint = typeof input === "string" ? didYouMean(input, values) : undefined;
      const expected = values.length === 1 ? (values[0] as string) : `one of ${values.join("|")}`;
      return [{ path, message: `expected ${expected}; got ${describeValue(input)}${hint === undefined ? "" : ` (${hint})`}`, warning: false }];
    }
    case "invalid_format": {
      const pattern = "pattern" in issue && typeof issue.pattern === "string" ? issue.pattern.replace(/^\/|\/[a-z]*$/g, "") : issue.format;
      return [{ path, message: `must match ${pattern}; got ${describeValue(input)}`, warning: false }];
    }
    case "too_small":
      return [{ path, message: sizeMessage("at least", issue.origin, Number(issue.minimum), input), warning: false }];
    case "too_big":
      return [{ path, message: sizeMessage("at most", issue.origin, Number(issue.maximum), input), warning: false }];
    default:
      return [{ path, message: `${issue.message}; got ${describeValue(input)}`, warning: false }];
  }
}

function article(typeName: string): string {
  return /^[aeiou]/.test(typeName) ? `an ${typeName}` : `a ${typeName}`;
}

function sizeMessage(bound: "at least" | "at most", origin: string, limit: number, input: unknown): string {
  if (origin === "string") {
    const length = typeof input === "string" ? input.length : 0;
    if (bound === "at least" && limit === 1) return `must not be empty; got ""`;
    return `must be ${bound} ${limit} characters long; got ${length} characters`;
  }
  if (origin === "array" || origin === "set") {
    const length = Array.isArray(input) ? input.length : 0;
    return `must have ${bound} ${limit} ${limit === 1 ? "item" : "items"}; got ${length}`;
  }
  return `must be ${bound} ${limit}; got ${describeValue(input)}`;
}

/** Fields that Omnia removed or never had, with the replacement to use. */
const REMOVED_FIELDS: Readonly<Record<string, string>> = {
  retries: "the handler-level retries field was removed; use httpConfig.retryPolicy",
  endpoint: "there is no handler-level endpoint; set it in httpConfig, grpcConfig, mcpConfig or openAPIConfig",
};

/** `unknown field; it is ignored`, with the replacement of a removed handler field or the nearest known name. */
export function unknownFieldMessage(parent: readonly PathSegment[], key: string, known: readonly string[]): string {
  const atHandler = typeof parent[parent.length - 1] === "number" && parent[parent.length - 2] === "handlers";
  const hint = (atHandler ? REMOVED_FIELDS[key] : undefined) ?? didYouMean(key, known);
  return hint === undefined ? "unknown field; it is ignored" : `unknown field; it is ignored (${hint})`;
}

/** Receives problems at a path relative to the document. */
export interface IssueSink {
  error(path: readonly PathSegment[], message: string): void;
  /** `apiServerRejects`: the Kubernetes API server rejects this under strict validation (an error in strict mode). */
  warning(path: readonly PathSegment[], message: string, apiServerRejects?: boolean): void;
  /** Every issue of a zod parse, its paths under `base`; `schema` (the one parsed) names the nearest known field of a typo. */
  schema(result: { success: boolean; error?: { issues: readonly unknown[] } }, base: readonly PathSegment[], schema?: unknown): void;
}
