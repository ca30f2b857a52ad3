import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { StdioWatch } from "./stdio-watch.js";
import type { McpAuthError } from "./errors.js";
import { raceAbort } from "../core/index.js";
import type { McpSdk } from "./sdk.js";
import type { SessionRpc } from "./rpc.js";
import type { McpHandlerInput, McpTransportKind } from "./types.js";
import type { McpRequestTrace } from "../telemetry/index.js";

/** A handler as the client checked it. */
export interface ValidHandler {
  readonly name: string;
  readonly kind: McpTransportKind;
  readonly config: McpHandlerInput["mcpConfig"];
  readonly url: URL | undefined;
}

/** One connected MCP session: an SDK client bound to one transport. */
export interface Session {
  /** The 1.x SDK, whose error classes every failure is read by (on either revision). */
  readonly sdk: McpSdk;
  readonly rpc: SessionRpc;
  readonly transport: Transport;
  /** For stdio: the child's stderr tail and exit status. */
  readonly stdio: StdioWatch | undefined;
  readonly id: number;
  /** Closed, broken or being closed: never used for a new request. */
  dead: boolean;
  /** Set once the session is on its way to being closed. */
  retiring: boolean;
  closing: Promise<void> | undefined;
  /** HTTP requests of exchanges on this session still waiting for their response headers. */
  readonly inflight: Set<Promise<unknown>>;
  /** The header provider's failure while this session was connecting, if any. */
  authFailure: McpAuthError | undefined;
  /** Why the session was ended when an answer passed the message cap: what its requests still waiting fail with. */
  capFailure: Error | undefined;
  /** The protocol revision the session runs on: the one `initialize` negotiated (a revision the SDK supports), or 2026-07-28. */
  protocolVersion: string | undefined;
}

/**
 * What became of one HTTP request. `not-taken`: answered 404 (the server does
 * not know the session), refused, or never sent; no server can have run it.
 * `taken`: anything else, including a failure after it was sent.
 */
export type Delivery = "taken" | "not-taken";

/** One tool call or listing, as the fetch wrapper sees it. */
export interface Exchange {
  readonly session: Session;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly deliveries: Promise<Delivery>[];
  /** The request's trace, when it is observed: its `sent` hears the JSON-RPC id of each request sent for it. */
  trace?: McpRequestTrace | undefined;
}

/**
 * Whether no HTTP request of the exchange was taken by a server that knows the
 * session: each was answered 404, refused or never sent (none at all counts:
 * the session closed before the request went out). Waits for requests still in
 * flight (closing the session aborts them), unless `signal` aborts.
 */
export async function undelivered(exchange: Exchange, signal: AbortSignal): Promise<boolean> {
  try {
    const outcomes = await raceAbort(Promise.all(exchange.deliveries), signal);
    return outcomes.every((d) => d === "not-taken");
  } catch {
    return false;
  }
}
