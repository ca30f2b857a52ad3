// What a model provider refuses in one tool definition (its name and input
// schema), checked before the request is sent: a refused tool fails every
// request that offers it, not just the calls to it. Pure, no I/O. The rules are
// only those the providers publish (sources above each rule set); a keyword the
// documentation leaves open is not reported.
//
// The walk uses an explicit stack, so no schema depth can overflow the call
// stack; it visits each object once (a value shared by two places, or one that
// contains itself, is checked at the first place only), never follows `$ref`,
// and stops past MAX_JSON_DEPTH levels with one issue. Paths are kept as links
// to the parent, so a deep schema costs one segment per node, and an issue's
// path is built only when the issue is.
import { didYouMean, MAX_JSON_DEPTH, thrownText } from "../core/index.js";
import { describeValue, type PathSegment } from "./issues.js";
import { isPlainObject } from "./json.js";

/**
 * A model provider's API whose rules {@link checkSchemaTargets} applies:
 * `openai-strict` (function calling with `strict: true`, the schema as the
 * OpenAI adapter sends it by default), `anthropic` (the Messages API's
 * `tools[].input_schema`), `gemini` (the Gemini API's
 * `FunctionDeclaration.parameters`, its OpenAPI 3.0 `Schema` subset).
 * @public
 */
export type SchemaTarget = "openai-strict" | "anthropic" | "gemini";

/**
 * Every {@link SchemaTarget}, in the order the checks report them.
 * @public
 */
export const SCHEMA_TARGETS: readonly SchemaTarget[] = Object.freeze(["openai-strict", "anthropic", "gemini"]);

/**
 * One thing a provider would refuse in a tool definition.
 * @public
 */
export interface SchemaTargetIssue {
  /** The provider that would refuse it. */
  readonly target: SchemaTarget;
  /** `name`: the tool's name (the path is then `[]`); `inputSchema`: something at `path` inside the input schema. */
  readonly field: "name" | "inputSchema";
  /** Where inside the input schema, `[]` for its root: `["properties", "address", "additionalProperties"]`. */
  readonly path: readonly PathSegment[];
  /**
   * What is wrong and how to fix it, one line, starting with the target:
   * `openai-strict: "format": "uri" is not supported in strict mode (...); remove it or use "pattern"`.
   */
  readonly message: string;
}

type SchemaObject = Record<string, unknown>;

/** A path kept as a link to its parent: a deep walk stores one segment per node. */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly segment: PathSegment;
  readonly length: number;
}

function extend(parent: PathLink | undefined, segment: PathSegment): PathLink {
  return { parent, segment, length: (parent?.length ?? 0) + 1 };
}

function pathOf(link: PathLink | undefined): PathSegment[] {
  const out = new Array<PathSegment>(link?.length ?? 0);
  for (let l = link; l !== undefined; l = l.parent) out[l.length - 1] = l.segment;
  return out;
}

/** One schema location to visit, with what the target's rules carry down to it. */
interface Frame<S> {
  readonly schema: unknown;
  readonly at: PathLink | undefined;
  readonly state: S;
}

/** What a schema object gives the walk, in document order: an issue, or a nested schema to visit. */
type Step<S> = { readonly at: PathLink | undefined; readonly message: string } | { readonly frame: Frame<S> };

/**
 * Visits `root` and every nested schema `expand` yields, depth first in
 * document order, appending each issue to `out`: linear in the schema's size.
 */
