// The repository's own TypeScript files as a child process of a test should run them. `npm test` runs tsc's output
// in .test-out/ (scripts/run-tests.mjs), where this file is .test-out/test/helpers/source.js: there a child runs
// the compiled .js with plain node. Run from the sources (`node --import tsx --test file.ts`), a child runs the .ts
// through tsx, as before.
import { fileURLToPath, pathToFileURL } from "node:url";

const COMPILED = import.meta.url.endsWith(".js");
/** The folder holding src/ and test/: the repository, or .test-out/ when the tests run compiled. */
const ROOT = new URL("../../", import.meta.url);

/** The node flags that let a child load `sourcePath`'s file: none for compiled output, tsx's loader for a .ts. */
export const LOADER: readonly string[] = COMPILED ? [] : ["--import", "tsx"];

/** The file to run for the repository's `path` (such as "src/cli/omnia-tools.ts"): the compiled .js or the .ts. */
export function sourcePath(path: string): string {
  return fileURLToPath(new URL(COMPILED ? path.replace(/\.ts$/, ".js") : path, ROOT));
}

/** `sourcePath` as a file URL, for an `import()` in a child's script. */
export function sourceUrl(path: string): string {
  return pathToFileURL(sourcePath(path)).href;
}
