// The six checks of Omnia's pkg/runtime/conformance (`checks.go`), one
// function each, in output order. Every detail string is byte-identical to the
// Go suite's; `%v` parts of a status read as grpc-go prints one
// (`rpc error: code = Internal desc = boom`), and `%T` of a frame as Go's type name.
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Capability, SEMVER_PATTERN, type ClientMessageSchema, type RuntimeService, type ServerMessage } from "../contract/index.js";
import type { Clock } from "../core/index.js";
import { CONFORMANCE, type CheckResult } from "./constants.js";
import { openScope, type Scope } from "./deadline.js";
import { formatGrpcGoError, goQuote } from "../core/index.js";
import { drain, isTransportCrash, readFrames } from "./read-frames.js";

/** The stable check names, in run order. @internal Does not follow semver. */
export const CHECK = Object.freeze({
  HEALTH: "health/contract",
  HELLO_FIRST: "hello-first",
  TEXT_TURN: "text-turn-shape",
  MALFORMED: "graceful-malformed-input",
  INVOKE: "invoke-honesty",
  DUPLEX: "duplex-honesty",
});

/** What every check needs. @internal Does not follow semver. */
export interface CheckContext {
  readonly client: Client<typeof RuntimeService>;
  readonly clock: Clock;
  /** The whole run's scope (the caller's timeout and signal). */
  readonly run: Scope;
}

/**
 * The capability set Health advertised: `undefined` when the Health check
 * failed (every later check skips), empty for a legacy runtime (only the
 * hello checks skip). Omnia keeps it as a map, so duplicates collapse.
 */
export type HealthCaps = ReadonlySet<string> | undefined;

type ClientMessageInit = MessageInitShape<typeof ClientMessageSchema>;

const pass = (name: string): CheckResult => ({ name, status: "pass", detail: "" });
const fail = (name: string, detail: string): CheckResult => ({ name, status: "fail", detail });
const skip = (name: string, detail: string): CheckResult => ({ name, status: "skip", detail });

/**
 * #1 `health/contract`: Health answers, reports healthy, and a `N.N.N`
 * contract version (any version: the suite never compares it to its own).
 * Health runs under the caller's scope only, with no per-probe timeout.
 */
export async function checkHealth(ctx: CheckContext): Promise<{ caps: HealthCaps; result: CheckResult }> {
  const name = CHECK.HEALTH;
  let health;
  try {
    health = await ctx.client.health({}, callOptions(ctx.run));
  } catch (e) {
    return { caps: undefined, result: fail(name, `Health RPC failed: ${goErrorText(ConnectError.from(e))}`) };
  }
  if (!health.healthy) return { caps: undefined, result: fail(name, "Health reports healthy=false") };
  if (!SEMVER_PATTERN.test(health.contractVersion)) {
    return { caps: undefined, result: fail(name, `contract_version ${goQuote(health.contractVersion)} is not semver (want N.N.N)`) };
  }
  return { caps: new Set(health.capabilities), result: pass(name) };
}

/**
 * #2 `hello-first` and #3 `text-turn-shape`, which share one Converse stream:
 * one text message, half-close, read at most 16 frames.
 */
export async function checkTextTurn(ctx: CheckContext, caps: HealthCaps): Promise<[CheckResult, CheckResult]> {
  if (caps === undefined || caps.size === 0) {
    // A legacy runtime sends no hello, so only these two checks skip for it.
    const why = caps === undefined ? CONFORMANCE.SKIP_HEALTH_FAILED : CONFORMANCE.SKIP_LEGACY;
    return [skip(CHECK.HELLO_FIRST, why), skip(CHECK.TEXT_TURN, why)];
  }
  const { frames, error } = await probeStream(ctx, { sessionId: CONFORMANCE.PROBE_SESSION_ID, content: CONFORMANCE.PROBE_CONTENT });
  return [evalHelloFirst(frames, caps), evalTurnShape(frames, error)];
}

function evalHelloFirst(frames: readonly ServerMessage[], caps: ReadonlySet<string>): CheckResult {
  const name = CHECK.HELLO_FIRST;
  const first = frames[0];
  if (first === undefined) return fail(name, "Converse produced no ServerMessages");
  if (first.message.case !== "runtimeHello") {
    return fail(name, `first frame is ${goFrameType(first.message.case)}, want RuntimeHello`);
  }
  if (!capsMatch(first.message.value.capabilities, caps)) return fail(name, "RuntimeHello.capabilities do not match Health.capabilities");
  return pass(name);
}

