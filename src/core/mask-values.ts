/**
 * `text` with every occurrence of each value shown as `***`, the longest value
 * first, so that a value containing another is hidden whole. Empty values and
 * repeats are skipped. Linear in the text per value.
 * @internal Does not follow semver.
 */
export function maskValues(text: string, values: Iterable<string>): string {
  let out = text;
  for (const value of [...new Set(values)].sort((a, b) => b.length - a.length)) if (value !== "" && out.includes(value)) out = out.replaceAll(value, "***");
  return out;
}
