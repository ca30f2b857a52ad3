import type * as Undici from "undici";
import { droppedCrossOrigin, MAX_REDIRECTS } from "../headers/index.js";

type Fetch = typeof Undici.fetch;
type FetchInit = NonNullable<Parameters<Fetch>[1]>;
type FetchResponse = Awaited<ReturnType<Fetch>>;

/**
 * One MCP HTTP request that leaves redirects to the fetch (the MCP SDK's own
 * requests ask for `redirect: "manual"` and follow only within the origin), with the redirect rule every request the library sends
 * on a handler's behalf follows (the tool-call transport's): at most 10 hops;
 * 301, 302 and 303 become a GET without a body (HEAD stays HEAD), 307 and 308
 * resend the method and body; a hop to another origin (scheme, host or port)
 * drops every name in `sensitive` (the handler's credentials and injected
 * headers), `Authorization`, `Cookie`, every `x-omnia-*` header and the trace
 * context, for the rest of the chain; a 307/308 that would resend a body to
 * another origin, a `Location` that is not an http(s) URL, and the 11th
 * redirect are not followed: that redirect is the answer, which the MCP SDK
 * reports as an HTTP error. undici's own `redirect: "follow"` would carry every
 * custom-named credential header to any host.
 * @internal Does not follow semver.
 */
export async function fetchFollowingRedirects(fetch: Fetch, url: string | URL, init: FetchInit & { headers: Record<string, string> }, sensitive: ReadonlySet<string>): Promise<FetchResponse> {
  let current = new URL(url);
  let method = (init.method ?? "GET").toUpperCase();
  let body: FetchInit["body"] | undefined = init.body;
  let headers = init.headers;
  for (let hops = 0; ; hops++) {
    const hop: FetchInit = { ...init, method, headers, redirect: "manual" };
    if (body === undefined) delete hop.body;
    else hop.body = body;
    const response = await fetch(current, hop);
    const status = response.status;
    if (status !== 301 && status !== 302 && status !== 303 && status !== 307 && status !== 308) return response;
    const location = response.headers.get("location");
    if (location === null || hops >= MAX_REDIRECTS) return response;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return response;
    }
    if (next.protocol !== "http:" && next.protocol !== "https:") return response;
    const crossOrigin = next.origin !== current.origin;
    const resendsBody = (status === 307 || status === 308) && body !== undefined && body !== null;
    if (crossOrigin && resendsBody) return response;
    await response.body?.cancel().catch(() => {});
    if (status <= 303 && method !== "HEAD") {
      method = "GET";
      body = undefined;
      headers = without(headers, (name) => name === "content-type" || name === "content-length");
    }
    if (crossOrigin) headers = without(headers, (name) => droppedCrossOrigin(name) || sensitive.has(name));
    current = next;
  }
}

function without(headers: Record<string, string>, drop: (lowerName: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!drop(name.toLowerCase())) out[name] = value;
  return out;
}
