/**
 * The fixed strings of the runtime SDK, byte-identical to Omnia's Go SDK
 * (`pkg/runtime/service.go`).
 * @public
 */
export const RuntimeMessages = Object.freeze({
  /** `Error.code` of the frame a failed turn gets (no `Done` follows). */
  INTERNAL_ERROR_CODE: "INTERNAL_ERROR",
  /** `Error.message` of that frame: the real error is never forwarded. */
  INTERNAL_ERROR_MESSAGE: "an internal error occurred while processing the message",
  /** `Error.code` of the frame a `duplex_start` message gets. */
  DUPLEX_UNSUPPORTED_CODE: "DUPLEX_UNSUPPORTED",
  DUPLEX_UNSUPPORTED_MESSAGE: "duplex audio is not supported by this runtime",
  /** `Error.message` of the frame (code `DUPLEX_UNSUPPORTED`) an `audio_input` message gets: it is not a turn. */
  AUDIO_INPUT_UNSUPPORTED_MESSAGE: "audio_input needs a duplex session, which this runtime does not serve",
  /** The same, from a runtime that serves duplex: the audio came outside a session (before it, after its last frame). */
  AUDIO_INPUT_OUTSIDE_SESSION_MESSAGE: "audio_input outside a duplex session: open one with duplex_start as the stream's first message",
  /** `Error.message` (code `DUPLEX_UNSUPPORTED`) of a `duplex_start` that is not its stream's first message, on a runtime that serves duplex. */
  DUPLEX_NOT_FIRST_MESSAGE: "duplex_start must be the stream's first message",
  /** `FailedPrecondition` when a message without `client_tool_result` arrives while a result is awaited. */
  EXPECTED_CLIENT_TOOL_RESULT: "expected ClientToolResult after ToolCall",
  INVOKE_UNSUPPORTED: "invoke is not supported by this runtime",
  INVOKE_ARGS_REQUIRED: "invocation_id and input_json are required",
  INVOKE_FAILED: "invocation failed",
  SESSION_ID_REQUIRED: "session_id is required",
  RESUME_UNSUPPORTED: "resume is not supported by this runtime",
  END_CONVERSATION_UNSUPPORTED: "endConversation is not supported by this runtime",
  END_CONVERSATION_FAILED: "end conversation failed",
  INVOCATION_ID_REQUIRED: "invocation_id is required",
  HEALTH_STATUS: "ready",
} as const);

/** 16 MiB: the Go SDK's max receive and send message size. @public */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** 30 s: the heartbeat interval while a text turn runs (contract 1.9.0). @public */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;
