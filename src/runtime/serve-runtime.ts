import { setMaxListeners } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { InvalidOptionError, systemClock } from "../core/index.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./constants.js";
import type { RuntimeServiceOptions } from "./options.js";
import { buildRuntimeService } from "./runtime-service.js";
import type { RuntimeHandler } from "./types.js";

/** How long close() waits for calls in flight before destroying their sessions. */
const DEFAULT_CLOSE_GRACE_MS = 5_000;

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
   * Stops the server: aborts every running call (turns see `turn.signal`
   * abort, watchers end), closes every HTTP/2 session and the listener, and
   * resolves once they are closed. A session still open after `closeGraceMs`
   * (default 5 s on the service's clock) is destroyed with its socket, so
   * `close()` always resolves, whatever a client does. Idempotent: later calls
   * return the same promise. No timer or socket is left behind.
   */
  close(): Promise<void>;
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
  const { port, host = "127.0.0.1", maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES, closeGraceMs = DEFAULT_CLOSE_GRACE_MS, ...serviceOptions } = options;
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
  // Streams whose response may still be running. At shutdown, a stream whose
  // response has ended but whose client never half-closed would hold its
  // session (and so close()) open forever: it is reset with RST_STREAM
  // NO_ERROR once its response is flushed, which is how a server ends a call
  // the client left open (RFC 9113 section 8.1). A Node client may then report the
  // call as "Premature close" instead of its status; it is shutting down anyway.
  const open = new Map<http2.ServerHttp2Stream, { ended: boolean }>();
  let closing: Promise<void> | undefined;
  let shuttingDown = false;
  const release = (stream: http2.ServerHttp2Stream): void => {
    if (stream.closed || stream.destroyed) return;
    // Only once the writable side has finished: resetting from inside
    // res.end() (while Node is still ending the stream) spun Node's HTTP/2
    // layer in a loop when the peer had already cancelled.
    if (stream.writableFinished) stream.close(http2.constants.NGHTTP2_NO_ERROR);
    else stream.once("finish", () => release(stream));
  };
  const server = http2.createServer((req, res) => {
    const stream = req.stream;
    const entry = { ended: false };
    open.set(stream, entry);
    stream.once("close", () => open.delete(stream));
    const end = res.end.bind(res) as (...args: unknown[]) => unknown;
    (res as unknown as { end: (...args: unknown[]) => unknown }).end = (...args: unknown[]) => {
      const result = end(...args);
      entry.ended = true;
      if (shuttingDown) release(stream);
      return result;
    };
    adapter(req, res);
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    // A session destroyed at the end of the grace period (or by a vanished client) is not an uncaught error.
    session.on("error", () => {});
  });

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
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        // Every running call sees its signal abort and ends its response.
        shuttingDown = true;
        shutdown.abort();
        const grace = clock.setTimeout(() => {
          for (const session of sessions) {
            session.destroy();
            session.socket?.destroy();
          }
        }, closeGraceMs);
        server.close(() => {
          grace.clear();
          resolve();
        });
        for (const session of sessions) session.close();
        for (const [stream, entry] of open) if (entry.ended) release(stream);
      });
      return closing;
    },
  };
}
