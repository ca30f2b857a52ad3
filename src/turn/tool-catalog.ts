// Which descriptor and which schemas a call of a given name gets, as PromptKit's
// tool registry holds them in Omnia: a tool the pack defines (`tools.<name>`) is
// validated against the pack's `parameters` (Go-encoded; absent = `null`, which
// does not compile), a registry-only tool against its own `inputSchema`; only a
// registry-only http or grpc tool has an output schema (Omnia gives mcp and
// openapi descriptors none, and pack tools carry only name, description and
// parameters: omnia_executor.go, sdk/internal/pack/load.go).
import { goJsonMarshal, type JsonValue } from "../core/index.js";
import type { PromptPack, PackToolDefinition, ToolDescriptor } from "../manifest/index.js";

/** What the stage knows about one tool name. @internal Does not follow semver. */
export interface CatalogEntry {
  readonly name: string;
  /** The executor's descriptor; undefined for a pack tool no handler serves. */
  readonly descriptor: ToolDescriptor | undefined;
  /** The schema text coercion and validation use; undefined = none. */
  readonly schemaJson: string | undefined;
  /** The output schema text; undefined = no output validation. */
  readonly outputSchemaJson: string | undefined;
  /** The client executes it. */
  readonly client: boolean;
}

const encoded = new WeakMap<object, string>();

/** Go's encoding of a schema object, once per object (descriptors and packs are frozen). */
function goEncoded(schema: JsonValue): string {
  if (schema === null || typeof schema !== "object") return goJsonMarshal(schema);
  let text = encoded.get(schema);
  if (text === undefined) {
    text = goJsonMarshal(schema);
    encoded.set(schema, text);
  }
  return text;
}

const NONE_SERVED: ReadonlyMap<string, ToolDescriptor> = new Map();

/** Each executor tool list's descriptors by name (the first of a repeated name), made once per list: lists are frozen, and a refresh makes a new one. */
const servedByList = new WeakMap<readonly ToolDescriptor[], ReadonlyMap<string, ToolDescriptor>>();

function servedNames(tools: readonly ToolDescriptor[]): ReadonlyMap<string, ToolDescriptor> {
  let served = servedByList.get(tools);
  if (served === undefined) {
    const byName = new Map<string, ToolDescriptor>();
    for (const d of tools) if (!byName.has(d.name)) byName.set(d.name, d);
    served = byName;
    if (Object.isFrozen(tools)) servedByList.set(tools, served);
  }
  return served;
}

/** The pack's definition of a tool, when the pack's `tools` object has that own key. @internal Does not follow semver. */
export function packTool(pack: PromptPack | undefined, name: string): PackToolDefinition | undefined {
  const tools = pack?.tools;
  if (tools === undefined || !Object.prototype.hasOwnProperty.call(tools, name)) return undefined;
  return tools[name];
}

/**
 * The tools of one executor tool list, looked up by exact name. Rebuilt when
 * the executor's list changes (a discovery refresh); entries are made on
 * first use.
 * @internal Does not follow semver.
 */
export class ToolCatalog {
  readonly #pack: PromptPack | undefined;
  #source: readonly ToolDescriptor[] | undefined;
  #served: ReadonlyMap<string, ToolDescriptor> = NONE_SERVED;
  #entries: Map<string, CatalogEntry> | undefined;

  constructor(pack: PromptPack | undefined) {
    this.#pack = pack;
  }

  /** Points the catalog at the executor's current list (a no-op when it is the same array). */
  sync(tools: readonly ToolDescriptor[]): void {
    if (tools === this.#source) return;
    this.#source = tools;
    this.#served = servedNames(tools);
    this.#entries = undefined;
  }

  /** The served descriptor of a name. */
  served(name: string): ToolDescriptor | undefined {
    return this.#served.get(name);
  }

  /** The entry of a name; undefined when neither the executor nor the pack knows it. */
  lookup(name: string): CatalogEntry | undefined {
    const known = this.#entries?.get(name);
    if (known !== undefined) return known;
    const entry = this.#build(name);
    // Bounded: one entry per served or pack-defined name; unknown names are not remembered.
    if (entry !== undefined) (this.#entries ??= new Map()).set(name, entry);
    return entry;
  }

  #build(name: string): CatalogEntry | undefined {
    const descriptor = this.#served.get(name);
    const defined = packTool(this.#pack, name);
    if (defined !== undefined) {
      return {
        name,
        descriptor,
        schemaJson: goEncoded((defined.parameters ?? null) as JsonValue),
        outputSchemaJson: undefined,
        client: descriptor?.execution === "client",
      };
    }
    if (descriptor === undefined) return undefined;
    const withOutput = descriptor.outputSchema !== undefined && (descriptor.handlerType === "http" || descriptor.handlerType === "grpc");
    return {
      name,
      descriptor,
      schemaJson: goEncoded(descriptor.inputSchema),
      outputSchemaJson: withOutput ? goEncoded(descriptor.outputSchema as JsonValue) : undefined,
      client: descriptor.execution === "client",
    };
  }
}
