import { channel, type Channel } from "node:diagnostics_channel";
import { ErrorCode, InvalidOptionError, formatGoDuration, noopLogger, rejectUnknownOptions, type Logger } from "../core/index.js";
import { loadOpenTelemetryApi, packageVersion, type OpenTelemetryApi } from "./load-api.js";
import type { OtelAttributes, OtelContext, OtelCounter, OtelHistogram, OtelMeter, OtelPropagator, OtelSpan, OtelTracer } from "./otel-types.js";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_EXECUTE_TOOL,
  GEN_AI_LIMITS,
  boundedText,
  envOptsIntoGenAi,
  errorType,
  genAiToolType,
  redactSecrets,
} from "./gen-ai.js";
import { injectW3c, mcpObserver, type McpRequestObserver, type McpSpanDeps } from "./mcp-spans.js";

/**
 * The span Omnia's executor opens around a tool call (`internal/tracing/tracing.go`).
 * @internal Does not follow semver.
 */
export const TOOL_CALL_SPAN_NAME = "omnia.tool.call";
/**
 * PromptKit's tool-call counter, under Omnia's `omnia` namespace (`runtime/metrics/collector.go`).
 * @internal Does not follow semver.
 */
export const TOOL_CALLS_METRIC = "omnia_tool_calls_total";
/**
 * PromptKit's tool-call duration histogram, in seconds.
 * @internal Does not follow semver.
 */
export const TOOL_CALL_DURATION_METRIC = "omnia_tool_call_duration_seconds";
/**
 * PromptKit's bucket boundaries for the tool-call duration histogram, in seconds.
 * @internal Does not follow semver.
 */
