// The leaf field paths of a zod object schema, as written in YAML: `spec.handlers[].httpConfig.retryPolicy.maxAttempts`.
// An object's fields are walked; anything else (a scalar, a list, a map, a JSON value) is a leaf.
interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly innerType?: unknown;
  readonly element?: unknown;
  readonly in?: unknown;
}

const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } })._zod?.def;

function unwrap(schema: unknown): Def | undefined {
  let def = defOf(schema);
  while (def !== undefined) {
    if (def.innerType !== undefined) def = defOf(def.innerType);
    else if (def.type === "pipe") def = defOf(def.in);
    else return def;
  }
  return def;
}

/** `overrides` replaces the schema found at a path (the loader checks `spec.handlers[]` with its own schema). */
export function schemaLeaves(schema: unknown, overrides: Readonly<Record<string, unknown>> = {}, prefix = ""): string[] {
  const override = overrides[prefix];
  const def = unwrap(override ?? schema);
  if (def === undefined) return [prefix];
  if (def.type === "array" && prefix !== "") {
    const element = overrides[`${prefix}[]`];
    if (element !== undefined) return schemaLeaves(element, overrides, `${prefix}[]`);
    const inner = unwrap(def.element);
    if (inner?.type === "object") return schemaLeaves(def.element, overrides, `${prefix}[]`);
    return [prefix];
  }
  if (def.type !== "object" || def.shape === undefined) return [prefix];
  return Object.entries(def.shape).flatMap(([key, field]) => schemaLeaves(field, overrides, prefix === "" ? key : `${prefix}.${key}`));
}
