/**
 * omnia-tools/anthropic: a `createTurn` turn over the Anthropic Messages API:
 * the offered tools as tool definitions, an assistant message's `tool_use`
 * blocks as one round, and its results as `tool_result` blocks (no
 * `is_error` unless asked, as PromptKit's Claude provider sends them).
 * Structural types only: no dependency on @anthropic-ai/sdk.
 *
 * @packageDocumentation
 */
export { toAnthropicTools, fromAnthropicToolUses, toAnthropicToolResults, runAnthropicToolUses } from "./anthropic/index.js";
export type {
  AnthropicTool,
  AnthropicContentBlock,
  AnthropicAssistantMessage,
  AnthropicToolResultBlock,
  AnthropicToolResultMessage,
  AnthropicResultText,
  AnthropicResultOptions,
  AnthropicToolRound,
} from "./anthropic/index.js";
export type { Turn, TurnCall, TurnTool, TurnRound, TurnMessage, TurnCompletion, TurnApprovalRequest, TurnApproveOptions, TurnSnapshot, PromptKitVersion } from "./turn/index.js";
export type { ClientToolRequest, ClientToolResult } from "./client-tools/index.js";
export type { JsonValue } from "./core/index.js";
