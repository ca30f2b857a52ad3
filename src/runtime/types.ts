import type { Identity } from "../headers/index.js";
import type { ClientToolRequest, ClientToolResult } from "../client-tools/index.js";
import type { TurnRecordSequence } from "./record-sequence.js";

/**
 * One content part of a turn or of a `Done`: the proto `ContentPart` and its
 * `MediaContent` flattened (Go SDK `runtime.ContentPart`).
 *
 * Outbound, the `media` sub-message is created only when at least one of
 * `data`, `url`, `mimeType`, `storageRef` is non-empty.
 * @public
 */
export interface TurnPart {
  /** `text`, `image`, `audio`, `video` or `file`. */
  type: string;
  /** The text of a `text` part. */
  text?: string | undefined;
  /** Inline media as **base64 text** (`MediaContent.data` is a string on the wire). */
  data?: string | undefined;
  /** An http(s) URL the media can be fetched from. */
  url?: string | undefined;
  /** The media type, e.g. `image/jpeg`. */
  mimeType?: string | undefined;
  /** An opaque storage reference, e.g. `omnia://sessions/{id}/media/{mediaID}`. */
  storageRef?: string | undefined;
}

/**
 * Token usage of a turn or an invocation (proto `Usage`). `costUsd` travels as
 * a 32-bit float.
 * @public
 */
export interface TokenUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  costUsd?: number | undefined;
}

/**
 * Why a turn's last model call stopped (contract 1.6.0). The set is open.
 * @public
 */
export type FinishReason = "stop" | "max_output_tokens" | "tool_use" | "safety" | "refusal" | (string & {});

/**
 * What `emit.done()` sends: the proto `Done`.
 * @public
 */
export interface TurnDone {
  /** The complete text of the reply. */
  finalContent?: string | undefined;
  /** Multimodal output; takes precedence over `finalContent` on the facade when non-empty. */
  parts?: readonly TurnPart[] | undefined;
  /** Unset on the wire when absent. */
  usage?: TokenUsage | undefined;
  /** `stop`, `max_output_tokens`, `tool_use`, `safety` or `refusal`; empty = unreported. */
  finishReason?: FinishReason | undefined;
  /**
   * The last ordering position the runtime recorded in this turn. Default: the
   * last position of the turn's `recordSequence` (its `recordSequenceBase` when nothing was recorded).
   */
  recordSequenceHighWater?: bigint | number | undefined;
}

/**
 * One progressive media chunk (proto `MediaChunk`): raw bytes, no base64.
 * Chunks with the same `mediaId` form one stream.
 * @public
 */
export interface TurnMedia {
  mediaId: string;
  /** 0-based. */
  sequence: number;
  isLast?: boolean | undefined;
  mimeType?: string | undefined;
  data: Uint8Array;
}

/**
 * One user turn on a `Converse` stream: the `ClientMessage` plus what the
 * facade sent as metadata on the stream.
 * @public
 */
export interface Turn {
  /** `ClientMessage.session_id`. */
  readonly sessionId: string;
  /** `ClientMessage.content`: the legacy text field. Use {@link turnText} for the turn's text. */
  readonly content: string;
  /** `ClientMessage.parts`, flattened. */
  readonly parts: readonly TurnPart[];
  /** `ClientMessage.metadata`: app-level context, not identity. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * The caller identity rehydrated from the stream's `x-omnia-*` metadata
   * (parsed once per stream). The caller's `Authorization` is never part of it.
   */
  readonly identity: Identity;
  /**
   * `x-omnia-client-tools: true`: a client can answer client-side tool calls.
   * When false, `emit.toolCall()` resolves denied at once without sending.
   */
  readonly clientToolsAvailable: boolean;
  /** `x-omnia-session-open: true`: this stream's message opened the session; run session initialisation. */
  readonly sessionOpen: boolean;
  /** The client's session `declare` object (`x-omnia-declare-bin`), byte for byte; only with `sessionOpen`. */
  readonly declare?: Uint8Array;
  /** `ClientMessage.record_sequence_base`: number the records written in this turn from here. 0 on a session's first message. */
  readonly recordSequenceBase: bigint;
  /**
   * The turn's record positions from `recordSequenceBase` (base + 1, base + 2, …):
   * pass it as the executor's `ctx.recordSequence`. The turn's `Done` reports
   * the last one used as `record_sequence_high_water` unless the handler sets one.
   */
  readonly recordSequence: TurnRecordSequence;
  /** Aborts when the stream ends: the facade cancelled, the deadline passed, or the server is closing. */
  readonly signal: AbortSignal;
}

