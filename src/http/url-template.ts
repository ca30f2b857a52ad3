import type { UrlTemplateLayout } from "../core/index.js";
import { pathEscape, queryEscape } from "../core/index.js";

/**
 * The result of {@link expandUrlTemplate}: the URL text, or the problem that
 * stopped it (nothing may be sent then).
 * @internal Does not follow semver.
 */
export type UrlTemplateExpansion =
  | { readonly ok: true; readonly url: string; readonly used: ReadonlySet<string> }
  | { readonly ok: false; readonly message: string };

/**
 * Substitutes a template's placeholders in one pass: only the names the
 * template declares (`{name}` with no brace inside) are looked up, each by its
 * whole name, so an argument key can never match the text between two
 * placeholders; a value never is scanned for placeholders again.
 *
 * `valueOf(name)` gives the `%v` text of an argument, or `undefined` when there
 * is none (the placeholder then stays as written, as in Go). A value in the path
 * is escaped as a path segment (Go `url.PathEscape`: `/ ? # %` and the rest
 * encoded), one in the query or fragment as a query component (Go
 * `url.QueryEscape`), so no value can change the host, the path's depth, the
 * query's keys or the fragment.
 *
 * A path segment that would be a dot segment (`.`, `..`, or a percent-encoded
 * form such as `%2e`, `.%2E`, case-insensitive) because of a value is refused,
 * and so is a value that is one of those forms itself: the URL parser would
 * otherwise resolve it and climb out of the template's path.
 *
 * Linear in the template and the values.
 * @internal Does not follow semver.
 */
export function expandUrlTemplate(
  template: string,
  layout: UrlTemplateLayout,
  valueOf: (name: string) => string | undefined,
  describe: (name: string) => string,
): UrlTemplateExpansion {
  const parts: string[] = [];
  const used = new Set<string>();
  let region: "prefix" | "path" | "query" | "fragment" = layout.pathStart === 0 ? "path" : "prefix";
  let segment = "";
  let segmentSubstituted: string | undefined; // the last name substituted into the current path segment
  let segmentAlone = false; // the segment is exactly that one value

  const endSegment = (): string | undefined => {
    if (segmentSubstituted !== undefined && isDotSegment(segment)) {
      return segmentAlone
        ? `${describe(segmentSubstituted)} would be a dot path segment; got ${JSON.stringify(segment)}`
        : `${describe(segmentSubstituted)} would make the path segment ${JSON.stringify(segment)} a dot segment`;
    }
    segment = "";
    segmentSubstituted = undefined;
    segmentAlone = false;
    return undefined;
  };
  /** Literal text: it moves the region forward and ends path segments. */
  const literal = (text: string, offset: number): string | undefined => {
    parts.push(text);
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const at = offset + i;
      if (region === "prefix") {
        if (at + 1 === layout.pathStart) {
          region = "path";
          from = i + 1;
        }
        continue;
      }
      if (region === "fragment") continue;
      const c = text[i];
      if (c === "#") {
        if (region === "path") {
          if (i > from) segmentAlone = false;
          segment += text.slice(from, i);
          const problem = endSegment();
          if (problem !== undefined) return problem;
        }
        region = "fragment";
      } else if (region === "path") {
        if (c === "?" || c === "/" || (c === "\\" && layout.special)) {
          if (i > from) segmentAlone = false;
          segment += text.slice(from, i);
          from = i + 1;
          const problem = endSegment();
          if (problem !== undefined) return problem;
          if (c === "?") region = "query";
        }
      }
    }
    if (region === "path") {
      if (from < text.length) segmentAlone = false;
      segment += text.slice(from);
    }
    return undefined;
  };

  let from = 0;
  for (const p of layout.placeholders) {
    const value = valueOf(p.name);
    if (value === undefined) continue; // stays as written: read as literal text below
    const problem = literal(template.slice(from, p.start), from);
    if (problem !== undefined) return { ok: false, message: problem };
    from = p.end;
    if (region === "path" || region === "prefix") {
      if (isDotSegment(value)) return { ok: false, message: `${describe(p.name)} would be a dot path segment; got ${JSON.stringify(value)}` };
      const escaped = pathEscape(value);
      parts.push(escaped);
      segmentAlone = segment === "" && segmentSubstituted === undefined;
      segment += escaped;
      segmentSubstituted = p.name;
    } else parts.push(queryEscape(value));
    used.add(p.name);
  }
  const problem = literal(template.slice(from), from) ?? (region === "path" ? endSegment() : undefined);
  if (problem !== undefined) return { ok: false, message: problem };
  return { ok: true, url: parts.join(""), used };
}

/** `.`, `..` and their percent-encoded forms (`%2e`, `.%2E`, `%2e%2e`, …), as the URL parser reads a path segment. */
function isDotSegment(text: string): boolean {
  if (text.length === 0 || text.length > 6) return false;
  const lower = text.toLowerCase();
  return lower === "." || lower === "%2e" || lower === ".." || lower === ".%2e" || lower === "%2e." || lower === "%2e%2e";
}
