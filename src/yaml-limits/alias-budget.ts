// A bound on what YAML aliases can make of a document. yaml's own `maxAliasCount`
// weighs each alias by the aliases inside its anchor, so an anchor that holds no
// alias (a plain 200-node map) can be repeated up to the limit at full size each
// time: the expansion, not the alias count, is what has to be bounded.
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { Document } from "yaml";

/** yaml's node guards, loaded with the first document checked (yaml is CommonJS in Node: `require` gives the instance `import` would). */
let yamlModule: typeof Yaml | undefined;
function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof Yaml);
}

/**
 * The most nodes that aliases may add to one YAML document (each alias counts
 * the nodes of the value it stands for, aliases inside it expanded too).
 * Sharing a retryPolicy or an inputSchema between a few hundred handlers stays
 * far below it; one anchor of 200 nodes repeated 999 times does not.
 * @internal Does not follow semver.
 */
export const MAX_YAML_ALIAS_EXPANSION_NODES = 50_000;

/**
 * What {@link aliasExpansionProblem} found: the message, and the source offset
 * of the alias that crossed the budget.
 * @internal Does not follow semver.
 */
export interface AliasExpansionProblem {
  readonly message: string;
  readonly offset: number;
}

/** One step of the walk: a node and how far through its children it is. */
interface Frame {
  readonly node: unknown;
  readonly children: readonly unknown[];
  next: number;
  size: number;
}

/**
 * The problem with `doc` when its aliases would add more than `budget` nodes,
 * as a message (`YAML aliases expand the document by more than 50000 nodes; ...`),
 * or `undefined`. One pass over the parsed nodes, linear in their number: the
 * expanded size of every anchored node is kept and an alias adds it, so no
 * alias is resolved twice. An alias to an anchor that is still open (a
 * recursive alias) counts as one node; the loader reports it as not JSON.
 * @internal Does not follow semver.
 */
export function aliasExpansionProblem(doc: Document.Parsed, budget: number = MAX_YAML_ALIAS_EXPANSION_NODES): AliasExpansionProblem | undefined {
  const { isAlias, isMap, isPair, isSeq } = yaml();
  const guards = { isMap, isPair, isSeq };
  const anchors = new Map<string, unknown>();
  const sizes = new Map<unknown, number>();
  let added = 0;
  const stack: Frame[] = [];
  const enter = (node: unknown): void => {
    const anchor = (node as { anchor?: unknown } | null)?.anchor;
    if (typeof anchor === "string" && anchor !== "") anchors.set(anchor, node);
    stack.push({ node, children: childrenOf(node, guards), next: 0, size: 1 });
  };
  if (doc.contents === null) return undefined;
  enter(doc.contents);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      if (child === null || child === undefined) continue;
      if (isAlias(child)) {
        const target = anchors.get(child.source);
        const size = target === undefined ? 1 : (sizes.get(target) ?? 1);
        added += size;
        frame.size += size;
        if (added > budget) {
          return {
            message: `YAML aliases expand the document by more than ${budget} nodes (alias *${child.source}); refusing it as a resource exhaustion attack`,
            offset: child.range?.[0] ?? 0,
          };
        }
        continue;
      }
      enter(child);
      continue;
    }
    stack.pop();
    sizes.set(frame.node, frame.size);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.size += frame.size;
  }
  return undefined;
}

function childrenOf(node: unknown, { isMap, isPair, isSeq }: Pick<typeof Yaml, "isMap" | "isPair" | "isSeq">): readonly unknown[] {
  if (isMap(node) || isSeq(node)) return (node as { items: unknown[] }).items;
  if (isPair(node)) return [node.key, node.value];
  return [];
}

