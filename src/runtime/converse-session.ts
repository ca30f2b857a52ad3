import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ClosedError, InvalidOptionError, toError, type Clock, type Logger, type TimerHandle } from "../core/index.js";
import { NO_CLIENT_REASON, type ClientToolRequest } from "../client-tools/index.js";
import { ToolExecution, VoiceMode, type ClientMessage, type ClientToolResult as ProtoClientToolResult, type ServerMessageSchema } from "../contract/index.js";
import type { IncomingIdentity } from "../headers/index.js";
import { RuntimeMessages } from "./constants.js";
import { ConverseStateError } from "./errors.js";
import { FrameQueue } from "./frame-queue.js";
import { InboundReader, type Inbound } from "./inbound-reader.js";
import { partsFromProto, partsToProto, toInt64, usageToProto } from "./parts.js";
import type { AudioInput, ClientToolReply, DuplexEmitter, DuplexNegotiation, DuplexSession, Emitter, RuntimeHandler, Turn, TurnDone, TurnMedia } from "./types.js";
import { createRecordSequence } from "./record-sequence.js";

/** A `ServerMessage` as the stream writes it. @internal Does not follow semver. */
export type ServerFrame = MessageInitShape<typeof ServerMessageSchema>;

/** What a converse session needs from its service. @internal Does not follow semver. */
export interface ConverseDeps {
  readonly handler: RuntimeHandler;
  /** The capability list for this stream's hello (the same function answers Health). */
  readonly capabilities: () => string[];
  readonly heartbeatIntervalMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

interface Pending {
  readonly resolve: (reply: ClientToolReply) => void;
  readonly reject: (err: Error) => void;
}

type ReadResult = Inbound | { readonly kind: "aborted" };

const noop = (): void => {};

/** A counter-offer the hello can carry: a string codec, whole sample rate and channel count from 0 to 2^31-1, a known voice mode. */
function checkedNegotiation(value: DuplexNegotiation | undefined): DuplexNegotiation {
  if (value === undefined || value === null) return {};
  const int32 = (name: string, n: unknown): void => {
    if (n !== undefined && !(typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0x7fffffff)) {
      throw new RangeError(`negotiateDuplex: media.${name} must be a whole number from 0 to 2147483647; got ${String(n)}`);
    }
  };
  const media = value.media;
  if (media !== undefined) {
    if (media.codec !== undefined && typeof media.codec !== "string") throw new RangeError(`negotiateDuplex: media.codec must be a string; got ${typeof media.codec}`);
    int32("sampleRate", media.sampleRate);
    int32("channels", media.channels);
  }
  if (value.voiceMode !== undefined && value.voiceMode !== "realtime" && value.voiceMode !== "cascaded") {
    throw new RangeError(`negotiateDuplex: voiceMode must be "realtime" or "cascaded"; got ${String(value.voiceMode)}`);
  }
  return value;
}

/** Whether the `n`th occurrence of a refused input is logged: the 1st, 10th, 100th, … (a flood cannot flood the log). */
function isLogged(n: number): boolean {
  return n === 10 ** Math.round(Math.log10(n));
}

/** Marks a promise handled (the caller may still await it) and returns it. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(noop);
  return p;
}

/**
 * A receive error as the stream's final status. An undecodable or otherwise
 * malformed message surfaces from connect as `Internal` ("parse binary: …");
 * the runtime answers `InvalidArgument` instead, so malformed input never looks
 * like a crash (`Internal`/`Unknown`/`DataLoss`) to the conformance suite.
 */
function receiveError(error: unknown): ConnectError {
  const ce = ConnectError.from(error);
  if (ce.code === Code.Internal || ce.code === Code.Unknown || ce.code === Code.DataLoss) {
    return new ConnectError(`failed to receive message: ${ce.rawMessage}`, Code.InvalidArgument);
  }
  return ce;
}

function abortError(signal: AbortSignal): ConnectError {
  const reason: unknown = signal.reason;
  if (reason instanceof ConnectError) return reason;
  return new ConnectError("the stream was cancelled", Code.Canceled);
}

function replyFromProto(r: ProtoClientToolResult): ClientToolReply {
  return {
    callId: r.callId,
    resultJson: r.resultJson,
    isRejected: r.isRejected,
    rejectionReason: r.rejectionReason,
    isDenied: r.isDenied,
  };
}

/** The audio a duplex session holds for its handler before it stops reading the stream (HTTP/2 flow control then slows the facade). */
const AUDIO_QUEUE_BYTES = 1024 * 1024;
/** What one held frame costs besides its bytes: a flood of empty frames fills the queue too. */
const AUDIO_FRAME_OVERHEAD_BYTES = 256;

/**
 * The client's audio frames for the handler: pushed by the read loop, iterated
 * once by the handler. It holds at most about {@link AUDIO_QUEUE_BYTES}: the
 * read loop waits for {@link AudioQueue.space} before it reads the next frame.
 */
class AudioQueue implements AsyncIterable<AudioInput> {
  readonly #items: AudioInput[] = [];
  #bytes = 0;
  #ended = false;
  #wake: (() => void) | undefined;
  #roomWaiters: (() => void)[] = [];

