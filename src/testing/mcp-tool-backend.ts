// The MCP test backend: a real MCP server (the official SDK's low-level
// `Server`, one per session, on node:http) over streamable-http or the legacy
// SSE transport, with the same fault vocabulary as the HTTP and gRPC backends.
// The SDK is imported inside startMcpToolBackend only, so that importing
// omnia-tools/testing stays cheap for suites that never start this backend.
//
// Faults are decided where the request arrives, before the SDK sees it: the
// HTTP layer parses each POST, numbers its tools/call, and either acts on the
// HTTP exchange itself (latency, status, reset, hang) or hands the call's
// fault to the session's tools/call handler (is-error, error, oversized-result),
// which shapes the JSON-RPC answer. So one call number and one fault cursor
// serve both layers, and the SDK's own framing (SSE events, session ids) is
// what the client reads.
import { randomUUID } from "node:crypto";
import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Clock, JsonObject, JsonValue } from "../core/index.js";
import { BackendTimers } from "./backend-delay.js";
import { describe, FaultCursor, faultsFor, normaliseFaultMap, normaliseFaults, sequenceAt, type FaultMap, type FaultScope } from "./fault-schedule.js";

const RESULT = Symbol.for("omnia-tools.testing.mcp-result");

/**
 * A full MCP `CallToolResult`, made by {@link mcpResult}: for a tool whose
 * answer is not one JSON value (several content items, an image, a tool
 * error, structured content beside other text).
 * @public
 */
export interface McpResult {
  readonly [RESULT]: true;
  /** The content items, sent as given (`{ type: "text", text }`, `{ type: "image", data, mimeType }`, ...). */
  readonly content: readonly JsonObject[];
  readonly structuredContent?: JsonObject;
  readonly isError?: boolean;
}

/**
 * Options of {@link mcpResult}: the fields of an MCP `CallToolResult`.
 * @public
 */
export interface McpResultOptions {
  /** Each item an object with a string `type`. */
  readonly content: readonly JsonObject[];
  /** Sent as `structuredContent` (an object, as MCP requires). */
  readonly structuredContent?: JsonObject;
  /** `true`: a tool error (Omnia reads the first content item's text). */
  readonly isError?: boolean;
}

/**
 * Wraps a full `CallToolResult` for a {@link McpBackendTool}'s `result`, sent
 * exactly as given (a plain JSON value would be sent as one text item).
 * @example
 * ```ts
 * result: mcpResult({ isError: true, content: [{ type: "text", text: "no such order" }] })
 * ```
 * @throws TypeError when `content` is not a list of objects with a string `type`, or `structuredContent` or `isError` has the wrong type
 * @public
 */
export function mcpResult(options: McpResultOptions): McpResult {
  if (typeof options !== "object" || options === null || !Array.isArray(options.content)) {
    throw new TypeError(`mcpResult: content must be a list of content items; got ${describe(options?.content)}`);
  }
  options.content.forEach((item, i) => {
    if (!isPlainObject(item) || typeof item["type"] !== "string") throw new TypeError(`mcpResult: content[${i}].type: expected a string (each item is an object such as { type: "text", text }); got ${describe(isPlainObject(item) ? item["type"] : item)}`);
  });
  if (options.structuredContent !== undefined && !isPlainObject(options.structuredContent)) {
    throw new TypeError(`mcpResult: structuredContent must be an object; got ${describe(options.structuredContent)}`);
  }
  if (options.isError !== undefined && typeof options.isError !== "boolean") throw new TypeError(`mcpResult: isError must be a boolean; got ${describe(options.isError)}`);
  return Object.freeze({
    [RESULT]: true as const,
    content: Object.freeze([...options.content]),
    ...(options.structuredContent === undefined ? {} : { structuredContent: options.structuredContent }),
    ...(options.isError === undefined ? {} : { isError: options.isError }),
  });
}

function isResult(value: unknown): value is McpResult {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[RESULT] === true;
}

