import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  boundPeerText,
  ClosedError,
  ConfigError,
  InvalidOptionError,
  noopLogger,
  offSharedAbort,
  onSharedAbort,
  raceAbort,
  systemClock,
  thrownText,
  type Clock,
  type JsonValue,
  type Logger,
  type HttpDispatcher,
} from "../core/index.js";
import { McpAuthError, McpResultTooLargeError, McpTransportError } from "./errors.js";
import { interpretMcpResult, type McpCallResult, type McpCallToolResultFields } from "./result.js";
import { loadMcpSdk, type McpSdk } from "./sdk.js";
import { mcpToolAllowed } from "./tool-filter.js";
import type { McpHandlerInput, McpHeaderProvider, McpToolDescriptor, McpTransportKind } from "./types.js";
import { MAX_MCP_MESSAGE_BYTES, MAX_MCP_RESULT_BYTES } from "./limits.js";
import { mcpArguments } from "./call-arguments.js";
import { abortReason, causeCodeOf, describe, httpStatusOf, isProtocolError, redactEndpoint, rpcCodeOf } from "./error-text.js";
import { McpHttp } from "./http-fetch.js";
import { listServerTools } from "./list-tools.js";
import { createScope, withDeadline, type Scope } from "./scope.js";
import { undelivered, type Exchange, type Session, type ValidHandler } from "./session.js";
import { legacyRpc, modernRpc } from "./rpc.js";
import { loadModernMcpSdk, MCP_MODERN_REVISION, refusesOlderRevisions } from "./modern.js";
import { createMcpTransport } from "./transport.js";
import type { McpRequestObserver, McpRequestTrace } from "../telemetry/index.js";
import type { ToolPage } from "./rpc.js";

export { MCP_CLIENT_INFO } from "./rpc.js";
/**
 * Default time allowed for connecting, in ms: spawning or reaching the server
 * plus the `initialize` handshake.
 * @public
 */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;
/** How long `close()` waits for a streamable-http session's `DELETE` before dropping the connection. */
const TERMINATE_TIMEOUT_MS = 2_000;

/**
 * Options of {@link createMcpToolClient}.
 * @public
 */
export interface McpToolClientOptions {
  /**
   * The handler's credential headers, resolved on every HTTP request (sse and
   * streamable-http). Ignored, with a debug log, for a stdio handler, which has
   * no header channel.
   */
  readonly headers?: McpHeaderProvider | undefined;
  /**
   * The dispatcher for the HTTP transports (an undici 7 or 8 `Agent`, `Pool`
   * or composed dispatcher). Default: a private `Agent` that `close()` destroys.
   */
  readonly dispatcher?: HttpDispatcher | undefined;
  /** Where the connect and call timeouts run. Default `systemClock`. */
  readonly clock?: Clock | undefined;
  /** Receives connection events and transport errors at debug level. Default: discards. */
  readonly logger?: Logger | undefined;
  /**
   * Time allowed for connecting (spawning or reaching the server and the
   * `initialize` handshake), in ms. Default 30 000; `0` means no limit. A call's
   * own signal and timeout still bound how long that call waits.
   */
  readonly connectTimeoutMs?: number | undefined;
  /**
   * `toolFilter` entries ending in `*` match by prefix (`read_*`), as PromptKit
   * 1.5.11's MCP `ToolFilter` does. Default false: exact names, as Omnia's.
   */
  readonly toolFilterWildcards?: boolean | undefined;
  /**
   * Follows every `tools/call` and `tools/list` request (one `start` per
   * request, each page of a listing its own): the executor's telemetry passes
   * its MCP spans here. Default: none, and nothing is done per request.
   */
  readonly observer?: McpRequestObserver | undefined;
}

/**
 * Per-call options of {@link McpToolClient.callTool}.
 * @public
 */
export interface McpCallOptions {
  /**
   * Headers for this call only, typically a policy broker's injected headers.
   * They go on every HTTP request made for the call and win over the
   * {@link McpHeaderProvider}'s on a name collision, as broker-injected headers win in Omnia.
   * Dropped, with a debug log, on a stdio handler.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Abandons the call (and sends `notifications/cancelled`). The call rejects
   * with the signal's reason when that is an `OmniaToolsError` (such as the
   * executor's `TimeoutError`), else with an `AbortedError`.
   */
  readonly signal?: AbortSignal | undefined;
  /** A deadline for this call in ms, on the client's clock; rejects with a `TimeoutError`. Default: none. */
  readonly timeoutMs?: number | undefined;
  /**
   * Follows this call's `tools/call` in place of the client's
   * {@link McpToolClientOptions.observer} (the executor passes one whose spans
   * are children of the call's span). A `meta` it gives goes into
   * `params._meta`, beside any keys the SDK adds there.
   */
  readonly observer?: McpRequestObserver | undefined;
}