/**
 * Omnia's comparison: the hello's list has the Health set's size and every
 * entry is in the set. Order is free; a duplicate in the hello fails (its
 * length no longer equals the de-duplicated set's size).
 */
function capsMatch(hello: readonly string[], health: ReadonlySet<string>): boolean {
  return hello.length === health.size && hello.every((c) => health.has(c));
}

function evalTurnShape(frames: readonly ServerMessage[], error: ConnectError | undefined): CheckResult {
  const name = CHECK.TEXT_TURN;
  if (error !== undefined) return fail(name, `stream error before completion: ${goErrorText(error)}`);
  let seenHello = false;
  let seenDone = false;
  for (const f of frames) {
    if (f.message.case === "runtimeHello") seenHello = true;
    if (f.message.case === "done") {
      if (!seenHello) return fail(name, "done arrived before RuntimeHello");
      seenDone = true;
    }
  }
  return seenDone ? pass(name) : fail(name, "text turn did not end with a done frame");
}

/**
 * #4 `graceful-malformed-input`: a message with only a session id, then
 * half-close. Passes unless the read ends in a transport crash. Runs for
 * legacy runtimes too.
 */
export async function checkMalformedInput(ctx: CheckContext, caps: HealthCaps): Promise<CheckResult> {
  const name = CHECK.MALFORMED;
  if (caps === undefined) return skip(name, CONFORMANCE.SKIP_HEALTH_FAILED);
  const { error } = await probeStream(ctx, { sessionId: CONFORMANCE.PROBE_SESSION_ID });
  if (isTransportCrash(error)) return fail(name, `stream crashed on empty input: ${goErrorText(error as ConnectError)}`);
  return pass(name);
}

/**
 * #5 `invoke-honesty`: advertised `invoke` must not answer Unimplemented (any
 * other outcome, errors included, passes); unadvertised `invoke` must.
 */
export async function checkInvokeHonesty(ctx: CheckContext, caps: HealthCaps): Promise<CheckResult> {
  const name = CHECK.INVOKE;
  if (caps === undefined) return skip(name, CONFORMANCE.SKIP_HEALTH_FAILED);
  const probe = openScope(ctx.clock, CONFORMANCE.PROBE_TIMEOUT_MS, ctx.run);
  let unimplemented = false;
  try {
    await ctx.client.invoke({ inputJson: "{}", invocationId: CONFORMANCE.PROBE_SESSION_ID }, callOptions(probe));
  } catch (e) {
    unimplemented = ConnectError.from(e).code === Code.Unimplemented;
  } finally {
    probe.dispose();
  }
  if (caps.has(Capability.INVOKE)) {
    return unimplemented ? fail(name, "advertises `invoke` but Invoke returns Unimplemented") : pass(name);
  }
  return unimplemented ? pass(name) : fail(name, "Invoke is answered but `invoke` is not advertised");
}

/**
 * #6 `duplex-honesty`, only when `duplex_audio` is advertised: a `duplex_start`
 * (pcm, 16 kHz, mono) and one 20 ms `audio_input` frame marked last, without
 * half-close. The session must answer as an audio session: an `error` frame,
 * or a `done` before any `media_chunk` or `interruption` (a text turn), fails;
 * audio or an interruption passes, and so does a session still silent when the
 * probe ends. Omnia's Go suite passes any first frame, even the error frame of a
 * runtime that refuses duplex; this one does not.
 */
