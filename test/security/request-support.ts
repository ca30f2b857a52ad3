// Shared by the request-shaping security tests (issue #19): a TCP listener on
// another loopback address that counts every connection it is offered, to
// prove that a request went nowhere else. 127.0.0.2 is loopback on Linux.
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface ElsewhereListener {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far (a request that reached it would open one). */
  connections(): number;
  close(): Promise<void>;
}

/** A listener on `host` (default 127.0.0.2) that accepts and counts connections, then destroys them. */
export async function startElsewhereListener(host = "127.0.0.2"): Promise<ElsewhereListener> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    host,
    port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
