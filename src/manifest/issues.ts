// Turns zod issues into `<path>: <what is wrong>; got <value>` lines,
// and formats manifest paths the way users read them: `spec.handlers[2].httpConfig.method`.
import type { z } from "zod";

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
}

/** Converts one zod issue (parsed with `reportInput: true`) into our wording; `base` prefixes its path. */
export function translateZodIssue(issue: z.core.$ZodIssue, base: readonly PathSegment[] = []): TranslatedIssue[] {
  const path = [...base, ...(issue.path as PathSegment[])];
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => ({ path: [...path, key], message: unknownFieldMessage(path, key), warning: true }));
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
      const values = issue.values.map((v) => String(v)).join("|");
      return [{ path, message: `expected one of ${values}; got ${describeValue(input)}`, warning: false }];
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

function unknownFieldMessage(parent: readonly PathSegment[], key: string): string {
  const atHandler = typeof parent[parent.length - 1] === "number" && parent[parent.length - 2] === "handlers";
  const hint = atHandler ? REMOVED_FIELDS[key] : undefined;
  return hint === undefined ? "unknown field; it is ignored" : `unknown field; it is ignored (${hint})`;
}