function walk<S>(target: SchemaTarget, root: Frame<S>, expand: (frame: Frame<S>, steps: Step<S>[]) => void, out: SchemaTargetIssue[]): void {
  const stack: Step<S>[] = [{ frame: root }];
  const seen = new Set<object>();
  let tooDeep = false;
  // A peer's schema can hold a problem per key: past MAX_ISSUES only a count is kept (each issue's path costs its
  // depth); past MAX_NODES (getters that build a new subtree on every read) the check stops.
  let listed = 0;
  let unlisted = 0;
  let nodes = 0;
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if (!("frame" in step)) {
      if (listed < MAX_ISSUES) {
        out.push({ target, field: "inputSchema", path: pathOf(step.at), message: step.message });
        listed++;
      } else unlisted++;
      continue;
    }
    if (++nodes > MAX_NODES) {
      out.push({ target, field: "inputSchema", path: [], message: `${target}: the schema has more than ${MAX_NODES} schema locations; it is not checked further` });
      break;
    }
    const { frame } = step;
    if ((frame.at?.length ?? 0) > MAX_JSON_DEPTH) {
      if (!tooDeep) out.push({ target, field: "inputSchema", path: pathOf(frame.at), message: `${target}: the schema is nested deeper than ${MAX_JSON_DEPTH} levels here; it is not checked further` });
      tooDeep = true;
      continue;
    }
    if (typeof frame.schema === "object" && frame.schema !== null) {
      if (seen.has(frame.schema)) continue;
      seen.add(frame.schema);
    }
    const steps: Step<S>[] = [];
    expand(frame, steps);
    for (let i = steps.length - 1; i >= 0; i--) stack.push(steps[i] as Step<S>);
  }
  if (unlisted > 0) out.push({ target, field: "inputSchema", path: [], message: `${target}: ${unlisted} more ${unlisted === 1 ? "problem" : "problems"} like the ones above are not listed (at most ${MAX_ISSUES} per target)` });
}

/** The issues one target lists for one schema; the rest are counted in one issue. */
const MAX_ISSUES = 1_000;
/** The schema locations one target visits before it gives up (a JSON schema of this many is over 10 MiB). */
const MAX_NODES = 1_000_000;

/** The keywords whose values are maps of name → schema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** The keywords whose values are lists of schemas. */
const SCHEMA_LISTS = new Set(["prefixItems", "anyOf", "oneOf", "allOf"]);
/** The keywords whose values are one schema (`items` may be a list too: the tuple form of older drafts). */
const SCHEMA_SINGLES = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"]);

/**
 * Pushes the schemas nested under `key` of a schema object (the keyword's value
 * itself is never read as a schema); `kind` is the keyword `key` is spelt for.
 */
function pushNested<S>(value: unknown, key: string, at: PathLink | undefined, state: S, steps: Step<S>[], kind: string = key): void {
  const base = extend(at, key);
  if (SCHEMA_MAPS.has(kind)) {
    if (isPlainObject(value)) for (const name of Object.keys(value)) steps.push({ frame: { schema: value[name], at: extend(base, name), state } });
  } else if (SCHEMA_LISTS.has(kind) || (kind === "items" && Array.isArray(value))) {
    if (Array.isArray(value)) value.forEach((member: unknown, i) => steps.push({ frame: { schema: member, at: extend(base, i), state } }));
  } else if (SCHEMA_SINGLES.has(kind)) {
    if (typeof value === "object" && value !== null) steps.push({ frame: { schema: value, at: base, state } });
  }
}

function typeNames(schema: SchemaObject): readonly unknown[] {
  const type = schema["type"];
  return Array.isArray(type) ? type : [type];
}

