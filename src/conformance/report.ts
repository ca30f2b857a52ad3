import type { ConformanceResult } from "./run-conformance.js";
import { tabwrite } from "./tabwriter.js";

/**
 * Formats a result exactly as the `runtime-conformance` CLI prints it (and as
 * Omnia's Go CLI does): a `CHECK` / `STATUS` / `DETAIL` table aligned like Go's
 * `text/tabwriter` (columns padded with spaces to the widest cell plus 2; the
 * detail column is not padded, so a row with an empty detail ends in spaces),
 * an empty line, then `PASS: runtime is conformant` or
 * `FAIL: runtime is not conformant`, newline-terminated.
 * @public
 */
export function formatConformanceReport(result: ConformanceResult): string {
  const rows = ["CHECK\tSTATUS\tDETAIL", ...result.checks.map((c) => `${c.name}\t${c.status}\t${c.detail}`)];
  const summary = result.passed ? "PASS: runtime is conformant" : "FAIL: runtime is not conformant";
  return `${tabwrite(`${rows.join("\n")}\n`)}\n${summary}\n`;
}
