// Omnia ships a pack as two documents: a PromptPack resource whose
// spec.source.configMapRef names a ConfigMap, and that ConfigMap, whose
// data."pack.json" holds the pack. This picks the document that holds the pack.
import { ConfigError } from "../core/index.js";
import type { SourceDocument } from "./documents.js";
import { formatPath } from "./issues.js";
import { isPlainObject } from "./json.js";

/** Where the pack was found: the pack text of a ConfigMap, or a document that is the pack itself. */
export type PackSource =
  | { readonly kind: "document"; readonly doc: SourceDocument }
  | { readonly kind: "configMap"; readonly text: string; readonly description: string };

const nameOf = (value: Record<string, unknown>): string | undefined =>
  isPlainObject(value.metadata) && typeof value.metadata.name === "string" ? value.metadata.name : undefined;

const where = (doc: SourceDocument): string => (doc.prefix.length === 0 ? "the document" : formatPath(doc.prefix));

/**
 * Picks the pack: a ConfigMap's `data."pack.json"` when the input holds
 * Kubernetes documents (the one the PromptPack's `spec.source.configMapRef`
 * names, else the only ConfigMap with a `pack.json` key), else the one
 * non-empty document. Throws a ConfigError saying where it looked.
 */
export function findPackSource(documents: readonly SourceDocument[]): PackSource {
  const nonEmpty = documents.filter((d) => d.value !== null && d.value !== undefined);
  const resources = nonEmpty.filter((d) => isPlainObject(d.value) && typeof d.value.kind === "string");
  if (resources.length === 0) {
    if (nonEmpty.length !== 1) throw new ConfigError({ path: "", message: `expected exactly one PromptPack document; got ${nonEmpty.length}` });
    return { kind: "document", doc: nonEmpty[0] as SourceDocument };
  }
  const configMaps = resources.filter((d) => (d.value as Record<string, unknown>).kind === "ConfigMap");
  const withPack = configMaps.filter((d) => {
    const data = (d.value as Record<string, unknown>).data;
    return isPlainObject(data) && typeof data["pack.json"] === "string";
  });
  const packResource = resources.find((d) => (d.value as Record<string, unknown>).kind === "PromptPack");
  let wanted: string | undefined;
  if (packResource !== undefined) {
    const spec = (packResource.value as Record<string, unknown>).spec;
    const source = isPlainObject(spec) ? spec.source : undefined;
    const ref = isPlainObject(source) ? source.configMapRef : undefined;
    if (isPlainObject(ref) && typeof ref.name === "string") wanted = ref.name;
  }
  const chosen = wanted !== undefined ? withPack.find((d) => nameOf(d.value as Record<string, unknown>) === wanted) : withPack.length === 1 ? withPack[0] : undefined;
  if (chosen === undefined) {
    const looked = configMaps.length === 0 ? "no ConfigMap document" : `ConfigMaps ${configMaps.map((d) => `${JSON.stringify(nameOf(d.value as Record<string, unknown>) ?? "")} (${where(d)})`).join(", ")}`;
    const reason =
      wanted !== undefined
        ? `no ConfigMap ${JSON.stringify(wanted)} with a data."pack.json" key, as PromptPack ${JSON.stringify(nameOf(packResource?.value as Record<string, unknown>) ?? "")} spec.source.configMapRef names`
        : withPack.length > 1
          ? `${withPack.length} ConfigMaps have a data."pack.json" key and no PromptPack spec.source.configMapRef says which`
          : `no ConfigMap with a data."pack.json" key`;
    throw new ConfigError({ path: "", message: `no pack found: ${reason}; looked at ${looked}` });
  }
  const cm = chosen.value as Record<string, unknown>;
  const data = cm.data as Record<string, unknown>;
  const by = wanted !== undefined ? `, named by PromptPack ${JSON.stringify(nameOf(packResource?.value as Record<string, unknown>) ?? "")} spec.source.configMapRef` : "";
  return { kind: "configMap", text: data["pack.json"] as string, description: `data."pack.json" of ConfigMap ${JSON.stringify(nameOf(cm) ?? "")} (${where(chosen)})${by}` };
}
