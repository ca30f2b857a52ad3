import { connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect, type ConnectionOptions } from "node:tls";
import type { Duplex } from "node:stream";
import { constants as http2Constants, type ClientHttp2Stream } from "node:http2";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Health, HealthCheckResponse_ServingStatus } from "../gen/grpc/health/v1/health_pb.js";
import { AbortedError, ClosedError, InvalidOptionError, OmniaToolsError, noopLogger, offSharedAbort, onSharedAbort, systemClock, type Logger, type TimerHandle } from "../core/index.js";
import { ToolService, type ToolInfo, type ToolResponse } from "../gen/omnia/tools/v1/tools_pb.js";
import { resolveEndpoint } from "./endpoint.js";
import { toGrpcStatusError } from "./status-error.js";
import { CONNECT_MAX_TIMEOUT_MS, GO_MAX_DURATION_MS, encodeLongGrpcTimeout } from "./grpc-timeout.js";
import { outboundMetadata } from "./metadata.js";

/** connect-node does not export this interface by name. */
type NodeHttp2ClientSessionManager = NonNullable<Parameters<typeof createGrpcTransport>[0]["sessionManager"]>;


/**
 * Options of {@link createToolServiceClient}. The field names mirror a
 * ToolRegistry handler's `grpcConfig`.
 * @public
 */
export interface ToolServiceClientOptions {
  /**
   * `host:port` as in `grpcConfig.endpoint` (also `[v6]:port` and
   * `dns:///host:port`), or an `http://` / `https://` URL without a path.
   * A host without a port dials 443, as grpc-go does.
   */
  readonly endpoint: string;
  /** Dial TLS. Default `false`: plaintext HTTP/2 (h2c), as Omnia does. An `https://` endpoint implies `true`. */
  readonly tls?: boolean | undefined;
  /** PEM client certificate for mTLS. Takes effect only together with `tlsKeyPath`, as in Omnia. */
  readonly tlsCertPath?: string | undefined;
  /** PEM private key of `tlsCertPath`. Takes effect only together with it. */
  readonly tlsKeyPath?: string | undefined;
  /** PEM CA bundle that replaces the system roots for verifying the server. */
  readonly tlsCAPath?: string | undefined;
  /** Skip verifying the server's chain and host name. Default `false`. */
  readonly tlsInsecureSkipVerify?: boolean | undefined;
  /** Receives skipped-metadata warnings and TLS notes. Default: discards. */
  readonly logger?: Logger | undefined;
}

/**
 * Per-call options of {@link ToolServiceClient.execute}.
 * @public
 */
export interface ToolServiceCallOptions {
  /**
   * Outbound gRPC metadata, ready-built (identity keys, `x-omnia-tool-name`,
   * `x-omnia-tool-registry`, `authorization` with the handler's own credential,
   * broker-injected entries). Keys are lower-cased; `x-omnia-param-*` entries
   * are dropped; an entry with an illegal key or value is skipped and logged.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Abandons the call: it rejects with the signal's reason when that is an `OmniaToolsError`, else with an `AbortedError`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The call's deadline in milliseconds (rounded up), sent on the wire as
   * `grpc-timeout`. When it passes, the call rejects with a `GrpcStatusError`
   * `DEADLINE_EXCEEDED`. Up to 99,999,999 ms it is sent in milliseconds; a
   * longer one in the finest of seconds, minutes or hours that fits the header's
   * 8 digits, rounded up, as grpc-go sends it (`48h` is `172800S`). At most Go's
   * longest duration, 9,223,372,036,854 ms.
   */
  readonly timeoutMs?: number | undefined;
}

/**
 * An `omnia.tools.v1.ToolService` client over one reused HTTP/2 connection.
 * @public
 */
export interface ToolServiceClient {
  /** The base URL the client dials, e.g. `http://127.0.0.1:50051`. */
  readonly baseUrl: string;
  /**
   * Calls `Execute` with `tool_name` and `arguments_json` only (`metadata` is
   * never filled; identity travels as gRPC metadata).
   *
   * Resolves with the backend's `ToolResponse` as it came, `is_error` included
   * (turn it into an outcome with `interpretToolResponse`). Rejects with a
   * `GrpcStatusError` (`ERR_OMNIA_GRPC_STATUS`) for any non-OK status, which
   * includes connection and TLS failures and the deadline; with the signal's
   * reason or an `AbortedError` when `signal` aborted; with a `ClosedError`
   * after `close()`; with an `InvalidOptionError` for a bad `timeoutMs`.
   */
  execute(toolName: string, argumentsJson: string, options?: ToolServiceCallOptions): Promise<ToolResponse>;
  /** Calls `ListTools`; resolves with the backend's `ToolInfo` list. Rejects like `execute`. */
  listTools(options?: ToolServiceCallOptions): Promise<ToolInfo[]>;
  /**
   * Calls `grpc.health.v1.Health/Check` (service `""`, the server as a whole)
   * on the same connection; resolves with the serving status's name
   * (`SERVING`, `NOT_SERVING`, `UNKNOWN`, `SERVICE_UNKNOWN`). Rejects like `execute`.
   */
  checkHealth(options?: ToolServiceCallOptions): Promise<string>;
  /**
   * Closes the HTTP/2 connection (calls in flight reject with a `ClosedError`)
   * and resolves once every socket has closed, leaving no live handle.
   * Idempotent: later calls return the same promise.
   */
  close(): Promise<void>;
}