/**
 * The reply of a client to a client-side tool call: `ClientToolResult` in
 * camelCase. Hand it to `executor.completeClientCall()` unchanged.
 * @public
 */
export interface ClientToolReply {
  /** Equals the `ToolCall.id` answered. */
  readonly callId: string;
  /** The result as JSON text. */
  readonly resultJson?: string;
  /** The call produced no result. */
  readonly isRejected?: boolean;
  readonly rejectionReason?: string;
  /** With `isRejected`: a refusal (declined or never answered), recorded `denied`. */
  readonly isDenied?: boolean;
}

/** A reply is exactly what `completeClientCall()` takes: checked at compile time. */
type AssertAssignable<T extends ClientToolResult> = T;
/** @internal Does not follow semver. */
export type _ClientToolReplyIsAClientToolResult = AssertAssignable<ClientToolReply>;

/**
 * Sends a turn's frames. Every send is queued and written in call order; the
 * returned promise settles when the frame has been handed to the transport.
 *
 * After `done()` (or after the turn ended) every method rejects with a
 * {@link ConverseStateError}; after the stream ended with a `ClosedError`.
 * @public
 */
export interface Emitter {
  /** Sends a `Chunk`. An empty text sends nothing. */
  chunk(text: string): Promise<void>;
  /**
   * Sends a `ToolCall` with execution CLIENT and resolves with the
   * `client_tool_result` whose `call_id` equals `call.callId`. Several calls may
   * be in flight; each resolves on its own result.
   *
   * - With `turn.clientToolsAvailable` false, nothing is sent and it resolves at
   *   once with `{ callId, isRejected: true, isDenied: true, rejectionReason:
   *   "no client available to execute client-side tools" }`.
   * - A message without `client_tool_result` while a result is awaited is
   *   consumed, and every waiting call rejects with a `ConnectError`
   *   `FailedPrecondition` `expected ClientToolResult after ToolCall`.
   * - The stream ending first rejects with `ClosedError`.
   */
  toolCall(call: ClientToolRequest): Promise<ClientToolReply>;
  /** Sends a `MediaChunk` verbatim. */
  media(chunk: TurnMedia): Promise<void>;
  /** Sends `Done` and ends the turn's output. A second call rejects. */
  done(done?: TurnDone): Promise<void>;
}

/**
 * The `DuplexStart` that opened a duplex audio session: the client's own
 * capture format.
 * @public
 */
export interface DuplexStartInfo {
  readonly codec: string;
  readonly sampleRate: number;
  readonly channels: number;
  /** The system instruction the facade passed for the session, if any. */
  readonly systemInstruction: string;
}

/**
 * What the runtime answers a `DuplexStart` with, in its `RuntimeHello`: the
 * audio format it requires (the facade relays it to the client, which
 * recaptures at that format or the session fails closed), and the voice
 * pipeline it chose. Audio only: the facade's duplex path fails a counter-offer
 * with a frame rate or resolution, so none can be given here.
 * @public
 */
export interface DuplexNegotiation {
  readonly media?: { readonly codec?: string; readonly sampleRate?: number; readonly channels?: number } | undefined;
  /** `VOICE_MODE_REALTIME` or `VOICE_MODE_CASCADED`; unset (`VOICE_MODE_UNSPECIFIED`) when not given. */
  readonly voiceMode?: "realtime" | "cascaded" | undefined;
}

/**
 * One inbound audio frame of a duplex session (`audio_input`).
 * @public
 */
export interface AudioInput {
  readonly data: Uint8Array;
  readonly sequence: number;
  readonly isLast: boolean;
}

/**
 * A duplex audio session, as the handler sees it: the stream's first message
 * carried `duplex_start`. `audio` yields the client's `audio_input` frames as
 * they arrive and ends after the frame marked last, when the client
 * half-closes, or when the stream ends.
 * @public
 */
