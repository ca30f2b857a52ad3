// MCP client spans (semantic-conventions v1.41.1, model/mcp/spans.yaml
// `span.mcp.client` and model/mcp/common.yaml) and the trace context an MCP
// request carries in `params._meta` when the host opts in.
import type { OpenTelemetryApi } from "./load-api.js";
import type { OtelContext, OtelPropagator, OtelSpan, OtelTracer } from "./otel-types.js";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ERROR_TYPE_OTHER,
  GEN_AI_EXECUTE_TOOL,
  GEN_AI_LIMITS,
  MCP_TOOL_ERROR,
  boundedText,
} from "./gen-ai.js";

/**
 * One MCP request about to be sent, as the MCP client describes it to its
 * {@link McpRequestObserver}.
 * @public
 */
export interface McpRequestInfo {
  /** The JSON-RPC method: `tools/call` or `tools/list`. */
  readonly method: "tools/call" | "tools/list";
  /** For `tools/call`: the tool's name. */
  readonly toolName?: string | undefined;
  /** The handler's transport. */
  readonly transport: "stdio" | "sse" | "streamable-http";
  /** The server's URL, for the HTTP transports. */
  readonly endpoint?: string | undefined;
}

/**
 * What an {@link McpRequestObserver} follows one request with.
 * @public
 */
export interface McpRequestTrace {
  /**
   * Trace context (`traceparent`, and `tracestate`/`baggage` when present) to
   * put into the request's `params._meta`; `undefined` to send none.
   */
  readonly meta: Readonly<Record<string, string>> | undefined;
  /**
   * The JSON-RPC request went out with this `id`, on this session
   * (`undefined` on stdio and SSE), on this protocol revision (the one the
   * session negotiated; `undefined` when not known). Called once per request sent.
   */
  sent(requestId: string | number, sessionId: string | undefined, protocolVersion?: string | undefined): void;
  /**
   * The request ended: with a result (`isError` for a tool's error result) or
   * with `error`. Called exactly once; later calls are ignored.
   */
  end(result: { readonly isError?: unknown } | undefined, error?: unknown): void;
}

/**
 * Follows the MCP requests of a client (the executor's telemetry is one):
 * `start` is called once per `tools/call` or `tools/list`, before it is sent.
 * @public
 */
export interface McpRequestObserver {
  start(request: McpRequestInfo): McpRequestTrace;
}

const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** The one trace that records nothing and sends no `_meta`. */
const NOOP_TRACE: McpRequestTrace = Object.freeze({ meta: undefined, sent: () => {}, end: () => {} });

/** What the MCP observers need of the executor's telemetry. */
export interface McpSpanDeps {
  readonly api: OpenTelemetryApi;
  readonly tracer: OtelTracer;
  readonly propagator: OtelPropagator;
  /** MCP client spans (the `gen_ai` conventions are on). */
  readonly spans: boolean;
  /** `mcpMeta`: trace context in `params._meta` of `tools/call`. */
  readonly meta: boolean;
}

/**
 * An observer whose spans are children of `parent` (a tool call's span), or of
 * the context active when the request starts (`tools/list` during discovery).
 */
export function mcpObserver(deps: McpSpanDeps, parent: OtelContext | undefined): McpRequestObserver {
  return {
    start(request) {
      const base = parent ?? deps.api.context.active();
      if (!deps.spans) return deps.meta && request.method === "tools/call" ? { meta: metaOf(deps, base), sent: NOOP_TRACE.sent, end: NOOP_TRACE.end } : NOOP_TRACE;
      const tool = request.toolName === undefined ? undefined : boundedText(request.toolName, GEN_AI_LIMITS.toolNameChars);
      const attributes: Record<string, string | number> = { [ATTR_MCP_METHOD_NAME]: request.method, [ATTR_NETWORK_TRANSPORT]: request.transport === "stdio" ? "pipe" : "tcp" };
      if (tool !== undefined) {
        attributes[ATTR_GEN_AI_TOOL_NAME] = tool;
        attributes[ATTR_GEN_AI_OPERATION_NAME] = GEN_AI_EXECUTE_TOOL;
      }
      if (request.transport !== "stdio" && request.endpoint !== undefined) {
        attributes[ATTR_NETWORK_PROTOCOL_NAME] = "http";
        const server = serverOf(request.endpoint);
        if (server !== undefined) {
          attributes[ATTR_SERVER_ADDRESS] = server.address;
          attributes[ATTR_SERVER_PORT] = server.port;
        }
      }
      const span = deps.tracer.startSpan(tool === undefined ? request.method : `${request.method} ${tool}`, { kind: SPAN_KIND_CLIENT, attributes }, base);
      const ctx = deps.api.trace.setSpan(base, span);
      return new RequestTrace(span, deps.meta && request.method === "tools/call" ? metaOf(deps, ctx) : undefined);
    },
  };
}