/**
 * Creates a gRPC client for a tool backend (`omnia.tools.v1.ToolService`), on
 * connect-node's gRPC transport (HTTP/2; plaintext unless `tls`).
 *
 * One HTTP/2 session per client, opened on the first call, reused by every
 * call, kept open while idle (unref'd, so it never holds the process; dropped
 * after 15 minutes idle) and closed by `close()`. TLS files are read here,
 * once; a changed file needs a new client.
 *
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for a bad endpoint
 *   or option type; ConfigError (`ERR_OMNIA_CONFIG`) for an unreadable or
 *   invalid TLS file (`failed to read CA cert: ...`, `failed to parse CA cert`,
 *   `failed to load client cert: ...`, Omnia's texts).
 * @example
 * ```ts
 * const client = createToolServiceClient({ endpoint: "weather-tools:50051" });
 * const response = await client.execute("get_weather", '{"city":"Paris"}', {
 *   headers: { "x-omnia-tool-name": "get_weather", authorization: "Bearer t0k" },
 *   timeoutMs: 30_000,
 * });
 * const outcome = interpretToolResponse(response); // { status: "success", result, resultJson }
 * await client.close();
 * ```
 * @public
 */
export function createToolServiceClient(options: ToolServiceClientOptions): ToolServiceClient {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`createToolServiceClient: options must be an object; got ${String(options)}`);
  }
  const logger = options.logger ?? noopLogger;
  const endpoint = resolveEndpoint(options.endpoint, options, logger);
  const tls = endpoint.tls;

  // We open the sockets ourselves (createConnection) so that close() can wait
  // for every one of them, including one still connecting.
  const sockets = new Set<Socket>();
  const createConnection = (): Duplex => {
    let socket: Socket;
    if (tls === undefined) {
      socket = netConnect({ host: endpoint.host, port: endpoint.port });
    } else {
      const tlsOptions: ConnectionOptions = { host: endpoint.host, port: endpoint.port, ALPNProtocols: ["h2"], rejectUnauthorized: tls.rejectUnauthorized };
      if (isIP(endpoint.host) === 0) tlsOptions.servername = endpoint.host;
      if (tls.ca !== undefined) tlsOptions.ca = tls.ca;
      if (tls.cert !== undefined) tlsOptions.cert = tls.cert;
      if (tls.key !== undefined) tlsOptions.key = tls.key;
      socket = tlsConnect(tlsOptions);
    }
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    return socket;
  };
  const manager = new Http2SessionManager(endpoint.baseUrl, {}, { createConnection });
  // connect-node detaches its session listeners when it leaves a connection's
  // state, and a TLS 1.3 alert (a client certificate the server refused) can
  // still arrive on that session afterwards as an 'error' event: keep one
  // listener on every session we used, so that it can never crash the host.
  const guarded = new WeakSet<object>();
  const sessionManager: NodeHttp2ClientSessionManager = {
    authority: manager.authority,
    async request(method, path, headers, requestOptions) {
      const stream = await manager.request(method, path, headers, requestOptions);
      failNoErrorReset(stream);
      const session = stream.session;
      if (session !== undefined && !guarded.has(session)) {
        guarded.add(session);
        session.on("error", ignore);
      }
      return stream;
    },
    notifyResponseByteRead: (stream) => manager.notifyResponseByteRead(stream),
  };
  // grpc-go's default receive cap is 4 MiB: a larger message is RESOURCE_EXHAUSTED, never buffered whole.
  const transport = createGrpcTransport({ baseUrl: endpoint.baseUrl, sessionManager, readMaxBytes: GRPC_MAX_RECEIVE_BYTES });
  const client: Client<typeof ToolService> = createClient(ToolService, transport);
  const health: Client<typeof Health> = createClient(Health, transport);

  let closing: Promise<void> | undefined;

  async function call<T>(what: string, options: ToolServiceCallOptions, run: (opts: { headers: Record<string, string>; signal?: AbortSignal; timeoutMs?: number }) => Promise<T>): Promise<T> {
    if (closing !== undefined) throw new ClosedError(`tool service client: ${what} after close(); got endpoint ${endpoint.baseUrl}`);
    const callOptions: { headers: Record<string, string>; signal?: AbortSignal; timeoutMs?: number } = {
      headers: outboundMetadata(options.headers, logger),
    };
    const ms = options.timeoutMs === undefined ? undefined : deadlineMs(options.timeoutMs);
    const signal = options.signal;
    if (signal?.aborted === true) throw abortError(signal);
    // connect writes every deadline as `<ms>m`, which has room for 8 digits (27.7 hours): a
    // longer one goes on the wire in a coarser unit, as grpc-go sends it, and is kept here.
    let deadline: TimerHandle | undefined;
    // The closures of a long deadline (or of a caller's signal) are made only for one.
    let onCallerAbort: (() => void) | undefined;
    if (ms !== undefined && ms > CONNECT_MAX_TIMEOUT_MS) {
      callOptions.headers["grpc-timeout"] = encodeLongGrpcTimeout(ms);
      const controller = new AbortController();
      deadline = systemClock.setTimeout(() => controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), ms);
      if (signal !== undefined) onSharedAbort(signal, (onCallerAbort = () => controller.abort(signal.reason)));
      callOptions.signal = controller.signal;
    } else {
      if (ms !== undefined) callOptions.timeoutMs = ms;
      if (signal !== undefined) {
        // connect adds a listener to the signal it is given: one per call on a shared signal warns past 10
        // (MaxListenersExceededWarning). Each call gets its own signal, behind one shared listener on the caller's.
        const controller = new AbortController();
        onSharedAbort(signal, (onCallerAbort = () => controller.abort(signal.reason)));
        callOptions.signal = controller.signal;
      }
    }
    try {
      return await run(callOptions);
    } catch (e) {
      if (signal !== undefined && isAborted(signal)) throw abortError(signal);
      if (closing !== undefined) throw new ClosedError(`tool service client: closed while ${what} was in flight; got endpoint ${endpoint.baseUrl}`, { cause: e });
      // A connection lost before the server's HTTP/2 preface surfaces from connect as Canceled,
      // though nobody cancelled: grpc-go reports it as Unavailable, which the default retry codes retry.
      if (e instanceof ConnectError && e.code === Code.Canceled) throw toGrpcStatusError(new ConnectError(e.rawMessage, Code.Unavailable, undefined, undefined, e));
      throw toGrpcStatusError(e);
    } finally {
      deadline?.clear();
      if (signal !== undefined && onCallerAbort !== undefined) offSharedAbort(signal, onCallerAbort);
    }
  }

  return {
    baseUrl: endpoint.baseUrl,
    execute(toolName, argumentsJson, options = {}) {
      if (typeof toolName !== "string" || typeof argumentsJson !== "string") {
        return Promise.reject(new InvalidOptionError(`tool service client: execute needs a tool name and arguments JSON text; got ${typeof toolName} and ${typeof argumentsJson}`));
      }
      return call("execute", options, (o) => client.execute({ toolName, argumentsJson }, o));
    },
    listTools(options = {}) {
      return call("listTools", options, async (o) => (await client.listTools({}, o)).tools);
    },
    checkHealth(options = {}) {
      return call("checkHealth", options, async (o) => HealthCheckResponse_ServingStatus[(await health.check({ service: "" }, o)).status] ?? "UNKNOWN");
    },
    close() {
      closing ??= (async () => {
        manager.abort(new ConnectError("tool service client closed", Code.Canceled));
        const open = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
        for (const s of sockets) s.destroy();
        await Promise.all(open);
      })();
      return closing;
    },
  };
}

