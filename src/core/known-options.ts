import { didYouMean } from "./did-you-mean.js";
import { InvalidOptionError } from "./errors.js";

/**
 * Throws {@link InvalidOptionError} for the first own key of `options` that
 * is not in `known`: `<where>: unknown option "<key>"; expected one of <known, joined by ", ">`,
 * with ` (did you mean "<name>"?)` after the key when a known name is a likely typo of it.
 * @internal Does not follow semver.
 */
export function rejectUnknownOptions(where: string, options: object, known: Iterable<string>): void {
  const allowed = known instanceof Set ? (known as ReadonlySet<string>) : new Set(known);
  for (const key of Object.keys(options)) {
    if (allowed.has(key)) continue;
    const hint = didYouMean(key, allowed);
    throw new InvalidOptionError(`${where}: unknown option ${JSON.stringify(key)}${hint === undefined ? "" : ` (${hint})`}; expected one of ${[...allowed].join(", ")}`);
  }
}
