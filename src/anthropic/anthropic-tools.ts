// The Anthropic Messages wire shapes of PromptKit's Claude provider
// (runtime/providers/claude/claude_tools.go): a tool is {name, description,
// input_schema}, a call is a `tool_use` block whose `input` is the parsed
// arguments, and a result goes back as a `tool_result` block in a user
// message, its content the stage's text. PromptKit sets no `is_error`, so by
// default a failure reaches the model as its text only. Structural types only:
// the package does not depend on @anthropic-ai/sdk.
import { InvalidOptionError, rejectUnknownOptions, type JsonValue } from "../core/index.js";
import type { ClientToolRequest } from "../client-tools/index.js";
import type { Turn, TurnApprovalRequest, TurnCall, TurnTool } from "../turn/index.js";

/**
 * A Messages API tool definition (the SDK's `Tool` fits it).
 * @public
 */
export interface AnthropicTool {
  readonly name: string;
  /** Always present, empty when the tool has none (as PromptKit sends it). */
  readonly description: string;
  /** The offered input schema, unchanged. */
  readonly input_schema: { readonly type: "object"; readonly [key: string]: unknown };
}

/**
 * One content block of an assistant message; only `tool_use` blocks are read.
 * @public
 */
export interface AnthropicContentBlock {
  readonly type: string;
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly input?: unknown;
}

/**
 * The part of a Messages API response that carries tool calls (the SDK's
 * `Message` fits it).
 * @public
 */
export interface AnthropicAssistantMessage {
  readonly content: readonly AnthropicContentBlock[];
}

/**
 * A `tool_result` block of the next request (the SDK's `ToolResultBlockParam`).
 * @public
 */
export interface AnthropicToolResultBlock {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  /** The exact text the stage gives the model. */
  readonly content: string;
  /** Only with `markErrors`, on a failed call. */
  readonly is_error?: true;
}

/**
 * The user message that carries a round's `tool_result` blocks (the SDK's
 * `MessageParam` fits it).
 * @public
 */
export interface AnthropicToolResultMessage {
  readonly role: "user";
  readonly content: AnthropicToolResultBlock[];
}

/**
 * A result to send back: a round's message (`TurnMessage`, whose `isError`
 * counts with `markErrors`) or a client's answer (`turn.complete()`).
 * @public
 */
export interface AnthropicResultText {
  readonly callId: string;
  readonly content: string;
  readonly isError?: boolean;
}

/**
 * Options of {@link toAnthropicToolResults} and {@link runAnthropicToolUses}.
 * @public
 */
export interface AnthropicResultOptions {
  /**
   * Sets `is_error: true` on the result of a failed call (a `TurnMessage`
   * with `isError`), Anthropic's convention. Default false: no `is_error`, as
   * PromptKit's Claude provider sends it.
   */
  readonly markErrors?: boolean;
}

/**
 * What {@link runAnthropicToolUses} gives back.
 * @public
 */
export interface AnthropicToolRound {
  /**
   * The user message with a `tool_result` block per call, in call order
   * (client calls excluded); `content` is empty when every call was a client
   * call.
   */
  readonly message: AnthropicToolResultMessage;
  /**
   * The client calls to forward to the app's client, in call order; each
   * answer goes through `turn.complete()` and {@link toAnthropicToolResults}.
   */
  readonly pending: readonly ClientToolRequest[];
  /**
   * With the turn's `approval` option: the server calls held for a person,
   * in call order; each decision (`turn.approve()` or `turn.deny()`) gives a
   * result for {@link toAnthropicToolResults}. Absent without the option.
   */
  readonly approvals?: readonly TurnApprovalRequest[];
}

const RESULT_OPTIONS = new Set(["markErrors"]);

function checkOptions(where: string, options: AnthropicResultOptions): void {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`${where}: options must be an object; got ${options === null ? "null" : typeof options}`);
  rejectUnknownOptions(where, options, RESULT_OPTIONS);
}

/**
 * The offered tools (`turn.tools`) as Messages API tool definitions, in the
 * same order, each schema as it is offered. When it is empty (every tool
 * excluded), send no `tools` or `tool_choice` at all, as PromptKit (from
 * 1.5.10) sends no tool list then; the history keeps its tool blocks.
 * @public
 */
export function toAnthropicTools(tools: readonly TurnTool[]): AnthropicTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as AnthropicTool["input_schema"] }));
}

/**
 * The `tool_use` blocks of an assistant message as the turn's calls, in block
 * order; `arguments` is the block's parsed `input`, which the turn reads as
 * the text `JSON.stringify` gives. Other blocks are skipped.
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) when the message or a `tool_use` block is not shaped as the API defines it
 * @public
 */
export function fromAnthropicToolUses(message: AnthropicAssistantMessage): TurnCall[] {
  if (message === null || typeof message !== "object" || !Array.isArray(message.content)) {
    throw new InvalidOptionError(`fromAnthropicToolUses: message must be a Messages API response with a content array; got ${message === null ? "null" : typeof message}`);
  }
  const calls: TurnCall[] = [];
  message.content.forEach((b: AnthropicContentBlock, i: number) => {
    if (b === null || typeof b !== "object" || b.type !== "tool_use") return;
    if (typeof b.id !== "string" || typeof b.name !== "string") throw new InvalidOptionError(`fromAnthropicToolUses: content[${i}] must be a tool_use block { id: string, name: string, input }`);
    calls.push({ id: b.id, name: b.name, arguments: (b.input ?? {}) as JsonValue });
  });
  return calls;
}

/**
 * Results as `tool_result` blocks, in the order given.
 * @throws InvalidOptionError for an unknown option
 * @public
 */
export function toAnthropicToolResults(results: readonly AnthropicResultText[], options: AnthropicResultOptions = {}): AnthropicToolResultBlock[] {
  checkOptions("toAnthropicToolResults", options);
  const mark = options.markErrors === true;
  return results.map((r) =>
    mark && r.isError === true ? { type: "tool_result", tool_use_id: r.callId, content: r.content, is_error: true } : { type: "tool_result", tool_use_id: r.callId, content: r.content },
  );
}

/**
 * Runs the `tool_use` blocks of one assistant message as one round of `turn`:
 * each call's exact text (`Tool execution failed: HTTP 503: down`, the
 * formatted and size-limited result), in call order, under the turn's
 * parallel limit and loop guards, as the next request's user message.
 *
 * @example
 * ```ts
 * const turn = createTurn(executor, { pack, ctx: { identity } });
 * const reply = await anthropic.messages.create({ model, max_tokens, messages, tools: toAnthropicTools(turn.tools) });
 * const round = await runAnthropicToolUses(turn, reply);
 * messages.push({ role: "assistant", content: reply.content }, round.message);
 * ```
 * @throws InvalidOptionError for a malformed message or an unknown option; what `turn.run()` throws (a `TurnError` where PromptKit fails the turn, the executor's `AbortedError`)
 * @public
 */
export async function runAnthropicToolUses(turn: Turn, message: AnthropicAssistantMessage, options: AnthropicResultOptions = {}): Promise<AnthropicToolRound> {
  checkOptions("runAnthropicToolUses", options);
  const round = await turn.run(fromAnthropicToolUses(message));
  const out = { message: { role: "user" as const, content: toAnthropicToolResults(round.messages, options) }, pending: round.pending };
  return round.approvals === undefined ? out : { ...out, approvals: round.approvals };
}
