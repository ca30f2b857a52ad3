// The OpenAI Chat Completions wire shapes of PromptKit's OpenAI provider
// (runtime/providers/openai/openai_tools.go): a tool is
// {type:"function", function:{name, description, parameters}} with the
// description always present, a call's arguments are the model's JSON text,
// and a result goes back as {role:"tool", tool_call_id, content} with the
// stage's text as the content. Structural types only: the package does not
// depend on the openai SDK.
import { goJsonDecode, goJsonEncode, InvalidOptionError, type JsonValue } from "../core/index.js";
import type { ClientToolRequest } from "../client-tools/index.js";
import type { Turn, TurnApprovalRequest, TurnCall, TurnTool } from "../turn/index.js";

/**
 * A Chat Completions function tool definition (`ChatCompletionFunctionTool` of
 * the openai SDK fits it).
 * @public
 */
export interface OpenAiFunctionTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    /** Always present, empty when the tool has none (as PromptKit sends it). */
    readonly description: string;
    /** The offered input schema: in strict mode as PromptKit makes it strict, else unchanged. */
    readonly parameters: { readonly [key: string]: unknown };
    /** `true` in strict mode (PromptKit's default); absent otherwise, as PromptKit omits it. */
    readonly strict?: true;
  };
}

/**
 * Options of {@link toOpenAiTools}.
 * @public
 */
export interface OpenAiToolsOptions {
  /**
   * OpenAI's strict mode for tools, as PromptKit 1.5.5's OpenAI provider sends
   * it by default (`strict_tools`): `function.strict: true`, and each schema
   * made strict (every object with `properties` gets `additionalProperties:
   * false` and lists every property, sorted, as `required`; an object without
   * `properties` gets empty ones; applied into each property and into `items`;
   * keys in sorted order, as Go's encoder writes them). `false`: the schema
   * unchanged and no `strict` field (PromptKit's `strict_tools: false`).
   * Default true.
   *
   * `"nullable"` (beyond PromptKit): strict, and each property the schema
   * did not require becomes nullable (`type: "string"` → `["string",
   * "null"]`, `null` added to its `enum`; a schema without `type` becomes
   * `anyOf: [<schema>, { type: "null" }]`), recursively, so the model can
   * still leave it out by sending `null`. Pass the same option to
   * {@link runOpenAiToolCalls}, which removes those `null`s before the turn
   * sees the call, so the backend receives what it would without strict mode
   * (a property whose own schema allows `null`, or has no `type`, `enum` or
   * `const`, keeps its `null`).
   */
  readonly strict?: boolean | "nullable";
}

/**
 * Options of {@link runOpenAiToolCalls}.
 * @public
 */
export interface OpenAiRunOptions {
  /**
   * `"nullable"`: the tools were sent with `toOpenAiTools(tools, { strict:
   * "nullable" })`; a `null` the model gave a property its tool's schema
   * (as `turn.tools` offers it) does not require and does not allow to be
   * `null` is removed, at any depth, before the call runs (the arguments are
   * then Go-encoded: sorted keys, compact; a number beyond float64's
   * precision loses digits, as Go's decoder into `any` does). Other values: the arguments are
   * the model's text, unchanged. Default true.
   */
  readonly strict?: boolean | "nullable";
}

type SchemaObject = Record<string, unknown>;

function isObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy with every object's keys sorted, as Go's `json.Marshal` of a decoded schema writes them. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (!isObject(value)) return value;
  const out: SchemaObject = {};
  // defineProperty: a property named "__proto__" stays a key instead of setting the copy's prototype.
  for (const key of Object.keys(value).sort()) Object.defineProperty(out, key, { value: sortedCopy(value[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * PromptKit 1.5.5's `applyStrictToObject` (`providers/openai/openai_tools.go`), in place; with `nullable`, each
 * property the object did not require also becomes nullable.
 */
function applyStrict(obj: SchemaObject, nullable: boolean): void {
  const props = obj["properties"];
  if (isObject(props)) {
    const required = nullable ? requiredNames(obj) : undefined;
    obj["additionalProperties"] = false;
    // Go builds `required` from a map, in no fixed order: sorted here.
    obj["required"] = Object.keys(props).sort();
    for (const [key, value] of Object.entries(props)) {
      if (!isObject(value)) continue;
      applyStrict(value, nullable);
      if (required !== undefined && !required.has(key)) makeNullable(value);
    }
  } else if (obj["type"] === "object") {
    obj["properties"] = {};
    obj["additionalProperties"] = false;
    obj["required"] = [];
  }
  const items = obj["items"];
  if (isObject(items)) applyStrict(items, nullable);
}

/** Each schema object's `required` names, computed once (an array of many elements shares one item schema). */
const requiredCache = new WeakMap<SchemaObject, Set<string>>();

/** The names an object schema's `required` lists. */
function requiredNames(schema: SchemaObject): Set<string> {
  let names = requiredCache.get(schema);
  if (names === undefined) {
    const list = schema["required"];
    names = new Set(Array.isArray(list) ? list.filter((n): n is string => typeof n === "string") : []);
    requiredCache.set(schema, names);
  }
  return names;
}

/**
 * Whether a schema may accept `null` as it stands: a `null` type, a `null` in
 * its enum or type list, `nullable`, a `null` branch, or no `type`, `enum` or
 * `const` at all (`{}`, a `$ref`, `allOf`, `not`: not decided here, so a
 * `null` the model sends there is kept).
 */
function allowsNull(schema: unknown): boolean {
  if (!isObject(schema)) return schema === true;
  const type = schema["type"];
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema["nullable"] === true) return true;
  const en = schema["enum"];
  if (Array.isArray(en) && en.includes(null)) return true;
  if ("const" in schema) return schema["const"] === null;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some(allowsNull)) return true;
  }
  return type === undefined && en === undefined && !("anyOf" in schema) && !("oneOf" in schema);
}

/** Makes a property's schema accept `null` too, in place, as OpenAI's strict mode asks for an optional field. */
function makeNullable(schema: SchemaObject): void {
  if (allowsNull(schema)) return;
  const type = schema["type"];
  if (typeof type === "string" || Array.isArray(type)) {
    schema["type"] = [...(Array.isArray(type) ? type : [type]), "null"];
    const en = schema["enum"];
    if (Array.isArray(en)) schema["enum"] = [...en, null];
    return;
  }
  const copy: SchemaObject = { ...schema };
  for (const key of Object.keys(schema)) delete schema[key];
  schema["anyOf"] = [copy, { type: "null" }];
}

/** The schema as PromptKit's `ensureStrictSchema` sends it: made strict, every key sorted; a non-object as it is. */
function strictSchema(schema: unknown, nullable: boolean): { readonly [key: string]: unknown } {
  if (!isObject(schema)) return schema as { readonly [key: string]: unknown };
  const copy = sortedCopy(schema) as SchemaObject;
  applyStrict(copy, nullable);
  return sortedCopy(copy) as SchemaObject;
}

/**
 * Removes, in place, each `null` the nullable strict schema let the model send for a property `schema` (the
 * offered one) neither requires nor allows to be `null`; descends into the properties and `items` it knows.
 * Returns whether anything was removed. Depth is bounded by the arguments' own (at most 1000 levels, checked
 * before parsing by the caller's decoder).
 */
function removeIntroducedNulls(value: unknown, schema: unknown): boolean {
  if (!isObject(schema)) return false;
  let changed = false;
  if (isObject(value)) {
    const props = schema["properties"];
    if (!isObject(props)) return false;
    const required = requiredNames(schema);
    for (const key of Object.keys(value)) {
      if (!Object.prototype.hasOwnProperty.call(props, key)) continue;
      const sub = props[key];
      if (value[key] === null && !required.has(key) && !allowsNull(sub)) {
        delete value[key];
        changed = true;
      } else if (removeIntroducedNulls(value[key], sub)) changed = true;
    }
  } else if (Array.isArray(value)) {
    const items = schema["items"];
    for (const element of value) if (removeIntroducedNulls(element, items)) changed = true;
  }
  return changed;
}

/**
 * The part of a Chat Completions assistant message that carries tool calls
 * (`completion.choices[0].message` of the openai SDK fits it).
 * @public
 */
export interface OpenAiAssistantMessage {
  readonly tool_calls?: readonly OpenAiToolCall[] | null | undefined;
}

/**
 * One entry of `tool_calls`: a function call, or another kind (a custom tool
 * call), which is not a tool of this package and is skipped.
 * @public
 */
export interface OpenAiToolCall {
  readonly id: string;
  readonly type: string;
  readonly function?: { readonly name: string; readonly arguments: string } | undefined;
}

/**
 * A tool-result message of the next request (`ChatCompletionToolMessageParam`).
 * @public
 */
export interface OpenAiToolMessage {
  readonly role: "tool";
  readonly tool_call_id: string;
  /** The exact text the stage gives the model. */
  readonly content: string;
}

/**
 * A result to send back: a round's message (`TurnMessage`) or a client's
 * answer (`turn.complete()`'s `TurnCompletion`).
 * @public
 */
export interface ToolResultText {
  readonly callId: string;
  readonly content: string;
}

/**
 * What {@link runOpenAiToolCalls} gives back.
 * @public
 */
export interface OpenAiToolRound {
  /** The `role: "tool"` messages to append, in call order (client calls excluded). */
  readonly messages: OpenAiToolMessage[];
  /**
   * The client calls to forward to the app's client, in call order; each
   * answer goes through `turn.complete()` and {@link toOpenAiToolMessages}.
   */
  readonly pending: readonly ClientToolRequest[];
  /**
   * With the turn's `approval` option: the server calls held for a person,
   * in call order; each decision (`turn.approve()` or `turn.deny()`) gives a
   * message for {@link toOpenAiToolMessages}. Absent without the option.
   */
  readonly approvals?: readonly TurnApprovalRequest[];
}

/**
 * The offered tools (`turn.tools`) as Chat Completions tool definitions, in
 * the same order, as PromptKit 1.5.5's OpenAI provider sends them: in strict
 * mode by default (`function.strict: true`, each schema made strict; see
 * {@link OpenAiToolsOptions.strict}), or with `{ strict: false }` each schema
 * unchanged. When the list is empty (every tool excluded), send no `tools`,
 * `tool_choice` or `parallel_tool_calls` at all: OpenAI refuses tool
 * parameters without tools, and PromptKit (from 1.5.10) then sends no tool
 * list while the history keeps its tool messages.
 * @public
 */
export function toOpenAiTools(tools: readonly TurnTool[], options: OpenAiToolsOptions = {}): OpenAiFunctionTool[] {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`toOpenAiTools: options must be an object; got ${String(options)}`);
  const strict = checkStrict("toOpenAiTools", options.strict);
  if (strict === false) {
    return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema as { readonly [key: string]: unknown } } }));
  }
  const nullable = strict === "nullable";
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: strictSchema(t.inputSchema, nullable), strict: true } }));
}

