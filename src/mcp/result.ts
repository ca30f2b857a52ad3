import type { JsonValue } from "../core/index.js";
import { goJsonMarshal } from "../core/index.js";
import { MCP_TOOL_ERROR_FALLBACK, McpToolError } from "./errors.js";

/**
 * The fields of an MCP `CallToolResult` that decide the outcome. The SDK's
 * parsed result fits; a missing `content` reads as empty.
 * @public
 */
export interface McpCallToolResultFields {
  readonly content?: readonly unknown[] | undefined;
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
}

/**
 * What an MCP tool call means for the model, in the same shape as the HTTP and
 * gRPC interpretations: a success with the exact JSON text the model sees
 * (`resultJson`) and its parsed value (`result`), or an error whose `message`
 * is the model-visible text.
 * @public
 */
export type McpCallResult =
  | { readonly status: "success"; readonly result: JsonValue; readonly resultJson: string }
  | { readonly status: "error"; readonly message: string; readonly error: McpToolError };

/**
 * Interprets a `tools/call` result the way Omnia's runtime does
 * (`marshalMCPResult`, `mcpErrorMessage` in `internal/runtime/tools/omnia_executor_mcp.go`):
 *
 * | result | outcome |
 * |---|---|
 * | `isError: true` | error: the **first** content item's text when it is a non-empty text item, else `MCP tool returned error`; a {@link McpToolError} (not a breaker failure) |
 * | exactly one content item, a text item | success: the text, as a JSON string |
 * | exactly one content item of another type (image, audio, resource, ...) | success: that item |
 * | otherwise, `structuredContent` present and not `null` | success: `structuredContent` |
 * | otherwise, a non-empty content array | success: the whole array |
 * | otherwise (no content, no structured content) | success: `null` |
 *
 * So a single text item wins over `structuredContent`, as in Omnia. The
 * `resultJson` is Go's `json.Marshal` of the value: object keys sorted, `<`,
 * `>` and `&` escaped.
 *
 * Pure: no I/O.
 * @public
 */
export function interpretMcpResult(toolName: string, result: McpCallToolResultFields): McpCallResult {
  const content = result.content ?? [];
  if (result.isError === true) {
    const error = new McpToolError(toolName, firstText(content) ?? MCP_TOOL_ERROR_FALLBACK);
    return { status: "error", message: error.message, error };
  }
  let value: JsonValue;
  if (content.length === 1) {
    const only = content[0];
    value = isTextItem(only) ? only.text : (only as JsonValue);
  } else if (result.structuredContent !== undefined && result.structuredContent !== null) {
    value = result.structuredContent as JsonValue;
  } else if (content.length > 0) {
    value = content as JsonValue;
  } else {
    value = null;
  }
  return { status: "success", result: value, resultJson: goJsonMarshal(value) };
}

/** The first item's text when it is a non-empty text item (Go checks `Content[0]` only). */
function firstText(content: readonly unknown[]): string | undefined {
  const first = content[0];
  return isTextItem(first) && first.text !== "" ? first.text : undefined;
}

function isTextItem(item: unknown): item is { type: "text"; text: string } {
  return (
    typeof item === "object" &&
    item !== null &&
    (item as { type?: unknown }).type === "text" &&
    typeof (item as { text?: unknown }).text === "string"
  );
}