// ---------------------------------------------------------------------------
// openai-strict
//
// Sources:
// - https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
//   (also served as https://developers.openai.com/api/docs/guides/structured-outputs),
//   sections "Supported properties" (string `format` values), "Root objects must
//   not be `anyOf` and must be an object", "All fields must be `required`",
//   "Objects have limitations on nesting depth and size" (5000 properties, 10
//   levels), "Limitations on total string size" (120,000 characters),
//   "Limitations on enum size" (1000 values; 15,000 characters for one string
//   enum of more than 250 values), "`additionalProperties: false` must always be
//   set in objects", "Some type-specific keywords are not yet supported"
//   (Composition: allOf, not, dependentRequired, dependentSchemas, if, then, else;
//   the string/number/object/array keywords listed there apply to fine-tuned
//   models only, so they are not reported).
// - The function name: https://platform.openai.com/docs/api-reference/chat/create
//   (`tools[].function.name`: "Must be a-z, A-Z, 0-9, or contain underscores and
//   dashes, with a maximum length of 64").
//
// The schema is checked as the OpenAI adapter (`toOpenAiTools`, PromptKit
// 1.5.5's `ensureStrictSchema`) sends it by default: every object reached from
// the root through `properties` and object-form `items` that has `properties`,
// or has `type: "object"`, gets `additionalProperties: false` and every property
// in `required` (its own `additionalProperties` and `required` are replaced, so
// they are not checked). Objects elsewhere (`anyOf` members, `$defs`, a schema
// in `additionalProperties`, tuple `items`) go out as written.
// ---------------------------------------------------------------------------

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const CHECK_IN_TOOL = "remove it and check the value in the tool";
/** Keyword → how to do without it. */
const OPENAI_UNSUPPORTED: ReadonlyMap<string, string> = new Map([
  ["allOf", "merge its schemas into this one"],
  ["not", CHECK_IN_TOOL],
  ["dependentRequired", CHECK_IN_TOOL],
  ["dependentSchemas", CHECK_IN_TOOL],
  ["if", CHECK_IN_TOOL],
  ["then", CHECK_IN_TOOL],
  ["else", CHECK_IN_TOOL],
]);
const OPENAI_MAX_OBJECT_LEVELS = 10;
const OPENAI_MAX_PROPERTIES = 5000;
const OPENAI_MAX_ENUM_VALUES = 1000;
const OPENAI_LARGE_ENUM_VALUES = 250;
const OPENAI_MAX_LARGE_ENUM_CHARS = 15_000;
const OPENAI_MAX_STRING_CHARS = 120_000;

interface OpenAiState {
  /** The adapter's strict pass reaches this schema (from the root through `properties` and `items`). */
  readonly reached: boolean;
  /** Object schemas on the way here, this one excluded. */
  readonly objects: number;
}

/** Sizes over the whole schema, as sent. */
interface OpenAiTotals {
  properties: number;
  enumValues: number;
  stringChars: number;
}

function checkOpenAi(schema: unknown, out: SchemaTargetIssue[]): void {
  const t: SchemaTarget = "openai-strict";
  if (!isPlainObject(schema)) {
    out.push({ target: t, field: "inputSchema", path: [], message: `${t}: the input schema must be a JSON Schema object with "type": "object"; got ${describeValue(schema)}` });
    return;
  }
  const totals: OpenAiTotals = { properties: 0, enumValues: 0, stringChars: 0 };
  walk<OpenAiState>(t, { schema, at: undefined, state: { reached: true, objects: 0 } }, (frame, steps) => expandOpenAi(frame, steps, totals), out);
  if (totals.properties > OPENAI_MAX_PROPERTIES) {
    out.push({ target: t, field: "inputSchema", path: [], message: `${t}: the schema has ${totals.properties} object properties; strict mode allows ${OPENAI_MAX_PROPERTIES} in all` });
  }
  if (totals.enumValues > OPENAI_MAX_ENUM_VALUES) {
    out.push({ target: t, field: "inputSchema", path: [], message: `${t}: the schema has ${totals.enumValues} enum values; strict mode allows ${OPENAI_MAX_ENUM_VALUES} across all enums` });
  }
  if (totals.stringChars > OPENAI_MAX_STRING_CHARS) {
    out.push({
      target: t,
      field: "inputSchema",
      path: [],
      message: `${t}: property names, definition names, enum and const values total ${totals.stringChars} characters; strict mode allows ${OPENAI_MAX_STRING_CHARS}`,
    });
  }
}

