// A facade stand-in for omnia.runtime.v1 tests: a connect gRPC client over a
// loopback HTTP/2 transport (its own Http2SessionManager, so close() leaves no
// live handle), plus helpers to run a Converse stream either scripted
// (send everything, half-close, collect every frame) or interactively
// (send/next/end, for client-tool round trips).
import { toJson, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Health } from "../../src/gen/grpc/health/v1/health_pb.js";
import { RuntimeService, ServerMessageSchema, type ClientMessageSchema, type ServerMessage } from "../../src/contract/index.js";
import { serveRuntime, type RuntimeHandler, type RuntimeServer, type ServeRuntimeOptions } from "../../src/runtime/index.js";

export type ClientMessageInit = MessageInitShape<typeof ClientMessageSchema>;

export interface RuntimeClient {
  readonly runtime: Client<typeof RuntimeService>;
  readonly health: Client<typeof Health>;
  readonly transport: Transport;
  /** Drops the HTTP/2 session. Idempotent. */
  close(): void;
}

/** A connect gRPC client of RuntimeService (and grpc.health.v1) at `baseUrl`, e.g. `http://127.0.0.1:<port>`. */
export function createRuntimeClient(baseUrl: string): RuntimeClient {
  const sessionManager = new Http2SessionManager(baseUrl, { idleConnectionTimeoutMs: 60_000 });
  const transport = createGrpcTransport({ baseUrl, sessionManager });
  let closed = false;
  return {
    runtime: createClient(RuntimeService, transport),
    health: createClient(Health, transport),
    transport,
    close() {
      if (closed) return;
      closed = true;
      sessionManager.abort();
    },
  };
}

/** The oneof case of each frame, e.g. `["runtimeHello", "chunk", "done"]`. */
export function frameCases(frames: readonly ServerMessage[]): (string | undefined)[] {
  return frames.map((f) => f.message.case);
}

export interface ConverseOptions {
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface ConverseResult {
  readonly frames: ServerMessage[];
  /** The stream's final status when it was not OK. */
  readonly error?: ConnectError;
}

/** Sends `messages`, half-closes, and collects every frame and the final status. */
export async function converse(client: RuntimeClient, messages: readonly ClientMessageInit[], options: ConverseOptions = {}): Promise<ConverseResult> {
  async function* requests(): AsyncGenerator<ClientMessageInit> {
    for (const m of messages) yield m;
  }
  const frames: ServerMessage[] = [];
  try {
    for await (const frame of client.runtime.converse(requests(), callOptions(options))) frames.push(frame);
    return { frames };
  } catch (err) {
    return { frames, error: ConnectError.from(err) };
  }
}

export interface OpenConverse {
  /** Queues a message on the request stream. */
  send(message: ClientMessageInit): void;
  /** Half-closes the request stream. */
  end(): void;
  /** The next frame; `undefined` when the stream ended OK. Rejects with the final ConnectError otherwise. */
  next(): Promise<ServerMessage | undefined>;
  /** Reads frames until one of `kind` arrives (collecting the others). */
  until(kind: string): Promise<{ frame: ServerMessage; skipped: ServerMessage[] }>;
  /** Cancels the call. */
  cancel(): void;
}

/** Opens an interactive Converse stream. */
export function openConverse(client: RuntimeClient, options: ConverseOptions = {}): OpenConverse {
  const queue: ClientMessageInit[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  async function* requests(): AsyncGenerator<ClientMessageInit> {
    for (;;) {
      const m = queue.shift();
      if (m !== undefined) {
        yield m;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  const abort = new AbortController();
  const signal = options.signal === undefined ? abort.signal : AbortSignal.any([abort.signal, options.signal]);
  const it = client.runtime.converse(requests(), callOptions({ ...options, signal }))[Symbol.asyncIterator]();
  // Once the response is over, reset the call (as a gRPC client does), so a
  // request side left open cannot keep the server's stream alive.
  const next = async (): Promise<ServerMessage | undefined> => {
    try {
      const r = await it.next();
      if (r.done !== true) return r.value;
    } catch (err) {
      abort.abort();
      throw ConnectError.from(err);
    }
    abort.abort();
    return undefined;
  };
  return {
    send(message) {
      queue.push(message);
      poke();
    },
    end() {
      ended = true;
      poke();
    },
    next,
    async until(kind) {
      const skipped: ServerMessage[] = [];
      for (;;) {
        const frame = await next();
        if (frame === undefined) throw new ConnectError(`stream ended before a ${kind} frame`, Code.OutOfRange);
        if (frame.message.case === kind) return { frame, skipped };
        skipped.push(frame);
      }
    },
    cancel() {
      ended = true;
      poke();
      abort.abort();
    },
  };
}

function callOptions(options: ConverseOptions): { headers?: Record<string, string>; signal?: AbortSignal; timeoutMs?: number } {
  const out: { headers?: Record<string, string>; signal?: AbortSignal; timeoutMs?: number } = {};
  if (options.headers !== undefined) out.headers = options.headers;
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.timeoutMs !== undefined) out.timeoutMs = options.timeoutMs;
  return out;
}

/** A frame as canonical proto JSON (`{ chunk: { content: "hi" } }`, int64 as strings, bytes as base64, defaults omitted). */
export function frameJson(frame: ServerMessage): unknown {
  return toJson(ServerMessageSchema, frame);
}

export interface StartedRuntime {
  readonly server: RuntimeServer;
  readonly client: RuntimeClient;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

/** serveRuntime on 127.0.0.1:0 plus a client of it. */
export async function startRuntime(handler: RuntimeHandler, options: Omit<ServeRuntimeOptions, "port"> = {}): Promise<StartedRuntime> {
  const server = await serveRuntime(handler, { port: 0, ...options });
  const client = createRuntimeClient(server.url);
  return {
    server,
    client,
    async close() {
      client.close();
      await server.close();
    },
  };
}
