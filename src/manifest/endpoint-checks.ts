// Endpoints with which every call would fail, refused at load: a URL whose scheme
// is not http or https (Go's client answers `unsupported protocol scheme`), and a
// port above 65535 (no dial can succeed). A scheme is what `url.Parse` reads as
// one: letters, digits, `+`, `-` and `.` before the first `:`, with or without
// `//` (`data:`, `javascript:` and `mailto:` are schemes too). An `httpConfig.urlTemplate`
// is checked the same way up to its first placeholder. An endpoint without a
// scheme is left to the other checks.
import type { IssueSink, PathSegment } from "./issues.js";
import { isPlainObject } from "./json.js";

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** `scheme://[userinfo@]host:port` → the port text; IPv6 literals in brackets. */
const URL_PORT = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:[\]]*):(\d+)(?:[/?#]|$)/;
/** gRPC `host:port` (or `[v6]:port`) → the port text. */
const HOST_PORT = /:(\d+)$/;

function checkUrl(value: unknown, path: readonly PathSegment[], sink: IssueSink): void {
  if (typeof value !== "string") return;
  const scheme = SCHEME.exec(value)?.[1];
  if (scheme === undefined) return;
  const lower = scheme.toLowerCase();
  if (lower !== "http" && lower !== "https") {
    sink.error(path, `unsupported protocol scheme ${JSON.stringify(scheme)}: expected http or https; got ${JSON.stringify(shown(value))}`);
    return;
  }
  if (value.includes("{")) return;
  const port = URL_PORT.exec(value)?.[1];
  if (port !== undefined && Number(port) > 65535) sink.error(path, `invalid port ${JSON.stringify(`:${port}`)} after host: ports end at 65535`);
}

/** The value as the issue quotes it: at most 200 characters (a `data:` URL may be megabytes), then `...`. */
function shown(value: string): string {
  return value.length <= 200 ? value : `${value.slice(0, 200)}...`;
}

/** Checks the endpoints of one raw handler of a known type (its block already checked to be an object or not). */
export function checkEndpoints(h: Record<string, unknown>, type: string, at: (...rest: PathSegment[]) => PathSegment[], sink: IssueSink): void {
  if (type === "http" && isPlainObject(h.httpConfig)) {
    checkUrl(h.httpConfig.endpoint, at("httpConfig", "endpoint"), sink);
    checkUrl(h.httpConfig.urlTemplate, at("httpConfig", "urlTemplate"), sink);
  }
  if (type === "mcp" && isPlainObject(h.mcpConfig) && (h.mcpConfig.transport === "sse" || h.mcpConfig.transport === "streamable-http")) checkUrl(h.mcpConfig.endpoint, at("mcpConfig", "endpoint"), sink);
  if (type === "openapi" && isPlainObject(h.openAPIConfig)) {
    checkUrl(h.openAPIConfig.specURL, at("openAPIConfig", "specURL"), sink);
    checkUrl(h.openAPIConfig.baseURL, at("openAPIConfig", "baseURL"), sink);
  }
  if (type === "grpc" && isPlainObject(h.grpcConfig) && typeof h.grpcConfig.endpoint === "string") {
    const port = HOST_PORT.exec(h.grpcConfig.endpoint)?.[1];
    if (port !== undefined && Number(port) > 65535) {
      sink.error(at("grpcConfig", "endpoint"), `invalid port ${JSON.stringify(`:${port}`)} after host: ports end at 65535`);
    }
  }
}
