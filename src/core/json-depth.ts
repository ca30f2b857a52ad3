/**
 * The deepest nesting of objects and arrays this package accepts in model
 * arguments and in the free-form JSON fields of a manifest (`inputSchema`,
 * `outputSchema`, `staticBody`, `sandbox`): 1000 levels.
 *
 * Go's `encoding/json` refuses past 10000 (`maxNestingDepth` in
 * `encoding/json/scanner.go`: the 10000th container is accepted, the 10001st
 * fails with `exceeded max depth`). This package walks JSON with recursive code
 * of its own and of its dependencies (Go-style marshalling, `%v` formatting,
 * schema checks), each level costing stack frames; at 10000 levels those
 * overflow Node's default stack (about 984 KiB) with a `RangeError`. 1000 levels
 * leaves them a wide margin and is far deeper than any tool's arguments or
 * schema.
 * @internal Does not follow semver.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * The text of the error for a value nested deeper than `maxDepth`:
 * `nested deeper than 1000 levels`.
 * @internal Does not follow semver.
 */
export function jsonDepthMessage(maxDepth: number = MAX_JSON_DEPTH): string {
  return `nested deeper than ${maxDepth} levels`;
}

/**
 * Whether JSON text opens more than `maxDepth` objects or arrays inside one
 * another. One pass over the text, no recursion, no allocation: `[` and `{`
 * outside strings open a level, `]` and `}` close one. Text that is not JSON
 * gets an answer too (its parse fails anyway). Text shorter than `maxDepth`
 * characters cannot be too deep and is not scanned.
 * @internal Does not follow semver.
 */
export function jsonTextTooDeep(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= maxDepth) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/**
 * Whether a value (as `JSON.parse` or a YAML parser gives it) holds objects or
 * arrays more than `maxDepth` levels inside one another. Iterative, with an
 * explicit stack, depth first, stopping at the first level past `maxDepth`:
 * linear in the number of nodes (a sub-object reached twice counts twice),
 * whatever the depth. A value that contains itself (a recursive YAML alias)
 * counts as too deep.
 * @internal Does not follow semver.
 */
export function jsonValueTooDeep(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== "object") return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const node = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child !== null && typeof child === "object") {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
        const child: unknown = (node as Record<string, unknown>)[key];
        if (child !== null && typeof child === "object") {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