function checkStrict(where: string, strict: unknown): boolean | "nullable" {
  if (strict === undefined) return true;
  if (typeof strict === "boolean" || strict === "nullable") return strict;
  throw new InvalidOptionError(`${where}: strict must be true, false or "nullable"; got ${typeof strict === "string" ? JSON.stringify(strict) : typeof strict}`);
}

/** The calls with the `null`s the nullable strict schema introduced removed; a call whose arguments lose none keeps its text. */
function withoutIntroducedNulls(turn: Turn, calls: readonly TurnCall[]): TurnCall[] {
  const schemas = new Map(turn.tools.map((t) => [t.name, t.inputSchema]));
  return calls.map((call) => {
    const schema = schemas.get(call.name);
    if (schema === undefined || typeof call.arguments !== "string") return call;
    const decoded = goJsonDecode(call.arguments);
    if (!decoded.ok || !removeIntroducedNulls(decoded.value, schema)) return call;
    const text = goJsonEncode(decoded.value);
    return text === undefined ? call : { id: call.id, name: call.name, arguments: text };
  });
}

/**
 * The function calls of an assistant message as the turn's calls, in the
 * model's order; `arguments` stays the model's JSON text. Entries of another
 * `type` (custom tools) are skipped. A message without `tool_calls` gives `[]`.
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) when the message or a function call is not shaped as the API defines it
 * @public
 */
export function fromOpenAiToolCalls(message: OpenAiAssistantMessage): TurnCall[] {
  if (message === null || typeof message !== "object") throw new InvalidOptionError(`fromOpenAiToolCalls: message must be an assistant message object; got ${message === null ? "null" : typeof message}`);
  const list = message.tool_calls;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new InvalidOptionError(`fromOpenAiToolCalls: tool_calls must be an array; got ${typeof list}`);
  const calls: TurnCall[] = [];
  list.forEach((c: OpenAiToolCall, i: number) => {
    if (c === null || typeof c !== "object" || c.type !== "function") return;
    const fn = c.function;
    if (typeof c.id !== "string" || fn === null || typeof fn !== "object" || typeof fn.name !== "string") {
      throw new InvalidOptionError(`fromOpenAiToolCalls: tool_calls[${i}] must be { id: string, function: { name: string, arguments } }`);
    }
    calls.push({ id: c.id, name: fn.name, arguments: typeof fn.arguments === "string" ? fn.arguments : ((fn.arguments ?? "") as JsonValue) });
  });
  return calls;
}

/**
 * Results as the next request's `role: "tool"` messages, in the order given.
 * @public
 */
export function toOpenAiToolMessages(results: readonly ToolResultText[]): OpenAiToolMessage[] {
  return results.map((r) => ({ role: "tool", tool_call_id: r.callId, content: r.content }));
}

/**
 * Runs the tool calls of one assistant message as one round of `turn`: each
 * call's exact text (`Tool execution failed: HTTP 503: down`, the formatted
 * and size-limited result), in call order, under the turn's parallel limit and
 * loop guards, as `role: "tool"` messages for the next request.
 *
 * @example
 * ```ts
 * const turn = createTurn(executor, { pack, ctx: { identity } });
 * const completion = await openai.chat.completions.create({ model, messages, tools: toOpenAiTools(turn.tools) });
 * const message = completion.choices[0].message;
 * const round = await runOpenAiToolCalls(turn, message);
 * messages.push(message, ...round.messages);
 * ```
 * @throws InvalidOptionError for a malformed message; what `turn.run()` throws (a `TurnError` where PromptKit fails the turn, the executor's `AbortedError`)
 * @public
 */
export async function runOpenAiToolCalls(turn: Turn, message: OpenAiAssistantMessage, options: OpenAiRunOptions = {}): Promise<OpenAiToolRound> {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`runOpenAiToolCalls: options must be an object; got ${String(options)}`);
  const strict = checkStrict("runOpenAiToolCalls", options.strict);
  const calls = fromOpenAiToolCalls(message);
  const round = await turn.run(strict === "nullable" ? withoutIntroducedNulls(turn, calls) : calls);
  const messages = toOpenAiToolMessages(round.messages);
  return round.approvals === undefined ? { messages, pending: round.pending } : { messages, pending: round.pending, approvals: round.approvals };
}
