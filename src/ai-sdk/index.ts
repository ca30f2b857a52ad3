export { toAiSdkTools, clientToolCalls, completeClientToolCalls, turnFailure, offeredToolNames } from "./to-ai-sdk-tools.js";
export type { AiSdkToolExecutor, AiSdkToolsOptions, AiSdkCallContext } from "./to-ai-sdk-tools.js";