function expandOpenAi(frame: Frame<OpenAiState>, steps: Step<OpenAiState>[], totals: OpenAiTotals): void {
  const t: SchemaTarget = "openai-strict";
  const node = frame.schema;
  if (!isPlainObject(node)) return;
  const { at } = frame;
  const root = at === undefined;
  const props = node["properties"];
  const hasProps = isPlainObject(props);
  const isObject = hasProps || typeNames(node).includes("object");
  // The strict pass rewrites these objects' `additionalProperties` and `required` (and empty `properties` for a bare `type: "object"`).
  const rewritten = frame.state.reached && (hasProps || node["type"] === "object");
  const objects = frame.state.objects + (isObject ? 1 : 0);
  const issue = (message: string, key?: string): void => void steps.push({ at: key === undefined ? at : extend(at, key), message: `${t}: ${message}` });

  if (root && !Object.hasOwn(node, "type")) issue('the root schema needs "type": "object"; add it');
  if (isObject && objects === OPENAI_MAX_OBJECT_LEVELS + 1) issue(`objects are nested more than ${OPENAI_MAX_OBJECT_LEVELS} levels deep here; strict mode allows ${OPENAI_MAX_OBJECT_LEVELS}; flatten the schema`);
  if (isObject && !rewritten && !Object.hasOwn(node, "additionalProperties")) issue('strict mode needs "additionalProperties": false on every object, and the adapter sets it only on objects reached through "properties" and "items"; add it');
  if (isObject && !rewritten && hasProps && !Object.hasOwn(node, "required")) issue(missingRequired(Object.keys(props)));

  for (const key of Object.keys(node)) {
    const value = node[key];
    const instead = OPENAI_UNSUPPORTED.get(key);
    if (instead !== undefined) {
      issue(`"${key}" is not supported in strict mode; ${instead}`, key);
      continue;
    }
    switch (key) {
      case "type":
        if (root && value !== "object") issue(`the root schema must have "type": "object"; got ${describeValue(value)}`, key);
        break;
      case "anyOf":
        if (root) {
          issue('"anyOf" at the root is not supported in strict mode; make the root one object and move the alternatives into a property', key);
          continue;
        }
        break;
      case "format":
        if (typeof value === "string" && !OPENAI_FORMATS.has(value)) {
          issue(`"format": ${JSON.stringify(value)} is not supported in strict mode (supported: ${[...OPENAI_FORMATS].join(", ")}); remove it or use "pattern"`, key);
        }
        break;
      case "additionalProperties":
        if (rewritten) continue;
        if (isObject && value !== false) {
          issue(`"additionalProperties" must be false in strict mode; got ${describeValue(value)}; set it to false`, key);
          continue;
        }
        break;
      case "required":
        if (!rewritten && isObject && hasProps) {
          const listed = new Set(Array.isArray(value) ? value : []);
          const missing = Object.keys(props).filter((name) => !listed.has(name));
          if (missing.length > 0) issue(missingRequired(missing), key);
        }
        break;
      case "enum":
        if (Array.isArray(value)) countEnum(value, totals, issue);
        break;
      case "const":
        if (typeof value === "string") totals.stringChars += value.length;
        break;
      case "properties":
        if (!hasProps) {
          if (rewritten) continue; // replaced by {} for a bare `type: "object"`
          break;
        }
        totals.properties += Object.keys(props).length;
        for (const name of Object.keys(props)) totals.stringChars += name.length;
        break;
      case "$defs":
      case "definitions":
        if (isPlainObject(value)) for (const name of Object.keys(value)) totals.stringChars += name.length;
        break;
    }
    // The strict pass descends only into `properties` of an object it rewrote and into object-form `items`.
    const reached = frame.state.reached && ((key === "properties" && hasProps) || (key === "items" && isPlainObject(value)));
    pushNested(value, key, at, { reached, objects }, steps);
  }
}

function missingRequired(names: readonly string[]): string {
  return `strict mode needs every property in "required"; missing ${names.map((n) => JSON.stringify(n)).join(", ")}; list them (an optional one can allow null instead)`;
}