/**
 * Marks {@link McpCallOptions} whose `signal` belongs to that one call (the
 * executor's per-attempt signal): the client hands it to the SDK as it is,
 * where it would otherwise link a signal of its own to it, because the SDK
 * leaves its abort listener on the signal it is given. Set only with a signal
 * that is discarded when the call settles.
 * @internal Does not follow semver.
 */
export const MCP_OWN_SIGNAL: unique symbol = Symbol("omnia-tools.mcp.ownSignal");

/** {@link McpCallOptions} as the executor passes them. @internal Does not follow semver. */
export type McpAttemptCallOptions = McpCallOptions & { readonly [MCP_OWN_SIGNAL]?: true };

/** The scope of a call whose own signal needs no link (see {@link MCP_OWN_SIGNAL}). */
function ownScope(signal: AbortSignal): Scope {
  return { signal, dispose: noDispose };
}
function noDispose(): void {}

/**
 * Options of {@link McpToolClient.listTools}.
 * @public
 */
export interface McpListOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

/**
 * A client for one `mcp` handler's server, on the official MCP SDK.
 * @public
 */
export interface McpToolClient {
  /** The handler name. */
  readonly handlerName: string;
  /** The transport in use. */
  readonly transport: McpTransportKind;
  /** The tools found by the last successful {@link McpToolClient.listTools}; `undefined` before it. */
  readonly tools: readonly McpToolDescriptor[] | undefined;
  /** Whether the tool filter lets `name` through (no I/O). */
  serves(name: string): boolean;
  /**
   * Connects if needed, lists the server's tools with `tools/list` (every
   * page) and keeps those the tool filter lets through, in the server's
   * order. Call it again to re-discover.
   *
   * @throws McpTransportError `handler "<name>": failed to connect MCP: <reason>`
   *   when the server cannot be reached or initialised, or
   *   `handler "<name>": failed to list MCP tools: <reason>`
   * @throws ClosedError after `close()`; the signal's reason or AbortedError when aborted; TimeoutError for `timeoutMs`
   */
  listTools(options?: McpListOptions): Promise<readonly McpToolDescriptor[]>;
  /**
   * Connects when needed and sends MCP `ping` (`server/discover` on revision
   * 2026-07-28, which has no `ping`): the health probe of an MCP handler.
   * Resolves when the server answered.
   * @throws McpTransportError `handler "<name>": failed to connect MCP: <reason>` or `handler "<name>": MCP ping failed: <reason>`
   * @throws ClosedError after `close()`; the signal's reason or AbortedError when aborted; TimeoutError for `timeoutMs`
   */
  ping(options?: McpListOptions): Promise<void>;
  /**
   * Calls `tools/call` and interprets the result (see `interpretMcpResult`):
   * resolves with a success, or with an error outcome for an `isError` result
   * (an `McpToolError`, not a breaker failure).
   *
   * Connects on first use and after a dropped session; a streamable-http
   * request answered `404` (the server no longer knows the session) is sent
   * again once on a fresh session, as the MCP spec requires.
   *
   * @throws McpTransportError `MCP tool call failed: <reason>` for a transport,
   *   HTTP, JSON-RPC or result-parsing failure (a breaker failure)
   * @throws McpArgumentsError when `args` is not a JSON object; McpAuthError
   *   when the header provider throws; InvalidOptionError for a tool the filter
   *   blocks; ClosedError after `close()`; the signal's reason or AbortedError
   *   when aborted; TimeoutError for `timeoutMs`
   */
  callTool(name: string, args: string | JsonValue | undefined, options?: McpCallOptions): Promise<McpCallResult>;
  /**
   * Ends the session (a streamable-http session gets its `DELETE`, bounded to
   * 2 s), stops a stdio child and waits for it to exit, and closes the
   * client's own sockets. Calls in flight reject with a `ClosedError`.
   * Idempotent: later calls return the same promise.
   */
  close(): Promise<void>;
}