/**
 * What a tool answers: a JSON value, sent as one text item holding its JSON
 * text (and also as `structuredContent` when it is an object, not an array);
 * an {@link McpResult}, sent as it is; or a function of the call's arguments
 * and its {@link McpBackendRequest} returning either, possibly async. A
 * function that throws answers `isError: true` with the error's message as
 * the text, as the SDK's `McpServer` does for a throwing tool.
 *
 * By Omnia's mapping a single text item wins over `structuredContent`, so a
 * JSON value `{ "a": 1 }` reaches the model as the string `{"a":1}`
 * (`resultJson` `"{\"a\":1}"`); send `mcpResult({ content: [], structuredContent })`
 * for the object itself.
 * @public
 */
export type McpBackendResult = JsonValue | McpResult | ((args: JsonObject, call: McpBackendRequest) => JsonValue | McpResult | Promise<JsonValue | McpResult>);

/**
 * One tool the MCP test backend serves, listed by `tools/list` with the
 * description and schemas given.
 * @public
 */
export interface McpBackendTool {
  /** Listed as given; left out of the listing when absent. */
  readonly description?: string;
  /** Default `{ type: "object" }`. MCP clients expect an object schema (`type: "object"`); it is sent as given. */
  readonly inputSchema?: JsonObject;
  /** Listed when given. */
  readonly outputSchema?: JsonObject;
  /** The answer to every `tools/call` of this tool (see {@link McpBackendResult}). */
  readonly result: McpBackendResult;
}

/**
 * A fault the MCP test backend injects into a tool's `tools/call`s. Every
 * kind takes `calls` ({@link FaultScope}; calls are numbered per tool). The
 * faults of the tool apply before those of `"*"`; latencies add up and run
 * first; then the first other fault that applies decides. What Omnia's
 * executor makes of each (streamable-http and sse alike unless said):
 *
 * - `latency`: holds the request `ms` on the backend's clock (the real clock
 *   unless `startMcpToolBackend(tools, { clock })`) before the server sees it.
 *   Past the handler's `timeout`: `timed out after <ms>ms`.
 * - `hang`: the server never sees the call and its HTTP request is never
 *   answered. Outcome: the handler's timeout, `timed out after <ms>ms`; or,
 *   when the backend closes first, `MCP tool call failed: fetch failed: other side closed`.
 * - `is-error`: answers `isError: true` with `message` as the only text item.
 *   Outcome: `<message>` (an `McpToolError`, not a breaker failure, not retried).
 * - `error`: answers a JSON-RPC error, `code` (default -32603) and `message`
 *   (default `Internal error`). Outcome:
 *   `MCP tool call failed: MCP error <code>: <message>`.
 * - `status`: answers the HTTP POST that carries the call with `status` and
 *   `body` (default: the status text) as `text/plain`, as the HTTP backend's
 *   `status` fault does. A list is a sequence over the calls the fault applies
 *   to; a 2xx entry (or the end of the list) lets the call through. Outcome
 *   (streamable-http): `MCP tool call failed: Streamable HTTP error: Error POSTing to endpoint: <body>`;
 *   (sse): `MCP tool call failed: Error POSTing to endpoint (HTTP <status>): <body>`.
 *   A 404 reads as "session expired": the client sends the call once more
 *   on a new session, as the next call number (so `calls: [1]` with 404
 *   fails nothing; the call succeeds on its resend).
 * - `reset-before-headers`: resets the connection of the HTTP request that
 *   carries the call (TCP RST) without a byte of response. Outcome:
 *   `MCP tool call failed: fetch failed: read ECONNRESET`.
 * - `oversized-result`: answers one text item of `bytes` characters (default
 *   21 MiB, past the client's 20 MiB message cap: the client cuts the answer
 *   off and ends the session). Outcome:
 *   `MCP tool call failed: MCP response larger than the 20971520-byte cap`.
 *   Between 10 MiB and 20 MiB the answer is read and refused by the result
 *   cap: `MCP tool result of <n> bytes exceeds the 10485760-byte cap`.
 * @public
 */
