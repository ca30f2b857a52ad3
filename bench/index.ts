// Runs every bench/*.bench.ts in its own process (one process per area, so one
// area's heap and JIT state cannot skew another's), each with --json, and
// prints one summary table of the figures each area reports in its JSON's
// `summary` rows (name, value, unit, and a target as `min` or `max`).
//   npm run bench                  the table (progress on stderr)
//   npm run bench -- --json        one JSON object: machine, every area's figures, the rows
//   npm run bench -- http grpc     only the benches whose file name contains one of the words
// Targets are reported, never enforced: a missed target does not fail the run;
// a bench that crashes or prints no JSON does (exit code 1).
import { readdirSync } from "node:fs";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { cpus, loadavg, totalmem } from "node:os";

interface Row {
  readonly name: string;
  readonly value: number | null;
  readonly unit: string;
  readonly min?: number;
  readonly max?: number;
}

const here = dirname(fileURLToPath(import.meta.url));
// `npm run bench` runs the benches compiled by tsc (.bench-out/bench/*.js), the same JavaScript
// users run from dist/; run from source (`node --import tsx bench/index.ts`), they go through tsx,
// whose per-closure naming adds a few percent to the library's own CPU.
const compiled = import.meta.url.endsWith(".js");
const suffix = compiled ? ".bench.js" : ".bench.ts";
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith("--"));
const JSON_ONLY = args.includes("--json");
const files = readdirSync(here)
  .filter((f) => f.endsWith(suffix))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error(`bench: no bench/*${suffix} file matched`);
  process.exit(1);
}

/** Runs one bench with --json; resolves with its stdout and exit code. stderr passes through. */
function runBench(file: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const loader = compiled ? [] : ["--import", "tsx"];
    const child = spawn(process.execPath, ["--expose-gc", ...loader, join(here, file), "--json"], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (stdout += chunk));
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
};
const areas: Record<string, unknown> = {};
const rows: (Row & { area: string; met: boolean | null })[] = [];
const failures: string[] = [];

for (const file of files) {
  const area = file.slice(0, -suffix.length);
  const t0 = performance.now();
  process.stderr.write(`bench: ${file} ... `);
  const { code, stdout } = await runBench(file);
  const lines = stdout.trimEnd().split("\n");
  const last = lines[lines.length - 1] ?? "";
  let figures: { summary?: Row[] } | undefined;
  try {
    figures = JSON.parse(last) as { summary?: Row[] };
  } catch {
    figures = undefined;
  }
  process.stderr.write(`${code === 0 && figures !== undefined ? "done" : "FAILED"} in ${Math.round((performance.now() - t0) / 1000)} s\n`);
  if (code !== 0 || figures === undefined) {
    failures.push(`${file}: exit code ${code}${figures === undefined ? ", no JSON on its last stdout line" : ""}`);
    if (stdout.trim() !== "") process.stderr.write(stdout);
    continue;
  }
  if (lines.length > 1 && !JSON_ONLY) process.stdout.write(`${lines.slice(0, -1).join("\n")}\n`);
  areas[area] = figures;
  for (const row of figures.summary ?? []) rows.push({ area, ...row, met: targetMet(row) });
}

function targetMet(row: Row): boolean | null {
  if (row.value === null || (row.min === undefined && row.max === undefined)) return null;
  if (row.min !== undefined && row.value < row.min) return false;
  if (row.max !== undefined && row.value > row.max) return false;
  return true;
}

const loadAverageAtEnd = loadavg().map((l) => Math.round(l * 100) / 100);
if (JSON_ONLY) {
  console.log(JSON.stringify({ machine: { ...machine, loadAverageAtEnd }, areas, summary: rows, failures }));
} else {
  printTable();
}
process.exit(failures.length > 0 ? 1 : 0);

function printTable(): void {
  const fmt = (v: number | null): string => (v === null ? "n/a" : Number.isInteger(v) ? v.toLocaleString("en-US") : String(v));
  const target = (r: Row): string =>
    r.min !== undefined && r.max !== undefined ? `${fmt(r.min)}..${fmt(r.max)}` : r.min !== undefined ? `>= ${fmt(r.min)}` : r.max !== undefined ? `<= ${fmt(r.max)}` : "";
  const table = rows.map((r) => [r.area, r.name, fmt(r.value), target(r), r.met === null ? "" : r.met ? "met" : "MISSED", r.unit]);
  const head = ["area", "figure", "value", "target", "", "unit / detail"];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => (t[i] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 2 ? c.padStart(widths[i] as number) : i === cells.length - 1 ? c : c.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  console.log(
    `\nSummary: ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}; load average ${machine.loadAverageAtStart.join(" ")} at start, ${loadAverageAtEnd.join(" ")} at end`,
  );
  console.log("Ratios are measured within one process and one run; absolute figures hold for this machine only.\n");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const t of table) console.log(line(t));
  const missed = rows.filter((r) => r.met === false).length;
  console.log(`\n${rows.filter((r) => r.met === true).length} targets met, ${missed} missed${failures.length > 0 ? `; ${failures.length} bench(es) FAILED:` : ""}`);
  for (const f of failures) console.log(`  ${f}`);
}
