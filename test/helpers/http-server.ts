// A real node:http server on 127.0.0.1:0 that records every request it gets.
// close() ends every connection and checks that none is left.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";

export interface RecordedRequest {
  readonly method: string;
  /** Path and query exactly as requested. */
  readonly url: string;
  /** Raw header pairs as received: [name, value] with the name's wire case. */
  readonly rawHeaders: readonly (readonly [string, string])[];
  /** Lower-cased header map (node's). */
  readonly headers: IncomingMessage["headers"];
  readonly body: Buffer;
}

export type Handler = (req: IncomingMessage & { bodyBytes: Buffer }, res: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Replaces the handler. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startHttpServer(handler: Handler = (_q, res) => void res.end("{}")): Promise<TestServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const rawHeaders: [string, string][] = [];
      // rawHeaders values are latin1-decoded by node: re-read them as UTF-8 bytes.
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        rawHeaders.push([req.rawHeaders[i] as string, Buffer.from(req.rawHeaders[i + 1] as string, "latin1").toString("utf8")]);
      }
      const index = requests.length;
      requests.push({ method: req.method ?? "", url: req.url ?? "", rawHeaders, headers: req.headers, body });
      Promise.resolve(current(Object.assign(req, { bodyBytes: body }), res, index)).catch((e: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  let closingDown = false;
  server.on("connection", (s: Socket) => {
    if (closingDown) return void s.destroy();
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    handle(h) {
      current = h;
    },
    async close() {
      closingDown = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      while (sockets.size > 0) {
        // A socket still in the set has not emitted "close" yet (the listener that removes it runs on that event).
        const closing = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
        await Promise.all(closing);
      }
      await closed;
      const open = await new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
      if (sockets.size !== 0 || open !== 0) throw new Error(`test server ${port}: ${Math.max(open, sockets.size)} connections still open after close (sockets ${sockets.size}, server count ${open})`);
    },
  };
}

/** Fails the test on any unhandled rejection while `fn` runs. */
export async function withoutUnhandledRejections<T>(fn: () => Promise<T>): Promise<T> {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  try {
    const out = await fn();
    await new Promise((resolve) => setImmediate(resolve));
    if (seen.length > 0) throw new Error(`unhandled rejection: ${String(seen[0])}`);
    return out;
  } finally {
    process.off("unhandledRejection", onRejection);
  }
}

/**
 * A registry with one http handler `h` serving tool `t` at `endpoint`: `httpExtra` is YAML
 * under `httpConfig` (indented 6), `handlerExtra` under the handler (indented 4).
 */
export function oneHttpToolRegistry(endpoint: string, httpExtra = "", handlerExtra = ""): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${endpoint}
${httpExtra}
${handlerExtra}
`);
}
