export { createTurn, DEFAULT_MAX_PARALLEL_CALLS, DEFAULT_MAX_RESULT_BYTES, DEFAULT_REPEAT_THRESHOLD, DEFAULT_MAX_ROUNDS } from "./create-turn.js";
export { TurnError } from "./turn-error.js";
export type { TurnFailure } from "./turn-error.js";
export type { PromptKitVersion } from "./offered.js";
export type {
  Turn,
  TurnOptions,
  TurnExecutor,
  TurnExecuteHooks,
  TurnRoundSpan,
  TurnOutcome,
  TurnCall,
  TurnToolCall,
  TurnTool,
  TurnMessage,
  TurnRound,
  TurnCompletion,
  TurnApprovalCall,
  TurnApprovalHold,
  TurnApprovalRequest,
  TurnApproveOptions,
  TurnSnapshot,
  TurnResultBudget,
} from "./types.js";
export type { ResultBudget, ResultBudgetCut } from "./result-budget.js";
export { approvalGate, checkApprovalOption } from "./approval.js";
export { validateArguments, validateResult } from "./validate.js";
