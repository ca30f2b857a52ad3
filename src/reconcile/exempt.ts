/**
 * The capability namespaces whose tools PromptKit offers without a `tools`
 * entry in the pack (Omnia's "Tool execution model" docs page): `memory__`, `skill__`, `a2a__`, `workflow__`
 * and `mcp__`. They are never reported as mismatches.
 * @public
 */
export const EXEMPT_TOOL_NAMESPACES: readonly string[] = Object.freeze(["memory", "skill", "a2a", "workflow", "mcp"]);

/**
 * Whether a tool name is in an exempt namespace: the text before its first `__`
 * is one of `namespaces` (exact, case-sensitive). `mcp__fs__read` is exempt;
 * `mcpx__a`, `Memory__a` and `memory_a` are not.
 * @public
 */
export function isExemptToolName(name: string, namespaces: readonly string[] = EXEMPT_TOOL_NAMESPACES): boolean {
  const end = name.indexOf("__");
  if (end <= 0) return false;
  // The same test as namespaces.includes(name.slice(0, end)), without a string per call.
  for (const namespace of namespaces) {
    if (namespace.length === end && name.startsWith(namespace)) return true;
  }
  return false;
}
