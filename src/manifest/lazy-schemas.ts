// The zod schemas (and zod itself), loaded on the first manifest or pack checked, so that
// importing the package does not load zod. `require` of this ES module (Node >= 20.19) gives
// the module instance `import` would; it is synchronous, as the loaders are.
import { createRequire } from "node:module";

type Schemas = typeof import("./schemas.js");
let schemasModule: Schemas | undefined;

/** The schemas module, loaded on first use. */
export function schemas(): Schemas {
  return (schemasModule ??= createRequire(import.meta.url)("./schemas.js") as Schemas);
}