export type McpFault =
  | ({ readonly kind: "latency"; readonly ms: number } & FaultScope)
  | ({ readonly kind: "hang" } & FaultScope)
  | ({ readonly kind: "is-error"; readonly message: string } & FaultScope)
  | ({ readonly kind: "error"; readonly code?: number; readonly message?: string } & FaultScope)
  | ({ readonly kind: "status"; readonly status: number | readonly number[]; readonly body?: string } & FaultScope)
  | ({ readonly kind: "reset-before-headers" } & FaultScope)
  | ({ readonly kind: "oversized-result"; readonly bytes?: number } & FaultScope);

/**
 * The MCP transports the backend serves.
 * @public
 */
export type McpBackendTransport = "streamable-http" | "sse";

/**
 * One JSON-RPC request (or notification) the MCP test backend received, in
 * the order received; a `tools/call` is recorded before any fault acts on it.
 * @public
 */
export interface McpBackendRequest {
  /** The JSON-RPC method: `initialize`, `notifications/initialized`, `tools/list`, `tools/call`, `ping`, ... */
  readonly method: string;
  /** The JSON-RPC id; undefined for a notification. */
  readonly id: string | number | undefined;
  /** The params as sent; undefined when there are none. */
  readonly params: JsonObject | undefined;
  /** `tools/call` only: `params.name`. */
  readonly toolName: string | undefined;
  /** `tools/call` only: `params.arguments` as sent (undefined when absent). */
  readonly arguments: JsonObject | undefined;
  /** `tools/call` only: this call's number among the calls of its tool, from 1. */
  readonly call: number | undefined;
  /**
   * The session the request belongs to: its `mcp-session-id` header
   * (streamable-http; undefined on `initialize`) or its `sessionId` query
   * parameter (sse).
   */
  readonly sessionId: string | undefined;
  /** The HTTP request's headers, lower-cased names (node's `IncomingHttpHeaders`). */
  readonly headers: IncomingHttpHeaders;
}

/**
 * Options of {@link startMcpToolBackend}.
 * @public
 */
export interface McpToolBackendOptions {
  /** Default `"streamable-http"` (endpoint `/mcp`); `"sse"` serves the legacy transport (`GET /sse`, `POST /messages`). */
  readonly transport?: McpBackendTransport;
  /** Faults per tool name (or `"*"` for every tool). Default: none. */
  readonly faults?: FaultMap<McpFault>;
  /**
   * The clock `latency` faults wait on. Default: the real clock (timers
   * cleared by `close()`). Pass the executor's manual clock to make a latency
   * fire only when the test advances time.
   */
  readonly clock?: Clock;
  /** Default 0: any free port. Give an old backend's port to restart it where a client expects it. */
  readonly port?: number;
  /** Default `"127.0.0.1"`. */
  readonly host?: string;
}

/**
 * A running MCP tool backend.
 * @public
 */
export interface McpToolBackend {
  /** The endpoint for `mcpConfig.endpoint`: `http://<host>:<port>/mcp` (streamable-http) or `.../sse` (sse). */
  readonly url: string;
  readonly port: number;
  readonly transport: McpBackendTransport;
  /** Every JSON-RPC request and notification received, in order (HTTP requests without one, such as the event-stream GET or the session DELETE, are not listed). */
  readonly requests: readonly McpBackendRequest[];
  /** How many `tools/call`s a tool received (every tool's when omitted), faulted ones included. */
  calls(toolName?: string): number;
  /** Replaces a tool's faults (or `"*"`'s); an empty list removes them. Call numbering goes on. */
  setFaults(toolName: string, faults: McpFault | readonly McpFault[]): void;
  /** Removes every fault. */
  clearFaults(): void;
  /**
   * Stops listening, closes every session, ends every connection (a `hang`
   * and the event streams included) and every latency wait, and resolves
   * when no socket is left. Idempotent.
   */
  close(): Promise<void>;
}

