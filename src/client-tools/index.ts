export type { ClientToolRequest, ClientToolResult } from "./types.js";
export { interpretClientResult, NO_CLIENT_REASON } from "./result.js";
export type { ClientResultMeaning } from "./result.js";
export { PendingClientCalls, UnknownClientCallError, clientTimeoutReason, CLIENT_NEVER_ANSWERED_REASON } from "./pending.js";
