import { readFileSync } from "node:fs";

/** The rows of test/fixtures/go-stdlib.json (copied from the shared Go ground truth). */
export interface GoStdlibVectors {
  canonicalClaimHeader: Array<{ in: string; out: string }>;
  canonicalHeaderKey: Array<{ in: string; out: string }>;
  format: Array<{ json: string; v: string; g: string }>;
  pascalCase: Array<{ in: string; out: string }>;
  query: Array<{ base: string; args: string; result: string }>;
}

export const goStdlib: GoStdlibVectors = JSON.parse(
  readFileSync(new URL("../fixtures/go-stdlib.json", import.meta.url), "utf8"),
) as GoStdlibVectors;