export async function checkDuplexHonesty(ctx: CheckContext, caps: HealthCaps): Promise<CheckResult> {
  const name = CHECK.DUPLEX;
  if (caps === undefined) return skip(name, CONFORMANCE.SKIP_HEALTH_FAILED);
  if (!caps.has(Capability.DUPLEX_AUDIO)) return skip(name, "duplex_audio not advertised");
  const probe = openScope(ctx.clock, CONFORMANCE.PROBE_TIMEOUT_MS, ctx.run);
  async function* duplexRequests(): AsyncIterable<ClientMessageInit> {
    yield { sessionId: CONFORMANCE.PROBE_SESSION_ID, duplexStart: { codec: "pcm", sampleRate: 16000, channels: 1 } };
    yield { sessionId: CONFORMANCE.PROBE_SESSION_ID, audioInput: { data: new Uint8Array(640), sequence: 0, isLast: true } };
    if (!probe.signal.aborted) await new Promise<void>((resolve) => probe.signal.addEventListener("abort", () => resolve(), { once: true }));
  }
  const it = ctx.client.converse(duplexRequests(), callOptions(probe))[Symbol.asyncIterator]();
  let frames = 0;
  try {
    for (;;) {
      const next = await it.next();
      if (next.done === true) break;
      frames++;
      const frame = next.value.message;
      if (frame.case === "mediaChunk" || frame.case === "interruption") return pass(name);
      if (frame.case === "error") return fail(name, `advertises \`duplex_audio\` but answered the duplex session with an error frame: ${frame.value.code.slice(0, 64)}: ${frame.value.message.slice(0, 256)}`);
      if (frame.case === "done") return fail(name, "advertises `duplex_audio` but answered the duplex session as a text turn (a Done before any audio)");
    }
  } catch (e) {
    const error = ConnectError.from(e);
    if (frames > 0 && (error.code === Code.DeadlineExceeded || error.code === Code.Canceled)) return pass(name);
    if (error.code === Code.Unimplemented) return fail(name, "advertises `duplex_audio` but the session returns Unimplemented");
    if (isTransportCrash(error)) return fail(name, `duplex session crashed: ${goErrorText(error)}`);
    if (frames > 0) return pass(name);
    return fail(name, "duplex session closed without emitting any frame");
  } finally {
    probe.dispose();
    await drain(it);
  }
  return frames > 0 ? pass(name) : fail(name, "duplex session closed without emitting any frame");
}

/**
 * Opens a Converse stream under a fresh 10 s probe scope, sends `message`
 * (send errors are ignored: only what is received counts), half-closes unless
 * told not to, reads, and cancels the stream on return.
 *
 * Go reports `Converse failed to open: %v` when grpc-go's `NewStream` fails
 * before anything is received. connect opens a stream lazily, on the first
 * read, so every failure, the server's status included, arrives here as a
 * receive error, exactly where grpc-go reports a server's status; the suite
 * therefore never produces that detail.
 */
async function probeStream(
  ctx: CheckContext,
  message: ClientMessageInit,
  { halfClose = true, maxFrames = CONFORMANCE.MAX_FRAMES }: { halfClose?: boolean; maxFrames?: number } = {},
): Promise<{ frames: readonly ServerMessage[]; error: ConnectError | undefined }> {
  const probe = openScope(ctx.clock, CONFORMANCE.PROBE_TIMEOUT_MS, ctx.run);
  const it = ctx.client.converse(requests(message, halfClose ? undefined : probe.signal), callOptions(probe))[Symbol.asyncIterator]();
  try {
    return await readFrames(it, maxFrames);
  } finally {
    probe.dispose();
    await drain(it);
  }
}

/** One message, then end (half-close), or stay open until `holdOpenUntil` aborts. */
async function* requests(message: ClientMessageInit, holdOpenUntil: AbortSignal | undefined): AsyncIterable<ClientMessageInit> {
  yield message;
  if (holdOpenUntil !== undefined && !holdOpenUntil.aborted) {
    await new Promise<void>((resolve) => holdOpenUntil.addEventListener("abort", () => resolve(), { once: true }));
  }
}

function callOptions(scope: Scope): { signal: AbortSignal; timeoutMs?: number } {
  const timeoutMs = scope.timeoutMs();
  return timeoutMs === undefined ? { signal: scope.signal } : { signal: scope.signal, timeoutMs };
}

/** A status as Go's `%v` prints grpc-go's error: `rpc error: code = Internal desc = boom`. */
function goErrorText(error: ConnectError): string {
  return formatGrpcGoError(error.code, error.rawMessage);
}

/**
 * Go's `%T` of `ServerMessage.GetMessage()`: the oneof wrapper's type,
 * `*runtimev1.ServerMessage_<Field>` (protoc-gen-go names it after the field in
 * CamelCase; each case name here is that field in lowerCamelCase), or `<nil>`
 * when no field of the oneof is set.
 */
function goFrameType(kase: string | undefined): string {
  if (kase === undefined || kase === "") return "<nil>";
  return `*runtimev1.ServerMessage_${kase.charAt(0).toUpperCase()}${kase.slice(1)}`;
}