function countEnum(values: readonly unknown[], totals: OpenAiTotals, issue: (message: string, key?: string) => void): void {
  totals.enumValues += values.length;
  let chars = 0;
  for (const v of values) if (typeof v === "string") chars += v.length;
  totals.stringChars += chars;
  if (values.length > OPENAI_LARGE_ENUM_VALUES && chars > OPENAI_MAX_LARGE_ENUM_CHARS) {
    issue(`this enum has ${values.length} values of ${chars} characters in all; strict mode allows ${OPENAI_MAX_LARGE_ENUM_CHARS} characters for an enum of more than ${OPENAI_LARGE_ENUM_VALUES} values`, "enum");
  }
}

// ---------------------------------------------------------------------------
// anthropic
//
// Sources:
// - https://platform.claude.com/docs/en/api/messages (Messages API reference,
//   `tools[]`: `input_schema` has `type: "object"`; `name` has minLength 1 and
//   maxLength 128).
// - https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
//   ("Specifying client tools": `name` "Must match the regex
//   `^[a-zA-Z0-9_-]{1,64}$`"). The API reference allows 128 characters and the
//   API's own error says `String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`
//   (https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1345),
//   so the guide's characters are checked with the reference's length.
// - No `oneOf`, `allOf` or `anyOf` at the top level: the API refuses them with
//   `input_schema does not support oneOf, allOf, or anyOf at the top level`
//   (https://github.com/anthropics/claude-code/issues/5319); the guides do not
//   say so.
// ---------------------------------------------------------------------------

const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const ANTHROPIC_TOP_LEVEL = new Set(["oneOf", "allOf", "anyOf"]);

function checkAnthropic(schema: unknown, out: SchemaTargetIssue[]): void {
  const t: SchemaTarget = "anthropic";
  const issue = (path: PathSegment[], message: string): void => void out.push({ target: t, field: "inputSchema", path, message: `${t}: ${message}` });
  if (!isPlainObject(schema)) {
    issue([], `input_schema must be a JSON Schema object with "type": "object"; got ${describeValue(schema)}`);
    return;
  }
  if (!Object.hasOwn(schema, "type")) issue([], 'input_schema needs "type": "object" at the root; add it');
  for (const key of Object.keys(schema)) {
    if (key === "type" && schema[key] !== "object") issue([key], `the root "type" must be "object"; got ${describeValue(schema[key])}`);
    if (ANTHROPIC_TOP_LEVEL.has(key)) {
      issue([key], `"${key}" at the top level is refused ("input_schema does not support oneOf, allOf, or anyOf at the top level"); keep the root one object and check the alternatives in the tool`);
    }
  }
}

// ---------------------------------------------------------------------------
// gemini
//
// Sources:
// - https://ai.google.dev/api/caching#Schema (the Gemini API's `Schema`, "a
//   select subset of an OpenAPI 3.0 schema object"; its fields: type, format,
//   title, description, nullable, enum (string[]), maxItems, minItems,
//   properties, required, minProperties, maxProperties, minLength, maxLength,
//   pattern, example, anyOf, propertyOrdering, default, items (one Schema),
//   minimum, maximum). The API parses it as a protocol buffer message, so any
//   other key is refused ("Invalid JSON payload received. Unknown name
//   \"additionalProperties\" at '...parameters': Cannot find field", as in
//   https://github.com/BerriAI/litellm/issues/14330), a list where one value
//   belongs too ("Proto field is not repeating, cannot start list", as in
//   https://github.com/zed-industries/zed/issues/53919), and the proto JSON
//   mapping also accepts the snake_case field names. `enum` is a list of
//   strings, on any type (the Vertex AI Schema reference's example is
//   `{type:INTEGER, format:enum, enum:["101", "201", "301"]}`). `format` takes any value ("Any value is allowed, but most do not
//   trigger any special functionality").
// - https://ai.google.dev/api/caching#FunctionDeclaration (`name`: "Must be a-z,
//   A-Z, 0-9, or contain underscores, colons, dots, and dashes, with a maximum
//   length of 128"; older revisions said 64).
//
// `parametersJsonSchema` (full JSON Schema) is a different field and is not
// what this target checks.
// ---------------------------------------------------------------------------

