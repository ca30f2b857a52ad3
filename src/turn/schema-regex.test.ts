// Go regexp (RE2) semantics of `pattern` and `patternProperties`: what
// compiles, what matches, and a matcher that stays linear where a
// backtracking engine would not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileGoRegexp, RegexBudgetExceeded } from "./schema-regex.js";

function match(pattern: string, text: string): boolean | "invalid" {
  const re = compileGoRegexp(pattern);
  return re === undefined ? "invalid" : re.test(text);
}

test("RE2 syntax Go refuses does not compile", () => {
  for (const p of ["(?<=a)b", "(?=a)", "(?!a)", "(a)\\1", "\\Z", "a**", "*a", "(a", "a)", "[z-a]", "a{1001}", "x{2,1}", "\\", "[a", "\\p{Nope}", "(?i-)a", `${"(".repeat(1001)}${")".repeat(1001)}`]) {
    assert.equal(match(p, "a"), "invalid", p);
  }
});

test("Go's classes, anchors and flags", () => {
  assert.equal(match("^\\p{Greek}+$", "αβγ"), true);
  assert.equal(match("^\\pL+$", "a'b"), false);
  assert.equal(match("\\Aab\\z", "ab"), true);
  assert.equal(match("^(?i)abc$", "ABC"), true);
  assert.equal(match("(?i)k", "\u212a"), true); // Kelvin sign folds to k
  assert.equal(match("^\\Q.*\\E$", ".*"), true);
  assert.equal(match("^\\Q.*\\E$", "ab"), false);
  assert.equal(match("a.c", "a\nc"), false);
  assert.equal(match("a.c", "a\rc"), true); // only \n is excluded, unlike JavaScript's `.`
  assert.equal(match("(?s)a.c", "a\nc"), true);
  assert.equal(match("^\\s$", "\u000b"), false); // Go's \s is [\t\n\f\r ]
  assert.equal(match("^\\s$", "\u00a0"), false);
  assert.equal(match("(?m)^b$", "a\nb\nc"), true);
  assert.equal(match("b$", "b\n"), false); // $ is the end of the text
  assert.equal(match("\\bfoo\\b", "a foo b"), true);
  assert.equal(match("[[:alpha:]]+$", "ab"), true);
  assert.equal(match("^\\x{1F600}$", "😀"), true);
  assert.equal(match("^[😀-😂]$", "😁"), true);
  assert.equal(match("^\\101$", "A"), true); // octal
  assert.equal(match("^(?P<y>\\d{4})-\\d{2}$", "2024-01"), true);
  assert.equal(match("^[^\\PL]$", "x"), true);
  assert.equal(match("^[^\\PL]$", "1"), false);
  assert.equal(match("x{", "x{"), true); // a brace that is not a repeat is literal
  assert.equal(match("colou?r", "my color"), true); // unanchored search
});

test("nested quantifiers match in time linear in the text", () => {
  assert.equal(match("^(a+)+$", `${"a".repeat(50_000)}!`), false);
  assert.equal(match("^(\\w+\\s?)*$", `${"a ".repeat(50_000)}!`), false);
  assert.equal(match("^(\\w+\\s?)*$", "a ".repeat(50_000)), true);
});

test("Go's repeatIsValid: nested counted repetitions make at most 1000 copies (issue #31 item 9)", () => {
  const cases: readonly [string, boolean][] = [
    ["x{1000}", true],
    ["x{1001}", false],
    ["(?:x{10}){100}", true],
    ["(?:x{10}){101}", false],
    ["(?:x{999}){99}z", false],
    ["(?:x{2}){500}", true],
    ["(?:x{2}){501}", false],
    ["(?:(?:x{2}){2}){250}", true],
    ["(?:(?:x{2}){2}){251}", false],
    ["(?:x{10,}){100}", true],
    ["(?:x{11,}){100}", false],
    ["(?:x{0}){1000}", true],
    ["(?:x*){1000}", true],
    ["(?:x+){1000}", true],
    ["(?:x?){1000}", true],
    ["(?:x{1}){1000}", true],
    ["a{2}b{1000}", true],
    ["(?:a{1000}|b{1000}){1}", true],
  ];
  for (const [pattern, valid] of cases) assert.equal(compileGoRegexp(pattern) !== undefined, valid, pattern);
});

test("a match takes its steps from a budget and throws RegexBudgetExceeded once it is spent", () => {
  const re = compileGoRegexp(`${"x{1000}".repeat(20)}z`)!;
  const budget = { left: 100_000, total: 100_000 };
  assert.throws(
    () => re.test("x".repeat(5000), budget),
    (e: unknown) => e instanceof RegexBudgetExceeded && e.total === 100_000 && e.message === "regex budget of 100000 steps exceeded",
  );
  assert.ok(budget.left < 0);
  // A benign pattern spends a few steps per character: 1,000 characters stay far inside 100,000 steps.
  const benign = { left: 100_000, total: 100_000 };
  assert.equal(compileGoRegexp("^[a-z]+$")!.test("a".repeat(1000), benign), true);
  assert.equal(benign.left, 94_004);
});
