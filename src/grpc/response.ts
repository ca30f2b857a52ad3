import { ConnectError } from "@connectrpc/connect";
import type { JsonValue } from "../core/index.js";
import { GrpcStatusError, ToolError } from "./errors.js";
import { toGrpcStatusError } from "./status-error.js";

/**
 * The three `ToolResponse` fields that decide the outcome. The generated
 * `ToolResponse` fits; a missing field reads as its proto3 default.
 * @public
 */
export interface ToolResponseFields {
  readonly resultJson?: string | undefined;
  readonly isError?: boolean | undefined;
  readonly errorMessage?: string | undefined;
}

/**
 * What a gRPC tool call means for the model, in the same shape as the HTTP
 * side's interpretation: a success with the exact JSON text the model sees
 * (`resultJson`) and its parsed value (`result`), or an error whose `message`
 * is the model-visible text.
 * @public
 */
export type ToolResponseInterpretation =
  | { readonly status: "success"; readonly result: JsonValue; readonly resultJson: string }
  | { readonly status: "error"; readonly message: string; readonly error: ToolError | GrpcStatusError };

/**
 * Interprets the result of `ToolService/Execute` the way Omnia's runtime does
 * (Omnia's "Tool backend protocol" docs page; `marshalGRPCResponse` in `internal/runtime/tools/omnia_executor_grpc.go`):
 *
 * | input | outcome |
 * |---|---|
 * | `is_error` true (whatever `result_json` holds) | error `tool error: <error_message>`, a {@link ToolError} (not a breaker failure) |
 * | `is_error` false, `result_json` non-empty | success: `resultJson` is the text verbatim, `result` its parsed value |
 * | `is_error` false, `result_json` empty | success: `result` `null`, `resultJson` `"null"` |
 * | a non-OK status (a {@link GrpcStatusError}, or the `ConnectError` a connect call rejected with) | error `rpc error: code = <Name> desc = <message>`, a {@link GrpcStatusError} (a breaker failure) |
 *
 * A non-empty `result_json` that is not valid JSON is still a success (Omnia
 * forwards the text as it is): `resultJson` keeps the text and `result` is
 * that text as a JSON string.
 *
 * Pure: no I/O.
 * @public
 */
export function interpretToolResponse(response: ToolResponseFields | GrpcStatusError | ConnectError): ToolResponseInterpretation {
  if (response instanceof GrpcStatusError || response instanceof ConnectError) {
    const error = toGrpcStatusError(response);
    return { status: "error", message: error.message, error };
  }
  if (response.isError === true) {
    const error = new ToolError(response.errorMessage ?? "");
    return { status: "error", message: error.message, error };
  }
  const text = response.resultJson ?? "";
  if (text === "") return { status: "success", result: null, resultJson: "null" };
  let result: JsonValue;
  try {
    result = JSON.parse(text) as JsonValue;
  } catch {
    result = text;
  }
  return { status: "success", result, resultJson: text };
}