export const TOOL_CALL_DURATION_BUCKETS_S: readonly number[] = Object.freeze([0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
/**
 * The extension counter of breaker transitions: Omnia has no breaker metric, hence the package prefix.
 * @internal Does not follow semver.
 */
export const BREAKER_TRANSITIONS_METRIC = "omnia_tools_breaker_transitions_total";
/**
 * The instrumentation scope: this package (Omnia's runtime uses `omnia-runtime`).
 * @internal Does not follow semver.
 */
export const INSTRUMENTATION_SCOPE = "omnia-tools";

/**
 * The span a round of `createTurn` opens when the `gen_ai` conventions are on
 * and the host has no span active: the parent of the round's tool spans. The
 * conventions (v1.41.1) name no span for one batch of tool calls, hence the
 * package prefix.
 * @internal Does not follow semver.
 */
export const TURN_ROUND_SPAN_NAME = "omnia_tools.turn.round";
/**
 * The round span's attribute: how many tool calls the round was given.
 * @internal Does not follow semver.
 */
export const TURN_ROUND_CALLS_ATTRIBUTE = "omnia_tools.turn.tool_calls";

const SPAN_KIND_INTERNAL = 0; // SpanKind.INTERNAL
const SPAN_KIND_CLIENT = 2; // SpanKind.CLIENT
const STATUS_OK = 1; // SpanStatusCode.OK
const STATUS_ERROR = 2; // SpanStatusCode.ERROR
const UNDICI_REQUEST_CREATE = "undici:request:create";

/**
 * When a tool call's HTTP and OpenAPI requests carry W3C trace context
 * (`traceparent`, `tracestate`, `baggage`):
 * - `auto` (default): injected, unless an instrumentation already subscribes to
 *   undici's `undici:request:create` diagnostics channel (such as
 *   `@opentelemetry/instrumentation-undici`), which injects its own; injecting as
 *   well would send two `traceparent` headers.
 * - `always`: injected in every case.
 * - `never`: not injected.
 * @public
 */
export type TracePropagationMode = "auto" | "always" | "never";

/**
 * A set of names tool calls are reported under:
 * - `omnia`: Omnia's runtime's `omnia.tool.call` span and its two tool metrics
 *   (`omnia_tool_calls_total`, `omnia_tool_call_duration_seconds`);
 * - `gen_ai`: OpenTelemetry's GenAI semantic conventions (v1.41.1): an
 *   `execute_tool {gen_ai.tool.name}` span per call, and a CLIENT span per MCP
 *   request (`tools/call {tool}`, `tools/list`) with the MCP conventions'
 *   attributes. At v1.41.1 the conventions define no tool-execution metric.
 * @public
 */
export type TelemetryConvention = "omnia" | "gen_ai";

/**
 * The constant labels Omnia's runtime puts on its tool metrics, given here as
 * attributes on every data point so that Omnia's dashboards' selectors
 * (`{agent=…, namespace=…}`) match. Each is added only when set.
 * @public
 */
export interface TelemetryAttributes {
  /** The `agent` attribute: the agent's name. */
  readonly agent?: string | undefined;
  /** The `namespace` attribute: the agent's namespace. */
  readonly namespace?: string | undefined;
  /** The `promptpack_name` attribute: the PromptPack the agent runs. */
  readonly promptpackName?: string | undefined;
}

/**
 * Where the tool-call spans and metrics go. Every field is optional: with none,
 * the global OpenTelemetry API is used when `@opentelemetry/api` is installed
 * (a no-op until the host registers an SDK), and nothing at all happens when it
 * is not. This package never sets a global provider, propagator or context manager.
 * @public
 */
export interface TelemetryOptions {
  /** The tracer for `omnia.tool.call` spans. Default: the global tracer provider's `omnia-tools` tracer. */
  readonly tracer?: OtelTracer;
  /** The meter for the tool metrics. Default: the global meter provider's `omnia-tools` meter. */
  readonly meter?: OtelMeter;
  /** The propagator that writes trace context into HTTP and OpenAPI requests. Default: the global propagator. */
  readonly propagator?: OtelPropagator;
  /** Whether HTTP and OpenAPI requests carry trace context. Default `auto`. */
  readonly propagation?: TracePropagationMode;
  /** Constant attributes of every metric data point. */
  readonly attributes?: TelemetryAttributes;
  /** Where a missing `@opentelemetry/api` is reported when a tracer or meter was given. Default: discard. */
  readonly logger?: Logger;
  /**
   * The names tool calls are reported under (see {@link TelemetryConvention}),
   * a non-empty list without repeats. Default `["omnia"]`, and
   * `["omnia", "gen_ai"]` when `OTEL_SEMCONV_STABILITY_OPT_IN` (in `env`)
   * lists `gen_ai_latest_experimental`. When set, the variable is not read.
   * Without `omnia`, neither Omnia's span nor its two tool metrics are emitted
   * (the breaker-transition counter still is).
   */
  readonly conventions?: readonly TelemetryConvention[];
  /**
   * With `gen_ai`: the `execute_tool` span also carries
   * `gen_ai.tool.call.arguments` and, for a success, `gen_ai.tool.call.result`
   * (opt-in attributes: they may hold personal data). Each is JSON text with
   * the handler's credential values (auth header, `headersFromSecret`,
   * `staticQuery`, delegation token) shown as `***`, cut at 16,384 UTF-16 code
   * units (ending `...`). Default false.
   */
  readonly captureContent?: boolean;
  /**
   * MCP `tools/call` requests carry the call's W3C trace context
   * (`traceparent`, `tracestate`, `baggage`, as the propagator writes them; no
   * other field it writes) in
   * `params._meta`, so an instrumented MCP server continues the trace. Omnia's
   * runtime sends none. Default false.
   */
  readonly mcpMeta?: boolean;
  /**
   * gRPC tool calls carry the call's W3C trace context (`traceparent`,
   * `tracestate`, `baggage`, as the propagator writes them; no other field it
   * writes) in their metadata,
   * whatever `propagation` says (that mode is about HTTP and OpenAPI, where an
   * undici instrumentation may inject its own). Omnia's runtime sends none.
   * Default false.
   */
  readonly grpcMetadata?: boolean;
  /**
   * The environment `OTEL_SEMCONV_STABILITY_OPT_IN` is read from, once, when
   * the telemetry is created (and only when `conventions` is not set).
   * Default: `process.env`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The metrics' `tool` label for a call to a tool name the registry does not
 * serve: OpenTelemetry's convention for a value outside a known set.
 * @internal Does not follow semver.
 */
export const UNSERVED_TOOL_LABEL = "_OTHER";

/**
 * What a tool-call span is opened with.
 * @internal Does not follow semver.
 */
export interface CallStartInfo {
  /** The tool name the model used (`tool.name`). */
  readonly toolName: string;
  /**
   * Whether the registry (or a platform tool) serves `toolName`. The metrics'
   * `tool` label is the name only then; a name the registry does not serve
   * (the model may invent any number of them) is counted under
   * {@link UNSERVED_TOOL_LABEL}, so the series stay bounded by the registry.
   * The span keeps the name the model used. Default: true.
   */
  readonly served?: boolean | undefined;
  /**
   * The agent's ToolRegistry name. When non-empty, the span also gets
   * `tool.registry.name`, `tool.registry.namespace`, `tool.handler.name` and
   * `tool.handler.type` (all four or none, as Omnia).
   */
  readonly registryName?: string | undefined;
  /** The ToolRegistry namespace (may be empty). */
  readonly registryNamespace?: string | undefined;
  /** The handler that serves the tool; empty when unknown. */
  readonly handlerName?: string | undefined;
  /** The handler type (`http`, `grpc`, `mcp`, `openapi`, `client`, `platform`); empty when unknown. */
  readonly handlerType?: string | undefined;
  /** The model's call id (`gen_ai.tool.call.id`). */
  readonly callId?: string | undefined;
  /** The tool's description, when the tool is known (`gen_ai.tool.description`). */
  readonly description?: string | undefined;
  /** The round of a turn the call belongs to ({@link Telemetry.startRound}): its span is the parent. */
  readonly round?: unknown;
}

/**
 * A failed attempt followed by a backoff sleep: the executor's retry hook payload.
 * @internal Does not follow semver.
 */
export interface CallRetryInfo {
  /** 1-based number of the attempt that failed. */
  readonly attempt: number;
  /** The sleep before the next attempt, in ms. */
  readonly delayMs: number;
  /** That attempt's error (or its text). */
  readonly error: Error | string;
}

/**
 * How a tool call ended, for its span and metrics.
 * @internal Does not follow semver.
 */
export interface CallEndInfo {
  /** The outcome's status. `client` is a call handed to the client (it counts as a success, with 0 s duration). */
  readonly status: "success" | "error" | "denied" | "client";
  /** The Omnia-layer text of an error or denial (the outcome's `message`). */
  readonly message?: string | undefined;
  /** The typed error of an error or denial, when there is one (recorded as the `exception` event). */
  readonly error?: Error | undefined;
  /** From the start of execution to the outcome, in ms (the clock's). */
  readonly durationMs: number;
  /**
   * True when the call was refused before any handler ran because the tool is
   * unknown or its arguments are not valid JSON: PromptKit's `tool.call.failed`,
   * the only case counted with `status="error"` in `omnia_tool_calls_total`.
   */
  readonly rejectedBeforeExecution?: boolean | undefined;
  /**
   * The call's arguments and result as JSON text, with the credential values
   * to hide: given only when {@link Telemetry.captureContent} is true.
   */
  readonly content?: CallContent | undefined;
}

/**
 * What `captureContent` records of a call.
 * @internal Does not follow semver.
 */
export interface CallContent {
  /** The arguments, as JSON text (or the model's text when it is not JSON). */
  readonly arguments: string;
  /** A success's result JSON. */
  readonly result?: string | undefined;
  /** Credential values shown as `***` in both. */
  readonly secrets: readonly string[];
}

/**
 * One tool call's span and metrics. Every method is safe to call on the no-op
 * instance; {@link CallSpan.end} must be called exactly once (later calls are ignored).
 * @internal Does not follow semver.
 */
export interface CallSpan {
  /**
   * Writes W3C trace context (`traceparent`, and `tracestate`/`baggage` when
   * present) into one HTTP or OpenAPI attempt's header map, overwriting keys of
   * the same name. Call it last, after every other header, once per attempt.
   */
  inject(headers: Record<string, string>): void;
  /**
   * Follows this call's MCP requests (their spans are children of the call's
   * innermost span); `undefined` unless the `gen_ai` conventions or `mcpMeta` are on.
   */
  readonly mcp: McpRequestObserver | undefined;
  /** Writes W3C trace context into a gRPC attempt's metadata (lower-case keys); only called with `grpcMetadata`. */
  injectMetadata(metadata: Record<string, string>): void;
  /** Runs `fn` with this call's span as the active span (so backend instrumentation nests under it). */
  run<T>(fn: () => T): T;
  /** The `retry.attempt` event, before the backoff sleep. */
  retry(event: CallRetryInfo): void;
  /**
   * Closes the span (Ok, or `exception` event + Error status) and records the
   * metrics. A `RetriesExhaustedError` also adds the `retry.exhausted` event first.
   */
  end(outcome: CallEndInfo): void;
}

/**
 * The telemetry of one executor.
 * @internal Does not follow semver.
 */
export interface Telemetry {
  /** False for the shared no-op: the executor may then skip building what it would pass here. */
  readonly enabled: boolean;
  /** The `gen_ai` conventions are on (a call's description is then worth passing). */
  readonly genAi: boolean;
  /** `captureContent` with `gen_ai`: {@link CallEndInfo.content} is read. */
  readonly captureContent: boolean;
  /** `grpcMetadata`: gRPC calls carry trace context in their metadata. */
  readonly grpcMetadata: boolean;
  /**
   * Follows MCP requests made outside a call (discovery's `tools/list`), as
   * children of the active context; `undefined` unless `gen_ai` or `mcpMeta` is on.
   */
  readonly mcp: McpRequestObserver | undefined;
  /**
   * Opens a round's span ({@link TURN_ROUND_SPAN_NAME}) when `gen_ai` is on,
   * spans are recorded and no span is active; otherwise `undefined`. Pass the
   * result as {@link CallStartInfo.round} of the round's calls, and end it once.
   */
  startRound(calls: number): { end(): void } | undefined;
  /** Opens `omnia.tool.call` (kind CLIENT) as a child of the host's active context. */
  startCall(info: CallStartInfo): CallSpan;
  /** Counts a breaker transition in the `omnia_tools_breaker_transitions_total` extension counter. */
  onBreakerTransition(breaker: string, transition: "break" | "half-open" | "reset"): void;
}

const noop = (): void => {};

/** The one no-op call span: frozen, shared by every call when telemetry is off. */
const NOOP_CALL_SPAN: CallSpan = Object.freeze({
  inject: noop,
  injectMetadata: noop,
  mcp: undefined,
  run: <T>(fn: () => T): T => fn(),
  retry: noop,
  end: noop,
});

/** The one no-op telemetry object. */
const NOOP_TELEMETRY: Telemetry = Object.freeze({
  enabled: false,
  genAi: false,
  captureContent: false,
  grpcMetadata: false,
  mcp: undefined,
  startCall: () => NOOP_CALL_SPAN,
  startRound: () => undefined,
  onBreakerTransition: noop,
});

const KNOWN = new Set(["tracer", "meter", "propagator", "propagation", "attributes", "logger", "conventions", "captureContent", "mcpMeta", "grpcMetadata", "env"]);
const CONVENTIONS = new Set<string>(["omnia", "gen_ai"]);
const PROPAGATION_MODES = new Set<string>(["auto", "always", "never"]);

/**
 * Creates the telemetry of an executor. Cheap: it returns the shared no-op when
 * `@opentelemetry/api` is not installed, and otherwise binds the tracer, meter
 * and propagator (the options', or the global API's) and creates the two
 * instruments once.
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option or propagation mode
 * @internal Does not follow semver.
 */
export function createTelemetry(options: TelemetryOptions | undefined, loadApi: () => OpenTelemetryApi | undefined = loadOpenTelemetryApi): Telemetry {
  const o = options ?? {};
  rejectUnknownOptions("createTelemetry", o, KNOWN);
  const mode = o.propagation ?? "auto";
  if (!PROPAGATION_MODES.has(mode)) throw new InvalidOptionError(`createTelemetry: propagation must be "auto", "always" or "never"; got ${JSON.stringify(mode)}`);
  const conventions = conventionsOf(o);
  const api = loadApi();
  if (api === undefined) {
    if (o.tracer !== undefined || o.meter !== undefined || o.propagator !== undefined) {
      (o.logger ?? noopLogger).warn("telemetry: @opentelemetry/api is not installed; tool-call spans and metrics are off", {});
    }
    return NOOP_TELEMETRY;
  }
  return new ApiTelemetry(api, o, mode, conventions);
}

/** The conventions: the host's (checked), else `omnia` plus `gen_ai` when the environment opts in. */
function conventionsOf(o: TelemetryOptions): ReadonlySet<TelemetryConvention> {
  for (const flag of ["captureContent", "mcpMeta", "grpcMetadata"] as const) {
    if (o[flag] !== undefined && typeof o[flag] !== "boolean") throw new InvalidOptionError(`createTelemetry: ${flag} must be a boolean; got ${typeof o[flag]}`);
  }
  const given = o.conventions;
  if (given === undefined) {
    const env = o.env ?? process.env;
    return new Set<TelemetryConvention>(envOptsIntoGenAi(env) ? ["omnia", "gen_ai"] : ["omnia"]);
  }
  if (!Array.isArray(given) || given.length === 0 || given.some((c) => !CONVENTIONS.has(c)) || new Set(given).size !== given.length) {
    throw new InvalidOptionError(`createTelemetry: conventions must be a non-empty list of "omnia" and "gen_ai" without repeats; got ${JSON.stringify(given)}`);
  }
  return new Set(given);
}

class ApiTelemetry implements Telemetry {
  readonly enabled = true;
  readonly omnia: boolean;
  readonly genAi: boolean;
  readonly captureContent: boolean;
  readonly grpcMetadata: boolean;
  readonly mcp: McpRequestObserver | undefined;
  readonly mcpDeps: McpSpanDeps | undefined;
  readonly api: OpenTelemetryApi;
  readonly tracer: OtelTracer;
  readonly propagator: OtelPropagator;
  readonly mode: TracePropagationMode;
  readonly undiciChannel: Channel;
  readonly base: OtelAttributes;
  readonly calls: OtelCounter | undefined;
  readonly duration: OtelHistogram | undefined;
  readonly meter: OtelMeter;
  /** False when the meter is the API's no-op one (no meter given, none registered when the executor was created). */
  readonly metricsOn: boolean;
  /** A tracer the host gave: always used. Otherwise the global one, checked per call. */
  readonly ownTracer: boolean;
  /** The provider the global API delegates to while no SDK is registered. */
  readonly noopProvider: unknown;
  #breakerTransitions: OtelCounter | undefined;

  constructor(api: OpenTelemetryApi, o: TelemetryOptions, mode: TracePropagationMode, conventions: ReadonlySet<TelemetryConvention>) {
    this.api = api;
    this.omnia = conventions.has("omnia");
    this.genAi = conventions.has("gen_ai");
    this.captureContent = this.genAi && o.captureContent === true;
    this.grpcMetadata = o.grpcMetadata === true;
    const version = o.tracer === undefined || o.meter === undefined ? packageVersion() : undefined;
    this.tracer = o.tracer ?? api.trace.getTracer(INSTRUMENTATION_SCOPE, version);
    this.meter = o.meter ?? api.metrics.getMeter(INSTRUMENTATION_SCOPE, version);
    this.propagator = o.propagator ?? api.propagation;
    this.mode = mode;
    this.undiciChannel = channel(UNDICI_REQUEST_CREATE);
    const base: Record<string, string> = {};
    const a = o.attributes;
    if (a?.agent !== undefined) base.agent = a.agent;
    if (a?.namespace !== undefined) base.namespace = a.namespace;
    if (a?.promptpackName !== undefined) base.promptpack_name = a.promptpackName;
    this.base = base;
    const noopMeter = api.createNoopMeter?.();
    this.metricsOn = this.omnia && (o.meter !== undefined || noopMeter === undefined || Object.getPrototypeOf(this.meter) !== Object.getPrototypeOf(noopMeter));
    this.ownTracer = o.tracer !== undefined;
    this.noopProvider = api.ProxyTracerProvider === undefined ? undefined : new api.ProxyTracerProvider().getDelegate();
    this.calls = this.omnia ? this.meter.createCounter(TOOL_CALLS_METRIC, { description: "Total number of tool calls" }) : undefined;
    this.duration = this.omnia
      ? this.meter.createHistogram(TOOL_CALL_DURATION_METRIC, {
          description: "Duration of tool calls in seconds",
          unit: "s",
          advice: { explicitBucketBoundaries: [...TOOL_CALL_DURATION_BUCKETS_S] },
        })
      : undefined;
    const mcpMeta = o.mcpMeta === true;
    this.mcpDeps = this.genAi || mcpMeta ? { api, tracer: this.tracer, propagator: this.propagator, spans: this.genAi, meta: mcpMeta } : undefined;
    const deps = this.mcpDeps;
    // Discovery's requests: no span is recorded unless an SDK is (checked per request, as for calls).
    this.mcp = deps === undefined ? undefined : { start: (request) => (this.tracing() ? mcpObserver(deps, undefined) : NOOP_MCP_OBSERVER).start(request) };
  }

  /**
   * Whether spans are recorded: a host tracer, or a global provider that an SDK
   * registered (checked per call: the host may register it after the executor
   * was created). With the API installed and no SDK, spans would all be no-ops.
   */
  tracing(): boolean {
    if (this.ownTracer || this.noopProvider === undefined) return true;
    const provider = this.api.trace.getTracerProvider() as { getDelegate?: () => unknown };
    return (typeof provider.getDelegate === "function" ? provider.getDelegate() : provider) !== this.noopProvider;
  }

  startCall(info: CallStartInfo): CallSpan {
    const metricTool = info.served === false ? UNSERVED_TOOL_LABEL : info.toolName;
    if (!this.tracing()) return this.metricsOn ? new MetricsOnlySpan(this, metricTool) : NOOP_CALL_SPAN;
    const api = this.api;
    let ctx = info.round instanceof RoundSpan ? info.round.ctx : api.context.active();
    let omnia: OtelSpan | undefined;
    if (this.omnia) {
      const attributes: Record<string, string> = { "tool.name": info.toolName };
      if (info.registryName !== undefined && info.registryName !== "") {
        attributes["tool.registry.name"] = info.registryName;
        attributes["tool.registry.namespace"] = info.registryNamespace ?? "";
        attributes["tool.handler.name"] = info.handlerName ?? "";
        attributes["tool.handler.type"] = info.handlerType ?? "";
      }
      omnia = this.tracer.startSpan(TOOL_CALL_SPAN_NAME, { kind: SPAN_KIND_CLIENT, attributes }, ctx);
      ctx = api.trace.setSpan(ctx, omnia);
    }
    // Inside Omnia's span when both are on: Omnia's keeps the parent Omnia's runtime gives it, and the
    // backend's work (MCP spans, trace context sent on) continues from the innermost span.
    let genAi: OtelSpan | undefined;
    if (this.genAi) {
      genAi = startExecuteToolSpan(this.tracer, info, ctx);
      ctx = api.trace.setSpan(ctx, genAi);
    }
    return new ApiCallSpan(this, omnia, genAi, ctx, metricTool);
  }

  startRound(calls: number): { end(): void } | undefined {
    if (!this.genAi || !this.tracing()) return undefined;
    const api = this.api;
    const parent = api.context.active();
    if (api.trace.getSpan?.(parent) !== undefined) return undefined;
    const span = this.tracer.startSpan(TURN_ROUND_SPAN_NAME, { kind: SPAN_KIND_INTERNAL, attributes: { [TURN_ROUND_CALLS_ATTRIBUTE]: calls } }, parent);
    return new RoundSpan(span, api.trace.setSpan(parent, span));
  }

  onBreakerTransition(breaker: string, transition: "break" | "half-open" | "reset"): void {
    this.#breakerTransitions ??= this.meter.createCounter(BREAKER_TRANSITIONS_METRIC, {
      description: "Circuit breaker transitions (an omnia-tools extension: Omnia's runtime has no breaker metrics)",
    });
    this.#breakerTransitions.add(1, { ...this.base, breaker, transition });
  }
}

/** A round's span, and the context its calls' spans start in. */
class RoundSpan {
  readonly #span: OtelSpan;
  readonly ctx: OtelContext;
  #ended = false;
  constructor(span: OtelSpan, ctx: OtelContext) {
    this.#span = span;
    this.ctx = ctx;
  }
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.end();
  }
}

