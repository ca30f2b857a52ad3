export { toAnthropicTools, fromAnthropicToolUses, toAnthropicToolResults, runAnthropicToolUses } from "./anthropic-tools.js";
export type {
  AnthropicTool,
  AnthropicContentBlock,
  AnthropicAssistantMessage,
  AnthropicToolResultBlock,
  AnthropicToolResultMessage,
  AnthropicResultText,
  AnthropicResultOptions,
  AnthropicToolRound,
} from "./anthropic-tools.js";
