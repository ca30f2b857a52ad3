// Runs every *.test.ts under src/ and test/ with node's test runner through tsx.
// Node 20 expands no globs and `node --test` with no arguments finds no .ts file,
// so the list is built here, and an empty list is a failure, not a silent pass.
// Extra arguments pass through: `npm run test:only -- --test-name-pattern=breaker`.
// Files run at least three at a time (node's default is one fewer than the CPUs, a single file on a
// two-core machine): most tests wait on loopback servers and child processes, not on the CPU, and
// every test must pass under that load. `--test-concurrency=N` overrides it.
// Two reporters: node's default on stdout as before (spec on a terminal, TAP otherwise), and scripts/failure-recap.mjs on stderr, which ends the run with every
// failing test's file, name and first error line (nothing when all pass).
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

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
const extra = process.argv.slice(2);
const concurrency = extra.some((a) => a.startsWith("--test-concurrency")) ? [] : [`--test-concurrency=${Math.max(3, availableParallelism() - 1)}`];
const result = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--test", ...reporters, ...concurrency, ...extra, ...files], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
