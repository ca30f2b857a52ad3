// Runs every *.test.ts under src/ and test/ with node's test runner through tsx.
// Node 20 expands no globs and `node --test` with no arguments finds no .ts file,
// so the list is built here, and an empty list is a failure, not a silent pass.
// Extra arguments pass through: `npm run test:only -- --test-name-pattern=breaker`.
// Two reporters: node's default on stdout as before (spec on a terminal, TAP otherwise), and scripts/failure-recap.mjs on stderr, which ends the run with every
// failing test's file, name and first error line (nothing when all pass).
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const roots = ["src", "test"];
const files = roots
  .filter((root) => existsSync(root))
  .flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => join(root, f)),
  )
  .sort();
if (files.length === 0) {
  console.error("run-tests: no *.test.ts file found under src/ or test/");
  process.exit(1);
}
const reporters = [`--test-reporter=${process.stdout.isTTY ? "spec" : "tap"}`, "--test-reporter-destination=stdout", "--test-reporter=./scripts/failure-recap.mjs", "--test-reporter-destination=stderr"];
const result = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--test", ...reporters, ...process.argv.slice(2), ...files], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