/**
 * Creates the MCP client of one `mcp` handler. Nothing is started here: the
 * first `listTools()` or `callTool()` connects.
 *
 * - **Transports**: `streamable-http` and `sse` over undici (the host's
 *   dispatcher or a private one); `stdio` spawns `command` with `args`, `env`
 *   and `workDir`, its stderr going to the logger at debug level.
 * - **Headers**: the {@link McpHeaderProvider} is called on every HTTP
 *   request; per-call headers are added on top. On stdio there are none.
 * - **Reconnects**: a session that is gone is dropped and the next call opens
 *   a new one: its transport closed (a stdio child that exited, an SSE stream
 *   that broke), the server answered 404 for it, or (stdio only) it failed at
 *   the transport level. Over HTTP each call is its own POST: one that fails
 *   (a reset, an HTTP error, a body that is not JSON) fails that call only,
 *   and the other calls on the session go on.
 * - **Revisions**: every session opens with `initialize`, as Omnia's
 *   runtime does. A server that refuses it with `-32022` naming only
 *   revision 2026-07-28 ({@link MCP_MODERN_REVISION}; stdio or
 *   streamable-http) gets a new session on that revision, opened with
 *   `server/discover` through `@modelcontextprotocol/client` 2.x, with the
 *   same results, texts, caps and headers.
 * - **Timeouts**: none hidden. The SDK's 60 s request timer is disabled; the
 *   connect timeout and per-call timeouts run on the injected clock.
 *
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) for a handler that cannot work:
 *   a missing or non-http(s) endpoint, a missing command, auth on stdio, an
 *   unknown transport
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for a bad option
 * @example
 * ```ts
 * const mcp = createMcpToolClient(
 *   { name: "docs", mcpConfig: { transport: "streamable-http", endpoint: "http://docs-mcp:8080/mcp" } },
 *   { headers: () => ({ Authorization: `Bearer ${readToken()}` }) },
 * );
 * const tools = await mcp.listTools();                 // [{ name: "search", ... }]
 * const outcome = await mcp.callTool("search", '{"q":"breakers"}', { timeoutMs: 30_000 });
 * await mcp.close();
 * ```
 * @public
 */
export function createMcpToolClient(handler: McpHandlerInput, options: McpToolClientOptions = {}): McpToolClient {
  if (typeof handler !== "object" || handler === null) {
    throw new InvalidOptionError(`createMcpToolClient: handler must be an object; got ${String(handler)}`);
  }
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`createMcpToolClient: options must be an object; got ${String(options)}`);
  }
  if (options.toolFilterWildcards !== undefined && typeof options.toolFilterWildcards !== "boolean") {
    throw new InvalidOptionError(`createMcpToolClient: toolFilterWildcards must be a boolean; got ${typeof options.toolFilterWildcards}`);
  }
  if (options.headers !== undefined && typeof options.headers !== "function") {
    throw new InvalidOptionError(`createMcpToolClient: headers must be a function; got ${typeof options.headers}`);
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
  if (typeof connectTimeoutMs !== "number" || !(connectTimeoutMs >= 0)) {
    throw new InvalidOptionError(`createMcpToolClient: connectTimeoutMs must be a non-negative number of milliseconds; got ${String(connectTimeoutMs)}`);
  }
  return new McpToolClientImpl(validateHandler(handler), options, connectTimeoutMs);
}

