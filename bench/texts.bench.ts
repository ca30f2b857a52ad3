// Peer texts (issue #31 items 5 and 6): the CLI's terminal escape and the 512-byte cut of a model-visible
// peer text. Both must be linear in the text: the figure is the time per doubling of a hostile text (one
// control character in every 8), at most 2.2x. Also backend-check's error-body verdict (#36 part 3), which
// reads the first 64 KiB of an error text: per doubling of a text of newlines and of one long frame line.
// Run alone: node --expose-gc --import tsx bench/texts.bench.ts [--json]
import { bench, do_not_optimize, run } from "mitata";
import { escapeTerminalText } from "../src/cli/terminal-text.js";
import { boundPeerText } from "../src/core/index.js";
import { errorBodyProblems } from "../src/backend-check/error-body.js";
import { round3, type SummaryRow } from "./support.js";

const json = process.argv.includes("--json");

/** `n` characters: 7 letters, then one control character, over and over (ESC, BEL, U+009B, DEL in turn). */
function hostile(n: number): string {
  const controls = ["\x1b", "\x07", "\u009b", "\x7f"];
  let unit = "";
  for (let i = 0; i < 64; i++) unit += `abcdefg${controls[i % controls.length]}`;
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

const SIZES = [256 * 1024, 512 * 1024, 1024 * 1024];
const texts = SIZES.map(hostile);
const clean = "x".repeat(SIZES[2] as number);
const label = (n: number): string => `${n / 1024} KiB`;

texts.forEach((text, i) => {
  // A collection before each run: the garbage of the previous run's 1 MiB output would land in the next one.
  bench(`escapeTerminalText, hostile ${label(SIZES[i] as number)}`, () => do_not_optimize(escapeTerminalText(text))).gc("inner");
});
bench(`escapeTerminalText, no control character, ${label(SIZES[2] as number)}`, () => do_not_optimize(escapeTerminalText(clean)));
texts.forEach((text, i) => {
  bench(`boundPeerText, ${label(SIZES[i] as number)}`, () => do_not_optimize(boundPeerText(text)));
});

const BODY_SIZES = [16 * 1024, 32 * 1024, 64 * 1024];
const newlines = BODY_SIZES.map((n) => "\n".repeat(n));
const frameLine = BODY_SIZES.map((n) => `\n at ${"a".repeat(n - 5)}`);
BODY_SIZES.forEach((n, i) => {
  bench(`errorBodyProblems, newlines ${label(n)}`, () => do_not_optimize(errorBodyProblems(newlines[i] as string, n, true, false)));
  bench(`errorBodyProblems, one frame line ${label(n)}`, () => do_not_optimize(errorBodyProblems(frameLine[i] as string, n, true, false)));
});

const results = await run(json ? { format: "quiet", colors: false } : { colors: false });
const medianUs = (name: string): number => {
  const stats = results.benchmarks.find((b) => b.alias === name)?.runs[0]?.stats;
  if (stats === undefined) throw new Error(`no result for ${name}`);
  return stats.p50 / 1000;
};
const escapeUs = SIZES.map((n) => medianUs(`escapeTerminalText, hostile ${label(n)}`));
const boundUs = SIZES.map((n) => medianUs(`boundPeerText, ${label(n)}`));
const perDoubling = (us: readonly number[]): number => round3(Math.max((us[1] as number) / (us[0] as number), (us[2] as number) / (us[1] as number)));
const bodyUs = BODY_SIZES.map((n) => Math.max(medianUs(`errorBodyProblems, newlines ${label(n)}`), medianUs(`errorBodyProblems, one frame line ${label(n)}`)));
const figures = {
  statistic: "median",
  escapeUs: escapeUs.map(round3),
  escapeCleanUs: round3(medianUs(`escapeTerminalText, no control character, ${label(SIZES[2] as number)}`)),
  escapePerDoubling: perDoubling(escapeUs),
  boundUs: boundUs.map(round3),
  errorBodyUs: bodyUs.map(round3),
  errorBodyPerDoubling: perDoubling(bodyUs),
  target: { escapePerDoublingMax: 2.2, errorBodyPerDoublingMax: 2.2 },
};

if (json) {
  const rows: SummaryRow[] = [
    { name: "CLI terminal escape: time per doubling of a hostile text (256 KiB to 1 MiB)", value: figures.escapePerDoubling, unit: "x", max: 2.2 },
    { name: "CLI terminal escape: hostile 1 MiB text", value: figures.escapeUs[2] ?? null, unit: "us" },
    { name: "peer text cut (512 bytes) of a 1 MiB text", value: figures.boundUs[2] ?? null, unit: "us" },
    { name: "backend-check error-body verdict: time per doubling of a hostile text (16 to 64 KiB)", value: figures.errorBodyPerDoubling, unit: "x", max: 2.2 },
  ];
  console.log(JSON.stringify({ area: "texts", ...figures, summary: rows }));
} else {
  console.log(`\nescapeTerminalText, hostile text (1 in 8 a control): ${figures.escapeUs.join(" / ")} us for ${SIZES.map(label).join(" / ")}; ${figures.escapePerDoubling}x per doubling (target <= 2.2x)`);
  console.log(`escapeTerminalText, 1 MiB with no control character: ${figures.escapeCleanUs} us`);
  console.log(`boundPeerText: ${figures.boundUs.join(" / ")} us (independent of the text's length)`);
  console.log(`errorBodyProblems, the slower of newlines and one frame line: ${figures.errorBodyUs.join(" / ")} us for ${BODY_SIZES.map(label).join(" / ")}; ${figures.errorBodyPerDoubling}x per doubling (target <= 2.2x)`);
}
