import { test } from "node:test";
import assert from "node:assert/strict";
import { formatGoDuration, parseGoDuration } from "./duration.js";
import { ConfigError } from "./errors.js";

test("parses Go duration strings into milliseconds", () => {
  const cases: [string, number][] = [
    ["300ms", 300],
    ["1.5s", 1500],
    ["2m", 120_000],
    ["1h30m", 5_400_000],
    ["1m30s", 90_000],
    ["0", 0],
    ["", 0],
    ["30s", 30_000],
    ["100ms", 100],
    [".5s", 500],
    ["1.s", 1000],
    ["+5s", 5000],
    ["-1.5s", -1500],
    ["1500us", 1.5],
    ["1500\u00b5s", 1.5],
    ["1500\u03bcs", 1.5],
    ["2000000ns", 2],
    ["1h1m1s1ms", 3_661_001],
    ["0s", 0],
  ];
  for (const [text, ms] of cases) assert.equal(parseGoDuration(text), ms, text);
});

test("a bad duration throws a ConfigError naming the value and the path", () => {
  const cases: [string, string][] = [
    ["not-a-duration", 'invalid duration "not-a-duration"'],
    ["bad", 'invalid duration "bad"'],
    ["1", 'invalid duration "1": missing unit; valid units are ns, us, ms, s, m, h'],
    ["1x", 'invalid duration "1x": unknown unit "x"; valid units are ns, us, ms, s, m, h'],
    ["1sec", 'invalid duration "1sec": unknown unit "sec"; valid units are ns, us, ms, s, m, h'],
    [".s", 'invalid duration ".s"'],
    ["-", 'invalid duration "-"'],
    ["s", 'invalid duration "s"'],
    ["1d", 'invalid duration "1d": unknown unit "d"; valid units are ns, us, ms, s, m, h'],
    ["3000000h", 'invalid duration "3000000h"'],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseGoDuration(text, "spec.handlers[0].timeout"),
      (e: unknown) => e instanceof ConfigError && e.message === `spec.handlers[0].timeout: ${message}` && e.issues[0]?.path === "spec.handlers[0].timeout",
      text,
    );
  }
});

test("formats milliseconds as Go's Duration.String()", () => {
  const cases: [number, string][] = [
    [0, "0s"],
    [100, "100ms"],
    [1000, "1s"],
    [1500, "1.5s"],
    [90_000, "1m30s"],
    [60_000, "1m0s"],
    [3_600_000, "1h0m0s"],
    [5_400_000, "1h30m0s"],
    [30_000, "30s"],
    [0.002, "2\u00b5s"],
    [0.0015, "1.5\u00b5s"],
    [0.000001, "1ns"],
    [1.5, "1.5ms"],
    [-1500, "-1.5s"],
    [3_661_001, "1h1m1.001s"],
  ];
  for (const [ms, text] of cases) assert.equal(formatGoDuration(ms), text, String(ms));
});

test("format and parse round-trip", () => {
  for (const ms of [1, 250, 1000, 61_500, 7_200_000, 0.5]) assert.equal(parseGoDuration(formatGoDuration(ms)), ms);
});
