/** Edit distance (insert, delete, substitute one character) between two strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The known name nearest to a misspelt `input`, or undefined when none is
 * close: a name equal but for letter case wins, then the fewest edits, up to
 * 2 edits (1 for a name of up to 4 characters, none but letter case for one
 * of up to 2) and at most a third of the name's length; ties go to the earlier name in `known`.
 * @internal Does not follow semver.
 */
export function nearestName(input: string, known: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    if (name === input) continue;
    const distance = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  const length = Math.max(input.length, best.length);
  const limit = length <= 2 ? 0 : Math.min(length <= 4 ? 1 : 2, Math.max(1, Math.floor(length / 3)));
  return bestDistance <= limit ? best : undefined;
}

/**
 * `did you mean "<name>"?` for the nearest known name (see {@link nearestName}),
 * or undefined when none is close.
 * @internal Does not follow semver.
 */
export function didYouMean(input: string, known: Iterable<string>, quote: (name: string) => string = (n) => JSON.stringify(n)): string | undefined {
  const name = nearestName(input, known);
  return name === undefined ? undefined : `did you mean ${quote(name)}?`;
}
