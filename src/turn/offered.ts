// Which served tools a prompt offers the model, as PromptKit's provider stage
// collects them (collectProviderDescriptors): the prompt's `tools` entries in
// order, then the served tools of the implicit namespaces. 1.5.5 looks every
// entry up by its exact name; 1.5.11 (PromptKit 162d6653) also expands an
// entry ending in `*` as a prefix, and no longer offers `mcp__` tools without
// an entry.
import { matchToolPattern, type Logger } from "../core/index.js";
import type { ToolDescriptor } from "../manifest/index.js";
import { EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "../reconcile/index.js";
import type { ToolCatalog } from "./tool-catalog.js";

/**
 * The PromptKit release whose provider stage a turn reproduces.
 * @public
 */
export type PromptKitVersion = "1.5.5" | "1.5.11";

/** The PromptKit releases `createTurn` reproduces. @internal Does not follow semver. */
export const PROMPTKIT_VERSIONS: readonly PromptKitVersion[] = Object.freeze(["1.5.5", "1.5.11"]);

/**
 * 1.5.5's system namespaces (`tools.IsSystemTool`, its `knownNamespaces`):
 * the five Omnia documents plus `image` and `video` (mediagen's
 * `image__generate`, `video__generate`), each offered without a pack entry.
 */
const IMPLICIT_1_5_5: readonly string[] = Object.freeze([...EXEMPT_TOOL_NAMESPACES, "image", "video"]);
/** 1.5.11's `tools.IsImplicitTool`: the same, without `mcp`. */
const IMPLICIT_1_5_11: readonly string[] = Object.freeze(IMPLICIT_1_5_5.filter((ns) => ns !== "mcp"));

/**
 * The names a prompt offers, before exclusion and sorting: each entry of
 * `entries` that is served (an entry neither served nor defined by the pack is
 * logged as PromptKit logs it, `Tool not found in registry`), with 1.5.11 a trailing-`*` entry
 * expanded against the served tools in their order; then every served tool of
 * the version's implicit namespaces. Repeats are left to the caller.
 * @internal Does not follow semver.
 */
export function offeredNames(entries: readonly string[] | undefined, source: readonly ToolDescriptor[], catalog: ToolCatalog, version: PromptKitVersion, logger: Logger): string[] {
  const names: string[] = [];
  const wildcards = version === "1.5.11";
  for (const entry of entries ?? []) {
    if (wildcards && entry.endsWith("*")) {
      for (const d of source) if (matchToolPattern(entry, d.name)) names.push(d.name);
      continue;
    }
    if (catalog.served(entry) === undefined) {
      // PromptKit's registry also holds the pack's own tools, so only a name neither knows is "not found".
      if (catalog.lookup(entry) === undefined) logger.warn("Tool not found in registry", { tool: entry, error: `tool not found: ${entry}` });
      continue;
    }
    names.push(entry);
  }
  const implicit = wildcards ? IMPLICIT_1_5_11 : IMPLICIT_1_5_5;
  for (const d of source) if (isExemptToolName(d.name, implicit)) names.push(d.name);
  return names;
}
