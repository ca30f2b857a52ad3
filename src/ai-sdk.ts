/**
 * omnia-tools/ai-sdk: the tools of one model turn as a Vercel AI SDK
 * `ToolSet`, with Omnia's semantics kept: the reconciled offer, the stage's
 * exact result text, one turn's limits and loop guards across the AI SDK's
 * parallel executions, and client tools handed back to the app. Needs the
 * optional peer dependency `ai` (6.x).
 *
 * @packageDocumentation
 */
export { toAiSdkTools, clientToolCalls, completeClientToolCalls, turnFailure, offeredToolNames, responseMessages } from "./ai-sdk/index.js";
export type { AiSdkToolExecutor, AiSdkToolsOptions, AiSdkCallContext } from "./ai-sdk/index.js";
export type { TurnOptions, TurnExecutor, TurnExecuteHooks, TurnOutcome, TurnToolCall, TurnApprovalCall, TurnApprovalHold, TurnApprovalRequest, TurnSnapshot, PromptKitVersion, TurnResultBudget, ResultBudget, ResultBudgetCut } from "./turn/index.js";
export type { ClientToolRequest, ClientToolResult } from "./client-tools/index.js";
export type { PromptPack, PackPrompt, PackToolDefinition, ToolDescriptor, HandlerType, ToolExecution } from "./manifest/index.js";
export type { JsonValue, JsonObject, Logger, LogFields, ToolHandlerType } from "./core/index.js";
