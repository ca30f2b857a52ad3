import { goQuote } from "../core/index.js";

/**
 * Why Go's `url.Parse` refuses `location`, as its error text
 * (`parse "<url>": <reason>`), or `undefined` when Go accepts it. Go's client
 * reports a redirect it cannot follow as
 * `failed to parse Location header "<loc>": <this text>` (client.go).
 *
 * The checks are Go's, in Go's order: a control byte, a scheme starting with
 * `:`, a colon in the first segment of a relative path, the authority's
 * userinfo, `[`…`]`, port and host characters, and every `%` escape of the host,
 * path and fragment. The query is not checked (Go keeps it raw).
 * @internal Does not follow semver.
 */
export function goLocationError(location: string): string | undefined {
  const hash = location.indexOf("#");
  const main = hash < 0 ? location : location.slice(0, hash);
  const reason = parseError(main);
  if (reason !== undefined) return `parse ${goQuote(main)}: ${reason}`;
  if (hash >= 0) {
    const bad = badEscape(location.slice(hash + 1));
    if (bad !== undefined) return `parse ${goQuote(location)}: invalid URL escape ${goQuote(bad)}`;
  }
  return undefined;
}

function parseError(raw: string): string | undefined {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return "net/url: invalid control character in URL";
  }
  let rest = raw;
  let scheme = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ":") {
      if (i === 0) return "missing protocol scheme";
      scheme = raw.slice(0, i);
      rest = raw.slice(i + 1);
    }
    break;
  }
  const query = rest.indexOf("?");
  if (query >= 0) rest = rest.slice(0, query);
  if (!rest.startsWith("/")) {
    if (scheme !== "") return undefined; // opaque: Go keeps it as is
    const slash = rest.indexOf("/");
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment.includes(":")) return "first path segment in URL cannot contain colon";
  }
  if ((scheme !== "" || !rest.startsWith("///")) && rest.startsWith("//")) {
    const end = rest.indexOf("/", 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? "" : rest.slice(end);
    const reason = authorityError(authority);
    if (reason !== undefined) return reason;
  }
  const bad = badEscape(rest);
  return bad === undefined ? undefined : `invalid URL escape ${goQuote(bad)}`;
}

function authorityError(authority: string): string | undefined {
  const at = authority.lastIndexOf("@");
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:%@]*$/.test(userinfo)) return "net/url: invalid userinfo";
    const bad = badEscape(userinfo);
    if (bad !== undefined) return `invalid URL escape ${goQuote(bad)}`;
  }
  let host = authority.slice(at + 1);
  if (host.startsWith("[")) {
    const close = host.lastIndexOf("]");
    if (close < 0) return "missing ']' in host";
    const port = host.slice(close + 1);
    if (!validOptionalPort(port)) return `invalid port ${goQuote(port)} after host`;
    host = host.slice(1, close);
  } else {
    const colon = host.lastIndexOf(":");
    if (colon >= 0) {
      const port = host.slice(colon);
      if (!validOptionalPort(port)) return `invalid port ${goQuote(port)} after host`;
      host = host.slice(0, colon);
    }
  }
  for (let i = 0; i < host.length; i++) {
    const c = host[i] as string;
    if (c === "%") {
      const escape = host.slice(i, i + 3);
      if (!/^%[0-9a-fA-F]{2}$/.test(escape)) return `invalid URL escape ${goQuote(escape)}`;
      // Go's host unescaping takes only escapes of bytes >= 0x80 (and %25).
      if (Number.parseInt(escape.slice(1, 2), 16) < 8 && escape !== "%25") return `invalid URL escape ${goQuote(escape)}`;
      i += 2;
    } else if (c.charCodeAt(0) < 0x80 && !/[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/.test(c)) {
      return `invalid character ${goQuote(c)} in host name`;
    }
  }
  return undefined;
}

function validOptionalPort(port: string): boolean {
  return port === "" || /^:[0-9]*$/.test(port);
}

/** The first `%` escape that is not `%` and two hex digits (at most 3 characters, as Go quotes it). */
function badEscape(text: string): string | undefined {
  for (let i = text.indexOf("%"); i >= 0; i = text.indexOf("%", i + 3)) {
    const escape = text.slice(i, i + 3);
    if (!/^%[0-9a-fA-F]{2}$/.test(escape)) return escape;
  }
  return undefined;
}
