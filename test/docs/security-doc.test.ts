// SECURITY.md's table cannot drift from the tests (issue #31): every channel has a cell for every guarantee, every
// cell is a citation or an explained n/a, and every citation names a file in test/security/ and a test title in it
// (the quoted fragments, split at …, occur in that order in one test title of the file; a title built from a
// template matches on its literal parts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";

const DOC = readFileSync("SECURITY.md", "utf8");
const GUARANTEES = ["Origin", "Secrets", "CPU", "Memory", "Time", "Typed outcome", "One record"];

/** The table's rows as cells, the header's included (the `|---|` line is not one). */
function rows(): string[][] {
  const start = DOC.indexOf("## Channels × guarantees");
  assert.ok(start >= 0, "SECURITY.md has the table's section");
  const lines = DOC.slice(start).split("\n").filter((l) => l.startsWith("| "));
  // A cell may hold `|` only inside backticks; this table has none.
  return lines.map((l) => l.slice(2, -2).split(" | "));
}

/** The raw text of every test title in a file (a template's `${…}` left as is), unescaped as the string reads. */
function titles(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of source.matchAll(/\b(?:test|faultTest)\(\s*(?:"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\])*)`)/g)) {
    out.push((m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1"));
  }
  return out;
}

/** Whether `fragments` occur, in order, in `title` (each fragment may also span a template's `${…}` nowhere). */
function inOrder(title: string, fragments: readonly string[]): boolean {
  let at = 0;
  for (const fragment of fragments) {
    const i = title.indexOf(fragment, at);
    if (i < 0) return false;
    at = i + fragment.length;
  }
  return true;
}

test("SECURITY.md: one row per channel, a cell for each of the seven guarantees, none empty", () => {
  const [header, ...body] = rows();
  assert.deepEqual(header?.slice(1), GUARANTEES);
  assert.equal(body.length, 26);
  for (const row of body) {
    assert.equal(row.length, 8, row[0]);
    for (const [i, cell] of row.entries()) {
      if (i === 0) continue;
      assert.ok(cell.startsWith("n/a: ") || /`[a-z0-9-]+` › "/.test(cell), `${row[0]} / ${GUARANTEES[i - 1]}: ${cell}`);
    }
  }
});

test("SECURITY.md: every cited test exists in test/security/", () => {
  const [, ...body] = rows();
  let citations = 0;
  for (const row of body) {
    for (const cell of row.slice(1)) {
      // `file` › "title", "title" …: the quoted titles up to the next `file` or the end of the cell.
      for (const m of cell.matchAll(/`([a-z0-9-]+)` › ((?:"[^"]*"(?:, )?)+)/g)) {
        const file = `test/security/${m[1]}.test.ts`;
        assert.ok(existsSync(file), `${row[0]}: ${file} does not exist`);
        const known = titles(file);
        for (const quoted of (m[2] as string).matchAll(/"([^"]*)"/g)) {
          const fragments = (quoted[1] as string).split("…").map((f) => f.trim()).filter((f) => f !== "");
          assert.ok(
            known.some((t) => inOrder(t, fragments)),
            `${row[0]}: no test in ${file} is titled like "${quoted[1]}"`,
          );
          citations++;
        }
      }
    }
  }
  assert.ok(citations >= 100, String(citations));
});
