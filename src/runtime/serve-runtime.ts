import { setMaxListeners } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { InvalidOptionError, systemClock } from "../core/index.js";
import { closeIdleSessions, serverLimits, trackConnections } from "../grpc/index.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./constants.js";
import type { RuntimeServiceOptions } from "./options.js";
import { buildRuntimeService } from "./runtime-service.js";
import type { RuntimeHandler } from "./types.js";

/** How long close() waits for calls in flight before destroying their sessions. */
const DEFAULT_CLOSE_GRACE_MS = 5_000;

/** The status of a call still running at shutdown: UNAVAILABLE, as a grpc-go client reports a server's `Stop`. */
const SHUTDOWN_MESSAGE = "transport is closing";

/** connect's limit for readMaxBytes / writeMaxBytes. */
const MAX_MESSAGE_BYTES_LIMIT = 0xffffffff;

/**
 * Options of {@link serveRuntime}.
 * @public
 */
export interface ServeRuntimeOptions extends RuntimeServiceOptions {
  /** The TCP port; 0 picks a free one (read it from the result). */
  port: number;
  /** The interface to listen on. Default `127.0.0.1`; a pod serving its facade sidecar over the network sets `0.0.0.0`. */
  host?: string | undefined;
  /** The largest message accepted and sent, both directions. Default 16 MiB (16777216), as the Go SDK. */
  maxMessageBytes?: number | undefined;
  /**
   * How long `close()` lets calls in flight finish on their own, in ms on the
   * service's clock, before it destroys every HTTP/2 session and socket that
   * is still open (a client that stopped reading, with its flow-control window
   * at 0, or that never ends its request body). Default 5000.
   */
  closeGraceMs?: number | undefined;
  /**
   * Streams (calls) one connection may have open at once: advertised in the HTTP/2
   * SETTINGS and enforced (a stream past it is refused with `RST_STREAM`
   * REFUSED_STREAM, which a gRPC client reports as UNAVAILABLE and may retry).
   * Default 250, as Go's HTTP/2 server.
   */
  maxConcurrentStreams?: number | undefined;
  /**
   * A connection with no call in flight for this long, in ms on the service's
   * clock, is closed (GOAWAY, then the socket); a call in flight, however long,
   * is never cut. Default 900000 (15 minutes, as long as this package's gRPC
   * client keeps an idle session); `Infinity` keeps idle connections.
   */
  idleTimeoutMs?: number | undefined;
}

/**
 * A running runtime server.
 * @public
 */
export interface RuntimeServer {
  /** The bound port. */
  readonly port: number;
  /** `http://<host>:<port>`, the base URL for a gRPC transport. */
  readonly url: string;
  /**
   * Stops the server: aborts every running call (turns see `turn.signal` abort,
   * watchers end), and each ends with status UNAVAILABLE `transport is closing`
   * (what a grpc-go client reports when a server stops); sends GOAWAY on every
   * HTTP/2 session, closes the listener, and resolves once every session has
   * closed (a client closes its stream once it has read the status). A session
   * or raw socket still open after `closeGraceMs` (default 5 s on the service's
   * clock) is destroyed, so `close()` always resolves, whatever a client does.
   * Idempotent: later calls return the same promise. No timer or socket is
   * left behind.
   *
   * With `drainMs` (Go's `GracefulStop` before its `Stop`): the listener stops
   * and every session gets GOAWAY first, so calls in flight may end on their
   * own for up to `drainMs`; whatever still runs then is ended as above.
   */
  close(options?: { readonly drainMs?: number | undefined }): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * Serves a {@link RuntimeHandler} as `omnia.runtime.v1.RuntimeService` on a
 * plaintext HTTP/2 (h2c) server speaking the gRPC protocol, which is how Omnia
 * facades dial their runtime sidecar. The behaviour is `createRuntimeService`'s.
 *
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for a bad option;
 * the promise rejects when the port cannot be bound.
 * @example
 * ```ts
 * const server = await serveRuntime(handler, { port: 9000, host: "0.0.0.0" });
 * process.once("SIGTERM", () => void server.close());
 * ```
 * @public
 */
export async function serveRuntime(handler: RuntimeHandler, options: ServeRuntimeOptions): Promise<RuntimeServer> {
  const where = "serveRuntime";
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`${where}: options must be an object with a port; got ${String(options)}`);
  const { port, host = "127.0.0.1", maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES, closeGraceMs = DEFAULT_CLOSE_GRACE_MS, maxConcurrentStreams, idleTimeoutMs, ...serviceOptions } = options;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidOptionError(`${where}: port must be an integer from 0 to 65535; got ${String(port)}`);
  }
  if (typeof host !== "string" || host === "") throw new InvalidOptionError(`${where}: host must be a non-empty string; got ${JSON.stringify(host)}`);
  if (typeof maxMessageBytes !== "number" || !Number.isInteger(maxMessageBytes) || maxMessageBytes < 1 || maxMessageBytes > MAX_MESSAGE_BYTES_LIMIT) {
    throw new InvalidOptionError(`${where}: maxMessageBytes must be an integer from 1 to ${MAX_MESSAGE_BYTES_LIMIT}; got ${String(maxMessageBytes)}`);
  }
  if (typeof closeGraceMs !== "number" || !(closeGraceMs >= 0)) {
    throw new InvalidOptionError(`${where}: closeGraceMs must be a number >= 0; got ${String(closeGraceMs)}`);
  }
  const limits = serverLimits(where, maxConcurrentStreams, idleTimeoutMs);
  const clock = serviceOptions.clock ?? systemClock;
  const routes = buildRuntimeService(where, handler, serviceOptions, []);
  const shutdown = new AbortController();
  // connect links every call's signal to this one: one listener per call in flight.
  setMaxListeners(0, shutdown.signal);
  const adapter = connectNodeAdapter({
    routes,
    contextValues: routes.contextValues,
    grpc: true,
    connect: false,
    grpcWeb: false,
    readMaxBytes: maxMessageBytes,
    writeMaxBytes: maxMessageBytes,
    shutdownSignal: shutdown.signal,
  });
  let closing: Promise<void> | undefined;
  const server = http2.createServer({ settings: { maxConcurrentStreams: limits.maxConcurrentStreams } }, adapter);
  closeIdleSessions(server, clock, limits.idleTimeoutMs);
  const { sessions, sockets } = trackConnections(server);

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;

  return {
    port: bound,
    url: `http://${hostForUrl(host)}:${bound}`,
    close(closeOptions: { readonly drainMs?: number | undefined } = {}): Promise<void> {
      const drainMs = closeOptions?.drainMs ?? 0;
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
        server.close();
        if (drainMs > 0) {
          // GOAWAY first: no new call; the calls in flight may finish by themselves within drainMs.
          for (const session of sessions) session.close();
          let timer: { clear(): void } | undefined;
          await Promise.race([closed, new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, drainMs)))]);
          timer?.clear();
        }
        // Every running call sees its signal abort with UNAVAILABLE and ends its response with that status.
        shutdown.abort(new ConnectError(SHUTDOWN_MESSAGE, Code.Unavailable));
        // Past the grace, nothing a client does (a window at 0, a request side it never ends) holds close().
        const grace = clock.setTimeout(() => {
          for (const session of sessions) session.destroy();
          for (const socket of sockets) socket.destroy();
        }, closeGraceMs);
        // GOAWAY: each session closes once its streams have ended (the client has read each status and closed).
        for (const session of sessions) session.close();
        await closed;
        grace.clear();
      })();
      return closing;
    },
  };
}
