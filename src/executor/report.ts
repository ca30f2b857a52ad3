import { channel } from "node:diagnostics_channel";
import { BackendError, copyJsonValue, isOmniaToolsError, noopLogger, toError, type Clock, type JsonValue, type Logger, type OmniaToolsError } from "../core/index.js";
import type { Recorder, ToolCallRecord, ToolCallStart } from "../records/index.js";
import { logCallEvent, logClientToolRequested, type CallContent, type CallSpan, type Telemetry, type TracePropagationMode } from "../telemetry/index.js";
import type { ClientToolRequest } from "../client-tools/index.js";
import type { CallState } from "./call-state.js";
import type { ToolOutcome } from "./outcome.js";
import type { ToolExecutorEvents } from "./types.js";

/** How a call ended, before the fields every outcome carries are added. @internal Does not follow semver. */
export type Ending =
  | { readonly status: "success"; readonly result: JsonValue; readonly resultJson: string; readonly truncated?: true }
  | { readonly status: "error"; readonly message: string; readonly error: OmniaToolsError }
  | { readonly status: "denied"; readonly message: string; readonly reason: string };

/**
 * The one place where a call's outcome is built and where its record and its
 * events are produced: every stage ends a call through it, so an observer
 * (records, events, and later spans and metrics) is fed here and nowhere else.
 * @internal Does not follow semver.
 */
export interface Report {
  /** The call started (the `tool_call` event). */
  started(state: CallState): void;
  /**
   * The tool is resolved (or known to be unknown): opens the call's span and
   * writes the recorder's start row (`recorder.start`).
   */
  resolved(state: CallState, served?: boolean, description?: string): void;
  /**
   * Ends the call: builds the outcome, records it once, emits `tool_result`,
   * closes the span and logs the event line. `recordMessage` replaces the
   * message in the record; `cause` is the typed error of a denial, for the span.
   */
  finish(state: CallState, ending: Ending, recordMessage?: string, cause?: Error): ToolOutcome;
  /**
   * Ends the call with an error outcome whose message is the error's; for an
   * abandonment caused by the call's deadline, with the deadline's TimeoutError.
   */
  fail(state: CallState, error: OmniaToolsError): ToolOutcome;
  /** A client tool handed off to the host: an outcome, no record yet (it is recorded when it completes). */
  handedOff(state: CallState, request: ClientToolRequest): ToolOutcome;
  /** Subscribes to an event; the handle unsubscribes. */
  on<E extends keyof ToolExecutorEvents>(event: E, listener: (payload: ToolExecutorEvents[E]) => void): { dispose(): void };
}