const GEMINI_NAME = /^[a-zA-Z0-9_.:-]{1,128}$/;
const GEMINI_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "max_items",
  "minItems",
  "min_items",
  "properties",
  "required",
  "minProperties",
  "min_properties",
  "maxProperties",
  "max_properties",
  "minLength",
  "min_length",
  "maxLength",
  "max_length",
  "pattern",
  "example",
  "anyOf",
  "any_of",
  "propertyOrdering",
  "property_ordering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
/** Field → what to use instead; any other unknown field is removed. */
const GEMINI_FIXES: ReadonlyMap<string, string> = new Map([
  ["oneOf", 'use "anyOf"'],
  ["allOf", "merge its schemas into this one"],
  ["$ref", "inline the schema it points to"],
  ["$defs", "inline its schemas where they are used and remove it"],
  ["definitions", "inline its schemas where they are used and remove it"],
  ["const", 'use a one-value "enum"'],
  ["exclusiveMinimum", 'use "minimum"'],
  ["exclusiveMaximum", 'use "maximum"'],
  ["examples", 'use "example" (one value)'],
]);

function checkGemini(schema: unknown, out: SchemaTargetIssue[]): void {
  walk<undefined>("gemini", { schema, at: undefined, state: undefined }, expandGemini, out);
}

function expandGemini(frame: Frame<undefined>, steps: Step<undefined>[]): void {
  const t: SchemaTarget = "gemini";
  const { at } = frame;
  const node = frame.schema;
  const issue = (message: string, key?: string): void => void steps.push({ at: key === undefined ? at : extend(at, key), message: `${t}: ${message}` });
  if (!isPlainObject(node)) {
    issue(`a schema here must be an object (Gemini's Schema message); got ${describeValue(node)}`);
    return;
  }
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (!GEMINI_FIELDS.has(key)) {
      issue(`"${key}" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); ${GEMINI_FIXES.get(key) ?? "remove it"}`, key);
      continue;
    }
    if (key === "type" && Array.isArray(value)) {
      const others = value.filter((v) => v !== "null");
      const fix =
        others.length === 1 && value.length > 1
          ? `use "type": ${describeValue(others[0])} with "nullable": true`
          : value.length === 1
            ? `use "type": ${describeValue(value[0])}`
            : 'use "anyOf" with one type each';
      issue(`"type" takes one type, not a list; ${fix}`, key);
    } else if (key === "enum" && Array.isArray(value)) {
      const bad = value.findIndex((v) => typeof v !== "string");
      if (bad >= 0) issue(`"enum" takes strings only; got ${describeValue(value[bad])}; use string values`, key);
    } else if (key === "items" && Array.isArray(value)) {
      issue('"items" takes one schema, not a list (the tuple form); use one schema for every element', key);
    } else if (key === "properties" || key === "items" || key === "anyOf") {
      pushNested(value, key, at, undefined, steps);
    } else if (key === "any_of") {
      pushNested(value, key, at, undefined, steps, "anyOf");
    }
  }
}

// ---------------------------------------------------------------------------

const NAME_RULES: Readonly<Record<SchemaTarget, { readonly pattern: RegExp; readonly text: string }>> = {
  "openai-strict": { pattern: OPENAI_NAME, text: '1 to 64 characters of a-z, A-Z, 0-9, "_" and "-"' },
  anthropic: { pattern: ANTHROPIC_NAME, text: '1 to 128 characters of a-z, A-Z, 0-9, "_" and "-"' },
  gemini: { pattern: GEMINI_NAME, text: '1 to 128 characters of a-z, A-Z, 0-9, "_", ".", ":" and "-"' },
};

const CHECKS: Readonly<Record<SchemaTarget, (schema: unknown, out: SchemaTargetIssue[]) => void>> = {
  "openai-strict": checkOpenAi,
  anthropic: checkAnthropic,
  gemini: checkGemini,
};