  push(item: AudioInput): void {
    if (this.#ended) return;
    // A copy: the decoded frame's bytes are a view into the whole inbound message, which may be far larger.
    const data = item.data.slice();
    this.#items.push({ ...item, data });
    this.#bytes += data.byteLength + AUDIO_FRAME_OVERHEAD_BYTES;
    this.#signal();
  }

  /** After {@link AudioQueue.end}: no frame is taken any more. */
  get ended(): boolean {
    return this.#ended;
  }

  /** No more frames: the handler still gets the ones queued. */
  end(): void {
    this.#ended = true;
    this.#signal();
    this.#room();
  }

  /** Resolves once the queue holds less than its bound (or has ended). */
  space(): Promise<void> {
    if (this.#ended || this.#bytes < AUDIO_QUEUE_BYTES) return Promise.resolve();
    return new Promise<void>((resolve) => this.#roomWaiters.push(resolve));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<AudioInput, void, undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) {
        this.#bytes -= item.data.byteLength + AUDIO_FRAME_OVERHEAD_BYTES;
        if (this.#bytes < AUDIO_QUEUE_BYTES) this.#room();
        yield item;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #room(): void {
    for (const resolve of this.#roomWaiters.splice(0)) resolve();
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

interface TurnState {
  done: boolean;
  ended: boolean;
}

/**
 * One `Converse` stream (Omnia's Go SDK, `pkg/runtime/service.go`, plus 1.9.0): hello before the first
 * turn, strictly sequential turns, the client-tool round trip matched by call
 * id, heartbeats while a turn runs, and the fixed error frames.
 * @internal Does not follow semver.
 */
export class ConverseSession {
  readonly #deps: ConverseDeps;
  readonly #reader: InboundReader;
  readonly #signal: AbortSignal;
  readonly #incoming: IncomingIdentity;
  readonly #queue = new FrameQueue<ServerFrame>();
  readonly #pending = new Map<string, Pending>();
  #pumping = false;
  /** `client_tool_result`s dropped on this stream (no pending call had their id). */
  #strays = 0;
  #contentWithResults = 0;
  #audioInputs = 0;
  #duplexOthers = 0;
  #pump: Promise<void> | undefined;
  #abortWait: Promise<ReadResult> | undefined;

  constructor(deps: ConverseDeps, requests: AsyncIterable<ClientMessage>, incoming: IncomingIdentity, signal: AbortSignal) {
    this.#deps = deps;
    this.#reader = new InboundReader(requests);
    this.#incoming = incoming;
    this.#signal = signal;
  }

  /** The stream's frames. Ends OK on the client's half-close; throws the final status otherwise. */
  async *frames(): AsyncGenerator<ServerFrame, void, undefined> {
    // The loop's outcome reaches the drain through end(); it never rejects.
    void this.#loop().then(
      () => this.#queue.end(),
      (err: unknown) => this.#queue.end(err),
    );
    // A cancelled stream (the facade gave up, the deadline passed, the server
    // is closing) ends now, even while a handler that ignores turn.signal runs.
    const onAbort = (): void => this.#queue.end(abortError(this.#signal));
    if (this.#signal.aborted) onAbort();
    else this.#signal.addEventListener("abort", onAbort, { once: true });
    try {
      yield* this.#queue.drain();
    } finally {
      this.#signal.removeEventListener("abort", onAbort);
      // The consumer is gone (or the loop ended): later sends reject, waiting
      // tool calls reject; the loop itself ends on the aborted signal.
      const closed = new ClosedError("converse: the stream has ended");
      this.#queue.close(closed);
      this.#rejectPending(closed);
    }
  }

  async #loop(): Promise<void> {
    let helloSent = false;
    for (;;) {
      if (this.#pump !== undefined) await this.#pump;
      const inbound = await this.#read();
      if (inbound.kind === "end") return;
      if (inbound.kind === "aborted") throw abortError(this.#signal);
      if (inbound.kind === "error") throw receiveError(inbound.error);
      const message = inbound.message;
      // A stream opened with duplex_start, on a handler that serves duplex: the hello carries the counter-offer.
      if (!helloSent && message.duplexStart !== undefined && typeof this.#deps.handler.duplex === "function") {
        helloSent = true;
        await this.#duplex(message);
        continue;
      }
      // The hello is the first frame of every stream (contract 1.9.0), also of
      // one opened with duplex_start (Omnia's Go SDK sends its error first).
      if (!helloSent) {
        await this.#send({ message: { case: "runtimeHello", value: { capabilities: this.#capabilities() } } });
        helloSent = true;
      }
      // duplex_start opens a stream or nothing: on a later message (or on a handler without duplex) it is refused.
      if (message.duplexStart !== undefined) {
        await this.#sendError(RuntimeMessages.DUPLEX_UNSUPPORTED_CODE, this.#servesDuplex() ? RuntimeMessages.DUPLEX_NOT_FIRST_MESSAGE : RuntimeMessages.DUPLEX_UNSUPPORTED_MESSAGE);
        continue;
      }
      // Audio without a duplex session is refused, never turned into an empty text turn.
      if (message.audioInput !== undefined) {
        this.#refuseAudio();
        await this.#sendError(RuntimeMessages.DUPLEX_UNSUPPORTED_CODE, this.#servesDuplex() ? RuntimeMessages.AUDIO_INPUT_OUTSIDE_SESSION_MESSAGE : RuntimeMessages.AUDIO_INPUT_UNSUPPORTED_MESSAGE);
        continue;
      }
      // A result with no call awaiting it (a late answer, a replay, a confused
      // client) is not a turn: dropped, never delivered as an empty message.
      if (message.clientToolResult !== undefined) {
        this.#dropStray(message.clientToolResult.callId);
        this.#refuseContentWithResult(message);
        continue;
      }
      await this.#turn(message);
    }
  }

  /** Reads the next message, or reports the stream's abort, whichever comes first. */
  #read(): Promise<ReadResult> {
    if (this.#signal.aborted) return Promise.resolve({ kind: "aborted" });
    this.#abortWait ??= new Promise<ReadResult>((resolve) => {
      this.#signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
    });
    return Promise.race([this.#reader.read(), this.#abortWait]);
  }

  #send(frame: ServerFrame): Promise<void> {
    return this.#queue.push(frame);
  }

  /** The hello's capabilities; a throwing `capabilities()` ends the stream UNAVAILABLE (logged, never forwarded). */
  #capabilities(): string[] {
    try {
      return this.#deps.capabilities();
    } catch (err) {
      this.#deps.logger.error("runtime: capabilities() failed", { error: toError(err).message });
      throw new ConnectError("runtime capabilities are unavailable", Code.Unavailable);
    }
  }

  #servesDuplex(): boolean {
    return typeof this.#deps.handler.duplex === "function";
  }

  #sendError(code: string, message: string): Promise<void> {
    return this.#send({ message: { case: "error", value: { code, message } } });
  }

  async #turn(message: ClientMessage): Promise<void> {
    const { identity, clientToolsAvailable, sessionOpen, declare } = this.#incoming;
    const recordSequenceBase = message.recordSequenceBase;
    const recordSequence = createRecordSequence(recordSequenceBase);
    const turn: Turn = {
      sessionId: message.sessionId,
      content: message.content,
      parts: partsFromProto(message.parts),
      metadata: { ...message.metadata },
      identity,
      clientToolsAvailable,
      sessionOpen,
      ...(declare === undefined ? {} : { declare }),
      recordSequenceBase,
      recordSequence,
      signal: this.#signal,
    };
    const state: TurnState = { done: false, ended: false };
    const heartbeat = this.#startHeartbeat(state);
    let failed = false;
    try {
      await this.#deps.handler.converse(turn, this.#emitter(turn, state));
    } catch (err) {
      failed = true;
      this.#deps.logger.error("runtime: converse handler failed", { sessionId: turn.sessionId, error: toError(err).message });
    } finally {
      heartbeat?.clear();
      state.ended = true;
      for (const callId of this.#pending.keys()) {
        this.#rejectOne(callId, new ConverseStateError(`emit.toolCall: the turn ended before the client answered call ${JSON.stringify(callId)}`));
      }
    }
    if (failed) {
      await this.#sendError(RuntimeMessages.INTERNAL_ERROR_CODE, RuntimeMessages.INTERNAL_ERROR_MESSAGE);
    } else if (!state.done) {
      await this.#send({ message: { case: "done", value: { recordSequenceHighWater: recordSequence.last } } });
    }
  }

  /**
   * A duplex audio session: the hello with the handler's counter-offer, then
   * `handler.duplex()` while this loop feeds it the client's `audio_input`
   * frames. Anything else the client sends meanwhile is refused with a warning
   * (a duplex session has no text turns or client tool results).
   */
  async #duplex(message: ClientMessage): Promise<void> {
    const handler = this.#deps.handler;
    const start = message.duplexStart!;
    const info = { codec: start.codec, sampleRate: start.sampleRate, channels: start.channels, systemInstruction: start.systemInstruction };
    const capabilities = this.#capabilities();
    let negotiation: DuplexNegotiation = {};
    let failed = false;
    try {
      if (typeof handler.negotiateDuplex === "function") negotiation = checkedNegotiation(await handler.negotiateDuplex(info));
    } catch (err) {
      failed = true;
      this.#deps.logger.error("runtime: negotiateDuplex handler failed", { sessionId: message.sessionId, error: toError(err).message });
    }
    const media = negotiation.media;
    await this.#send({
      message: {
        case: "runtimeHello",
        value: {
          capabilities,
          ...(media === undefined ? {} : { media: { codec: media.codec ?? "", sampleRate: media.sampleRate ?? 0, channels: media.channels ?? 0 } }),
          voiceMode: negotiation.voiceMode === "realtime" ? VoiceMode.REALTIME : negotiation.voiceMode === "cascaded" ? VoiceMode.CASCADED : VoiceMode.UNSPECIFIED,
        },
      },
    });
    if (failed) {
      await this.#sendError(RuntimeMessages.INTERNAL_ERROR_CODE, RuntimeMessages.INTERNAL_ERROR_MESSAGE);
      return;
    }
    const audio = new AudioQueue();
    const recordSequence = createRecordSequence(message.recordSequenceBase);
    const { identity, clientToolsAvailable } = this.#incoming;
    const session: DuplexSession = {
      sessionId: message.sessionId,
      start: info,
      metadata: { ...message.metadata },
      identity,
      clientToolsAvailable,
      recordSequenceBase: message.recordSequenceBase,
      recordSequence,
      audio,
      signal: this.#signal,
    };
    // The emitter of a turn, without client tool calls (the read loop below owns the stream's inbound side).
    const turnView: Turn = { sessionId: message.sessionId, content: "", parts: [], metadata: session.metadata, identity, clientToolsAvailable: false, sessionOpen: false, recordSequenceBase: message.recordSequenceBase, recordSequence, signal: this.#signal };
    const state: TurnState = { done: false, ended: false };
    const base = this.#emitter(turnView, state);
    const emit: DuplexEmitter = {
      ...base,
      toolCall: () => handled(Promise.reject(new ConverseStateError("emit.toolCall: client tool calls are not available in a duplex session; nothing was sent"))),
      interruption: () => {
        if (state.ended || state.done) return handled(Promise.reject(new ConverseStateError("emit.interruption: the session is over; nothing was sent")));
        return handled(this.#send({ message: { case: "interruption", value: {} } }));
      },
    };
    let error: unknown;
    const running = (async () => {
      try {
        await handler.duplex!(session, emit);
      } catch (err) {
        error = err;
        failed = true;
      }
    })();
    // Feed the audio until the handler returns, the client half-closes or the stream ends. One read at a
    // time: a read still waiting when the handler returns is kept and handed back to the turn loop.
    const handlerReturned = running.then(() => undefined);
    let waiting: Promise<ReadResult> | undefined;
    for (;;) {
      // A handler that does not keep up holds the stream: nothing more is read until it takes some audio.
      if ((await Promise.race([audio.space().then(() => true), handlerReturned])) === undefined) break;
      waiting ??= this.#read();
      const inbound = await Promise.race([waiting, handlerReturned]);
      if (inbound === undefined) break;
      waiting = undefined;
      if (inbound.kind !== "message") {
        audio.end();
        // The client half-closed (or the stream failed): the handler finishes on its own; the turn loop sees the end.
        if (inbound.kind !== "aborted") this.#reader.unread(inbound);
        break;
      }
      const m = inbound.message;
      if (m.audioInput !== undefined) {
        audio.push({ data: m.audioInput.data, sequence: m.audioInput.sequence, isLast: m.audioInput.isLast });
        if (!m.audioInput.isLast) continue;
        // The session's input is over: what the client sends next belongs to the turn loop, read once the handler is done.
        audio.end();
        break;
      }
      // Anything but audio while the session listens is not part of it: refused with a warning.
      this.#refuseInDuplex();
    }
    await running;
    state.ended = true;
    audio.end();
    if (failed) {
      this.#deps.logger.error("runtime: duplex handler failed", { sessionId: message.sessionId, error: toError(error).message });
      await this.#sendError(RuntimeMessages.INTERNAL_ERROR_CODE, RuntimeMessages.INTERNAL_ERROR_MESSAGE);
    } else if (!state.done) {
      await this.#send({ message: { case: "done", value: { recordSequenceHighWater: recordSequence.last } } });
    }
    if (waiting !== undefined) {
      const next = await waiting;
      if (next.kind !== "aborted") this.#reader.unread(next);
    }
  }

  /** A message other than `audio_input` while a duplex session takes audio: logged at the 1st, 10th, 100th, … */
  #refuseInDuplex(): void {
    const refused = ++this.#duplexOthers;
    if (!isLogged(refused)) return;
    this.#deps.logger.warn("runtime: refused a message during a duplex session: only audio_input belongs to it until the frame marked last", { refused });
  }

  /** Arms the heartbeat timer on the clock; it re-arms itself until the turn ends or is done. */
  #startHeartbeat(state: TurnState): { clear(): void } | undefined {
    const interval = this.#deps.heartbeatIntervalMs;
    if (interval <= 0) return undefined;
    let timer: TimerHandle | undefined;
    const arm = (): void => {
      timer = this.#deps.clock.setTimeout(() => {
        if (state.ended || state.done) return;
        handled(this.#send({ message: { case: "heartbeat", value: {} } }));
        arm();
      }, interval);
    };
    arm();
    return { clear: () => timer?.clear() };
  }

