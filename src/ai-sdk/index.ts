export { toAiSdkTools, clientToolCalls, completeClientToolCalls, turnFailure, offeredToolNames } from "./to-ai-sdk-tools.js";
export type { AiSdkToolExecutor, AiSdkToolsOptions } from "./to-ai-sdk-tools.js";