const WHERE = "startMcpToolBackend";
const KINDS = new Set(["latency", "hang", "is-error", "error", "status", "reset-before-headers", "oversized-result"]);
const OPTIONS = new Set(["transport", "faults", "clock", "port", "host"]);
/** 21 MiB: one MiB past the client's 20 MiB message cap (`MAX_MCP_MESSAGE_BYTES`). */
const DEFAULT_OVERSIZED_BYTES = 21 * 1024 * 1024;
/** JSON-RPC's "Internal error". */
const INTERNAL_ERROR = -32603;
/** JSON-RPC's "Invalid params", which the MCP spec uses for an unknown tool. */
const INVALID_PARAMS = -32602;
/** The MCP spec's default input schema when a tool declares none. */
const OBJECT_SCHEMA: JsonObject = Object.freeze({ type: "object" }) as JsonObject;

/** What the tools/call handler of a session must do for one call (keyed by its JSON-RPC id). */
interface CallPlan {
  readonly request: McpBackendRequest;
  readonly fault: Extract<McpFault, { kind: "is-error" | "error" | "oversized-result" }> | undefined;
}

interface Live {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport | SSEServerTransport;
  readonly plans: Map<string, CallPlan>;
}

/** The SDK parts this backend uses, loaded with the first backend. */
interface McpServerSdk {
  readonly Server: typeof Server;
  readonly StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
  readonly SSEServerTransport: typeof SSEServerTransport;
  readonly CallToolRequestSchema: typeof CallToolRequestSchema;
  readonly ListToolsRequestSchema: typeof ListToolsRequestSchema;
}

/**
 * Starts an MCP tool backend: a real MCP server (the official SDK's `Server`)
 * on `127.0.0.1`, over streamable-http (stateful sessions, `/mcp`) or the
 * legacy SSE transport (`/sse`), serving `tools` and injecting the faults
 * {@link McpFault} lists into their calls. It records every JSON-RPC request.
 *
 * A request with a session id the server does not know is answered 404 (the
 * MCP spec's "session expired"); a `tools/call` of a tool not served gets
 * the JSON-RPC error `-32602 Unknown tool: <name>` (it is recorded and
 * counted, but no fault applies to it). Arguments are not checked against
 * the input schema.
 *
 * The MCP SDK (`@modelcontextprotocol/sdk`, a dependency of omnia-tools) is
 * loaded by the first call, not by importing omnia-tools/testing.
 *
 * @example
 * ```ts
 * const backend = await startMcpToolBackend(
 *   { lookup_order: { description: "Look up an order", result: (args) => ({ id: args["orderId"] ?? null }) } },
 *   { faults: { lookup_order: { kind: "error", calls: [1] } } },
 * );
 * // mcpConfig: { transport: streamable-http, endpoint: backend.url }: call 1 gets a JSON-RPC error, call 2 the result.
 * await backend.close();
 * ```
 * @throws TypeError for a malformed tool, option or fault, or a fault for a tool that is not served
 * @public
 */
