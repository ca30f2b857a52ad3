/**
 * omnia-tools/openai: a `createTurn` turn over the OpenAI Chat Completions
 * API: the offered tools as function tools, an assistant message's
 * `tool_calls` as one round, and its results as `role: "tool"` messages.
 * Structural types only: no dependency on the openai SDK.
 *
 * @packageDocumentation
 */
export { toOpenAiTools, fromOpenAiToolCalls, toOpenAiToolMessages, runOpenAiToolCalls } from "./openai/index.js";
export type { OpenAiFunctionTool, OpenAiToolsOptions, OpenAiRunOptions, OpenAiAssistantMessage, OpenAiToolCall, OpenAiToolMessage, OpenAiToolRound, ToolResultText } from "./openai/index.js";
export type { Turn, TurnCall, TurnTool, TurnRound, TurnMessage, TurnCompletion, TurnApprovalRequest, TurnApproveOptions, TurnSnapshot, PromptKitVersion } from "./turn/index.js";
export type { ClientToolRequest, ClientToolResult } from "./client-tools/index.js";
export type { JsonValue } from "./core/index.js";