/**
 * Everything each target's provider would refuse in one tool's name and input
 * schema, for the targets given (each once, in the order given; an unknown one
 * is skipped). For each target: the name first (`field: "name"`, path `[]`),
 * then the schema's issues in document order (a schema's own issues before
 * those nested in it, keys in their order), then the limits on the whole
 * schema (path `[]`). A refused keyword's contents are not checked further:
 * removing or rewriting it is the fix. `[]` when every target accepts the tool.
 *
 * Never throws: a value that is not a schema is an issue, a schema that cannot
 * be read (a throwing getter) ends its target's check with one. Linear in the
 * schema's size, with an explicit stack (any depth; past 1000 levels the rest
 * is not checked, with an issue); `$ref` is never followed and a value that
 * contains itself is checked once.
 *
 * @example
 * ```ts
 * checkSchemaTargets({ name: "fetch", inputSchema: { type: "object", properties: { url: { type: "string", format: "uri" } } } }, ["openai-strict"]);
 * // [{ target: "openai-strict", field: "inputSchema", path: ["properties", "url", "format"], message: 'openai-strict: "format": "uri" is not supported in strict mode (...); remove it or use "pattern"' }]
 * ```
 * @public
 */
export function checkSchemaTargets(tool: { readonly name: string; readonly inputSchema: unknown }, targets: readonly SchemaTarget[]): SchemaTargetIssue[] {
  const out: SchemaTargetIssue[] = [];
  const done = new Set<string>();
  let name: unknown;
  let schema: unknown;
  let readError: { readonly error: unknown } | undefined;
  try {
    name = tool.name;
    schema = tool.inputSchema;
  } catch (error) {
    readError = { error };
  }
  for (const target of targets) {
    if (done.has(target) || !Object.prototype.hasOwnProperty.call(CHECKS, target)) continue;
    done.add(target);
    const rule = NAME_RULES[target];
    if (typeof name !== "string" || !rule.pattern.test(name)) {
      out.push({ target, field: "name", path: [], message: `${target}: tool name ${describeValue(name)} must be ${rule.text}; rename it` });
    }
    const before = out.length;
    try {
      if (readError !== undefined) throw readError.error;
      CHECKS[target](schema, out);
    } catch (error) {
      out.splice(before);
      out.push({ target, field: "inputSchema", path: [], message: `${target}: the schema could not be read (${thrownText(error)})` });
    }
  }
  return out;
}

/**
 * Reads a list of {@link SchemaTarget}s from a CLI flag or an option: a
 * comma-separated string (`"openai-strict,anthropic"`, spaces around names
 * ignored) or an array of names. Duplicates are dropped; the order is kept.
 * Gives the error text instead (`<where>: unknown schema target "openai" (did
 * you mean ...?); expected one of openai-strict, anthropic, gemini`) for an
 * unknown or empty name, an empty list, or a value of another type.
 * @public
 */
export function parseSchemaTargets(value: unknown, where: string): { readonly targets: readonly SchemaTarget[] } | { readonly error: string } {
  const expected = `expected one of ${SCHEMA_TARGETS.join(", ")}`;
  let names: readonly unknown[];
  if (typeof value === "string") names = value.split(",").map((n) => n.trim());
  else if (Array.isArray(value)) names = value;
  else return { error: `${where}: expected a comma-separated list of schema targets (${SCHEMA_TARGETS.join(", ")}); got ${describeValue(value)}` };
  if (names.length === 0 || (names.length === 1 && names[0] === "")) return { error: `${where}: expected at least one schema target; ${expected}` };
  const targets: SchemaTarget[] = [];
  for (const name of names) {
    if (typeof name !== "string" || !(SCHEMA_TARGETS as readonly unknown[]).includes(name)) {
      const hint = typeof name === "string" && name !== "" ? didYouMean(name, SCHEMA_TARGETS) : undefined;
      const what = typeof name === "string" && name === "" ? `an empty schema target in ${describeValue(value)}` : `unknown schema target ${describeValue(name)}`;
      return { error: `${where}: ${what}${hint === undefined ? "" : ` (${hint})`}; ${expected}` };
    }
    if (!targets.includes(name as SchemaTarget)) targets.push(name as SchemaTarget);
  }
  return { targets };
}
