export { toOpenAiTools, fromOpenAiToolCalls, toOpenAiToolMessages, runOpenAiToolCalls } from "./openai-tools.js";
export type { OpenAiFunctionTool, OpenAiToolsOptions, OpenAiRunOptions, OpenAiAssistantMessage, OpenAiToolCall, OpenAiToolMessage, OpenAiToolRound, ToolResultText } from "./openai-tools.js";