export async function startMcpToolBackend(tools: Readonly<Record<string, McpBackendTool>>, options: McpToolBackendOptions = {}): Promise<McpToolBackend> {
  checkTools(tools);
  const { transport, port, host, clock } = checkOptions(options);
  const check = (key: string): void => {
    if (key !== "*" && !Object.prototype.hasOwnProperty.call(tools, key)) {
      throw new TypeError(`${WHERE}: faults for ${JSON.stringify(key)}, a tool this backend does not serve; serving ${Object.keys(tools).join(", ") || "(none)"}`);
    }
  };
  let faults = normaliseFaultMap(WHERE, options.faults, checkFault);
  for (const key of faults.keys()) check(key);
  const sdk = await loadServerSdk();

  const cursor = new FaultCursor<McpFault>();
  const timers = new BackendTimers(clock);
  const requests: McpBackendRequest[] = [];
  const counts = new Map<string, number>();
  const sessions = new Map<string, Live>();
  const sockets = new Set<Socket>();
  // Ends every hang and latency wait at close().
  const shutdown = new AbortController();
  let closing: Promise<void> | undefined;

  /** A session's SDK server: tools/list from `tools`, tools/call through the call's plan. */
  const newServer = (plans: Map<string, CallPlan>): Server => {
    const server = new sdk.Server({ name: "omnia-tools-test-mcp", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
      tools: Object.entries(tools).map(([name, tool]) => ({
        name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: (tool.inputSchema ?? OBJECT_SCHEMA) as { type: "object" },
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as { type: "object" } }),
      })),
    }));
    server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) => {
      const key = JSON.stringify(extra.requestId);
      const plan = plans.get(key);
      plans.delete(key);
      const name = request.params.name;
      const tool = Object.prototype.hasOwnProperty.call(tools, name) ? tools[name] : undefined;
      if (tool === undefined) throw rpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
      // Every tools/call passed through the HTTP layer, which planned it: a missing plan is this backend's bug.
      if (plan === undefined) throw rpcError(INTERNAL_ERROR, `no plan for tools/call id ${key}`);
      switch (plan.fault?.kind) {
        case "is-error":
          return { isError: true, content: [{ type: "text", text: plan.fault.message }] };
        case "error":
          throw rpcError(plan.fault.code ?? INTERNAL_ERROR, plan.fault.message ?? "Internal error");
        case "oversized-result":
          return { content: [{ type: "text", text: "x".repeat(plan.fault.bytes ?? DEFAULT_OVERSIZED_BYTES) }] };
        default:
          return answerOf(tool.result, (request.params.arguments ?? {}) as JsonObject, plan.request);
      }
    });
    return server;
  };

  /** Records each JSON-RPC request of a body and numbers each tools/call; returns the tools/call requests. */
  const receive = (body: unknown, req: IncomingMessage, sessionId: string | undefined): McpBackendRequest[] => {
    const toolCalls: McpBackendRequest[] = [];
    for (const message of Array.isArray(body) ? body : [body]) {
      if (!isPlainObject(message) || typeof message["method"] !== "string") continue;
      const method = message["method"];
      const params = isPlainObject(message["params"]) ? (message["params"] as JsonObject) : undefined;
      const id = typeof message["id"] === "string" || typeof message["id"] === "number" ? message["id"] : undefined;
      const isCall = method === "tools/call" && typeof params?.["name"] === "string";
      const toolName = isCall ? (params["name"] as string) : undefined;
      const call = toolName === undefined ? undefined : (counts.get(toolName) ?? 0) + 1;
      if (toolName !== undefined) counts.set(toolName, call as number);
      const args = isCall && isPlainObject(params["arguments"]) ? (params["arguments"] as JsonObject) : undefined;
      const request: McpBackendRequest = Object.freeze({ method, id, params, toolName, arguments: args, call, sessionId, headers: req.headers });
      requests.push(request);
      if (toolName === undefined || id === undefined) continue;
      toolCalls.push(request);
    }
    return toolCalls;
  };

  /** The faults that apply to a call, in order (advancing their cursors). */
  const applicable = (request: McpBackendRequest): { fault: McpFault; position: number }[] => {
    const name = request.toolName as string;
    if (!Object.prototype.hasOwnProperty.call(tools, name)) return [];
    const out: { fault: McpFault; position: number }[] = [];
    for (const fault of faultsFor(faults, name)) {
      const position = cursor.position(fault, request.call as number);
      if (position !== undefined) out.push({ fault, position });
    }
    return out;
  };

  async function answer(req: IncomingMessage, res: ServerResponse, bytes: Buffer): Promise<void> {
    const [path = "", query = ""] = (req.url ?? "/").split("?");
    const text = bytes.toString("utf8");
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const sessionId = transport === "sse" ? (new URLSearchParams(query).get("sessionId") ?? undefined) : headerValue(req.headers["mcp-session-id"]);
    const calls = req.method === "POST" ? receive(body, req, sessionId) : [];
    // A closed request (the client gave up) ends every wait of this request.
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    const ended = AbortSignal.any([gone.signal, shutdown.signal]);

    // The faults of each call, decided now so that every cursor advances once per call.
    const decided = calls.map((request) => ({ request, fault: decide(applicable(request)) }));
    // The HTTP exchange carries its first call's latency and exchange faults (a batch's later calls keep their result faults only).
    const first = decided[0];
    if (first !== undefined) {
      if (first.fault.latencyMs > 0 && !(await timers.wait(first.fault.latencyMs, ended))) return;
      if (res.destroyed) return;
      const fault = first.fault.decisive;
      switch (fault?.kind) {
        case "status":
          res.writeHead(fault.status, { "content-type": "text/plain; charset=utf-8" });
          res.end(fault.body ?? STATUS_CODES[fault.status] ?? `status ${fault.status}`);
          return;
        case "reset-before-headers":
          req.socket.resetAndDestroy();
          return;
        case "hang":
          await new Promise<void>((resolve) => (ended.aborted ? resolve() : ended.addEventListener("abort", () => resolve(), { once: true })));
          return;
        default:
          break;
      }
    }
    const handed: CallPlan[] = decided.map(({ request, fault }) => ({ request, fault: isResultFault(fault.decisive) ? fault.decisive : undefined }));
    if (transport === "sse") await onSse(req, res, path, sessionId, body, handed);
    else await onStreamable(req, res, path, sessionId, body, handed);
  }

  const onStreamable = async (req: IncomingMessage, res: ServerResponse, path: string, sessionId: string | undefined, body: unknown, handed: readonly CallPlan[]): Promise<void> => {
    if (path !== "/mcp") return notFound(res);
    if (sessionId !== undefined) {
      const live = sessions.get(sessionId);
      if (live === undefined) return sessionNotFound(res);
      hand(live, handed);
      await (live.transport as StreamableHTTPServerTransport).handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || !isPlainObject(body) || body["method"] !== "initialize") {
      res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: no session"},"id":null}');
      return;
    }
    const plans = new Map<string, CallPlan>();
    const mcp = newServer(plans);
    // The session is known by its id once the SDK has answered initialize.
    const streamable: StreamableHTTPServerTransport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server: mcp, transport: streamable, plans }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await mcp.connect(streamable);
    await streamable.handleRequest(req, res, body);
  };

  const onSse = async (req: IncomingMessage, res: ServerResponse, path: string, sessionId: string | undefined, body: unknown, handed: readonly CallPlan[]): Promise<void> => {
    if (req.method === "GET" && path === "/sse") {
      const plans = new Map<string, CallPlan>();
      const live: Live = { plans, server: newServer(plans), transport: new sdk.SSEServerTransport("/messages", res) };
      const sse = live.transport as SSEServerTransport;
      await live.server.connect(sse);
      sessions.set(sse.sessionId, live);
      res.once("close", () => sessions.delete(sse.sessionId));
      return;
    }
    if (req.method === "POST" && path === "/messages") {
      const live = sessions.get(sessionId ?? "");
      if (live === undefined) return sessionNotFound(res);
      hand(live, handed);
      await (live.transport as SSEServerTransport).handlePostMessage(req, res, body);
      return;
    }
    notFound(res);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", () => {});
    req.on("end", () => {
      void answer(req, res, Buffer.concat(chunks)).catch((e: unknown) => {
        if (!res.headersSent && !res.destroyed) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(e instanceof Error ? e.message : String(e));
      });
    });
  });
  server.on("connection", (s: Socket) => {
    if (closing !== undefined) return void s.destroy();
    sockets.add(s);
    s.on("error", () => {});
    s.once("close", () => sockets.delete(s));
  });
  server.on("clientError", (_e, s) => s.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;

  return {
    url: transport === "sse" ? `${base}/sse` : `${base}/mcp`,
    port: bound,
    transport,
    requests,
    calls(toolName?: string) {
      if (toolName !== undefined) return counts.get(toolName) ?? 0;
      let n = 0;
      for (const c of counts.values()) n += c;
      return n;
    },
    setFaults(toolName, list) {
      check(toolName);
      const next = new Map(faults);
      const normalised = normaliseFaults(`${WHERE}: setFaults(${JSON.stringify(toolName)})`, list, checkFault);
      if (normalised.length === 0) next.delete(toolName);
      else next.set(toolName, normalised);
      faults = next;
    },
    clearFaults() {
      faults = new Map();
    },
    close() {
      closing ??= (async () => {
        shutdown.abort();
        timers.clear();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Closing a session's server ends its event stream cleanly before the sockets go.
        const live = [...sessions.values()];
        sessions.clear();
        await Promise.all(live.map((l) => l.server.close().catch(() => undefined)));
        while (sockets.size > 0) {
          const ending = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
          server.closeAllConnections();
          for (const s of sockets) s.destroy();
          await Promise.all(ending);
        }
        await closed;
      })();
      return closing;
    },
  };
}

