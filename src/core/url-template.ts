/**
 * Where a part of a URL template stands.
 * @internal Does not follow semver.
 */
export type UrlTemplateField = "scheme" | "userinfo" | "host" | "port" | "path" | "query" | "fragment";

/**
 * One `{name}` of a URL template: `name` is the text between the braces (no
 * `{` or `}` inside); `start` is the index of `{`, `end` the index after `}`.
 * @internal Does not follow semver.
 */
export interface UrlTemplatePlaceholder {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  /** The part of the URL the `{` stands in. */
  readonly field: UrlTemplateField;
}

/**
 * The layout of a URL template, read once: where its path starts and every
 * placeholder it declares.
 * @internal Does not follow semver.
 */
export interface UrlTemplateLayout {
  /** Index where the path starts: the scheme and authority are the text before it. */
  readonly pathStart: number;
  /** The scheme is one the WHATWG URL parser treats as special (http, https, …): `\` separates path segments too. */
  readonly special: boolean;
  /** Every placeholder, in order. */
  readonly placeholders: readonly UrlTemplatePlaceholder[];
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const SPECIAL_SCHEMES: ReadonlySet<string> = new Set(["http", "https", "ws", "wss", "ftp", "file"]);

/**
 * Reads a URL template's layout the way the WHATWG URL parser will read the
 * URL built from it: the scheme up to the first `:` (when no `/`, `?` or `#`
 * comes first), then for a special scheme (http, https, …) the authority after
 * any run of `/` and `\` (after `//` for another scheme), up to the first `/`,
 * `\`, `?` or `#`; within it the userinfo up to the last `@` and the port after
 * the last `:` outside `[...]`. The path follows, then the query from the first
 * `?`, then the fragment from the first `#`. A placeholder is a `{`, then text
 * without braces, then `}`; it belongs to the field its `{` stands in.
 *
 * Linear in the template's length.
 * @internal Does not follow semver.
 */
export function urlTemplateLayout(template: string): UrlTemplateLayout {
  let schemeEnd = -1; // index of the scheme's ':'
  let authorityStart = -1;
  let pathStart = 0;
  let special = false;
  const scheme = SCHEME.exec(template);
  const firstColon = template.indexOf(":");
  const firstDelimiter = firstIndexOf(template, "/?#", 0);
  if (scheme !== null) {
    schemeEnd = scheme[0].length - 1;
    special = SPECIAL_SCHEMES.has(scheme[0].slice(0, -1).toLowerCase());
    let at = schemeEnd + 1;
    if (special) {
      while (template[at] === "/" || template[at] === "\\") at++;
      authorityStart = at;
    } else if (template.startsWith("//", at)) authorityStart = at + 2;
    if (authorityStart >= 0) {
      const end = firstIndexOf(template, special ? "/\\?#" : "/?#", authorityStart);
      pathStart = end < 0 ? template.length : end;
    } else pathStart = at;
  } else if (firstColon >= 0 && (firstDelimiter < 0 || firstColon < firstDelimiter)) {
    // Not a valid scheme (it holds a placeholder or another character): all of it counts as the scheme.
    schemeEnd = firstColon;
    pathStart = firstColon + 1;
  }
  const queryStart = template.indexOf("?", pathStart);
  const hashStart = template.indexOf("#", pathStart);
  const fragmentStart = hashStart;
  const queryAt = queryStart >= 0 && (fragmentStart < 0 || queryStart < fragmentStart) ? queryStart : -1;

  let lastAt = -1;
  let portColon = -1;
  if (authorityStart >= 0) {
    lastAt = template.lastIndexOf("@", pathStart - 1);
    if (lastAt < authorityStart) lastAt = -1;
    const hostStart = lastAt >= 0 ? lastAt + 1 : authorityStart;
    let inBrackets = false;
    for (let i = hostStart; i < pathStart; i++) {
      const c = template[i];
      if (c === "[") inBrackets = true;
      else if (c === "]") inBrackets = false;
      else if (c === ":" && !inBrackets) portColon = i;
    }
  }

  const fieldAt = (i: number): UrlTemplateField => {
    if (i <= schemeEnd) return "scheme";
    if (i < pathStart) {
      if (authorityStart < 0 || i < authorityStart) return "scheme";
      if (lastAt >= 0 && i < lastAt) return "userinfo";
      if (portColon >= 0 && i > portColon) return "port";
      return "host";
    }
    if (fragmentStart >= 0 && i > fragmentStart) return "fragment";
    if (queryAt >= 0 && i > queryAt) return "query";
    return "path";
  };

  return { pathStart, special, placeholders: scanPlaceholders(template, fieldAt) };
}

/**
 * The layout of a path template such as an OpenAPI operation's
 * `/users/{id}/posts`: all of it is path (up to a `?` or `#`), `/` and `\`
 * separate segments.
 * @internal Does not follow semver.
 */
export function pathTemplateLayout(path: string): UrlTemplateLayout {
  const hash = path.indexOf("#");
  const query = path.indexOf("?");
  const fieldAt = (i: number): UrlTemplateField => {
    if (hash >= 0 && i > hash) return "fragment";
    if (query >= 0 && i > query && (hash < 0 || query < hash)) return "query";
    return "path";
  };
  return { pathStart: 0, special: true, placeholders: scanPlaceholders(path, fieldAt) };
}

function scanPlaceholders(template: string, fieldAt: (i: number) => UrlTemplateField): UrlTemplatePlaceholder[] {
  const placeholders: UrlTemplatePlaceholder[] = [];
  for (let open = template.indexOf("{"); open >= 0; ) {
    const close = firstIndexOf(template, "{}", open + 1);
    if (close < 0) break;
    if (template[close] === "{") {
      open = close; // "{{x}": the first brace is text
      continue;
    }
    placeholders.push({ name: template.slice(open + 1, close), start: open, end: close + 1, field: fieldAt(open) });
    open = template.indexOf("{", close + 1);
  }
  return placeholders;
}

/**
 * The problem with a URL template whose placeholder stands outside its path
 * and query, or `undefined`: `placeholder "{port}" stands in the port; a
 * placeholder may stand only in the path or the query`. A value substituted
 * into the scheme, userinfo, host or port could send the request, with the
 * handler's credentials, to another server.
 * @internal Does not follow semver.
 */
export function urlTemplatePlacementProblem(layout: UrlTemplateLayout): string | undefined {
  for (const p of layout.placeholders) {
    if (p.field === "scheme" || p.field === "userinfo" || p.field === "host" || p.field === "port") {
      return `placeholder ${JSON.stringify(`{${p.name}}`)} stands in the ${p.field}; a placeholder may stand only in the path or the query`;
    }
  }
  return undefined;
}

function firstIndexOf(text: string, chars: string, from: number): number {
  for (let i = from; i < text.length; i++) if (chars.includes(text[i] as string)) return i;
  return -1;
}
