import { matchToolPattern } from "../core/index.js";
import type { McpToolFilter } from "./types.js";

/**
 * Whether `toolFilter` lets a tool through (Omnia's `ToolFilter.Includes`):
 * a non-empty allowlist admits exactly its names and wins over the blocklist;
 * otherwise every name not in the blocklist. No filter admits all. Entries
 * are exact names; with `wildcards` (PromptKit 1.5.11's `ToolFilter`), an
 * entry ending in `*` matches every name that starts with the text before it,
 * in both lists.
 * @public
 */
export function mcpToolAllowed(filter: McpToolFilter | undefined, name: string, wildcards = false): boolean {
  const allow = filter?.allowlist ?? [];
  const block = filter?.blocklist ?? [];
  if (!wildcards) {
    if (allow.length > 0) return allow.includes(name);
    return !block.includes(name);
  }
  if (allow.length > 0) return allow.some((entry) => matchToolPattern(entry, name));
  return !block.some((entry) => matchToolPattern(entry, name));
}
