/**
 * A client-executed tool call, ready to go out as an omnia.runtime.v1
 * `ToolCall` with execution CLIENT (`id` = `callId`).
 * @public
 */
export interface ClientToolRequest {
  readonly callId: string;
  readonly name: string;
  /** The arguments as JSON text (`null` when there were none). */
  readonly argumentsJson: string;
  /** From the handler's `clientConfig.consentMessage`; absent when empty. */
  readonly consentMessage?: string;
  /** From the handler's `clientConfig.categories`; absent when empty. */
  readonly categories?: readonly string[];
}

/**
 * What the client answered: omnia.runtime.v1 `ClientToolResult` in camelCase.
 * @public
 */
export interface ClientToolResult {
  readonly callId: string;
  /** The result as JSON text. Text that is not JSON is handed to the model as a string. */
  readonly resultJson?: string;
  /** The call produced no result. */
  readonly isRejected?: boolean;
  readonly rejectionReason?: string;
  /** With `isRejected`: a refusal (declined, or never answered), recorded `denied`; without it the client's tool failed, recorded `error`. */
  readonly isDenied?: boolean;
}