const NOOP_MCP_OBSERVER: McpRequestObserver = Object.freeze({ start: () => Object.freeze({ meta: undefined, sent: noop, end: noop }) });

/**
 * The `execute_tool` span (semantic-conventions v1.41.1, model/gen-ai/spans.yaml
 * `span.gen_ai.execute_tool.internal`): INTERNAL, with every attribute known
 * at the start set then (`gen_ai.operation.name` is sampling-relevant). A name
 * the registry does not serve (a model may invent any number) is `_OTHER` in
 * the span name, so span names stay bounded by the registry; the attribute
 * keeps it, bounded.
 */
function startExecuteToolSpan(tracer: OtelTracer, info: CallStartInfo, parent: OtelContext): OtelSpan {
  const name = boundedText(info.toolName, GEN_AI_LIMITS.toolNameChars);
  const attributes: Record<string, string> = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: name,
    [ATTR_GEN_AI_TOOL_TYPE]: genAiToolType(info.handlerType),
  };
  if (info.callId !== undefined && info.callId !== "") attributes[ATTR_GEN_AI_TOOL_CALL_ID] = boundedText(info.callId, GEN_AI_LIMITS.toolNameChars);
  if (info.description !== undefined && info.description !== "") attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = boundedText(info.description, GEN_AI_LIMITS.descriptionChars);
  return tracer.startSpan(`${GEN_AI_EXECUTE_TOOL} ${info.served === false ? UNSERVED_TOOL_LABEL : name}`, { kind: SPAN_KIND_INTERNAL, attributes }, parent);
}

