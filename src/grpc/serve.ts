import { GRPC_MAX_RECEIVE_BYTES } from "./client.js";
import { setMaxListeners } from "node:events";
import * as http2 from "node:http2";
import { isIP, type AddressInfo } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { InvalidOptionError, systemClock, type Clock } from "../core/index.js";
import { closeIdleSessions, serverLimits, trackConnections } from "./server-limits.js";
import { createToolServiceHandler, type ToolImplementations } from "./handler.js";
import { isBeyondTimerRange } from "./grpc-timeout.js";

/**
 * TLS material of {@link serveToolService}, as PEM text or bytes.
 * @public
 */
export interface ToolServiceTlsOptions {
  /** The server's certificate chain. */
  readonly cert: string | Uint8Array;
  /** The server's private key. */
  readonly key: string | Uint8Array;
  /** CA bundle that client certificates must chain to (mTLS). */
  readonly ca?: string | Uint8Array | undefined;
  /** Refuse a client without a certificate that chains to `ca`. Default `false`. */
  readonly requireClientCert?: boolean | undefined;
}

/**
 * Options of {@link serveToolService}.
 * @public
 */
export interface ServeToolServiceOptions {
  /** Port to listen on. Default `0`: a free port, reported in the result. */
  readonly port?: number | undefined;
  /** Address to listen on. Default `127.0.0.1` (loopback only). */
  readonly host?: string | undefined;
  /** Serve gRPC over TLS (h2) instead of plaintext HTTP/2 (h2c). */
  readonly tls?: ToolServiceTlsOptions | undefined;
  /** Also serve `grpc.health.v1.Health`. Default `true`. */
  readonly health?: boolean | undefined;
  /**
   * How long `close()` lets calls in flight finish, in ms on `clock`, before
   * it destroys every HTTP/2 session and socket still open (a client that
   * stopped reading, with its window at 0, or never ends its request). Default 5000.
   */
  readonly closeGraceMs?: number | undefined;
  /** The clock of the close grace period and the idle timeout. Default `systemClock`. */
  readonly clock?: Clock | undefined;
  /**
   * Streams (calls) one connection may have open at once: advertised in the HTTP/2
   * SETTINGS and enforced (a stream past it is refused with `RST_STREAM`
   * REFUSED_STREAM, which a gRPC client reports as UNAVAILABLE and may retry).
   * Default 250, as Go's HTTP/2 server.
   */
  readonly maxConcurrentStreams?: number | undefined;
  /**
   * A connection with no call in flight for this long, in ms on `clock`, is
   * closed (GOAWAY, then the socket); a call in flight, however long, is never
   * cut. Default 900000 (15 minutes, as long as this package's gRPC client keeps
   * an idle session); `Infinity` keeps idle connections.
   */
  readonly idleTimeoutMs?: number | undefined;
}

/**
 * A running tool backend.
 * @public
 */
export interface ToolServiceServer {
  /** The port it listens on. */
  readonly port: number;
  /** `http://host:port` or `https://host:port`: an endpoint for `createToolServiceClient`. */
  readonly url: string;
  /**
   * Stops accepting connections, aborts every handler's signal (so tools and
   * health watches wind down), sends GOAWAY on every HTTP/2 session and
   * resolves once every session and socket has closed. Calls in flight may
   * finish within `closeGraceMs` (default 5 s); then every session and socket
   * still open is destroyed, so `close()` always resolves. Idempotent: later
   * calls return the same promise.
   */
  close(): Promise<void>;
}

/**
 * Serves `omnia.tools.v1.ToolService` (and `grpc.health.v1.Health`) from a
 * map of tool implementations on a Node HTTP/2 server, gRPC protocol only.
 * See {@link createToolServiceHandler} for what `Execute` and `ListTools` answer.
 *
 * @throws InvalidOptionError for a bad port; ConfigError for an invalid tool
 *   (see createToolServiceHandler). The promise rejects if the server cannot listen.
 * @example
 * ```ts
 * const server = await serveToolService({
 *   get_weather: {
 *     description: "Current weather for a city",
 *     inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 *     execute: async ({ city }, ctx) => ({ city, tempC: 21, requestId: ctx.headers["x-omnia-request-id"] }),
 *   },
 * }, { port: 50051 });
 * // ... later
 * await server.close();
 * ```
 * @public
 */
