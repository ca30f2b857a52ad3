export { toAiSdkTools, clientToolCalls, completeClientToolCalls, turnFailure, offeredToolNames, responseMessages } from "./to-ai-sdk-tools.js";
export type { AiSdkToolExecutor, AiSdkToolsOptions, AiSdkCallContext } from "./to-ai-sdk-tools.js";
