/**
 * The query keys a handler fixes, each with where it is fixed: the keys of the
 * endpoint's (or urlTemplate's) own query whose pair holds no placeholder
 * (`"endpoint query"`), then the `staticQuery` keys (`"staticQuery"`). No
 * argument may replace their values, and error texts show those values as
 * `***`. Keys are decoded as Go's `url.ParseQuery` decodes them (`+` as space,
 * `%XX`); a pair with a `;` or a bad escape is skipped, as Go drops it.
 * @internal Does not follow semver.
 */
export function fixedQueryKeys(url: string, staticQuery: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  const q = url.indexOf("?");
  if (q < 0 && Object.keys(staticQuery).length === 0) return NONE;
  const out = new Map<string, string>();
  if (q >= 0) {
    const hash = url.indexOf("#", q);
    const query = hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
    for (const pair of query.split("&")) {
      if (pair === "" || pair.includes(";") || pair.includes("{")) continue;
      const eq = pair.indexOf("=");
      const key = decode(eq < 0 ? pair : pair.slice(0, eq));
      if (key !== undefined) out.set(key, "endpoint query");
    }
  }
  for (const key of Object.keys(staticQuery)) out.set(key, "staticQuery");
  return out;
}

const NONE: ReadonlyMap<string, string> = new Map();

function decode(text: string): string | undefined {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}
