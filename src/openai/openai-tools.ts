// The OpenAI Chat Completions wire shapes of PromptKit's OpenAI provider
// (runtime/providers/openai/openai_tools.go): a tool is
// {type:"function", function:{name, description, parameters}} with the
// description always present, a call's arguments are the model's JSON text,
// and a result goes back as {role:"tool", tool_call_id, content} with the
// stage's text as the content. Structural types only: the package does not
// depend on the openai SDK.
import { InvalidOptionError, type JsonValue } from "../core/index.js";
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
   */
  readonly strict?: boolean;
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
  for (const key of Object.keys(value).sort()) out[key] = sortedCopy(value[key]);
  return out;
}

/** PromptKit 1.5.5's `applyStrictToObject` (`providers/openai/openai_tools.go`), in place. */
function applyStrict(obj: SchemaObject): void {
  const props = obj["properties"];
  if (isObject(props)) {
    obj["additionalProperties"] = false;
    // Go builds `required` from a map, in no fixed order: sorted here.
    obj["required"] = Object.keys(props).sort();
    for (const value of Object.values(props)) if (isObject(value)) applyStrict(value);
  } else if (obj["type"] === "object") {
    obj["properties"] = {};
    obj["additionalProperties"] = false;
    obj["required"] = [];
  }
  const items = obj["items"];
  if (isObject(items)) applyStrict(items);
}

/** The schema as PromptKit's `ensureStrictSchema` sends it: made strict, every key sorted; a non-object as it is. */
function strictSchema(schema: unknown): { readonly [key: string]: unknown } {
  if (!isObject(schema)) return schema as { readonly [key: string]: unknown };
  const copy = sortedCopy(schema) as SchemaObject;
  applyStrict(copy);
  return sortedCopy(copy) as SchemaObject;
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
  if (options.strict !== undefined && typeof options.strict !== "boolean") throw new InvalidOptionError(`toOpenAiTools: strict must be a boolean; got ${typeof options.strict}`);
  if (options.strict === false) {
    return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema as { readonly [key: string]: unknown } } }));
  }
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: strictSchema(t.inputSchema), strict: true } }));
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
export async function runOpenAiToolCalls(turn: Turn, message: OpenAiAssistantMessage): Promise<OpenAiToolRound> {
  const round = await turn.run(fromOpenAiToolCalls(message));
  const messages = toOpenAiToolMessages(round.messages);
  return round.approvals === undefined ? { messages, pending: round.pending } : { messages, pending: round.pending, approvals: round.approvals };
}
