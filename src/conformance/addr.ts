import { InvalidOptionError } from "../core/index.js";

const HOST_PORT = /^(\[[0-9A-Fa-f:.]+(?:%[^\]\s]+)?\]|[^\s:/?#@[\]]+):(\d{1,5})$/;

/**
 * Turns a runtime address `host:port` (a hostname, an IPv4 address or a bracketed
 * IPv6 address, and a port from 1 to 65535) into the base URL of a plaintext
 * HTTP/2 (h2c) gRPC connection: `http://host:port`.
 *
 * Go's `grpc.NewClient` accepts almost any target and fails later, at the first
 * RPC; this port checks the shape up front, so a typo is a usage error (CLI exit 2)
 * rather than a failed Health check.
 *
 * @param addr - the address, e.g. `127.0.0.1:9000`, `localhost:9000`, `[::1]:9000`
 * @param where - the prefix of the error message
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) `<where>: addr must be host:port; got "<addr>"`
 * @internal Does not follow semver.
 */
export function runtimeBaseUrl(addr: string, where: string): string {
  const m = HOST_PORT.exec(addr);
  const port = Number(m?.[2]);
  let url: URL | undefined;
  if (m !== null && port >= 1 && port <= 65535) {
    try {
      url = new URL(`http://${addr}`);
    } catch {
      url = undefined;
    }
  }
  if (url === undefined || url.pathname !== "/" || url.username !== "" || url.search !== "" || url.hash !== "") {
    throw new InvalidOptionError(`${where}: addr must be host:port; got ${JSON.stringify(addr)}`);
  }
  return `http://${addr}`;
}