/**
 * The largest gRPC message accepted, in bytes: grpc-go's default receive cap
 * (4 MiB), for the client and for `serveToolService`.
 * @internal Does not follow semver.
 */
export const GRPC_MAX_RECEIVE_BYTES = 4 * 1024 * 1024;

/** The call that used the session has already seen the error; a late duplicate is dropped. */
function ignore(): void {}

/** Read afresh after an await: the signal may have aborted since it was last checked. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

/** Validates a per-call deadline and rounds it up to whole milliseconds. */
function deadlineMs(timeoutMs: unknown): number {
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || Math.ceil(timeoutMs) > GO_MAX_DURATION_MS) {
    throw new InvalidOptionError(`tool service client: timeoutMs must be a number in (0, ${GO_MAX_DURATION_MS}]; got ${String(timeoutMs)}`);
  }
  return Math.ceil(timeoutMs);
}

/** The error of an abandoned call: the signal's own reason when it is one of ours (a TimeoutError), else AbortedError. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof OmniaToolsError) return reason;
  return new AbortedError("tool service client: the call was aborted by its signal", { cause: reason });
}

/**
 * A stream reset with NO_ERROR before any response headers: connect-node ignores that code (it is how a
 * finished stream closes too), so the call would wait for its deadline. grpc-go fails it at once as
 * `Internal` (`stream terminated by RST_STREAM with error code: NO_ERROR`); here it fails as connect-node's
 * reset error, which {@link toGrpcStatusError} words that way.
 */
function failNoErrorReset(stream: ClientHttp2Stream): void {
  let answered = false;
  stream.once("response", () => (answered = true));
  stream.once("close", () => {
    if (answered || stream.rstCode !== http2Constants.NGHTTP2_NO_ERROR || stream.listenerCount("error") === 0) return;
    stream.emit("error", new ConnectError("http/2 stream closed with error code NO_ERROR (0x0)", Code.Internal));
  });
}