/** Ends the `execute_tool` span: opted-in contents, then `error.type` and an Error status on failure (Unset on success, as the conventions' error recording asks). */
function endExecuteToolSpan(span: OtelSpan, outcome: CallEndInfo): void {
  const content = outcome.content;
  if (content !== undefined) {
    span.setAttribute?.(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, boundedText(redactSecrets(content.arguments, content.secrets), GEN_AI_LIMITS.contentChars));
    if (content.result !== undefined) span.setAttribute?.(ATTR_GEN_AI_TOOL_CALL_RESULT, boundedText(redactSecrets(content.result, content.secrets), GEN_AI_LIMITS.contentChars));
  }
  if (outcome.status === "error" || outcome.status === "denied") {
    span.setAttribute?.(ATTR_ERROR_TYPE, errorType(outcome.error));
    span.setStatus({ code: STATUS_ERROR, message: outcome.message ?? outcome.error?.message ?? "" });
  }
  span.end();
}

/** A call's metrics when no tracer records spans: nothing to inject, no context to run in. */
class MetricsOnlySpan implements CallSpan {
  readonly mcp = undefined;
  injectMetadata(): void {}
  readonly #t: ApiTelemetry;
  readonly #tool: string;
  #ended = false;
  constructor(t: ApiTelemetry, tool: string) {
    this.#t = t;
    this.#tool = tool;
  }
  inject(): void {}
  run<T>(fn: () => T): T {
    return fn();
  }
  retry(): void {}
  end(outcome: CallEndInfo): void {
    if (this.#ended) return;
    this.#ended = true;
    recordMetrics(this.#t, this.#tool, outcome);
  }
}

function recordMetrics(t: ApiTelemetry, tool: string, outcome: CallEndInfo): void {
  t.calls!.add(1, { ...t.base, tool, status: outcome.rejectedBeforeExecution === true ? "error" : "success" });
  t.duration!.record(outcome.status === "client" ? 0 : outcome.durationMs / 1000, { ...t.base, tool });
}

class ApiCallSpan implements CallSpan {
  readonly #t: ApiTelemetry;
  /** Omnia's `omnia.tool.call`, when `omnia` is on. */
  readonly #span: OtelSpan | undefined;
  /** The `execute_tool` span, when `gen_ai` is on. */
  readonly #genAi: OtelSpan | undefined;
  /** The innermost span's context. */
  readonly #ctx: OtelContext;
  readonly #tool: string;
  #mcp: McpRequestObserver | undefined;
  #ended = false;

  constructor(t: ApiTelemetry, span: OtelSpan | undefined, genAi: OtelSpan | undefined, ctx: OtelContext, tool: string) {
    this.#t = t;
    this.#span = span;
    this.#genAi = genAi;
    this.#ctx = ctx;
    this.#tool = tool;
  }

  get mcp(): McpRequestObserver | undefined {
    const deps = this.#t.mcpDeps;
    return deps === undefined ? undefined : (this.#mcp ??= mcpObserver(deps, this.#ctx));
  }

  inject(headers: Record<string, string>): void {
    const t = this.#t;
    if (t.mode === "never" || (t.mode === "auto" && t.undiciChannel.hasSubscribers)) return;
    t.propagator.inject(this.#ctx, headers, t.api.defaultTextMapSetter);
  }

  injectMetadata(metadata: Record<string, string>): void {
    const t = this.#t;
    injectW3c(t.api, t.propagator, this.#ctx, metadata);
  }

  run<T>(fn: () => T): T {
    return this.#t.api.context.with(this.#ctx, fn);
  }

  retry(event: CallRetryInfo): void {
    if (this.#ended || this.#span === undefined) return;
    this.#span.addEvent("retry.attempt", {
      attempt: event.attempt,
      delay: formatGoDuration(event.delayMs),
      error: typeof event.error === "string" ? event.error : event.error.message,
    });
  }

  end(outcome: CallEndInfo): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#genAi !== undefined) endExecuteToolSpan(this.#genAi, outcome);
    const span = this.#span;
    if (span === undefined) return;
    if (outcome.status === "success" || outcome.status === "client") {
      span.setStatus({ code: STATUS_OK });
    } else {
      const error = outcome.error;
      const exhausted = error as { code?: unknown; attempts?: unknown; lastError?: { message?: unknown } } | undefined;
      if (exhausted?.code === ErrorCode.RETRIES_EXHAUSTED && typeof exhausted.attempts === "number") {
        span.addEvent("retry.exhausted", { attempts: exhausted.attempts, error: String(exhausted.lastError?.message ?? "") });
      }
      const message = outcome.message ?? error?.message ?? "";
      // name, not code: the SDK would prefer an error's `code` as `exception.type`; Omnia's is the error's type name.
      span.recordException(error === undefined ? { name: "Error", message } : { name: error.name, message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }) });
      span.setStatus({ code: STATUS_ERROR, message });
    }
    span.end();
    if (this.#t.metricsOn) recordMetrics(this.#t, this.#tool, outcome);
  }
}
