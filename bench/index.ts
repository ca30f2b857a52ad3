// Runs every bench/*.bench.ts in its own process (one process per area, so one
// area's heap and JIT state cannot skew another's) and passes --json through.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const passThrough = process.argv.slice(2).filter((a) => a.startsWith("--"));
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error("bench: no bench/*.bench.ts file matched");
  process.exit(1);
}
let failed = false;
for (const file of files) {
  if (!passThrough.includes("--json")) console.log(`\n## ${file}`);
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(here, file), ...passThrough], { stdio: "inherit" });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
