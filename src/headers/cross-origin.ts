/**
 * Header names (lower case) that never follow a redirect to another origin,
 * whatever the caller passes: the credentials Go's client strips
 * (`Authorization`, `Www-Authenticate`, `Cookie`, `Cookie2`), plus
 * `Proxy-Authorization` and Omnia's `x-omnia-delegation` token.
 * @internal Does not follow semver.
 */
export const ALWAYS_SENSITIVE_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization", "www-authenticate", "cookie", "cookie2", "x-omnia-delegation"]);

const TRACE_CONTEXT_HEADERS: ReadonlySet<string> = new Set(["traceparent", "tracestate", "baggage"]);

/** Redirects followed before a request stops, as Go's default client. */
export const MAX_REDIRECTS = 10;

/**
 * The headers no hop to another origin carries, whatever the caller says: the
 * credentials of {@link ALWAYS_SENSITIVE_HEADERS}, every `x-omnia-*` header (the
 * caller's identity and claims, the model's `x-omnia-param-*` values, the
 * delegation token) and the trace context (`traceparent`, `tracestate`,
 * `baggage`, which may carry tenant or user data). Takes a lower-case name.
 * @internal Does not follow semver.
 */
export function droppedCrossOrigin(name: string): boolean {
  return ALWAYS_SENSITIVE_HEADERS.has(name) || name.startsWith("x-omnia-") || TRACE_CONTEXT_HEADERS.has(name);
}
