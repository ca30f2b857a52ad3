import type { McpToolFilter } from "./types.js";

/**
 * Whether `toolFilter` lets a tool through (Omnia's `ToolFilter.Includes`):
 * a non-empty allowlist admits exactly its names and wins over the blocklist;
 * otherwise every name not in the blocklist. Exact matches. No filter admits all.
 * @public
 */
export function mcpToolAllowed(filter: McpToolFilter | undefined, name: string): boolean {
  const allow = filter?.allowlist ?? [];
  if (allow.length > 0) return allow.includes(name);
  return !(filter?.blocklist ?? []).includes(name);
}
