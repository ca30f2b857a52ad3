import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import type * as Undici from "undici";
import type { Agent, Dispatcher, fetch as undiciFetch } from "undici";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { systemClock, type HttpDispatcher } from "../core/index.js";
import { McpAuthError } from "./errors.js";
import { causeCodeOf, describe } from "./error-text.js";
import type { Delivery, Exchange, Session } from "./session.js";
import { MAX_MCP_MESSAGE_BYTES } from "./limits.js";
import type { McpHeaderProvider } from "./types.js";
import { fetchFollowingRedirects } from "./redirects.js";
import { cappedBody, cappedEvents, isEventStream } from "./read-caps.js";
import { createScope } from "./scope.js";

/** undici, loaded on the first MCP HTTP exchange, so that importing the package does not load it (CommonJS: `require` gives the instance `import` would). */
let undiciModule: typeof Undici | undefined;
function undici(): typeof Undici {
  return (undiciModule ??= createRequire(import.meta.url)("undici") as typeof Undici);
}

/** MCP's own headers: a credential or an injected header never replaces them. */
const PROTECTED_HEADERS: ReadonlySet<string> = new Set(["mcp-session-id", "mcp-protocol-version"]);

/**
 * The HTTP side of one MCP client: the fetch its transports use, the
 * exchange (call or listing) each request belongs to, and the private undici
 * agent when the host gave no dispatcher.
 */
export class McpHttp {
  /** The exchange (tool call or listing) an HTTP request belongs to: its headers and what became of its requests. */
  readonly exchanges = new AsyncLocalStorage<Exchange>();
  private readonly handlerName: string;
  private readonly headerProvider: McpHeaderProvider | undefined;
  private readonly hostDispatcher: HttpDispatcher | undefined;
  private readonly onCap: (session: Session, error: Error) => void;
  private ownAgent: Agent | undefined;

  /**
   * `onCap` is called when an answer of `session` (a body, or one event of an
   * event stream) passed the message cap and was cut off.
   */
  constructor(handlerName: string, headerProvider: McpHeaderProvider | undefined, hostDispatcher: HttpDispatcher | undefined, onCap: (session: Session, error: Error) => void) {
    this.handlerName = handlerName;
    this.headerProvider = headerProvider;
    this.hostDispatcher = hostDispatcher;
    this.onCap = onCap;
  }

  /**
   * The fetch every MCP HTTP request goes through: the request's own headers,
   * then the header provider's (the credential), then the exchange's
   * (injected), later winning, except MCP's session and protocol-version
   * headers and any other `Mcp-*` header the SDK set on the request. It
   * also notes, for the exchange, whether each request was taken by a server
   * that knows the session.
   */
  readonly fetch: FetchLike = (url, init) => {
    const exchange = this.exchanges.getStore();
    const attempt = { dispatched: false };
    const pending = this.send(url, init, exchange, attempt);
    if (exchange !== undefined) {
      const inflight = exchange.session.inflight;
      inflight.add(pending);
      const done = (): void => void inflight.delete(pending);
      pending.then(done, done);
    }
    exchange?.deliveries.push(
      pending.then(
        (response): Delivery => (response.status === 404 ? "not-taken" : "taken"),
        (error: unknown): Delivery => (!attempt.dispatched || causeCodeOf(error) === "ECONNREFUSED" ? "not-taken" : "taken"),
      ),
    );
    return pending;
  };

  private async send(url: string | URL, init: RequestInit | undefined, exchange: Exchange | undefined, attempt: { dispatched: boolean }): Promise<Response> {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    let provided: Readonly<Record<string, string>> | undefined;
    try {
      provided = await this.provided();
    } catch (error) {
      if (exchange !== undefined && error instanceof McpAuthError) exchange.session.authFailure = error;
      throw error;
    }
    // The credential's and the injected headers' names: none of them follows a redirect to another origin.
    const sensitive = new Set<string>();
    const sdkSet = new Set(Object.keys(headers));
    for (const layer of [provided, exchange?.headers]) {
      if (layer === undefined) continue;
      for (const [key, value] of Object.entries(layer)) {
        const lower = key.toLowerCase();
        // Revision 2026-07-28 mirrors the request in `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`: the SDK's own stay.
        if (PROTECTED_HEADERS.has(lower) || (lower.startsWith("mcp-") && sdkSet.has(lower))) continue;
        headers[lower] = value;
        sensitive.add(lower);
      }
    }
    const signal = init?.signal;
    if (signal?.aborted === true) throw signal.reason;
    // undici's fetch calls only dispatch() on it: the structural type is what it uses.
    const dispatcher = (this.hostDispatcher as Dispatcher | undefined) ?? (this.ownAgent ??= new (undici().Agent)());
    attempt.dispatched = true;
    // The request's own signal, linked to the SDK's transport signal (one for every request of a session). Given
    // that signal itself, undici's fetch adds an `abort` listener to it per request and removes it only when the
    // request is garbage-collected: thousands pile up, and Node's `addEventListener` walks them all on every add
    // (86 us of a streamable-http call's CPU at 16 in flight). Linked through a scope, the transport signal keeps
    // one listener; the link goes when the fetch fails, its answer has no body, or its body ends, errs, is cut off
    // or is cancelled.
    const link = signal === undefined || signal === null ? undefined : createScope(signal, undefined, systemClock);
    const request = { ...(init as Parameters<typeof undiciFetch>[1]), headers, dispatcher, ...(link === undefined ? {} : { signal: link.signal }) };
    let response: Response;
    try {
      // The MCP SDK asks for `redirect: "manual"` and follows a redirect only within the origin itself; a request that
      // leaves redirects to the fetch gets the library's one rule, never undici's (which forwards every custom header).
      response = (init?.redirect === "manual" || init?.redirect === "error" ? await undici().fetch(url, request) : await fetchFollowingRedirects(undici().fetch, url, request, sensitive)) as unknown as Response;
    } catch (error) {
      link?.dispose();
      throw error;
    }
    if (response.body === null) {
      link?.dispose();
      return response;
    }
    // Every answer is read at most to the message cap: a body in all, an event
    // stream (the session's long-lived one, or a POST's) per event. Past it the
    // body is cut off and the session it belongs to ends, with that error.
    const onCap = (error: Error): void => {
      if (exchange !== undefined) this.onCap(exchange.session, error);
    };
    const done = link === undefined ? undefined : () => link.dispose();
    return isEventStream(response) ? cappedEvents(response, MAX_MCP_MESSAGE_BYTES, onCap, done) : cappedBody(response, MAX_MCP_MESSAGE_BYTES, onCap, done);
  }

  private async provided(): Promise<Readonly<Record<string, string>> | undefined> {
    if (this.headerProvider === undefined) return undefined;
    let headers: unknown;
    try {
      headers = await this.headerProvider();
    } catch (error) {
      throw new McpAuthError(this.handlerName, describe(error), { cause: error });
    }
    if (headers === undefined || headers === null) return undefined;
    if (typeof headers !== "object" || Array.isArray(headers)) {
      throw new McpAuthError(this.handlerName, `the header provider must return an object of header names to values; got ${Array.isArray(headers) ? "an array" : typeof headers}`);
    }
    return headers as Readonly<Record<string, string>>;
  }

  /** Destroys the private agent, if one was created. */
  async destroy(): Promise<void> {
    const agent = this.ownAgent;
    this.ownAgent = undefined;
    if (agent !== undefined) await agent.destroy();
  }
}