function metaOf(deps: McpSpanDeps, ctx: OtelContext): Record<string, string> | undefined {
  const meta: Record<string, string> = {};
  return injectW3c(deps.api, deps.propagator, ctx, meta) ? meta : undefined;
}

const W3C_KEYS = ["traceparent", "tracestate", "baggage"] as const;

/**
 * Writes only the W3C trace-context and baggage fields the propagator produces
 * into `out`: a host propagator that writes other fields (B3, or a header that
 * would replace a credential such as `authorization`) reaches no MCP server's
 * `_meta` or gRPC backend's metadata. Returns whether it wrote any.
 * @internal Does not follow semver.
 */
export function injectW3c(api: OpenTelemetryApi, propagator: OtelPropagator, ctx: OtelContext, out: Record<string, string>): boolean {
  const carrier: Record<string, string> = {};
  propagator.inject(ctx, carrier, api.defaultTextMapSetter);
  let wrote = false;
  for (const key of W3C_KEYS) {
    const value = carrier[key];
    if (typeof value === "string") {
      out[key] = value;
      wrote = true;
    }
  }
  return wrote;
}

function serverOf(endpoint: string): { address: string; port: number } | undefined {
  try {
    const url = new URL(endpoint);
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    return { address: url.hostname.replace(/^\[|\]$/g, ""), port };
  } catch {
    return undefined;
  }
}

class RequestTrace implements McpRequestTrace {
  readonly meta: Readonly<Record<string, string>> | undefined;
  readonly #span: OtelSpan;
  #ended = false;
  constructor(span: OtelSpan, meta: Record<string, string> | undefined) {
    this.#span = span;
    this.meta = meta;
  }
  sent(requestId: string | number, sessionId: string | undefined, protocolVersion?: string | undefined): void {
    if (this.#ended) return;
    this.#span.setAttribute?.(ATTR_JSONRPC_REQUEST_ID, String(requestId));
    if (sessionId !== undefined) this.#span.setAttribute?.(ATTR_MCP_SESSION_ID, sessionId);
    if (protocolVersion !== undefined) this.#span.setAttribute?.(ATTR_MCP_PROTOCOL_VERSION, protocolVersion);
  }
  end(result: { readonly isError?: unknown } | undefined, error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.#span;
    if (error !== undefined) {
      const rpc = jsonRpcError(error);
      if (rpc !== undefined) span.setAttribute?.(ATTR_RPC_RESPONSE_STATUS_CODE, String(rpc.code));
      span.setAttribute?.(ATTR_ERROR_TYPE, rpc !== undefined ? String(rpc.code) : ERROR_TYPE_OTHER);
      span.setStatus({ code: STATUS_ERROR, message: rpc?.message ?? (error instanceof Error ? error.message : String(error)) });
    } else if (result?.isError === true) {
      span.setAttribute?.(ATTR_ERROR_TYPE, MCP_TOOL_ERROR);
      span.setStatus({ code: STATUS_ERROR });
    }
    span.end();
  }
}

/**
 * The JSON-RPC error in an error's cause chain: the SDK's `McpError` (an HTTP
 * failure's error also has a numeric `code`, the HTTP status, which is no
 * JSON-RPC code).
 */
function jsonRpcError(error: unknown): { code: number; message: string } | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e !== null && typeof e === "object"; depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (name === "McpError" && typeof code === "number" && Number.isInteger(code)) return { code, message: typeof message === "string" ? message : "" };
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