/** @internal Does not follow semver. */
export function createReport(deps: {
  readonly recorder: Recorder | undefined;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly telemetry: Telemetry;
  /** The telemetry's propagation mode (`never` when telemetry is off). */
  readonly propagation: TracePropagationMode;
  readonly registryName: string | undefined;
  readonly registryNamespace: string | undefined;
}): Report {
  const { recorder, logger, clock, telemetry, propagation, registryName, registryNamespace } = deps;
  // In `auto` mode an undici instrumentation that subscribes here injects its own trace context instead of us.
  const undiciRequestCreate = telemetry.enabled && propagation === "auto" ? channel(UNDICI_REQUEST_CREATE) : undefined;
  const writeTrace = traceWriter(undiciRequestCreate, (span, carrier) => span.inject(carrier));
  const writeGrpcTrace = traceWriter(undefined, (span, carrier) => span.injectMetadata(carrier));
  const startsRecords = recorder !== undefined && typeof recorder.start === "function";
  const registryFields = {
    ...(registryName === undefined || registryName === "" ? {} : { registryName }),
    ...(registryNamespace === undefined || registryNamespace === "" ? {} : { registryNamespace }),
  };
  const listeners: { [E in keyof ToolExecutorEvents]: Set<(payload: ToolExecutorEvents[E]) => void> } = { tool_call: new Set(), tool_result: new Set() };

  function emit<E extends keyof ToolExecutorEvents>(event: E, payload: ToolExecutorEvents[E]): void {
    for (const listener of listeners[event]) {
      try {
        listener(payload);
      } catch (e) {
        logger.error("tool executor: an event listener threw", { event, error: toError(e).message });
      }
    }
  }

  /** Hands a row to the recorder; a throw or a rejection is logged and never reaches the call. */
  function deliver(what: string, r: ToolCallStart, send: () => void | Promise<void>): void {
    const failed = (e: unknown): void => logger.error(what, { toolName: r.toolName, callId: r.callId, error: toError(e).message });
    try {
      const out = send();
      if (out !== undefined && typeof (out as Promise<void>).then === "function") (out as Promise<void>).then(undefined, failed);
    } catch (e) {
      failed(e);
    }
  }

  /**
   * The fields a call's start row and its record share. The start row (`own`) gets its own copy of the
   * arguments: it reaches the host's recorder before the request is built from them, so a recorder that
   * changes its row (scrubbing a value in place) cannot change what the backend is sent.
   */
  function startFields(state: CallState, own = false): ToolCallStart {
    const handler = state.handler;
    const handlerType = handler?.type ?? "";
    const sessionId = state.sessionId;
    return {
      callId: state.callId,
      ...(sessionId === undefined ? {} : { sessionId }),
      toolName: state.toolName,
      handlerName: handler?.name ?? "",
      handlerType,
      execution: handlerType === "client" ? "client" : "server",
      ...registryFields,
      arguments: own ? ownArguments(state.recordedArgs) : state.recordedArgs,
      startedAt: state.startedAt,
      ...(sequenceOf(state) === undefined ? {} : { sequenceNum: state.sequenceNum! }),
    };
  }

  /** The call's record position: taken from `ctx.recordSequence` once, when its first row is built. */
  function sequenceOf(state: CallState): number | undefined {
    if (state.sequenceNum === undefined && state.ctx.recordSequence !== undefined) {
      try {
        const n = Number(state.ctx.recordSequence.next());
        if (Number.isSafeInteger(n) && n >= 0) state.sequenceNum = n;
        else logger.error("tool executor: recordSequence.next() gave no whole number from 0; the record carries none", { toolName: state.toolName, callId: state.callId });
      } catch (e) {
        logger.error("tool executor: recordSequence.next() threw; the record carries none", { toolName: state.toolName, callId: state.callId, error: toError(e).message });
      }
    }
    return state.sequenceNum;
  }

  function resolved(state: CallState, served = true, description?: string): void {
    const handler = state.handler;
    if (telemetry.enabled) {
      const info = { toolName: state.toolName, served, registryName, registryNamespace, handlerName: handler?.name ?? "", handlerType: handler?.type ?? "" };
      // The GenAI span's extras only when it is on: nothing more per call otherwise.
      const span = telemetry.startCall(telemetry.genAi ? { ...info, callId: state.callId, description, round: state.hooks?.round } : info);
      state.span = span;
      if (handler !== undefined && (handler.type === "http" || handler.type === "openapi")) state.traceWriter = writeTrace;
      else if (handler?.type === "grpc" && telemetry.grpcMetadata) state.traceWriter = writeGrpcTrace;
    }
    if (startsRecords) {
      const row = startFields(state, true);
      deliver("failed to record tool call start", row, () => recorder!.start!(row));
    }
  }

  function finish(state: CallState, ending: Ending, recordMessage?: string, cause?: Error): ToolOutcome {
    const durationMs = clock.now() - state.startedAt;
    const handlerType = state.handler?.type ?? "";
    const { callId, toolName } = state;
    // No recorder: no record to build (it was most of this function's cost per call).
    if (recorder !== undefined) {
      const audit = state.audit;
      const row: ToolCallRecord = {
        ...startFields(state),
        status: ending.status,
        ...(ending.status === "success" ? recordedResult(state, ending.result, ending.resultJson) : { errorMessage: recordMessage ?? ending.message }),
        ...(audit === undefined ? {} : { policyAudit: audit }),
        ...(state.hooks?.approval === undefined ? {} : { approval: state.hooks.approval }),
        durationMs,
        attempts: state.attempts,
      };
      deliver("failed to record tool call", row, () => recorder.record(row));
    }
    if (listeners.tool_result.size > 0) emit("tool_result", { callId, name: toolName, ok: ending.status === "success", durationMs });
    if (state.span !== undefined || logger !== noopLogger) observeEnd(state, ending, durationMs, cause);
    if (ending.status !== "success") return { ...ending, toolName, callId, handlerType, durationMs };
    // The success outcome as one literal (same keys, same order): spreading it cost more than the rest of the call's bookkeeping.
    const { result, resultJson } = ending;
    return ending.truncated === true
      ? { status: "success", result, resultJson, truncated: true, toolName, callId, handlerType, durationMs }
      : { status: "success", result, resultJson, toolName, callId, handlerType, durationMs };
  }

  /** The span's end, the metrics and Omnia's per-call event line. */
  function observeEnd(state: CallState, ending: Ending, durationMs: number, cause: Error | undefined): void {
    const error = ending.status === "error" ? ending.error : cause;
    const message = ending.status === "success" ? undefined : ending.message;
    // Refused before any handler ran: PromptKit's `tool.call.failed`, the only `status="error"` of the call counter.
    const rejectedBeforeExecution = ending.status === "error" && (state.handler === undefined || state.argsError !== undefined);
    const span = state.span;
    if (span !== undefined) {
      const content = telemetry.captureContent ? callContent(state, ending) : undefined;
      span.end({ status: ending.status, message, error, durationMs, rejectedBeforeExecution, content });
    }
    logCallEvent(logger, { sessionId: state.sessionId, toolName: state.toolName, callId: state.callId, status: ending.status, durationMs, error: message, rejectedBeforeExecution });
  }

  return {
    resolved,
    started(state) {
      if (listeners.tool_call.size > 0) emit("tool_call", { callId: state.callId, name: state.toolName });
    },
    finish,
    fail(state, error) {
      // A call abandoned because its own deadline passed ends as the deadline's TimeoutError, recorded here once.
      const timeout = state.deadline?.replaces(error);
      if (timeout === undefined) return finish(state, { status: "error", message: error.message, error });
      return (state.deadline!.outcome = finish(state, { status: "error", message: timeout.message, error: timeout }));
    },
    handedOff(state, request) {
      const durationMs = clock.now() - state.startedAt;
      state.span?.end({ status: "client", durationMs });
      if (logger !== noopLogger) {
        logClientToolRequested(logger, { sessionId: state.sessionId, toolName: state.toolName, callId: state.callId, consentMsg: request.consentMessage ?? "", categories: request.categories ?? [] });
        logCallEvent(logger, { sessionId: state.sessionId, toolName: state.toolName, callId: state.callId, status: "client", durationMs });
      }
      return { status: "client", request, toolName: state.toolName, callId: state.callId, handlerType: "client", durationMs };
    },
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      set.add(listener);
      return { dispose: () => void set.delete(listener) };
    },
  };
}

