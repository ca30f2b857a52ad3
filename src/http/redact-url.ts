// The URL as model-visible error texts show it: no credential of the handler's
// own configuration survives into an outcome or a record.

const SCHEME_AUTHORITY = /^([A-Za-z][A-Za-z0-9+.-]*:[/\\]*)([^/\\?#]*)/;

/**
 * A URL's text with its secrets shown as `***`:
 * - the userinfo: the user and the password (`http://***:***@host/`, or
 *   `http://***@host/` with no password); Go's client hides only the password
 *   (`user:***@`), the user name is often a credential too (an API key);
 * - the value of every query parameter named in `secretQueryKeys` (the
 *   handler's `staticQuery` keys and the endpoint's own query keys), the key
 *   itself kept: `?api_key=***&q=cats`. A key is compared after decoding
 *   (`+` as space, `%XX`).
 *
 * Works on the text, so it also redacts a URL that does not parse. Linear in
 * the URL's length.
 * @internal Does not follow semver.
 */
export function redactUrl(url: string, secretQueryKeys?: readonly string[]): string {
  let out = url;
  const head = SCHEME_AUTHORITY.exec(url);
  if (head !== null) {
    const authority = head[2] as string;
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      const colon = userinfo.indexOf(":");
      const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
      const hidden = `${user === "" ? "" : "***"}${colon < 0 ? "" : ":***"}`;
      out = `${head[1]}${hidden}${authority.slice(at)}${url.slice(head[0].length)}`;
    }
  }
  if (secretQueryKeys === undefined || secretQueryKeys.length === 0) return out;
  const q = out.indexOf("?");
  if (q < 0) return out;
  const hash = out.indexOf("#", q);
  const query = hash < 0 ? out.slice(q + 1) : out.slice(q + 1, hash);
  const secret = new Set(secretQueryKeys);
  const pairs = query.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    return secret.has(decodeQueryComponent(rawKey)) && eq >= 0 ? `${rawKey}=***` : pair;
  });
  return `${out.slice(0, q + 1)}${pairs.join("&")}${hash < 0 ? "" : out.slice(hash)}`;
}

function decodeQueryComponent(text: string): string {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