export interface DuplexSession {
  readonly sessionId: string;
  readonly start: DuplexStartInfo;
  readonly metadata: Readonly<Record<string, string>>;
  readonly identity: Identity;
  readonly clientToolsAvailable: boolean;
  readonly recordSequenceBase: bigint;
  readonly recordSequence: TurnRecordSequence;
  readonly audio: AsyncIterable<AudioInput>;
  /** Aborts when the stream ends. */
  readonly signal: AbortSignal;
}

/**
 * Sends a duplex session's frames: progressive audio (`media`), transcript
 * text (`chunk`), `interruption` (barge-in: the client drops the audio it has
 * buffered) and `done`. Client tool calls are not available in a duplex
 * session (`toolCall` rejects).
 * @public
 */
export interface DuplexEmitter extends Emitter {
  /** Sends an `Interruption`. */
  interruption(): Promise<void>;
}

/**
 * What a unary hook gets besides its request.
 * @public
 */
export interface RuntimeCallContext {
  /** The identity rehydrated from the call's `x-omnia-*` metadata. */
  readonly identity: Identity;
  /** Aborts when the call is cancelled or the server is closing. */
  readonly signal: AbortSignal;
}

/**
 * A progress event of one invocation, as `WatchInvocation` streams it. No
 * arguments and no results, by design (contract 1.8.0).
 * @public
 */
export type InvocationEvent =
  | { readonly type: "tool_call"; readonly callId: string; readonly name: string }
  | { readonly type: "tool_result"; readonly callId: string; readonly name: string; readonly ok: boolean; readonly durationMs: number };

/**
 * Publishes progress of one invocation to its `WatchInvocation` watchers, in
 * call order. Best-effort: with no watcher the event is dropped, a watcher that
 * falls behind may lose events, and events published after the invocation
 * finished are dropped.
 *
 * An executor's outcome maps directly: `toolResult({ callId: o.callId, name:
 * o.toolName, ok: o.status === "success", durationMs: o.durationMs })`.
 * @public
 */
export interface InvocationEvents {
  /** A tool call started. */
  toolCall(event: { callId: string; name: string }): void;
  /** A tool call finished. `durationMs` is rounded to an integer. */
  toolResult(event: { callId: string; name: string; ok: boolean; durationMs: number }): void;
  /** Either of the above, as one event object. */
  publish(event: InvocationEvent): void;
}

/**
 * One `Invoke` call (function mode), as the handler sees it.
 * @public
 */
export interface Invocation extends RuntimeCallContext {
  /** Already validated by the facade against `spec.inputSchema`. */
  readonly inputJson: string;
  /** The facade-assigned id; echoed on the response. */
  readonly invocationId: string;
  /** `InvocationRequest.metadata`: not interpreted by the runtime. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly recordSequenceBase: bigint;
  /** The invocation's record positions from `recordSequenceBase`, as a turn's ({@link Turn.recordSequence}). */
  readonly recordSequence: TurnRecordSequence;
  /** Progress for `WatchInvocation` watchers of this invocation id. */
  readonly progress: InvocationEvents;
}

/**
 * What `invoke()` returns. The response always echoes the request's
 * `invocation_id`; the handler cannot set it.
 * @public
 */
export interface InvocationResult {
  /** The raw assistant text; the facade validates it against `spec.outputSchema`. */
  outputJson: string;
  usage?: TokenUsage | undefined;
  /** Runtime wall time. Default: measured on the service's clock. */
  durationMs?: number | undefined;
  /** Default: the last position of the invocation's `recordSequence` (its `recordSequenceBase` when none was used). */
  recordSequenceHighWater?: bigint | number | undefined;
}

/**
 * Whether a session's working context can still be resumed. Strings, so they
 * are not confused with the proto's `ResumeState` numbers.
 * @public
 */
export type ResumeStateName = "resumable" | "notFound" | "unavailable";

/**
 * A `HasConversation` answer: a state, or a state with a diagnostic `detail`
 * (sent for `unavailable` only; never shown to end clients).
 * @public
 */
