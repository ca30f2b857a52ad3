import type * as http2 from "node:http2";
import type { Socket } from "node:net";
import { InvalidOptionError, type Clock, type TimerHandle } from "../core/index.js";

/**
 * Streams one client may have open at once on a server of this package: 250,
 * as Go's HTTP/2 server (`golang.org/x/net/http2`, `defaultMaxStreams`).
 * @internal Does not follow semver.
 */
export const DEFAULT_MAX_CONCURRENT_STREAMS = 250;

/**
 * How long a server of this package keeps a connection with no call in flight:
 * 15 minutes, as long as this package's gRPC client keeps its own idle session.
 * @internal Does not follow semver.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

/**
 * Checks `maxConcurrentStreams` and `idleTimeoutMs` and fills in the defaults.
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) naming the option and the value received
 * @internal Does not follow semver.
 */
export function serverLimits(where: string, maxConcurrentStreams: unknown, idleTimeoutMs: unknown): { readonly maxConcurrentStreams: number; readonly idleTimeoutMs: number } {
  const streams = maxConcurrentStreams ?? DEFAULT_MAX_CONCURRENT_STREAMS;
  if (typeof streams !== "number" || !Number.isInteger(streams) || streams < 1 || streams > 0xffffffff) {
    throw new InvalidOptionError(`${where}: maxConcurrentStreams must be an integer from 1 to 4294967295; got ${String(maxConcurrentStreams)}`);
  }
  const idle = idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (typeof idle !== "number" || !(idle > 0)) {
    throw new InvalidOptionError(`${where}: idleTimeoutMs must be a number > 0 (Infinity: never); got ${String(idleTimeoutMs)}`);
  }
  return { maxConcurrentStreams: streams, idleTimeoutMs: idle };
}

/**
 * Closes (GOAWAY, then the connection once its streams have ended) each session
 * of `server` that has had no stream open for `idleTimeoutMs` on `clock`. A
 * session with a stream open, however long it runs, is never touched.
 * @internal Does not follow semver.
 */
export function closeIdleSessions(server: http2.Http2Server | http2.Http2SecureServer, clock: Clock, idleTimeoutMs: number): void {
  if (idleTimeoutMs === Infinity) return;
  server.on("session", (session: http2.ServerHttp2Session) => {
    let open = 0;
    let timer: TimerHandle | undefined;
    const arm = (): void => {
      timer?.clear();
      timer = clock.setTimeout(() => {
        timer = undefined;
        if (open === 0 && !session.closed && !session.destroyed) session.close();
      }, idleTimeoutMs);
    };
    arm();
    session.on("stream", (stream: http2.ServerHttp2Stream) => {
      open++;
      timer?.clear();
      timer = undefined;
      stream.once("close", () => {
        if (--open === 0 && !session.closed && !session.destroyed) arm();
      });
    });
    session.once("close", () => {
      timer?.clear();
      timer = undefined;
    });
  });
}

/**
 * The HTTP/2 sessions and the raw sockets of `server`, each kept while open, so
 * that `close()` can end them all: a socket that is not a session yet (a TLS
 * handshake, a preface never sent) or whose session cannot be destroyed through
 * its socket proxy is destroyed directly. A session or socket error (a client
 * that vanished, a destroy at the end of the grace) is never an uncaught exception.
 * @internal Does not follow semver.
 */
export function trackConnections(server: http2.Http2Server | http2.Http2SecureServer): { readonly sessions: ReadonlySet<http2.ServerHttp2Session>; readonly sockets: ReadonlySet<Socket> } {
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<Socket>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    session.on("error", () => {});
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  });
  return { sessions, sockets };
}
