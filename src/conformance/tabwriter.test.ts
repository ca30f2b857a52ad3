import { test } from "node:test";
import assert from "node:assert/strict";
import { tabwrite } from "./tabwriter.js";
import { formatConformanceReport } from "./report.js";

test("the verified example of contract.md §3.3, byte for byte", () => {
  const out = formatConformanceReport({
    passed: false,
    checks: [
      { name: "health/contract", status: "pass", detail: "" },
      { name: "hello-first", status: "pass", detail: "" },
      { name: "text-turn-shape", status: "pass", detail: "" },
      { name: "graceful-malformed-input", status: "pass", detail: "" },
      { name: "invoke-honesty", status: "fail", detail: "Invoke is answered but `invoke` is not advertised" },
      { name: "duplex-honesty", status: "skip", detail: "duplex_audio not advertised" },
    ],
  });
  assert.equal(
    out,
    [
      "CHECK                     STATUS  DETAIL",
      "health/contract           pass    ",
      "hello-first               pass    ",
      "text-turn-shape           pass    ",
      "graceful-malformed-input  pass    ",
      "invoke-honesty            fail    Invoke is answered but `invoke` is not advertised",
      "duplex-honesty            skip    duplex_audio not advertised",
      "",
      "FAIL: runtime is not conformant",
      "",
    ].join("\n"),
  );
});

test("PASS line, and the column width follows the widest cell (header included)", () => {
  const out = formatConformanceReport({ passed: true, checks: [{ name: "a", status: "skip", detail: "skipped: runtime advertises no capabilities (legacy \u2014 pre-negotiation)" }] });
  assert.equal(out, "CHECK  STATUS  DETAIL\na      skip    skipped: runtime advertises no capabilities (legacy \u2014 pre-negotiation)\n\nPASS: runtime is conformant\n");
});

test("widths count runes, not UTF-16 units or bytes", () => {
  assert.equal(tabwrite("\u00e9\u00e9\tx\nabcd\ty\n"), "\u00e9\u00e9    x\nabcd  y\n");
  assert.equal(tabwrite("\u{1f600}\tx\nab\ty\n"), "\u{1f600}   x\nab  y\n");
});

test("a newline inside a detail ends the column block, as in Go", () => {
  // Lines: [CHECK,STATUS,DETAIL] [a,pass,x] [y] [longname,fail,""]: the one-cell line
  // "y" splits column 0 into two blocks with their own widths.
  const out = tabwrite("CHECK\tSTATUS\tDETAIL\na\tpass\tx\ny\nlongname\tfail\t\n");
  assert.equal(out, "CHECK  STATUS  DETAIL\na      pass    x\ny\nlongname  fail  \n");
});

test("a line with fewer cells ends only the blocks to its right", () => {
  // Column 0 spans all three lines; column 1 is split by the middle line.
  assert.equal(tabwrite("a\tbbbb\tc\nxx\ty\nz\tq\tr\n"), "a   bbbb  c\nxx  y\nz   q  r\n");
});

test("\\v terminates a cell like a tab; \\f is written as a newline and ends every block", () => {
  assert.equal(tabwrite("a\vb\nccc\td\n"), "a    b\nccc  d\n");
  assert.equal(tabwrite("a\tb\fccc\td\n"), "a  b\nccc  d\n");
});

test("text without a trailing newline keeps its last line", () => {
  assert.equal(tabwrite("a\tb\ncc\td"), "a   b\ncc  d");
  assert.equal(tabwrite(""), "");
});