export type ConversationProbeResult = ResumeStateName | { state: ResumeStateName; detail?: string };

/**
 * A runtime: the turn logic behind `omnia.runtime.v1.RuntimeService`. The SDK
 * owns the protocol (hello first, heartbeats, client-tool round trips,
 * marshalling, Health and capability advertisement); the handler owns the turn.
 *
 * Optional methods replace Go's optional interfaces: without `invoke`, `Invoke`
 * and `WatchInvocation` answer `Unimplemented`; without `hasConversation`,
 * `HasConversation` answers `RESUME_STATE_UNAVAILABLE`; without
 * `endConversation`, `EndConversation` answers `Unimplemented`.
 *
 * @example
 * ```ts
 * import { serveRuntime, turnText, type RuntimeHandler } from "omnia-tools/runtime";
 *
 * const handler: RuntimeHandler = {
 *   capabilities: () => ["client_tools", "invoke"],
 *   async converse(turn, emit) {
 *     const text = turnText(turn);
 *     if (text === "where am I?") {
 *       const reply = await emit.toolCall({ callId: "c1", name: "get_location", argumentsJson: "{}" });
 *       return emit.done({ finalContent: reply.resultJson ?? "unknown", finishReason: "stop" });
 *     }
 *     await emit.chunk(`you said ${text}`);
 *     await emit.done({ finalContent: `you said ${text}`, finishReason: "stop" });
 *   },
 *   async invoke(req) {
 *     return { outputJson: req.inputJson };
 *   },
 *   async endConversation(sessionId) {
 *     scopes.get(sessionId)?.dispose();
 *   },
 * };
 * const server = await serveRuntime(handler, { port: 9000, host: "0.0.0.0" });
 * // ...
 * await server.close();
 * ```
 * @public
 */
export interface RuntimeHandler {
  /**
   * The honest capability set, called per `Health` and per `RuntimeHello` so
   * both carry the same list. Overridden by the `capabilities` option. Default
   * (neither given): `["invoke"]` when `invoke` is implemented, else `[]`
   * (legacy), plus `duplex_audio` when `duplex` is implemented.
   * `duplex_audio` and `interruption` are advertised only when `duplex` is
   * implemented, and `invoke` only when `invoke` is.
   */
  capabilities?(): readonly string[];
  /**
   * Handles one turn. End it with `emit.done()`; returning without it sends an
   * empty `Done`. A throw (or rejection) sends the fixed `INTERNAL_ERROR` frame
   * and no `Done`; the real error goes to the logger only.
   */
  converse(turn: Turn, emit: Emitter): Promise<void> | void;
  /**
   * Serves a duplex audio session: a stream whose first message carries
   * `duplex_start`. Without it such a stream gets the hello and the
   * `DUPLEX_UNSUPPORTED` error frame, and `duplex_audio` and `interruption` are
   * never advertised. Ends like a turn: `emit.done()`, or an empty `Done` on
   * return; a throw sends the fixed `INTERNAL_ERROR` frame.
   */
  duplex?(session: DuplexSession, emit: DuplexEmitter): Promise<void> | void;
  /**
   * The counter-offer for a `DuplexStart`, sent in the stream's `RuntimeHello`
   * before `duplex()` runs. Default: none (the facade keeps the client's
   * format). A throw ends the stream's duplex session with `INTERNAL_ERROR`.
   */
  negotiateDuplex?(start: DuplexStartInfo): Promise<DuplexNegotiation> | DuplexNegotiation;
  /** Serves `Invoke`. A throw answers `Internal` `invocation failed`. */
  invoke?(invocation: Invocation): Promise<InvocationResult> | InvocationResult;
  /** Serves `HasConversation`. A throw answers `unavailable`. */
  hasConversation?(sessionId: string, ctx: RuntimeCallContext): Promise<ConversationProbeResult> | ConversationProbeResult;
  /**
   * The conversation ended (best-effort `EndConversation`, sent by the
   * WebSocket facade when a connection closes after its last turn): dispose
   * the session's scope, e.g. its `Conversation` breakers and sandboxes.
   */
  endConversation?(sessionId: string, ctx: RuntimeCallContext): Promise<void> | void;
}
