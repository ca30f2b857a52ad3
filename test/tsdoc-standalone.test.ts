// TSDoc and comments under src/ state each rule themselves. They never cite a
// document the package does not ship: the design notes the library was written
// from (`http.md §1.4.1`, `runtime-tools.md`, `API.md decision 5`, `seed 004`)
// mean nothing to a user reading the .d.ts files in node_modules. A comment may
// point at Omnia instead, by a docs page title or a Go file name a user can open.
// Generated code (src/gen) and test files are not shipped as declarations and
// are exempt.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const SRC = "src";

/** Citations of documents the package does not ship. */
const PATTERNS: readonly RegExp[] = [
  /\b(?:http|runtime-tools|contract|API|promptkit|observability|stack|STYLE)\.md\b/i,
  /\bseeds? ?0*\d{1,3}\b/i,
  /\bdecision \d+\b/i,
  /§/,
];

const CONTINUATION = /^\s*(?:\*(?!\/)|\/\/)?\s*/;

function cites(text: string): boolean {
  return PATTERNS.some((p) => p.test(text));
}

/**
 * The 1-based lines of `text` that carry a citation. A citation broken across
 * two comment lines (`seed` / ` * 004`) is reported at its first line.
 */
function citationLines(text: string): number[] {
  const lines = text.split(/\r?\n/);
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const next = (lines[i + 1] ?? "").replace(CONTINUATION, "");
    if (cites(line) || (!cites(next) && cites(`${line} ${next}`))) out.push(i + 1);
  }
  return out;
}

function shippedSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (relative(SRC, path).split(sep)[0] === "gen") continue;
      out.push(...shippedSources(path));
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
      out.push(path);
    }
  }
  return out.sort();
}

test("citationLines finds every form of an unshipped citation, and nothing else", () => {
  const sample = [
    "/**", // 1
    " * Defaults applied (http.md §1.4.1).", // 2
    " * See runtime-tools.md and contract.md.", // 3
    " * Refused at load (API.md decision 5).", // 4
    " * As seed 004 says, and Seed 003 too.", // 5
    " * merged in seed", // 6
    " * 004's order.", // 7
    " * Settled by decision 11.", // 8
    " * Layout per STYLE.md, promptkit.md, observability.md, stack.md.", // 9
    " * Omnia's `internal/runtime/tools/http_client.go` and its \"Tool backend protocol\" page.", // 10
    " * RFC 9113 section 8.1; README.md; a random seed; POLICY_BROKER_DECISION_PATH.", // 11
    " */", // 12
    "const seeds = [1, 2];", // 13
  ].join("\n");
  assert.deepEqual(citationLines(sample), [2, 3, 4, 5, 6, 8, 9]);
});

test("no file under src/ cites a document the package does not ship", () => {
  const files = shippedSources(SRC);
  assert.ok(files.length > 100, `expected the library's sources under ${SRC}/, found ${files.length} files`);
  const hits: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const lines = text.split(/\r?\n/);
    for (const n of citationLines(text)) hits.push(`${file.split(sep).join("/")}:${n}: ${(lines[n - 1] ?? "").trim()}`);
  }
  assert.deepEqual(hits, [], `state the rule itself, or cite Omnia by docs page or Go file name:\n${hits.join("\n")}`);
});
