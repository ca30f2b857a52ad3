// PromptKit 1.5.11's tool-name patterns (`tools.MatchToolPattern`, and the MCP
// `ToolFilter`'s copy of it): one rule, used by the turn's `tools` entries and
// by an MCP handler's `toolFilter`.

/**
 * Whether `name` matches `pattern`: a pattern ending in `*` matches every name
 * that starts with the text before the `*` (taken literally); any other
 * pattern matches only itself.
 * @internal Does not follow semver.
 */
export function matchToolPattern(pattern: string, name: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}