function validateHandler(handler: McpHandlerInput): ValidHandler {
  const name = handler.name;
  if (typeof name !== "string" || name === "") {
    throw new InvalidOptionError(`createMcpToolClient: handler.name must be a non-empty string; got ${JSON.stringify(name)}`);
  }
  const config = handler.mcpConfig;
  const fail = (message: string): never => {
    throw new ConfigError({ path: "", message: `handler ${JSON.stringify(name)}: ${message}` });
  };
  if (typeof config !== "object" || config === null) return fail("mcpConfig is required for mcp handlers");
  const kind = config.transport;
  if (kind === "stdio") {
    if (typeof config.command !== "string" || config.command === "") return fail("command is required for mcp handlers with stdio transport");
    if (handler.auth !== undefined && handler.auth !== null) return fail("auth is not supported for mcp handlers with stdio transport");
    return { name, kind, config, url: undefined };
  }
  if (kind !== "sse" && kind !== "streamable-http") return fail(`unsupported MCP transport: ${String(kind)}`);
  const label = kind === "sse" ? "SSE" : "streamable-http";
  if (typeof config.endpoint !== "string" || config.endpoint === "") return fail(`endpoint is required for mcp handlers with ${label} transport`);
  let url: URL;
  try {
    url = new URL(config.endpoint);
  } catch {
    return fail(`invalid MCP endpoint; got ${JSON.stringify(config.endpoint)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return fail(`MCP endpoint must be an http or https URL; got ${JSON.stringify(config.endpoint)}`);
  return { name, kind, config, url };
}

class McpToolClientImpl implements McpToolClient {
  readonly handlerName: string;
  readonly transport: McpTransportKind;
  private readonly handler: ValidHandler;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly connectTimeoutMs: number;
  private readonly toolFilterWildcards: boolean;
  private readonly http: McpHttp;
  private readonly lifecycle = new AbortController();
  private readonly pendingCloses = new Set<Promise<void>>();
  /** Every session not yet closed, so that `close()` can close them all at once. */
  private readonly open = new Set<Session>();
  private current: Session | undefined;
  private connecting: Promise<Session> | undefined;
  private sessions = 0;
  private discovered: readonly McpToolDescriptor[] | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private warnedReadBuffer = false;
  /** The last session opened was on revision 2026-07-28 because the server refused `initialize`. */
  private olderRefused = false;
  private readonly observer: McpRequestObserver | undefined;
  /** Sessions whose transport reports the ids of observed requests. */
  private readonly watched = new WeakSet<Session>();

  constructor(handler: ValidHandler, options: McpToolClientOptions, connectTimeoutMs: number) {
    this.handler = handler;
    this.handlerName = handler.name;
    this.transport = handler.kind;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? noopLogger;
    this.connectTimeoutMs = connectTimeoutMs;
    this.toolFilterWildcards = options.toolFilterWildcards === true;
    this.observer = options.observer;
    this.http = new McpHttp(handler.name, options.headers, options.dispatcher, (session, error) => this.onCap(session, error));
    if (handler.kind === "stdio" && options.headers !== undefined) {
      this.logger.debug("mcp: stdio has no header channel; the header provider is ignored", { handler: handler.name });
    }
  }

  get tools(): readonly McpToolDescriptor[] | undefined {
    return this.discovered;
  }

  serves(name: string): boolean {
    return mcpToolAllowed(this.handler.config.toolFilter, name, this.toolFilterWildcards);
  }

  async listTools(options: McpListOptions = {}): Promise<readonly McpToolDescriptor[]> {
    this.assertOpen("listTools");
    const prefix = `handler ${JSON.stringify(this.handlerName)}: `;
    const scope = createScope(options.signal, options.timeoutMs, this.clock);
    try {
      const tools = await this.exchange(scope, prefix, `${prefix}failed to list MCP tools: `, undefined, (session) =>
        listServerTools(
          this.observer === undefined ? (cursor, signal) => session.rpc.listTools(cursor, signal) : (cursor, signal) => this.observedPage(this.observer!, session, cursor, signal),
          { handlerName: this.handlerName, logger: this.logger, serves: (name) => this.serves(name) },
          scope.signal,
        ),
        this.observer !== undefined,
      );
      this.discovered = tools;
      return tools;
    } finally {
      scope.dispose();
    }
  }

  async ping(options: McpListOptions = {}): Promise<void> {
    this.assertOpen("ping");
    const prefix = `handler ${JSON.stringify(this.handlerName)}: `;
    const scope = createScope(options.signal, options.timeoutMs, this.clock);
    try {
      await this.exchange(scope, prefix, `${prefix}MCP ping failed: `, undefined, (session) => session.rpc.ping(scope.signal), false);
    } finally {
      scope.dispose();
    }
  }

  callTool(name: string, args: string | JsonValue | undefined, options: McpAttemptCallOptions = {}): Promise<McpCallResult> {
    let trace: McpRequestTrace | undefined;
    let params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, string> };
    let headers: Readonly<Record<string, string>> | undefined;
    let scope: Scope;
    try {
      this.assertOpen("callTool");
      if (!this.serves(name)) {
        throw new InvalidOptionError(`mcp handler ${JSON.stringify(this.handlerName)}: tool ${JSON.stringify(name)} is not served (blocked by toolFilter)`);
      }
      const observer = options.observer ?? this.observer;
      trace = observer?.start({ method: "tools/call", toolName: name, transport: this.transport, endpoint: this.handler.url?.href });
      params = { name, arguments: mcpArguments(args) };
      if (trace?.meta !== undefined) params._meta = { ...trace.meta };
      headers = options.headers;
      if (this.transport === "stdio" && headers !== undefined) {
        if (Object.keys(headers).length > 0) {
          this.logger.debug("mcp: stdio has no header channel; the call's headers are dropped", { handler: this.handlerName, tool: name, headers: Object.keys(headers) });
        }
        headers = undefined;
      }
      const own = options.signal !== undefined && options[MCP_OWN_SIGNAL] === true && options.timeoutMs === undefined;
      scope = own ? ownScope(options.signal!) : createScope(options.signal, options.timeoutMs, this.clock);
    } catch (error) {
      // A trace that started ends with the failure (arguments that are not an object, a host signal that throws).
      trace?.end(undefined, error);
      return Promise.reject(error);
    }
    if (trace !== undefined) return this.tracedCall(name, params, headers, scope, trace);
    // A chain of then()s, not an async function: no suspended frames per call in flight.
    return this.untracedExchange(scope, "MCP tool call failed: ", headers, (session) => session.rpc.callTool(params, scope.signal)).then(
      (raw) => {
        scope.dispose();
        return capResult(name, interpretMcpResult(name, raw));
      },
      (error: unknown) => {
        scope.dispose();
        throw error;
      },
    );
  }

  /** An observed `tools/call`: its trace ends with the answer or the failure. */
  private async tracedCall(
    name: string,
    params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, string> },
    headers: Readonly<Record<string, string>> | undefined,
    scope: Scope,
    trace: McpRequestTrace,
  ): Promise<McpCallResult> {
    // An aborted call (the caller's signal, the attempt's timeout, close()) ends its request's trace as the abort
    // happens, with the error the call then fails with: before the executor's span for the call, which ends once
    // the abort has reached it. The trace ends once.
    // A call whose answer had arrived when the abort came ends with that answer, as it returns it.
    let ended = false;
    let answered = false;
    const end = (result: McpCallToolResultFields | undefined, error?: unknown): void => {
      if (ended) return;
      ended = true;
      trace.end(result, error);
    };
    const onAbort = (): void => {
      if (answered) return;
      // Runs inside the abort's dispatch: a host observer that throws here is logged, never thrown into it.
      try {
        end(undefined, abortReason(scope.signal, this.handlerName));
      } catch (error) {
        this.logger.error("mcp: the request observer threw as its trace ended", { handler: this.handlerName, error: thrownText(error) });
      }
    };
    const watching = !scope.signal.aborted;
    if (watching) onSharedAbort(scope.signal, onAbort);
    const call = (session: Session): Promise<McpCallToolResultFields> =>
      session.rpc.callTool(params, scope.signal).then((raw) => {
        answered = true;
        return raw;
      });
    try {
      let raw;
      try {
        raw = await this.exchange(scope, "MCP tool call failed: ", "MCP tool call failed: ", headers, (session) => this.observed(trace, session, () => call(session)));
      } catch (error) {
        end(undefined, error);
        throw error;
      }
      end(raw);
      return capResult(name, interpretMcpResult(name, raw));
    } finally {
      if (watching) offSharedAbort(scope.signal, onAbort);
      scope.dispose();
    }
  }

  /**
   * An untraced exchange: on a live stdio session, as {@link exchange} runs
   * it (after one turn; an abort, a close or a dead session then are seen as
   * there) as a chain of then()s; anything else goes through
   * {@link exchange}. `prefix` is both the connect and the failure prefix.
   */
  private untracedExchange<T>(scope: Scope, prefix: string, headers: Readonly<Record<string, string>> | undefined, op: (session: Session) => Promise<T>): Promise<T> {
    const session = this.current;
    if (this.transport !== "stdio" || session === undefined || session.dead || scope.signal.aborted) return this.exchange(scope, prefix, prefix, headers, op, false);
    return Promise.resolve().then(() => {
      const ended = this.endedBy(scope);
      if (ended !== undefined) throw ended;
      if (session.dead) return this.exchange(scope, prefix, prefix, headers, op, false);
      const failed = (error: unknown): never => {
        throw this.settleFailure(error, session, scope) ?? this.exchangeFailure(error, session, scope, prefix);
      };
      let pending: Promise<T>;
      try {
        pending = op(session);
      } catch (error) {
        return failed(error);
      }
      return pending.then(undefined, failed);
    });
  }

  /**
   * Runs one request exchange on the live session (connecting first when
   * needed). When it fails and none of its HTTP requests reached a server that
   * took it (each was answered 404, "unknown session", or refused), the session
   * is replaced and the exchange sent once more: the server provably did not
   * run it. Anything else fails with `failPrefix`.
   */
  private async exchange<T>(
    scope: Scope,
    connectPrefix: string,
    failPrefix: string,
    headers: Readonly<Record<string, string>> | undefined,
    op: (session: Session) => Promise<T>,
    traced = true,
  ): Promise<T> {
    for (let resent = false; ; resent = true) {
      let session = this.current;
      if (session !== undefined && !session.dead && !scope.signal.aborted) {
        // The live session, without racing it against the scope's signal (a promise and a listener per call), after
        // one turn, as a connect would take at least: a request aborted, or a client closed, in the turn it was
        // made sends nothing, as when it waited for its session.
        await undefined;
        const ended = this.endedBy(scope);
        if (ended !== undefined) throw ended;
        if (session.dead) session = await this.sessionFor(scope, connectPrefix);
      } else {
        session = await this.sessionFor(scope, connectPrefix);
      }
      // stdio sends no HTTP request to account for: an exchange there carries only an observed request's trace,
      // so an untraced call does not enter the AsyncLocalStorage (on Node 20 and 22 that turns on async hooks for
      // every promise and native request of the process).
      const exchange: Exchange | undefined = this.transport === "stdio" && !traced ? undefined : { session, headers, deliveries: [] };
      try {
        return await (exchange === undefined ? op(session) : this.http.exchanges.run(exchange, () => op(session)));
      } catch (error) {
        const fatal = this.settleFailure(error, session, scope);
        if (fatal !== undefined) throw fatal;
        // stdio has no HTTP request to account for: whatever was written to the child may have run.
        if (!resent && exchange !== undefined && this.transport !== "stdio" && session.capFailure === undefined && (await undelivered(exchange, scope.signal))) {
          this.logger.debug("mcp: the request did not reach a server that knows the session; reconnecting", { handler: this.handlerName, session: session.id });
          this.retire(session);
          continue;
        }
        throw this.exchangeFailure(error, session, scope, failPrefix);
      }
    }
  }

  /** What a failed exchange that is not fatal and not sent again throws: the abort, or a transport error with `failPrefix`. */
  private exchangeFailure(error: unknown, session: Session, scope: Scope, failPrefix: string): Error {
    if (scope.signal.aborted) return abortReason(scope.signal, this.handlerName);
    // A session ended by an answer past the cap fails its requests with that cause, not with the closed connection it left.
    return this.transportError(failPrefix, session.capFailure ?? error, session.sdk, session);
  }

  /** One observed page of `tools/list`: its own trace, ended with the page or the failure. */
  private observedPage(observer: McpRequestObserver, session: Session, cursor: string | undefined, signal: AbortSignal): Promise<ToolPage> {
    const trace = observer.start({ method: "tools/list", transport: this.transport, endpoint: this.handler.url?.href });
    return this.observed(trace, session, () => session.rpc.listTools(cursor, signal)).then(
      (page) => {
        trace.end(undefined);
        return page;
      },
      (error: unknown) => {
        trace.end(undefined, error);
        throw error;
      },
    );
  }

  /**
   * Runs an observed request: the current exchange carries its trace, and the
   * session's transport (wrapped once, on the first observed request) reports
   * the JSON-RPC id it goes out with, and the session id.
   */
  private observed<T>(trace: McpRequestTrace, session: Session, run: () => Promise<T>): Promise<T> {
    const exchange = this.http.exchanges.getStore();
    if (exchange !== undefined) exchange.trace = trace;
    if (!this.watched.has(session)) {
      this.watched.add(session);
      const transport = session.transport;
      const send = transport.send.bind(transport);
      const exchanges = this.http.exchanges;
      transport.send = (message, options) => {
        const m = message as { method?: unknown; id?: unknown };
        if ((m.method === "tools/call" || m.method === "tools/list") && (typeof m.id === "string" || typeof m.id === "number")) {
          exchanges.getStore()?.trace?.sent(m.id, (transport as { sessionId?: string }).sessionId, session.protocolVersion);
        }
        return send(message, options);
      };
    }
    return run();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.lifecycle.abort(new ClosedError(`mcp handler ${JSON.stringify(this.handlerName)}: closed`));
      const session = this.current;
      this.current = undefined;
      if (session !== undefined) this.track(this.closeSession(session, true));
      for (const other of this.open) this.track(this.closeSession(other, false));
      if (this.connecting !== undefined) await this.connecting.catch(() => undefined);
      while (this.pendingCloses.size > 0) await Promise.all([...this.pendingCloses]);
      await this.http.destroy();
    })();
    return this.closing;
  }

  // --- sessions --------------------------------------------------------------

  /** The live session, connecting first when there is none; connect failures get `prefix`. */
  private async sessionFor(scope: Scope, prefix: string): Promise<Session> {
    try {
      return await raceAbort(this.liveSession(), scope.signal);
    } catch (error) {
      const ended = this.endedBy(scope);
      if (ended !== undefined) throw ended;
      if (error instanceof McpTransportError) {
        throw new McpTransportError(`${prefix}${error.message}`, this.handlerName, error, { cause: error.cause });
      }
      throw error;
    }
  }

  private liveSession(): Promise<Session> {
    const session = this.current;
    if (session !== undefined && !session.dead) return Promise.resolve(session);
    if (this.connecting === undefined) {
      if (session !== undefined) this.retire(session);
      const connecting = this.openSession().then((opened) => {
        if (this.closed) {
          this.track(this.closeSession(opened, true));
          throw this.closedError();
        }
        this.current = opened;
        return opened;
      });
      const clear = (): void => {
        if (this.connecting === connecting) this.connecting = undefined;
      };
      connecting.then(clear, clear);
      this.connecting = connecting;
    }
    return this.connecting;
  }

  /**
   * Opens a session with `initialize`, as Omnia's runtime does. A server that
   * answers it with "unsupported protocol version" naming only revision
   * 2026-07-28 (stdio or streamable-http) gets a new session on that revision,
   * opened with `server/discover`, within the same connect timeout; later
   * sessions of this client start there, until one fails to open.
   */
  private async openSession(): Promise<Session> {
    const sdk = await loadMcpSdk();
    const scope = createScope(this.lifecycle.signal, this.connectTimeoutMs, this.clock);
    try {
      for (let modern = this.olderRefused; ; modern = true) {
        const session = await this.newSession(sdk, modern);
        // The 2.x client loads while the deadline runs: past it (or after close()), nothing new is started.
        if (scope.signal.aborted || this.closed) {
          session.dead = true;
          this.track(this.closeSession(session, false));
          throw this.closed ? this.closedError() : this.transportError("failed to connect MCP: ", scope.signal.reason, sdk, session);
        }
        try {
          await raceAbort(
            // stdio: no HTTP request, and no AsyncLocalStorage (see exchange()).
            this.transport === "stdio"
              ? session.rpc.connect(scope.signal)
              : this.http.exchanges.run({ session, headers: undefined, deliveries: [] }, () => session.rpc.connect(scope.signal)),
            scope.signal,
          );
        } catch (error) {
          session.dead = true;
          this.track(this.closeSession(session, false));
          if (this.closed) throw this.closedError();
          // A failing credential is not the server's fault, even when the SSE event
          // stream reported it only as text.
          const auth = error instanceof McpAuthError ? error : session.authFailure;
          if (auth !== undefined && !scope.signal.aborted) throw auth;
          if (!modern && this.transport !== "sse" && !scope.signal.aborted && session.capFailure === undefined && refusesOlderRevisions(error, sdk)) {
            this.logger.debug("mcp: the server refused initialize and speaks only the newer revision; opening the session on it", { handler: this.handlerName, revision: MCP_MODERN_REVISION });
            continue;
          }
          this.olderRefused = false;
          const reason: unknown = scope.signal.aborted ? scope.signal.reason : (session.capFailure ?? error);
          throw this.transportError("failed to connect MCP: ", reason, sdk, session);
        }
        this.olderRefused = modern;
        this.logger.debug("mcp: connected", { handler: this.handlerName, transport: this.transport, session: session.id, revision: session.rpc.revision });
        return session;
      }
    } finally {
      scope.dispose();
    }
  }

  /** A session not yet connected: its transport and the client of its revision. */
  private async newSession(sdk: McpSdk, modern: boolean): Promise<Session> {
    const modernSdk = modern ? await loadModernMcpSdk() : undefined;
    const { transport, stdio } = createMcpTransport(sdk, this.handler, this.http.fetch, this.logger, () => {
      if (this.warnedReadBuffer) return;
      this.warnedReadBuffer = true;
      this.logger.warn("mcp: this MCP SDK's stdio transport has no read buffer to replace; its own one reads each line in time quadratic in the line's size", { handler: this.handlerName });
    }, modernSdk);
    let session: Session | undefined;
    const events = {
      onclose: () => {
        if (session === undefined) return;
        if (!session.dead) this.logger.debug("mcp: session closed by the transport", { handler: this.handlerName, session: session.id });
        session.dead = true;
      },
      onerror: (error: Error) => {
        if (session !== undefined) this.onTransportError(session, error);
      },
    };
    const rpc = modernSdk === undefined ? legacyRpc(sdk, transport, events) : modernRpc(sdk, modernSdk, transport, events);
    session = {
      sdk,
      rpc,
      transport,
      stdio,
      id: ++this.sessions,
      dead: false,
      retiring: false,
      closing: undefined,
      inflight: new Set(),
      authFailure: undefined,
      capFailure: undefined,
      protocolVersion: modernSdk === undefined ? undefined : MCP_MODERN_REVISION,
    };
    noteProtocolVersion(transport, session);
    this.open.add(session);
    return session;
  }

  private onTransportError(session: Session, error: Error): void {
    this.logger.debug("mcp: transport error", { handler: this.handlerName, session: session.id, error: this.describeError(error) });
    // An SSE session lives on its event stream: once that breaks (the server
    // went away or restarted), the session is gone and no new request uses it.
    // Its POSTs already on the wire are let finish first (bounded): one answered
    // 404 by a restarted server proves its call never ran there, so that call can
    // be sent again on a new session instead of failing. Closing also clears the
    // EventSource's own reconnect timer, armed right after it reported the error.
    if (this.transport === "sse" && error instanceof session.sdk.SseError && !session.dead) {
      session.dead = true;
      session.retiring = true;
      if (this.current === session) this.current = undefined;
      this.track(
        (async () => {
          await withDeadline(Promise.allSettled([...session.inflight]).then(() => undefined), TERMINATE_TIMEOUT_MS, this.clock);
          await this.closeSession(session, false);
        })(),
      );
    }
  }

  /**
   * An answer of `session` passed the message cap and was cut off: the
   * session ends as for any transport failure, and the requests still waiting
   * on it (whose answers may have been in that stream) fail with the cap
   * error. The next request opens a new session.
   */
  private onCap(session: Session, error: Error): void {
    if (session.capFailure !== undefined) return;
    session.capFailure = error;
    this.logger.debug("mcp: an answer passed the message cap; ending the session", { handler: this.handlerName, session: session.id, error: error.message });
    this.retire(session);
  }

  /** Drops a session and closes it in the background (`close()` waits for it). */
  private retire(session: Session): void {
    if (this.current === session) this.current = undefined;
    session.dead = true;
    if (session.retiring) return;
    session.retiring = true;
    this.track(this.closeSession(session, false));
  }

  private closeSession(session: Session, terminate: boolean): Promise<void> {
    session.dead = true;
    session.closing ??= (async () => {
      const transport = session.transport as Transport & { terminateSession?: () => Promise<void> };
      if (terminate && this.transport === "streamable-http" && transport.sessionId !== undefined && typeof transport.terminateSession === "function") {
        await withDeadline(transport.terminateSession(), TERMINATE_TIMEOUT_MS, this.clock).catch((error: unknown) => {
          this.logger.debug("mcp: session DELETE failed", { handler: this.handlerName, error: this.describeError(error) });
        });
      }
      try {
        await session.rpc.close();
      } catch (error) {
        this.logger.debug("mcp: closing the session failed", { handler: this.handlerName, error: this.describeError(error) });
      }
      this.open.delete(session);
    })();
    return session.closing;
  }

  private track(promise: Promise<void>): void {
    this.pendingCloses.add(promise);
    void promise.finally(() => this.pendingCloses.delete(promise));
  }

  // --- failures --------------------------------------------------------------

  /**
   * The error to throw as is (abort, close, auth), or `undefined` when the
   * failure is the server's. On stdio a transport-level failure retires the
   * session (the child's stream is shared by every request). Over HTTP each
   * request is its own POST: one that failed (a reset, an HTTP 500, a body that
   * is not JSON) fails its own call only, and the calls already sent on the
   * session finish or fail on their own. An HTTP session is retired only when
   * it is gone: the server answered 404 for it (see `exchange`), its transport
   * closed, or its event stream broke (`onTransportError`).
   */
  private settleFailure(error: unknown, session: Session, scope: Scope): Error | undefined {
    const ended = this.endedBy(scope);
    if (ended !== undefined) return ended;
    if (error instanceof McpAuthError) return error;
    if (this.transport === "stdio" && !isProtocolError(error, session.sdk, !session.dead)) this.retire(session);
    return undefined;
  }

  /** What ends an operation before or after its exchange, whatever the exchange did: the scope's abort, else `close()`. */
  private endedBy(scope: Scope): Error | undefined {
    if (scope.signal.aborted) return abortReason(scope.signal, this.handlerName);
    return this.closed ? this.closedError() : undefined;
  }

  /** A stdio session's failure carries how its child ended (when it has), outside the message. */
  private transportError(prefix: string, error: unknown, sdk: McpSdk, session?: Session): McpTransportError {
    if (error instanceof McpTransportError) return new McpTransportError(`${prefix}${error.message}`, this.handlerName, error, { cause: error.cause });
    const stdioExit = session?.stdio?.exit();
    if (stdioExit !== undefined && session!.stdio!.logOnce()) this.logger.warn("mcp: the stdio server exited", { handler: this.handlerName, exitCode: stdioExit.exitCode, signal: stdioExit.signal, stderr: stdioExit.stderr });
    // The reason is the server's text (a JSON-RPC error's message, an HTTP error body) and the model
    // reads it: cut at 512 UTF-8 bytes, then `...`, as every peer text is (issue #31).
    return new McpTransportError(
      `${prefix}${boundPeerText(this.describeError(error))}`,
      this.handlerName,
      { rpcCode: rpcCodeOf(error, sdk), httpStatus: httpStatusOf(error, sdk), causeCode: causeCodeOf(error), stdioExit },
      { cause: error },
    );
  }

  /** An error's text with the endpoint's userinfo and query values as `***` (see redactEndpoint). */
  private describeError(error: unknown): string {
    return redactEndpoint(describe(error), this.handler.url);
  }

  private closedError(): ClosedError {
    return new ClosedError(`mcp handler ${JSON.stringify(this.handlerName)}: the client is closed`);
  }

  private assertOpen(method: string): void {
    if (this.closed) throw new ClosedError(`mcp handler ${JSON.stringify(this.handlerName)}: ${method}() after close()`);
  }
}

/**
 * Keeps the revision `initialize` negotiated on the session: the 1.x SDK's
 * client hands it to `transport.setProtocolVersion` (after checking it is one
 * it supports), which the HTTP transports have and stdio's has not.
 */
function noteProtocolVersion(transport: Transport, session: Session): void {
  const t = transport as Transport & { setProtocolVersion?: (version: string) => void };
  const set = t.setProtocolVersion?.bind(transport);
  t.setProtocolVersion = (version: string) => {
    session.protocolVersion = version;
    set?.(version);
  };
}

/** A success past {@link MAX_MCP_RESULT_BYTES} becomes the cap's error outcome. */
function capResult(toolName: string, result: McpCallResult): McpCallResult {
  if (result.status !== "success" || result.resultJson.length <= MAX_MCP_RESULT_BYTES / 3) return result;
  const bytes = Buffer.byteLength(result.resultJson, "utf8");
  if (bytes <= MAX_MCP_RESULT_BYTES) return result;
  const error = new McpResultTooLargeError(toolName, `MCP tool result of ${bytes} bytes exceeds the ${MAX_MCP_RESULT_BYTES}-byte cap`);
  return { status: "error", message: error.message, error };
}
