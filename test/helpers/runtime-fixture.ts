// Fixture runtimes for the conformance suite: real connect-node HTTP/2 (h2c) servers
// on 127.0.0.1 that serve omnia.runtime.v1.RuntimeService straight from the generated
// descriptor — deliberately NOT through our runtime SDK, so the suite is tested
// against hand-written protocol behaviour, good and bad.
import { createServer, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { RuntimeService, type ClientMessage, type HealthResponseSchema, type ServerMessageSchema } from "../../src/contract/index.js";

export type RuntimeImpl = Partial<ServiceImpl<typeof RuntimeService>>;

/** Every Converse stream the fixture saw: the messages it read, in order. */
export interface SeenStream {
  readonly messages: ClientMessage[];
}

export interface FixtureRuntime {
  /** `127.0.0.1:<port>` */
  readonly addr: string;
  readonly port: number;
  /** Converse streams opened so far (a stream appears when its handler starts). */
  readonly streams: SeenStream[];
  /** Resolves once `n` client messages have been read on Converse streams in total. */
  messagesRead(n: number): Promise<void>;
  /** HTTP/2 sessions ever accepted. */
  sessionCount(): number;
  /** Resolves once every accepted HTTP/2 session has closed by itself (the client ended it). */
  sessionsClosed(): Promise<void>;
  close(): Promise<void>;
}

/** Options for a fixture built from a behaviour description (see {@link fixtureImpl}). */
export interface FixtureBehaviour {
  /** `undefined` leaves Health unimplemented. */
  health?: MessageInitShape<typeof HealthResponseSchema>;
  /** The text-turn stream: given the first message, the frames to send (then return OK), or a thrown ConnectError. */
  converse?: (first: ClientMessage | undefined, ctx: HandlerContext) => AsyncIterable<ServerFrame> | Iterable<ServerFrame>;
  /** `undefined` leaves Invoke unimplemented (the router answers Unimplemented). */
  invoke?: (ctx: HandlerContext) => { outputJson: string } | Promise<{ outputJson: string }>;
}

/** A ServerMessage init: `{ case, value }` of the oneof. */
export type ServerFrame = NonNullable<MessageInitShape<typeof ServerMessageSchema>["message"]>;

/** The capability names contract 1.9.0 defines (spelled out: the fixtures do not lean on our contract module). */
export const KNOWN = ["invoke", "duplex_audio", "client_tools", "media_storage_ref", "interruption"];

export const hello = (caps: readonly string[], media?: { codec: string; sampleRate: number; channels: number }): ServerFrame => ({
  case: "runtimeHello",
  value: { capabilities: [...caps], ...(media === undefined ? {} : { media }) },
});
export const done = (finalContent = ""): ServerFrame => ({ case: "done", value: { finalContent } });
export const chunk = (content: string): ServerFrame => ({ case: "chunk", value: { content } });
export const errorFrame = (code: string, message: string): ServerFrame => ({ case: "error", value: { code, message } });

/**
 * Starts a fixture runtime serving `service` (a partial implementation: a missing
 * method answers Unimplemented). Build one from a behaviour with {@link fixtureImpl}.
 */
export async function startFixtureRuntime(service: RuntimeImpl): Promise<FixtureRuntime> {
  const streams: SeenStream[] = [];
  let total = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const onMessage = () => {
    total++;
    for (const w of [...waiters]) {
      if (total >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const recording: RuntimeImpl = { ...service };
  const converse = service.converse;
  if (converse !== undefined) {
    recording.converse = (requests, ctx) => {
      const seen: SeenStream = { messages: [] };
      streams.push(seen);
      return converse(recordRequests(requests, seen, onMessage), ctx);
    };
  }
  const handler = connectNodeAdapter({ routes: (router) => router.service(RuntimeService, recording) });
  const server: Http2Server = createServer(handler);
  const sessions = new Set<ServerHttp2Session>();
  let accepted = 0;
  const onAllClosed: (() => void)[] = [];
  server.on("session", (s: ServerHttp2Session) => {
    accepted++;
    sessions.add(s);
    s.on("close", () => {
      sessions.delete(s);
      if (sessions.size === 0) for (const f of onAllClosed.splice(0)) f();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    addr: `127.0.0.1:${port}`,
    port,
    streams,
    messagesRead(n) {
      if (total >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    sessionCount: () => accepted,
    sessionsClosed() {
      if (sessions.size === 0) return Promise.resolve();
      return new Promise((resolve) => onAllClosed.push(resolve));
    },
    async close() {
      const closing = [...sessions].map((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.once("close", () => resolve()))));
      for (const s of sessions) s.destroy();
      await Promise.all(closing);
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      if (sessions.size !== 0) throw new Error(`fixture runtime: ${sessions.size} HTTP/2 sessions still open after close`);
    },
  };
}

async function* recordRequests(requests: AsyncIterable<ClientMessage>, seen: SeenStream, onMessage: () => void): AsyncIterable<ClientMessage> {
  for await (const m of requests) {
    seen.messages.push(m);
    onMessage();
    yield m;
  }
}

/**
 * Turns a behaviour description into a service implementation. Converse reads one
 * message and answers with `converse(first)`'s frames, for the text probe, the empty-input
 * probe and the duplex probe alike (the description decides by looking at `first`).
 */
export function fixtureImpl(b: FixtureBehaviour): RuntimeImpl {
  const impl: RuntimeImpl = {};
  const health = b.health;
  if (health !== undefined) {
    impl.health = () => health;
  }
  const converse = b.converse;
  if (converse !== undefined) {
    impl.converse = async function* (requests, ctx): AsyncIterable<MessageInitShape<typeof ServerMessageSchema>> {
      const it = requests[Symbol.asyncIterator]();
      const first = await it.next();
      for await (const message of converse(first.done ? undefined : first.value, ctx)) yield { message };
    };
  }
  const invoke = b.invoke;
  if (invoke !== undefined) {
    impl.invoke = async (req, ctx) => ({ ...(await invoke(ctx)), invocationId: req.invocationId });
  }
  return impl;
}

/** Waits until the call's signal fires (the client cancelled), then ends. */
export function untilCancelled(ctx: HandlerContext): Promise<void> {
  return new Promise((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
