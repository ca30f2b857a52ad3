// A loopback HTTP/1.1 backend written on node:net, so that a test decides every
// byte and every socket event: reset before the headers, reset mid-body,
// headers that never come, a trickle, a header block too large. node:http
// would answer or buffer on its own; here nothing is sent unless the test says so.
// close() destroys every connection and waits until each has closed.
import { createServer, type AddressInfo, type Socket } from "node:net";

/** One request as it arrived: the head as text, the body as bytes, and the raw wire bytes of both. */
export interface RawRequest {
  /** Request line and header lines, CRLF-separated, without the blank line. */
  readonly head: string;
  readonly body: Buffer;
  /** Exactly the bytes the client sent for this request. */
  readonly wire: Buffer;
}

/** Decides what one request gets. `index` counts requests across connections, from 0. */
export type RawHandler = (socket: Socket, request: RawRequest, index: number) => void;

export interface RawHttpBackend {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RawRequest[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A complete HTTP/1.1 response as bytes. `content-length` is added unless given. */
export function httpResponse(status: number, body: string | Buffer = "", headers: Record<string, string> = {}): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const all = { "content-length": String(bytes.length), ...headers };
  const head = `HTTP/1.1 ${status} X\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), bytes]);
}

/**
 * Starts the backend on 127.0.0.1:0. Requests on a kept-alive connection are
 * parsed one after another (Content-Length bodies only: undici sends no other kind here).
 */
export async function startRawHttpBackend(handler: RawHandler): Promise<RawHttpBackend> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // The client resets or aborts as part of the fault: that is not the server's error.
    socket.on("error", () => {});
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = pending.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? "0");
        const total = end + 4 + length;
        if (pending.length < total) return;
        const wire = pending.subarray(0, total);
        pending = pending.subarray(total);
        const request: RawRequest = { head, body: wire.subarray(end + 4), wire };
        requests.push(request);
        handler(socket, request, requests.length - 1);
        if (socket.destroyed) return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => accepted,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const open = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
      for (const s of sockets) s.destroy();
      await Promise.all(open);
      await closed;
    },
  };
}
