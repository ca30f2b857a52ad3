/**
 * Argument and output-schema validation exactly as PromptKit's tool stage
 * runs it in front of every Omnia tool call (PromptKit runtime/tools
 * validator.go against gojsonschema v1.2.0): the same verdicts, the same
 * error texts byte for byte.
 *
 * Contract with the rest of the turn module:
 *
 * ```ts
 * validateArguments(toolName, schemaJson, argsText, read?): ArgumentCheck
 *   // schemaJson undefined or "" = no schema: { ok: true } without reading the arguments
 *   // { ok: true }, or { ok: false, class, error } where the model sees "Error: " + error
 *   //   class "args_invalid":   "tool <name> validation error (args_invalid): argument validation failed: [<e1> <e2> …]"
 *   //   class "not_json":       "validation error for tool <name>: <Go decoder message>"
 *   //   class "schema_invalid": "invalid input schema for tool <name>: <gojsonschema compile message>"
 * validateResult(toolName, outputSchemaJson, resultText): ResultCheck
 *   // { ok: true, result } with the bytes that go on to formatting (resultText itself,
 *   // or Go's re-encoding of it when only that validates),
 *   // or { ok: false, error } where the model sees "Tool execution failed: " + error:
 *   //   "result validation failed: coercion failed: tool <name> validation error (result_invalid): result validation failed: [...]"
 *   //   "result validation failed: cannot parse result for coercion: <Go json.Unmarshal message>"
 *   //   "result validation failed: coercion failed: invalid output schema for tool <name>: <compile message>"
 * ```
 *
 * Both take the schema as Go re-encodes it (sorted keys, compact), which is
 * what the pack and the registry paths hand PromptKit. Compiled schemas are
 * kept in a least-recently-used cache of 128 entries keyed by the exact text,
 * as PromptKit's validator does; a schema that does not compile is cached as
 * its failure.
 *
 * Limits that Go does not have (each a typed failure, never a thrown error):
 * a schema nested deeper than 512 levels does not compile (`schema_invalid`),
 * and validation that would descend more than 1000 schema levels (only a
 * recursive `$ref` over deeply nested arguments can) stops with
 * `args_invalid` and `[<field>: Nesting deeper than 1000 schema levels is not
 * validated]`. Arguments nested deeper than 10000 levels fail to decode with
 * Go's own message (`not_json`).
 * @packageDocumentation
 */

import { compileSchema, canonicalJson, type Compiled } from "./schema-compile.js";
import { GoNumber, readGoJson, type JNode, type JsonRead } from "./schema-json.js";
import { validateValue } from "./schema-validate.js";
import { REGEX_STEP_BASE, REGEX_STEPS_PER_UNIT } from "./schema-regex.js";

/**
 * The verdict on a call's arguments. When not ok, `error` is the stage's
 * error text (the model sees `Error: ` + `error`) and `class` says which of
 * PromptKit's three failures it is: `args_invalid` (a ValidationError, error
 * type `validation`), `not_json` (the arguments do not decode) or
 * `schema_invalid` (the input schema does not compile); the last two are
 * error type `execution`.
 * @internal
 */
export type ArgumentCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly class: "args_invalid" | "not_json" | "schema_invalid" };

/**
 * The verdict on a successful executor result against the tool's output
 * schema. When ok, `result` is the text that goes on to formatting: the
 * executor's bytes when they validate as they are, otherwise Go's
 * re-encoding of them when that validates. When not ok, the call is a failed
 * result and the model sees `Tool execution failed: ` + `error`.
 * @internal
 */
export type ResultCheck = { readonly ok: true; readonly result: string } | { readonly ok: false; readonly error: string };

/** PromptKit's DefaultMaxSchemaCacheSize. */
const CACHE_SIZE = 128;

/**
 * A least-recently-used cache of compiled schemas keyed by their exact text.
 * Compiling is deterministic, so the cache changes only the cost of a call,
 * never its verdict.
 */
class SchemaCache {
  private readonly map = new Map<string, Compiled>();
  /** The most recently used entry, which a hit on it leaves where it is (the map's last). */
  private lastText: string | undefined;
  private lastCompiled: Compiled | undefined;

  constructor(private readonly max: number) {}

  get(text: string): Compiled {
    if (text === this.lastText) return this.lastCompiled as Compiled;
    let compiled = this.map.get(text);
    if (compiled !== undefined) {
      this.map.delete(text);
    } else {
      compiled = compileSchema(text);
      if (this.map.size >= this.max) {
        const oldest = this.map.keys().next();
        if (oldest.done !== true) this.map.delete(oldest.value);
      }
    }
    this.map.set(text, compiled);
    this.lastText = text;
    this.lastCompiled = compiled;
    return compiled;
  }

  get size(): number {
    return this.map.size;
  }
}

const cache = new SchemaCache(CACHE_SIZE);

/** How many compiled schemas the shared cache holds (at most 128). @internal */
export function schemaCacheSize(): number {
  return cache.size;
}

const EMPTY_OBJECT: JNode = new Map();

