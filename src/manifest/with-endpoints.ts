// Points a loaded registry's handlers at other servers (a test harness's
// loopback backends) without editing the manifest text: the handler keeps
// everything else — tool, auth, headers, retries, timeouts — so the calls a
// test makes are the calls production would make, to another host.
import { InvalidOptionError } from "../core/index.js";
import { rebuildToolRegistry } from "./load-tool-registry.js";
import type { HandlerConfig, ToolRegistry } from "./types.js";

/**
 * A registry whose named handlers point at the given URLs; every other field
 * of every handler is kept, and so are the registry's name, namespace, probe
 * and warnings. By handler type:
 * - `http`: the URL's origin replaces the origin of `endpoint`; a URL with a
 *   path (other than `/`) or a query replaces the whole `endpoint`. So
 *   `startHttpToolBackend(...).url` keeps each handler's own path. A
 *   `urlTemplate` gets the URL's origin only (its placeholders are in its path).
 * - `grpc`: `endpoint` becomes the URL's `host:port` (`http://127.0.0.1:5050`
 *   and `127.0.0.1:5050` are the same; `https:` is taken as given, the
 *   handler's `tls` settings decide).
 * - `mcp` (`sse`, `streamable-http`): `endpoint` becomes the URL, whole.
 * - `openapi`: as `http` for `specURL` (origin, or the whole URL when it has a
 *   path); a `baseURL` gets the URL's origin.
 * @throws InvalidOptionError for a name the registry has no handler of, a
 *   `client` or stdio `mcp` handler (nothing to point), or a URL that is not
 *   `http:` or `https:`
 * @public
 */
export function withEndpoints(registry: ToolRegistry, endpoints: Readonly<Record<string, string>>): ToolRegistry {
  if (registry === null || typeof registry !== "object" || typeof registry.getHandler !== "function") {
    throw new InvalidOptionError("withEndpoints: registry must be a ToolRegistry from loadToolRegistry()");
  }
  if (endpoints === null || typeof endpoints !== "object" || Array.isArray(endpoints)) {
    throw new InvalidOptionError(`withEndpoints: endpoints must be an object of URLs by handler name; got ${endpoints === null ? "null" : Array.isArray(endpoints) ? "an array" : typeof endpoints}`);
  }
  const wanted = new Map<string, URL>();
  for (const [name, value] of Object.entries(endpoints)) {
    if (registry.getHandler(name) === undefined) {
      throw new InvalidOptionError(`withEndpoints: the registry has no handler ${JSON.stringify(name)}; its handlers are ${registry.handlers.map((h) => JSON.stringify(h.name)).join(", ") || "(none)"}`);
    }
    wanted.set(name, parseUrl(name, value));
  }
  return rebuildToolRegistry(
    registry,
    registry.handlers.map((h) => {
      const url = wanted.get(h.name);
      return url === undefined ? h : pointed(h, url);
    }),
  );
}

function parseUrl(name: string, value: unknown): URL {
  if (typeof value !== "string") throw new InvalidOptionError(`withEndpoints: the URL of ${JSON.stringify(name)} must be a string; got ${value === null ? "null" : typeof value}`);
  // A gRPC backend's bare host:port is accepted as http.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidOptionError(`withEndpoints: the URL of ${JSON.stringify(name)} is not a URL; got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidOptionError(`withEndpoints: the URL of ${JSON.stringify(name)} must be http or https; got ${JSON.stringify(url.protocol)}`);
  }
  return url;
}

/** Whether a URL names a path beyond its origin. */
function hasPath(url: URL): boolean {
  return url.pathname !== "/" || url.search !== "";
}

/** `target` with its origin replaced by `url`'s; text without a `scheme://host` prefix is returned as is. */
function withOrigin(target: string, url: URL): string {
  const start = target.indexOf("://");
  if (start < 0) return target;
  const slash = target.indexOf("/", start + 3);
  return `${url.origin}${slash < 0 ? "" : target.slice(slash)}`;
}

function pointed(h: HandlerConfig, url: URL): HandlerConfig {
  switch (h.type) {
    case "http": {
      const endpoint = hasPath(url) ? url.href : withOrigin(h.httpConfig.endpoint, url);
      // A template keeps its own path: its placeholders live there.
      const urlTemplate = h.httpConfig.urlTemplate === undefined ? undefined : withOrigin(h.httpConfig.urlTemplate, url);
      const httpConfig = Object.freeze({ ...h.httpConfig, endpoint, ...(urlTemplate === undefined ? {} : { urlTemplate }) });
      return Object.freeze({ ...h, endpoint, httpConfig });
    }
    case "grpc": {
      const endpoint = url.host;
      return Object.freeze({ ...h, endpoint, grpcConfig: Object.freeze({ ...h.grpcConfig, endpoint }) });
    }
    case "mcp": {
      if (h.mcpConfig.transport === "stdio") throw new InvalidOptionError(`withEndpoints: handler ${JSON.stringify(h.name)} is a stdio MCP server; it has no endpoint to point elsewhere`);
      const endpoint = url.href;
      return Object.freeze({ ...h, endpoint, mcpConfig: Object.freeze({ ...h.mcpConfig, endpoint }) });
    }
    case "openapi": {
      const specURL = hasPath(url) ? url.href : withOrigin(h.openAPIConfig.specURL, url);
      const baseURL = h.openAPIConfig.baseURL === undefined ? undefined : withOrigin(h.openAPIConfig.baseURL, url);
      const openAPIConfig = Object.freeze({ ...h.openAPIConfig, specURL, ...(baseURL === undefined ? {} : { baseURL }) });
      return Object.freeze({ ...h, endpoint: specURL, openAPIConfig });
    }
    case "client":
      throw new InvalidOptionError(`withEndpoints: handler ${JSON.stringify(h.name)} is a client handler; the client runs its tool, there is no endpoint`);
  }
}