/** A fault with its sequence entry resolved: a status fault carries this call's status. */
type DecidedFault = Exclude<McpFault, { kind: "latency" | "status" }> | { readonly kind: "status"; readonly status: number; readonly body: string | undefined };

/**
 * What the faults that apply to a call do: their latencies added up, and the
 * first other fault (a status fault whose sequence entry is 2xx, or past its
 * end, lets the call through and the next fault decide).
 */
function decide(found: readonly { fault: McpFault; position: number }[]): { latencyMs: number; decisive: DecidedFault | undefined } {
  let latencyMs = 0;
  let decisive: DecidedFault | undefined;
  for (const { fault, position } of found) {
    if (fault.kind === "latency") {
      latencyMs += fault.ms;
      continue;
    }
    if (decisive !== undefined) continue;
    if (fault.kind === "status") {
      const status = sequenceAt(fault.status, position);
      if (status === undefined || (status >= 200 && status <= 299)) continue;
      decisive = { kind: "status", status, body: fault.body };
    } else {
      decisive = fault;
    }
  }
  return { latencyMs, decisive };
}

/** The faults the session's tools/call handler acts on (the others act on the HTTP exchange). */
function isResultFault(fault: DecidedFault | undefined): fault is Extract<McpFault, { kind: "is-error" | "error" | "oversized-result" }> {
  return fault?.kind === "is-error" || fault?.kind === "error" || fault?.kind === "oversized-result";
}

