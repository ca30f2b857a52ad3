// Compiles src/ and test/ once with tsc (tsconfig.test.json, which also type-checks them: a type error fails the run)
// into .test-out/, then runs every *.test.js there with node's test runner and no loader. Running tsx's loader in
// each of 200-odd test processes, and in each child a test spawns, cost more CPU than the tests on a two-core
// machine; tsc's output is also what dist/ ships. Stack traces point at the .ts sources (source maps).
// Node 20 expands no globs, so the list is built here, and an empty list is a failure, not a silent pass.
// Flags pass through (`npm run test:only -- --test-name-pattern=breaker`); file names given run alone.
// Files run at least three at a time (node's default is one fewer than the CPUs, a single file on a
// two-core machine): most tests wait on loopback servers and child processes, not on the CPU, and
// every test must pass under that load. `--test-concurrency=N` overrides it.
// Two reporters: node's default on stdout as before (spec on a terminal, TAP otherwise), and scripts/failure-recap.mjs on stderr, which ends the run with every
// failing test's file, name and first error line (nothing when all pass).
import { readdirSync, existsSync, rmSync, symlinkSync, copyFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";

const OUT = ".test-out";
rmSync(OUT, { recursive: true, force: true });
// typescript's `bin` (its exports map hides the file from require.resolve).
const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve("typescript/package.json")), require("typescript/package.json").bin.tsc);
const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.test.json"], { stdio: "inherit" });
if (compiled.status !== 0) {
  console.error("run-tests: tsc -p tsconfig.test.json failed (the errors are above)");
  process.exit(compiled.status ?? 1);
}
// What the compiled files read beside themselves: the fixtures (linked in, beside the compiled .ts ones), proto/,
// and package.json (two levels above src/<area>/).
function linkMissing(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (!existsSync(target)) symlinkSync(resolve(source), target, entry.isDirectory() ? "dir" : "file");
    else if (entry.isDirectory()) linkMissing(source, target);
  }
}
linkMissing(join("test", "fixtures"), join(OUT, "test", "fixtures"));
symlinkSync(resolve("proto"), join(OUT, "proto"), "dir");
copyFileSync("package.json", join(OUT, "package.json"));

const extra = process.argv.slice(2);
// Named files (`npm run test:only -- test/mcp.test.ts`) run alone, compiled like the rest; flags pass through.
const named = extra.filter((a) => !a.startsWith("-")).map((f) => join(OUT, f.replace(/\.ts$/, ".js")));
const flags = extra.filter((a) => a.startsWith("-"));
const roots = ["src", "test"].map((root) => join(OUT, root));
const files = named.length > 0 ? named : roots
  .filter((root) => existsSync(root))
  .flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".test.js"))
      .map((f) => join(root, f)),
  )
  .sort();
if (files.length === 0) {
  console.error("run-tests: no *.test.ts file found under src/ or test/");
  process.exit(1);
}
const reporters = [`--test-reporter=${process.stdout.isTTY ? "spec" : "tap"}`, "--test-reporter-destination=stdout", "--test-reporter=./scripts/failure-recap.mjs", "--test-reporter-destination=stderr"];
const concurrency = flags.some((a) => a.startsWith("--test-concurrency")) ? [] : [`--test-concurrency=${Math.max(3, availableParallelism() - 1)}`];
const result = spawnSync(process.execPath, ["--expose-gc", "--enable-source-maps", "--test", ...reporters, ...concurrency, ...flags, ...files], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