export async function serveToolService(tools: ToolImplementations, options: ServeToolServiceOptions = {}): Promise<ToolServiceServer> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidOptionError(`serveToolService: port must be an integer in [0, 65535]; got ${String(port)}`);
  }
  const host = options.host ?? "127.0.0.1";
  const tls = options.tls;
  if (tls?.requireClientCert === true && tls.ca === undefined) {
    throw new InvalidOptionError("serveToolService: tls.requireClientCert needs tls.ca to verify client certificates; got no ca");
  }
  const closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  if (typeof closeGraceMs !== "number" || !(closeGraceMs >= 0)) {
    throw new InvalidOptionError(`serveToolService: closeGraceMs must be a number >= 0; got ${String(closeGraceMs)}`);
  }
  const limits = serverLimits("serveToolService", options.maxConcurrentStreams, options.idleTimeoutMs);
  const clock = options.clock ?? systemClock;
  const routes = createToolServiceHandler(tools, { health: options.health ?? true });
  const shutdown = new AbortController();
  // Every call in flight links its handler signal to this one (connect removes
  // the link when the call ends): many concurrent calls are normal, not a leak.
  setMaxListeners(0, shutdown.signal);
  const adapter = connectNodeAdapter({ routes, grpc: true, connect: false, grpcWeb: false, shutdownSignal: shutdown.signal, readMaxBytes: GRPC_MAX_RECEIVE_BYTES });
  // A deadline past what a Node timer can wait (24.8 days; grpc-go sends up to 99999999H) would
  // fire at once in connect's one setTimeout: the server drops it and the client's own deadline
  // (it cancels the stream) ends the call.
  const handler = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse): void => {
    const timeout = req.headers["grpc-timeout"];
    if (typeof timeout === "string" && isBeyondTimerRange(timeout)) delete req.headers["grpc-timeout"];
    adapter(req, res);
  };

  const settings = { maxConcurrentStreams: limits.maxConcurrentStreams };
  const server =
    tls === undefined
      ? http2.createServer({ settings }, handler)
      : http2.createSecureServer(
          {
            cert: toPem(tls.cert),
            key: toPem(tls.key),
            ...(tls.ca === undefined ? {} : { ca: toPem(tls.ca) }),
            requestCert: tls.requireClientCert === true,
            rejectUnauthorized: tls.requireClientCert === true,
            allowHTTP1: false,
            settings,
          },
          handler,
        );
  const { sessions, sockets } = trackConnections(server);
  closeIdleSessions(server, clock, limits.idleTimeoutMs);
  // Failed TLS handshakes (a client with the wrong CA) are the client's problem, not a crash.
  server.on("tlsClientError", () => {});

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `${tls === undefined ? "http" : "https"}://${isIP(host) === 6 ? `[${host}]` : host}:${bound}`;

  let closing: Promise<void> | undefined;
  return {
    port: bound,
    url,
    close() {
      closing ??= (async () => {
        shutdown.abort(new ConnectError("server is shutting down", Code.Unavailable));
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Past the grace, nothing a client does (window 0, a request body never ended) holds close().
        const grace = clock.setTimeout(() => {
          for (const s of sessions) s.destroy();
          for (const s of sockets) s.destroy();
        }, closeGraceMs);
        // Graceful first: GOAWAY, and each session closes once its streams end.
        const ending = [...sessions].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
        for (const s of sessions) s.close();
        await Promise.all(ending);
        // Then whatever never became a session (a TLS handshake still going on).
        const open = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
        for (const s of sockets) s.destroy();
        await Promise.all(open);
        await closed;
        grace.clear();
      })();
      return closing;
    },
  };
}

/** How long close() waits for calls in flight before destroying their sessions. */
const DEFAULT_CLOSE_GRACE_MS = 5_000;

function toPem(value: string | Uint8Array): string | Buffer {
  return typeof value === "string" ? value : Buffer.from(value);
}
