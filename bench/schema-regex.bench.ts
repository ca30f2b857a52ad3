// A hostile `pattern` (issue #31 item 9): a schema a peer lists may carry a pattern whose program is tens of thousands
// of instructions. Validation spends at most 1,000,000 + 64 regex steps per UTF-16 unit of the validated text, so its
// time grows linearly with the argument: the figure is the time per doubling of the argument (target at most 2.2x),
// beside a benign pattern on the same arguments as the baseline.
// Run alone: node --expose-gc --import tsx bench/schema-regex.bench.ts [--json]
import { bench, do_not_optimize, run } from "mitata";
import { validateArguments } from "../src/turn/validate.js";
import { round3, type SummaryRow } from "./support.js";

const json = process.argv.includes("--json");

const HOSTILE = JSON.stringify({ type: "object", properties: { q: { type: "string", pattern: `${"x{1000}".repeat(99)}z` } } });
const BENIGN = JSON.stringify({ type: "object", properties: { q: { type: "string", pattern: "^[a-z]+$" } } });
const SIZES = [4_000, 8_000, 16_000, 32_000, 64_000];
const args = SIZES.map((n) => JSON.stringify({ q: "x".repeat(n) }));
const label = (n: number): string => `${n / 1000}k chars`;

// Compiled once before the runs (the schema cache keeps them): the figures are validation only.
validateArguments("t", HOSTILE, args[0] as string);
validateArguments("t", BENIGN, args[0] as string);
args.forEach((text, i) => {
  bench(`hostile pattern, ${label(SIZES[i] as number)}`, () => do_not_optimize(validateArguments("t", HOSTILE, text)));
  bench(`benign pattern, ${label(SIZES[i] as number)}`, () => do_not_optimize(validateArguments("t", BENIGN, text)));
});

const results = await run(json ? { format: "quiet", colors: false } : { colors: false });
const medianMs = (name: string): number => {
  const stats = results.benchmarks.find((b) => b.alias === name)?.runs[0]?.stats;
  if (stats === undefined) throw new Error(`no result for ${name}`);
  return stats.p50 / 1e6;
};
const hostileMs = SIZES.map((n) => medianMs(`hostile pattern, ${label(n)}`));
const benignMs = SIZES.map((n) => medianMs(`benign pattern, ${label(n)}`));
let perDoubling = 0;
for (let i = 1; i < SIZES.length; i++) perDoubling = Math.max(perDoubling, (hostileMs[i] as number) / (hostileMs[i - 1] as number));
const figures = {
  statistic: "median",
  sizes: SIZES,
  hostileMs: hostileMs.map(round3),
  benignMs: benignMs.map(round3),
  hostilePerDoubling: round3(perDoubling),
  hostileVsBenignAt64k: round3((hostileMs[4] as number) / (benignMs[4] as number)),
  target: { hostilePerDoublingMax: 2.2 },
};

if (json) {
  const rows: SummaryRow[] = [
    { name: "schema pattern budget: time per doubling of the argument, hostile pattern (4k to 64k chars)", value: figures.hostilePerDoubling, unit: "x", max: 2.2 },
    { name: "schema pattern budget: hostile / benign pattern at 64k chars", value: figures.hostileVsBenignAt64k, unit: "x" },
  ];
  console.log(JSON.stringify({ area: "schema-regex", ...figures, summary: rows }));
} else {
  console.log(`\nhostile pattern: ${figures.hostileMs.join(" / ")} ms for ${SIZES.map(label).join(" / ")}; ${figures.hostilePerDoubling}x per doubling (target <= 2.2x)`);
  console.log(`benign pattern (baseline): ${figures.benignMs.join(" / ")} ms; hostile / benign at 64k chars: ${figures.hostileVsBenignAt64k}x`);
}
