// The mcp folder's surface for sibling folders (registry) and the package entry.
export { createMcpToolClient, MCP_CLIENT_INFO, DEFAULT_MCP_CONNECT_TIMEOUT_MS } from "./client.js";
export { MAX_MCP_RESULT_BYTES } from "./limits.js";
export { MCP_MODERN_REVISION } from "./modern.js";
export type { McpToolClient, McpToolClientOptions, McpCallOptions, McpListOptions, McpAttemptCallOptions } from "./client.js";
export { MCP_OWN_SIGNAL } from "./client.js";
export { interpretMcpResult } from "./result.js";
export type { McpCallResult, McpCallToolResultFields } from "./result.js";
export { mcpToolAllowed } from "./tool-filter.js";
export type { McpTransportKind, McpToolFilter, McpConnectionConfig, McpHandlerInput, McpToolDescriptor, McpHeaderProvider } from "./types.js";
export { McpToolError, McpTransportError, McpArgumentsError, McpAuthError, McpResultTooLargeError, MCP_TOOL_ERROR_FALLBACK, describeMcpStdioExit, stdioExitHow, stdioExitOf } from "./errors.js";
export type { McpStdioExit } from "./errors.js";
export { isMcpBreakerFailure, classifyMcpError } from "./classify.js";
