// `kubectl get toolregistries -o yaml` prints a `kind: List` (or, from the API,
// a `ToolRegistryList`) whose `items` are the resources: each item is read as a
// document of its own, its paths under `items[<i>]`.
import type { SourceDocument } from "./documents.js";
import { isPlainObject } from "./json.js";

const LIST_KINDS: ReadonlySet<unknown> = new Set(["List", "ToolRegistryList"]);

/** The documents with every `kind: List` / `ToolRegistryList` replaced by its items, in order. */
export function expandListDocuments(documents: readonly SourceDocument[]): SourceDocument[] {
  const out: SourceDocument[] = [];
  for (const doc of documents) {
    const value = doc.value;
    if (!isPlainObject(value) || !LIST_KINDS.has(value.kind) || !Array.isArray(value.items)) {
      out.push(doc);
      continue;
    }
    const items: readonly unknown[] = value.items;
    items.forEach((item, i) => {
      out.push({ value: item, prefix: [...doc.prefix, "items", i], lineOf: (path) => doc.lineOf(["items", i, ...path]) });
    });
  }
  return out;
}