/** Puts each call's plan where the session's tools/call handler finds it (by JSON-RPC id). */
function hand(live: Live, plans: readonly CallPlan[]): void {
  for (const plan of plans) live.plans.set(JSON.stringify(plan.request.id), plan);
}

/** The tool's answer as a `CallToolResult`; a throwing function answers `isError` with its message. */
async function answerOf(result: McpBackendResult, args: JsonObject, call: McpBackendRequest): Promise<CallToolResult> {
  let value: JsonValue | McpResult;
  try {
    value = typeof result === "function" ? await result(args, call) : result;
  } catch (e) {
    return { isError: true, content: [{ type: "text", text: e instanceof Error ? e.message : String(e) }] };
  }
  if (isResult(value)) {
    return {
      content: value.content as CallToolResult["content"],
      ...(value.structuredContent === undefined ? {} : { structuredContent: value.structuredContent }),
      ...(value.isError === undefined ? {} : { isError: value.isError }),
    };
  }
  const json = value === undefined ? null : value;
  return { content: [{ type: "text", text: JSON.stringify(json) }], ...(isPlainObject(json) ? { structuredContent: json } : {}) };
}

/** An error the SDK sends as a JSON-RPC error with exactly this code and message (an `McpError` would prefix the message). */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

async function loadServerSdk(): Promise<McpServerSdk> {
  const [index, streamable, sse, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/server/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Server: index.Server,
    StreamableHTTPServerTransport: streamable.StreamableHTTPServerTransport,
    SSEServerTransport: sse.SSEServerTransport,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
  };
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
}

