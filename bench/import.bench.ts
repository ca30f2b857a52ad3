// Cold import cost: how long `await import(...)` takes in a fresh Node process, for the
// built package (dist/, as users run it) and for `ai` (a dev dependency, in node_modules)
// side by side in one run. Each sample is one new process that times only its import
// (node's own start-up is excluded); the entries alternate so that machine load falls
// on both alike. Target: omnia-tools ≤ 1.1 × ai.
// Needs dist/: `npm run build` first.
// Run alone: node --import tsx bench/import.bench.ts [--json]
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const json = process.argv.includes("--json");
const SAMPLES = 11;
const TARGET_RATIO = 1.1;

/** The repository root: the nearest directory up from here whose package.json is omnia-tools'. */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "omnia-tools") return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("import bench: no omnia-tools package.json above this file");
    dir = up;
  }
}

const root = repoRoot();
const dist = join(root, "dist", "index.js");
if (!existsSync(dist)) {
  console.error("import bench: dist/index.js is missing; run `npm run build` first");
  process.exit(1);
}

/** What each child imports: a specifier resolved from the repository root. */
const ENTRIES: Readonly<Record<string, string>> = {
  "omnia-tools": pathToFileURL(dist).href,
  "omnia-tools/runtime": pathToFileURL(join(root, "dist", "runtime.js")).href,
  ai: "ai",
  openai: "openai",
};

/** One fresh process importing `specifier`; resolves with the milliseconds its import took. */
function coldImportMs(specifier: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`import bench: importing ${specifier} failed: ${out.stderr}`);
  return Number(out.stdout.trim());
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(ENTRIES).map((name) => [name, []]));
// One untimed round first: the file-system cache, not the packages, would otherwise be measured.
for (const specifier of Object.values(ENTRIES)) coldImportMs(specifier);
for (let i = 0; i < SAMPLES; i++) {
  for (const [name, specifier] of Object.entries(ENTRIES)) samples[name]?.push(coldImportMs(specifier));
}
const medians: Record<string, number> = Object.fromEntries(Object.entries(samples).map(([name, v]) => [name, Math.round(median(v) * 10) / 10]));
const ratio = Math.round(((medians["omnia-tools"] as number) / (medians["ai"] as number)) * 100) / 100;

if (json) {
  const summary = [
    { name: "cold import: omnia-tools / ai (medians)", value: ratio, unit: "x", max: TARGET_RATIO },
    ...Object.entries(medians).map(([name, value]) => ({ name: `cold import: ${name}`, value, unit: `ms, median of ${SAMPLES} fresh processes` })),
  ];
  console.log(JSON.stringify({ area: "import", unit: "ms", samples, medians, ratio, summary }));
} else {
  console.log(`cold import, median of ${SAMPLES} fresh processes (import only, not node's start-up)`);
  for (const [name, value] of Object.entries(medians)) console.log(`  ${String(value).padStart(8)} ms  ${name}`);
  console.log(`\nomnia-tools / ai = ${ratio} (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? "met" : "NOT met"})`);
}
