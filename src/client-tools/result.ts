import type { JsonValue } from "../core/index.js";
import type { ClientToolResult } from "./types.js";

/** The reason a client tool is refused when no client can answer. @public */
export const NO_CLIENT_REASON = "no client available to execute client-side tools";

/**
 * What a client's answer (an omnia.runtime.v1 `ClientToolResult`) means for the model:
 * a result (JSON text parsed, or the raw text when it is not JSON); a
 * rejection without `isDenied` (the client's tool failed: error); a rejection
 * with `isDenied` (declined or never answered: denied). Both rejections show
 * the model `Tool rejected: <reason>`.
 * @public
 */
export type ClientResultMeaning =
  | { readonly status: "success"; readonly result: JsonValue; readonly resultJson: string }
  | { readonly status: "error"; readonly message: string; readonly reason: string }
  | { readonly status: "denied"; readonly message: string; readonly reason: string };

/**
 * Maps a {@link ClientToolResult} to its meaning. Pure.
 * @public
 */
export function interpretClientResult(result: ClientToolResult): ClientResultMeaning {
  if (result.isRejected === true) {
    const reason = result.rejectionReason ?? "";
    const message = `Tool rejected: ${reason}`;
    return result.isDenied === true ? { status: "denied", message, reason } : { status: "error", message, reason };
  }
  const text = result.resultJson ?? "";
  try {
    return { status: "success", result: JSON.parse(text) as JsonValue, resultJson: text };
  } catch {
    return { status: "success", result: text, resultJson: JSON.stringify(text) };
  }
}
