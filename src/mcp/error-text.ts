// How the SDK's and undici's failures are read: their codes, their text and whether the session survives them.
import { AbortedError, maskValues, nodeErrorText, OmniaToolsError, toError } from "../core/index.js";
import type { McpSdk } from "./sdk.js";

/**
 * A result a live server answered that the client cannot use (revision
 * 2026-07-28's `input_required`, an unknown `resultType`, a shape that does not
 * parse): the session is fine, as after a JSON-RPC error.
 */
export class McpResultShapeError extends Error {
  override readonly name = "McpResultShapeError";
}

/**
 * A JSON-RPC error answered by a live server, or a result that did not parse: the session is fine. The SDK
 * reports a closed connection with code -32000 and its own request timeout with -32001, codes of JSON-RPC's
 * server-error range that a server may answer with too. With `sessionLive` (the transport had not closed when
 * the request failed: the SDK ends the session before it fails the requests a closed connection leaves; the
 * SDK's own timeout is off, and a call's abort is read before this) any JSON-RPC error is the server's answer.
 */
export function isProtocolError(error: unknown, sdk: McpSdk, sessionLive: boolean): boolean {
  const code = rpcCodeOf(error, sdk);
  if (code !== undefined) return sessionLive || (code !== sdk.ErrorCode.ConnectionClosed && code !== sdk.ErrorCode.RequestTimeout);
  return error instanceof McpResultShapeError || (error as { name?: unknown } | null)?.name === "ZodError";
}

export function rpcCodeOf(error: unknown, sdk: McpSdk): number | undefined {
  return error instanceof sdk.McpError ? error.code : undefined;
}

export function httpStatusOf(error: unknown, sdk: McpSdk): number | undefined {
  if (error instanceof sdk.StreamableHTTPError) return typeof error.code === "number" && error.code > 0 ? error.code : undefined;
  if (!(error instanceof Error)) return undefined;
  // SSEClientTransport throws a plain Error: `Error POSTing to endpoint (HTTP <status>): <body>`.
  const match = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error.message);
  return match === null ? undefined : Number(match[1]);
}

export function causeCodeOf(error: unknown): string | undefined {
  const found = chainCode(error);
  if (found !== undefined) return found;
  // SSEClientTransport reports a failed event stream with the cause only in its text.
  const match = error instanceof Error ? /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(error.message) : null;
  return match?.[1];
}

export function chainCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) current = errors[0];
    else current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An error's message followed by its causes' (`fetch failed: connect ECONNREFUSED 127.0.0.1:9`). */
export function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const e = toError(current);
    let text = nodeErrorText(e.message);
    const errors = (e as { errors?: unknown }).errors;
    if (text === "" && Array.isArray(errors) && errors.length > 0) text = toError(errors[0]).message;
    if (text !== "" && !parts.some((p) => p.includes(text))) parts.push(text);
    current = e.cause;
  }
  return parts.join(": ") || String(error);
}

export function abortReason(signal: AbortSignal, handlerName: string): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof OmniaToolsError) return reason;
  return new AbortedError(`mcp handler ${JSON.stringify(handlerName)}: the caller's signal aborted`, { cause: reason });
}

/** The shortest endpoint value hidden by {@link redactEndpoint}: shorter ones would mask ordinary words of a text. */
const MIN_SECRET_CHARS = 3;

/**
 * A text with the MCP endpoint's own secrets as `***`: its userinfo (user and
 * password) and its query values, raw or percent-decoded, wherever they appear
 * (undici and the SDK repeat the URL in their errors: `Request cannot be
 * constructed from a URL that includes credentials: http://user:pass@…`).
 * Values shorter than 3 characters are left. Linear in the text per value; the
 * values are the manifest's.
 * @internal Does not follow semver.
 */
export function redactEndpoint(text: string, url: URL | undefined): string {
  if (url === undefined || (url.username === "" && url.password === "" && url.search === "")) return text;
  const values = new Set<string>();
  const add = (raw: string): void => {
    for (const v of [raw, safeDecode(raw)]) if (v.length >= MIN_SECRET_CHARS) values.add(v);
  };
  add(url.username);
  add(url.password);
  for (const pair of url.search.slice(1).split("&")) {
    const eq = pair.indexOf("=");
    if (eq >= 0) add(pair.slice(eq + 1).replace(/\+/g, " "));
  }
  return maskValues(text, values);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