type Outcome =
  | { readonly kind: "valid" }
  | { readonly kind: "invalid"; readonly list: string }
  | { readonly kind: "error"; readonly error: string; readonly class: "not_json" | "schema_invalid" };

/** ValidateArgs / ValidateResult: compile, decode the first value (empty or `null` is `{}`), validate. */
function run(toolName: string, schemaText: string, dataText: string, what: "input" | "output", given?: JsonRead): Outcome {
  const compiled = cache.get(schemaText);
  if (!compiled.ok) return { kind: "error", class: "schema_invalid", error: `invalid ${what} schema for tool ${toolName}: ${compiled.message}` };
  let value: JNode = EMPTY_OBJECT;
  if (dataText.length !== 0 && dataText !== "null") {
    const read = given ?? readGoJson(dataText, "decoder");
    if (!read.ok) return { kind: "error", class: "not_json", error: `validation error for tool ${toolName}: ${read.message}` };
    value = read.value;
  }
  // The regex work is bounded by the size of what is validated (an empty or `null` text validates `{}`).
  const total = REGEX_STEP_BASE + REGEX_STEPS_PER_UNIT * dataText.length;
  const v = validateValue(compiled.root, value, { left: total, total });
  if (!v.ok) return { kind: "invalid", list: `[${v.stopped}]` };
  if (v.errors.length === 0) return { kind: "valid" };
  return { kind: "invalid", list: `[${v.errors.join(" ")}]` };
}

/**
 * Validates a call's (already coerced) argument text against the tool's
 * input schema, as PromptKit's `ValidateArgs` does: no schema means no
 * check; empty arguments and `null` are validated as `{}`; only the first
 * JSON value of the text is read (data after it is ignored); the schema is
 * compiled with gojsonschema's hybrid draft 4/6/7 semantics unless `$schema`
 * names one of those drafts.
 *
 * Errors are listed in gojsonschema's order. Where Go's map order makes that
 * order vary from call to call (several failing declared properties, several
 * unexpected keys, dependencies, several matching patternProperties), this
 * lists declared properties in sorted key order and the argument's keys in
 * the order the model wrote them. `read`, when given, is
 * `readGoJson(argsText, "decoder")`, which the caller has already.
 * @internal
 */
export function validateArguments(toolName: string, schemaJson: string | undefined, argsText: string, read?: JsonRead): ArgumentCheck {
  if (schemaJson === undefined || schemaJson.length === 0) return { ok: true };
  const out = run(toolName, schemaJson, argsText, "input", read);
  switch (out.kind) {
    case "valid":
      return { ok: true };
    case "invalid":
      return { ok: false, class: "args_invalid", error: `tool ${toolName} validation error (args_invalid): argument validation failed: ${out.list}` };
    default:
      return { ok: false, class: out.class, error: out.error };
  }
}

function resultError(toolName: string, out: Exclude<Outcome, { kind: "valid" }>): string {
  if (out.kind === "invalid") return `tool ${toolName} validation error (result_invalid): result validation failed: ${out.list}`;
  return out.error;
}

/** The first number of a decoded value that Go cannot hold in a float64, in document order. */
function firstHugeNumber(v: JNode): string | undefined {
  const stack: JNode[] = [v];
  while (stack.length > 0) {
    const n = stack.pop() as JNode;
    if (n instanceof GoNumber) {
      if (!Number.isFinite(Number(n.text))) return n.text;
    } else if (Array.isArray(n)) {
      for (let i = n.length - 1; i >= 0; i--) stack.push(n[i] as JNode);
    } else if (n instanceof Map) {
      const vals = [...n.values()];
      for (let i = vals.length - 1; i >= 0; i--) stack.push(vals[i] as JNode);
    }
  }
  return undefined;
}

/**
 * Validates a successful executor result against the tool's output schema,
 * as PromptKit's `CoerceResult` does: the result as it is first; if that
 * fails, the result decoded by Go's `json.Unmarshal` and re-encoded (sorted
 * keys, float64 numbers, Go escaping), validated again. There is no type
 * conversion of results. An empty or `null` result is validated as `{}`.
 * @internal
 */
export function validateResult(toolName: string, outputSchemaJson: string, resultText: string): ResultCheck {
  const first = run(toolName, outputSchemaJson, resultText, "output");
  if (first.kind === "valid") return { ok: true, result: resultText };
  const read = readGoJson(resultText, "unmarshal");
  if (!read.ok) return { ok: false, error: `result validation failed: cannot parse result for coercion: ${read.message}` };
  const huge = firstHugeNumber(read.value);
  if (huge !== undefined) {
    return { ok: false, error: `result validation failed: cannot parse result for coercion: json: cannot unmarshal number ${huge} into Go value of type float64` };
  }
  const normalised = canonicalJson(read.value);
  const second = run(toolName, outputSchemaJson, normalised, "output");
  if (second.kind === "valid") return { ok: true, result: normalised };
  return { ok: false, error: `result validation failed: coercion failed: ${resultError(toolName, second)}` };
}