/**
 * The start row's copy of the arguments. Model text always parses to plain data, which copies; a host's own
 * argument object whose reads throw (a getter, a Proxy) is passed as it is, as before: copying it must not fail
 * the call, and a host that builds such an object owns what its recorder does to it.
 */
function ownArguments(args: JsonValue | string): JsonValue | string {
  try {
    return copyJsonValue(args);
  } catch {
    return args;
  }
}

/** Everything that reaches an outcome is an OmniaToolsError; anything else is wrapped, never passed raw. @internal Does not follow semver. */
export function asOmniaError(e: unknown): OmniaToolsError {
  if (isOmniaToolsError(e)) return e;
  const error = toError(e);
  return new BackendError(error.message, { cause: error });
}

const UNDICI_REQUEST_CREATE = "undici:request:create";
/** The trace-context headers an undici instrumentation appends for its own client span. */
const INSTRUMENTATION_TRACE_HEADERS: readonly string[] = ["traceparent", "tracestate"];

/** The W3C fields a trace writer may put in place of a header the request already has. */
const W3C_TRACE_FIELDS: ReadonlySet<string> = new Set(["traceparent", "tracestate", "baggage"]);

/**
 * Writes a span's trace context into an attempt's headers, last: a W3C
 * field (`traceparent`, `tracestate`, `baggage`) replaces a header of the same
 * name in any letter case (a static `Traceparent`), so the request never
 * carries two. Any other field the host's propagator writes (B3, a vendor's)
 * is added only when the request has no header of that name: a propagator
 * never replaces the handler's `Authorization`, a `headersFromSecret` header or
 * any other header the call already carries. When the span injects nothing
 * because an undici instrumentation subscribes to `undici:request:create`
 * (`auto` mode), that instrumentation appends its own `traceparent` (and
 * `tracestate`) to the request: a configured header of those names is
 * removed, or the backend would receive two.
 */
function traceWriter(undiciRequestCreate: { readonly hasSubscribers: boolean } | undefined, inject: (span: CallSpan, carrier: Record<string, string>) => void): (span: CallSpan, headers: Record<string, string>) => void {
  return (span, headers) => {
    const trace: Record<string, string> = {};
    inject(span, trace);
    const names = Object.keys(trace);
    if (names.length === 0 && undiciRequestCreate?.hasSubscribers === true) names.push(...INSTRUMENTATION_TRACE_HEADERS);
    for (const name of names) {
      const lower = name.toLowerCase();
      const existing = Object.keys(headers).filter((k) => k.toLowerCase() === lower);
      if (existing.length > 0 && !W3C_TRACE_FIELDS.has(lower)) continue;
      for (const key of existing) delete headers[key];
      const value = trace[name];
      if (value !== undefined) headers[name] = value;
    }
  };
}

/**
 * What `captureContent` puts on the call's span: the arguments as recorded, a
 * success's result, and every credential value the call resolved or its
 * handler holds, to be shown as `***`.
 */
function callContent(state: CallState, ending: Ending): CallContent {
  const secrets: string[] = [...Object.values(state.auth), ...Object.values(state.secretHeaders)];
  if (state.delegationToken !== undefined) secrets.push(state.delegationToken);
  const staticQuery = (state.handler as { httpConfig?: { staticQuery?: Readonly<Record<string, string>> } } | undefined)?.httpConfig?.staticQuery;
  if (staticQuery !== undefined) secrets.push(...Object.values(staticQuery));
  const args = state.recordedArgs;
  return { arguments: state.argsError === undefined ? JSON.stringify(args) : String(args), result: ending.status === "success" ? ending.resultJson : undefined, secrets };
}

/** A success's record fields: the tools layer's result, or what the caller's hook says the model was shown. */
function recordedResult(state: CallState, result: JsonValue, resultJson: string): { result: JsonValue; resultJson: string } {
  const map = state.hooks?.recordResult;
  if (map === undefined) return { result, resultJson };
  let shown: JsonValue;
  try {
    shown = map(resultJson);
  } catch {
    // A hook that throws changes nothing: the record keeps the tools layer's result.
    return { result, resultJson };
  }
  return { result: shown, resultJson: typeof shown === "string" ? shown : JSON.stringify(shown) };
}