/** The MCP spec: a request with a session id the server does not know gets 404. */
function sessionNotFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkTools(tools: Readonly<Record<string, McpBackendTool>>): void {
  if (!isPlainObject(tools)) throw new TypeError(`${WHERE}: tools must be an object of name -> { description, inputSchema, result }; got ${describe(tools)}`);
  for (const [name, tool] of Object.entries(tools)) {
    const path = `${WHERE}: tools[${JSON.stringify(name)}]`;
    if (!isPlainObject(tool)) throw new TypeError(`${path}: expected { description?, inputSchema?, outputSchema?, result }; got ${describe(tool)}`);
    if (tool.description !== undefined && typeof tool.description !== "string") throw new TypeError(`${path}.description: expected a string; got ${describe(tool.description)}`);
    for (const field of ["inputSchema", "outputSchema"] as const) {
      if (tool[field] !== undefined && !isPlainObject(tool[field])) throw new TypeError(`${path}.${field}: expected a JSON Schema object; got ${describe(tool[field])}`);
    }
    const result: unknown = tool.result;
    if (result === undefined || !["string", "number", "boolean", "object", "function"].includes(typeof result)) {
      throw new TypeError(`${path}.result: expected a JSON value, mcpResult(...) or a function; got ${typeof result === "function" ? "a function" : describe(result)}`);
    }
  }
}

function checkOptions(options: McpToolBackendOptions): { transport: McpBackendTransport; port: number; host: string; clock: Clock | undefined } {
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new TypeError(`${WHERE}: options must be an object; got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) throw new TypeError(`${WHERE}: options.${key} is not an option; expected one of ${[...OPTIONS].join(", ")}`);
  }
  const transport = options.transport ?? "streamable-http";
  if (transport !== "streamable-http" && transport !== "sse") throw new TypeError(`${WHERE}: options.transport: expected "streamable-http" or "sse"; got ${describe(transport)}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`${WHERE}: options.port: expected an integer in [0, 65535]; got ${describe(port)}`);
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host === "") throw new TypeError(`${WHERE}: options.host: expected a non-empty string; got ${describe(host)}`);
  const clock = options.clock;
  if (clock !== undefined && (typeof clock !== "object" || clock === null || typeof clock.setTimeout !== "function")) {
    throw new TypeError(`${WHERE}: options.clock: expected a Clock (now, setTimeout); got ${describe(clock)}`);
  }
  return { transport, port, host, clock };
}

function checkFault(fault: McpFault, path: string): void {
  if (!KINDS.has(fault.kind)) throw new TypeError(`${path}.kind: expected one of ${[...KINDS].join(", ")}; got ${describe(fault.kind)}`);
  switch (fault.kind) {
    case "latency":
      if (!(typeof fault.ms === "number" && Number.isFinite(fault.ms) && fault.ms >= 0)) throw new TypeError(`${path}.ms: expected a non-negative number; got ${describe(fault.ms)}`);
      break;
    case "is-error":
      if (typeof fault.message !== "string") throw new TypeError(`${path}.message: expected a string; got ${describe(fault.message)}`);
      break;
    case "error":
      if (fault.code !== undefined && !Number.isSafeInteger(fault.code)) throw new TypeError(`${path}.code: expected an integer JSON-RPC error code; got ${describe(fault.code)}`);
      if (fault.message !== undefined && typeof fault.message !== "string") throw new TypeError(`${path}.message: expected a string; got ${describe(fault.message)}`);
      break;
    case "status": {
      const list = Array.isArray(fault.status) ? fault.status : [fault.status];
      if (list.length === 0 || !list.every((s) => Number.isInteger(s) && s >= 200 && s <= 999)) {
        throw new TypeError(`${path}.status: expected a status or a non-empty list of statuses in [200, 999]; got ${describe(fault.status)}`);
      }
      if (fault.body !== undefined && typeof fault.body !== "string") throw new TypeError(`${path}.body: expected a string; got ${describe(fault.body)}`);
      break;
    }
    case "oversized-result":
      if (fault.bytes !== undefined && !(Number.isSafeInteger(fault.bytes) && fault.bytes >= 0)) throw new TypeError(`${path}.bytes: expected a non-negative integer; got ${describe(fault.bytes)}`);
      break;
    default:
      break;
  }
}
