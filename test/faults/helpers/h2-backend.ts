// A loopback HTTP/2 backend on node:http2 that speaks just enough gRPC for the
// faults serveToolService cannot produce: a socket reset mid-message, a message
// that never ends, a trickle, an HTTP 503 from a proxy, a ToolResponse whose
// string is not UTF-8. close() destroys every session and socket and waits.
import * as http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { ToolResponseSchema } from "../../../src/grpc/index.js";

export type StreamHandler = (stream: http2.ServerHttp2Stream, index: number) => void;

export interface H2Backend {
  readonly port: number;
  /** `127.0.0.1:<port>`, a grpcConfig.endpoint. */
  readonly endpoint: string;
  /** Streams (calls) received so far. */
  streams(): number;
  close(): Promise<void>;
}

/** Response headers of a gRPC call that is going well. */
export const GRPC_OK_HEADERS = { ":status": 200, "content-type": "application/grpc" } as const;

/** A gRPC length-prefixed message (uncompressed). */
export function grpcFrame(payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** A ToolResponse as protobuf bytes. */
export function toolResponseBytes(fields: { resultJson?: string; isError?: boolean; errorMessage?: string }): Uint8Array {
  return toBinary(ToolResponseSchema, create(ToolResponseSchema, fields));
}

/** A ToolResponse whose result_json (field 1) holds `bytes` as they are, valid UTF-8 or not. */
export function rawResultJsonBytes(bytes: Uint8Array): Buffer {
  const length: number[] = [];
  let n = bytes.length;
  while (n > 127) {
    length.push((n & 127) | 128);
    n >>>= 7;
  }
  length.push(n);
  return Buffer.concat([Buffer.from([0x0a, ...length]), bytes]);
}

/** Answers a stream with one message and `grpc-status: 0`. */
export function answer(stream: http2.ServerHttp2Stream, payload: Uint8Array): void {
  stream.respond(GRPC_OK_HEADERS, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
  stream.end(grpcFrame(payload));
}

export async function startH2Backend(handler: StreamHandler): Promise<H2Backend> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<Socket>();
  let count = 0;
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
    s.on("error", () => {});
  });
  server.on("session", (s) => {
    sessions.add(s);
    s.once("close", () => sessions.delete(s));
    s.on("error", () => {});
  });
  server.on("stream", (stream) => {
    // The client cancels or the socket is reset as part of the fault.
    stream.on("error", () => {});
    handler(stream, count++);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    endpoint: `127.0.0.1:${port}`,
    streams: () => count,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const open = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
      for (const s of sessions) s.destroy();
      for (const s of sockets) s.destroy();
      await Promise.all(open);
      await closed;
    },
  };
}