  #emitter(turn: Turn, state: TurnState): Emitter {
    const check = (method: string): void => {
      if (state.ended) throw new ConverseStateError(`emit.${method}: the turn has ended; nothing was sent`);
      if (state.done) throw new ConverseStateError(`emit.${method}: the turn is already done; nothing was sent`);
    };
    const guarded = <A extends unknown[], R>(method: string, fn: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> => {
        try {
          check(method);
          return handled(fn(...args));
        } catch (err) {
          return handled(Promise.reject(toError(err)));
        }
      };
    return {
      chunk: guarded("chunk", (text: string) => {
        if (typeof text !== "string") throw new InvalidOptionError(`emit.chunk: text must be a string; got ${typeof text}`);
        if (text === "") return Promise.resolve();
        return this.#send({ message: { case: "chunk", value: { content: text } } });
      }),
      media: guarded("media", (chunk: TurnMedia) =>
        this.#send({
          message: {
            case: "mediaChunk",
            value: {
              mediaId: chunk.mediaId,
              sequence: chunk.sequence,
              isLast: chunk.isLast ?? false,
              mimeType: chunk.mimeType ?? "",
              data: chunk.data,
            },
          },
        }),
      ),
      done: guarded("done", (done: TurnDone = {}) => {
        const value: MessageInitShape<typeof ServerMessageSchema>["message"] = {
          case: "done",
          value: {
            finalContent: done.finalContent ?? "",
            parts: partsToProto(done.parts),
            finishReason: done.finishReason ?? "",
            recordSequenceHighWater: toInt64(done.recordSequenceHighWater, turn.recordSequence.last),
            ...(done.usage === undefined ? {} : { usage: usageToProto(done.usage) }),
          },
        };
        state.done = true;
        return this.#send({ message: value });
      }),
      toolCall: guarded("toolCall", (call: ClientToolRequest) => this.#toolCall(turn, call)),
    };
  }

  #toolCall(turn: Turn, call: ClientToolRequest): Promise<ClientToolReply> {
    const callId = call.callId;
    if (typeof callId !== "string" || callId === "") {
      throw new InvalidOptionError(`emit.toolCall: callId must be a non-empty string; got ${JSON.stringify(callId)}`);
    }
    if (!turn.clientToolsAvailable) {
      // 1.9.0 (`x-omnia-client-tools` absent): nothing can answer; a denial now beats
      // hanging until the facade's 120 s inactivity timeout.
      return Promise.resolve({ callId, isRejected: true, isDenied: true, rejectionReason: NO_CLIENT_REASON });
    }
    if (this.#pending.has(callId)) {
      throw new InvalidOptionError(`emit.toolCall: call id ${JSON.stringify(callId)} is already awaiting a result`);
    }
    const reply = new Promise<ClientToolReply>((resolve, reject) => {
      this.#pending.set(callId, { resolve, reject });
    });
    this.#send({
      message: {
        case: "toolCall",
        value: {
          id: callId,
          name: call.name,
          argumentsJson: call.argumentsJson,
          execution: ToolExecution.CLIENT,
          consentMessage: call.consentMessage ?? "",
          categories: call.categories === undefined ? [] : [...call.categories],
        },
      },
    }).catch((err: unknown) => this.#rejectOne(callId, toError(err)));
    this.#ensurePump();
    return reply;
  }

  #ensurePump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    this.#pump = this.#runPump();
  }

  /**
   * Reads while client calls are pending and routes each `client_tool_result`
   * to the call whose id it names. Stops as soon as nothing is pending, so it
   * never reads a message meant as the next turn.
   */
  async #runPump(): Promise<void> {
    try {
      while (this.#pending.size > 0) {
        const inbound = await this.#read();
        if (inbound.kind === "aborted") {
          this.#rejectPending(new ClosedError("emit.toolCall: the stream was cancelled before the client answered"));
          return;
        }
        if (this.#pending.size === 0) {
          this.#reader.unread(inbound); // the turn gave up meanwhile: the message belongs to the loop
          return;
        }
        if (inbound.kind === "end") {
          this.#rejectPending(new ClosedError("emit.toolCall: the client closed the stream before answering"));
          this.#reader.unread(inbound);
          return;
        }
        if (inbound.kind === "error") {
          this.#rejectPending(receiveError(inbound.error));
          this.#reader.unread(inbound);
          return;
        }
        const result = inbound.message.clientToolResult;
        if (result === undefined) {
          // Consumed, as the Go SDK consumes it: it is not processed as a turn.
          this.#rejectPending(new ConnectError(RuntimeMessages.EXPECTED_CLIENT_TOOL_RESULT, Code.FailedPrecondition));
          return;
        }
        const pending = this.#pending.get(result.callId);
        if (pending === undefined) {
          this.#dropStray(result.callId);
          continue;
        }
        this.#pending.delete(result.callId);
        this.#refuseContentWithResult(inbound.message);
        pending.resolve(replyFromProto(result));
      }
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * Drops a `client_tool_result` that matches no pending call. Logged at the
   * 1st, 10th, 100th, … drop of the stream (with the count), so a client
   * that floods unknown ids cannot flood the log.
   */
  #dropStray(callId: string): void {
    const dropped = ++this.#strays;
    if (!isLogged(dropped)) return;
    this.#deps.logger.warn("runtime: dropped a client_tool_result whose call_id matches no pending tool call", { callId: callId.slice(0, 128), dropped });
  }

  /**
   * Text or parts sent beside a `client_tool_result` are not a turn (the
   * result answers a call of the turn in progress): they are refused with a
   * warning, logged at the 1st, 10th, 100th, … such message of the stream.
   */
  #refuseContentWithResult(message: ClientMessage): void {
    if (message.content === "" && message.parts.length === 0) return;
    const refused = ++this.#contentWithResults;
    if (!isLogged(refused)) return;
    this.#deps.logger.warn("runtime: refused the content sent with a client_tool_result; send it as its own message", {
      callId: (message.clientToolResult?.callId ?? "").slice(0, 128),
      contentBytes: Buffer.byteLength(message.content, "utf8"),
      parts: message.parts.length,
      refused,
    });
  }

  /** `audio_input` outside a duplex session: answered with DUPLEX_UNSUPPORTED; logged at the 1st, 10th, 100th, … */
  #refuseAudio(): void {
    const refused = ++this.#audioInputs;
    if (!isLogged(refused)) return;
    this.#deps.logger.warn("runtime: refused audio_input: this runtime serves no duplex session", { refused });
  }

  #rejectOne(callId: string, err: Error): void {
    const pending = this.#pending.get(callId);
    if (pending === undefined) return;
    this.#pending.delete(callId);
    pending.reject(err);
  }

  #rejectPending(err: Error): void {
    for (const callId of [...this.#pending.keys()]) this.#rejectOne(callId, err);
  }
}
