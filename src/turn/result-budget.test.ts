// The result budget: its check, the exact texts of the three cuts (multi-byte
// characters and JSON escapes at the cut), hostile shapes (5 MB, 10,000 levels
// deep), and a seeded property test of the JSON-aware cut against an
// independent rendering of its skeleton.
import { test } from "node:test";
import assert from "node:assert/strict";
import { InvalidOptionError } from "../core/index.js";
import { random } from "../../test/helpers/json-texts.js";
import { applyResultBudget, budgetBytes, checkResultBudget, type ResultBudget, type ResultBudgetCut } from "./result-budget.js";

const CUTS: readonly ResultBudgetCut[] = ["head", "head+tail", "json-aware"];
const bytesOf = (text: string): number => Buffer.byteLength(text, "utf8");
const cutTo = (text: string, maxBytes: number, cut: ResultBudgetCut): string => applyResultBudget(text, { maxBytes, cut }).content;
const notice = (omitted: number, size: number): string => `... [cut to the result budget: ${omitted} of ${size} bytes left out]`;
const items = (n: number): string => `"... [${n} more items cut to the result budget]"`;

test("a text at or under the limit comes back unchanged, whatever the cut", () => {
  for (const cut of CUTS) {
    for (const text of ["", "héllo", '{\n  "a": 1\n}', "not json {"]) {
      for (const maxBytes of [bytesOf(text), bytesOf(text) + 1]) {
        if (maxBytes === 0) continue;
        const result = applyResultBudget(text, { maxBytes, cut });
        assert.deepEqual(result, { content: text, cut: false, originalBytes: bytesOf(text) });
        assert.equal(result.content, text);
      }
    }
  }
  // One byte over: the notice counts the one byte left out.
  assert.deepEqual(applyResultBudget("héllo!", { maxBytes: 6 }), { content: `héllo\n${notice(1, 7)}`, cut: true, originalBytes: 7 });
  assert.deepEqual(applyResultBudget("héllo!", { maxBytes: 6, cut: "head+tail" }), { content: `hé\n${notice(1, 7)} ...\nlo!`, cut: true, originalBytes: 7 });
});

test("head: the first bytes up to the limit, cut between characters, then the notice", () => {
  // a (1) é (2) 😀 (4) b (1): 8 bytes.
  const text = "aé😀b";
  const expected: Record<number, string> = {
    1: `a\n${notice(7, 8)}`,
    2: `a\n${notice(7, 8)}`,
    3: `aé\n${notice(5, 8)}`,
    6: `aé\n${notice(5, 8)}`,
    7: `aé😀\n${notice(1, 8)}`,
  };
  for (const [limit, content] of Object.entries(expected)) assert.equal(cutTo(text, Number(limit), "head"), content, `limit ${limit}`);
  // The default cut is head; a lone surrogate counts as the 3 bytes of its U+FFFD.
  assert.equal(applyResultBudget("a\ud800bc", { maxBytes: 3 }).content, `a\n${notice(5, 6)}`);
  assert.equal(applyResultBudget("a\ud800bc", { maxBytes: 4 }).content, `a\ud800\n${notice(2, 6)}`);
});

test("head+tail: half the limit from the start, the rest from the end, both between characters", () => {
  const text = "aé😀b";
  assert.equal(cutTo(text, 7, "head+tail"), `aé\n${notice(4, 8)} ...\nb`);
  assert.equal(cutTo(text, 6, "head+tail"), `aé\n${notice(4, 8)} ...\nb`);
  assert.equal(cutTo(text, 1, "head+tail"), `\n${notice(7, 8)} ...\nb`);
  assert.equal(cutTo("😀😀😀", 10, "head+tail"), `😀\n${notice(4, 12)} ...\n😀`);
  // Bytes the head cannot use (the emoji does not fit its 3) go to the tail.
  assert.equal(cutTo("😀abcdef", 6, "head+tail"), `\n${notice(4, 10)} ...\nabcdef`);
  assert.equal(cutTo("ééééé", 5, "head+tail"), `é\n${notice(6, 10)} ...\né`);
  // A surrogate pair is not split at the tail's start either.
  assert.equal(cutTo("abcdef😀z", 6, "head+tail"), `abc\n${notice(7, 11)} ...\nz`);
});

test("json-aware: arrays keep their first items and a marker, keys and layout stay", () => {
  const text = [
    "{",
    '  "user": {',
    '    "name": "Ada",',
    '    "roles": [',
    '      "admin",',
    '      "dev",',
    '      "ops"',
    "    ],",
    '    "meta": {}',
    "  },",
    '  "items": [',
    "    {",
    '      "id": 1,',
    '      "title": "first title here"',
    "    },",
    "    {",
    '      "id": 2,',
    '      "title": "second title here"',
    "    },",
    "    {",
    '      "id": 3,',
    '      "title": "third title here"',
    "    }",
    "  ],",
    '  "empty": [],',
    '  "n": [',
    "    null",
    "  ]",
    "}",
  ].join("\n");
  assert.equal(bytesOf(text), 357);
  const at300 = cutTo(text, 300, "json-aware");
  assert.equal(
    at300,
    [
      "{",
      '  "user": {',
      '    "name": "Ada",',
      '    "roles": [',
      '      "admin",',
      '      "dev",',
      '      "ops"',
      "    ],",
      '    "meta": {}',
      "  },",
      '  "items": [',
      "    {",
      '      "id": 1,',
      '      "title": "first title here"',
      "    },",
      `    ${items(2)}`,
      "  ],",
      '  "empty": [],',
      '  "n": [',
      "    null",
      "  ]",
      "}",
    ].join("\n"),
  );
  assert.equal(bytesOf(at300), 283);
  // Tighter: the skeleton. An array whose items take no more room than the marker keeps them ("roles", "n").
  const at230 = cutTo(text, 230, "json-aware");
  assert.equal(
    at230,
    [
      "{",
      '  "user": {',
      '    "name": "Ada",',
      '    "roles": [',
      '      "admin",',
      '      "dev",',
      '      "ops"',
      "    ],",
      '    "meta": {}',
      "  },",
      '  "items": [',
      `    ${items(3)}`,
      "  ],",
      '  "empty": [],',
      '  "n": [',
      "    null",
      "  ]",
      "}",
    ].join("\n"),
  );
  assert.equal(bytesOf(at230), 221);
  for (const out of [at300, at230]) assert.deepEqual(Object.keys(JSON.parse(out) as object), ["user", "items", "empty", "n"]);
  // The skeleton (221 bytes) is far over 100 bytes: head+tail instead.
  assert.equal(cutTo(text, 100, "json-aware"), cutTo(text, 100, "head+tail"));
  assert.equal(cutTo(text, 100, "json-aware"), `${text.slice(0, 50)}\n${notice(257, 357)} ...\n${text.slice(-50)}`);
});

test("json-aware: a long string keeps a start that splits no escape, surrogate pair or character", () => {
  const x = (n: number): string => "x".repeat(n);
  const text = [
    "{",
    `  "a": "${x(31)}\\"quoted\\" and a long tail after it",`,
    `  "b": "${x(31)}\\u00e9 and a long tail after the escape",`,
    `  "c": "${x(30)}😀 and a long tail after the emoji here",`,
    `  "d": "${x(28)}\\ud83d\\ude00 and a long tail after the pair",`,
    `  "e": "${x(31)}\\\\ a backslash and a long tail after it"`,
    "}",
  ].join("\n");
  assert.equal(bytesOf(text), 405);
  const expected: Record<number, string[]> = {
    // String cap 32: each escape, the emoji and the escaped pair would cross it.
    300: [`${x(31)}... [35 bytes cut]`, `${x(31)}... [39 bytes cut]`, `${x(30)}... [41 bytes cut]`, `${x(28)}... [43 bytes cut]`, `${x(31)}... [39 bytes cut]`],
    // String cap 39: the escaped pair (12 bytes from byte 28) still would.
    340: [
      `${x(31)}\\"quoted... [27 bytes cut]`,
      `${x(31)}\\u00e9 a... [31 bytes cut]`,
      `${x(30)}😀 and ... [32 bytes cut]`,
      `${x(28)}... [43 bytes cut]`,
      `${x(31)}\\\\ a bac... [31 bytes cut]`,
    ],
    360: [
      `${x(31)}\\"quoted\\" ... [24 bytes cut]`,
      `${x(31)}\\u00e9 and ... [28 bytes cut]`,
      `${x(30)}😀 and a l... [29 bytes cut]`,
      `${x(28)}\\ud83d\\ude00 a... [29 bytes cut]`,
      `${x(31)}\\\\ a backsl... [28 bytes cut]`,
    ],
    200: [`${x(10)}... [56 bytes cut]`, `${x(10)}... [60 bytes cut]`, `${x(10)}... [61 bytes cut]`, `${x(10)}... [61 bytes cut]`, `${x(10)}... [60 bytes cut]`],
  };
  for (const [limit, strings] of Object.entries(expected)) {
    const out = cutTo(text, Number(limit), "json-aware");
    const want = `{\n${strings.map((s, i) => `  "${"abcde"[i] as string}": "${s}"`).join(",\n")}\n}`;
    assert.equal(out, want, `limit ${limit}`);
    assert.ok(bytesOf(out) <= Number(limit));
    const parsed = JSON.parse(out) as Record<string, string>;
    const original = JSON.parse(text) as Record<string, string>;
    for (const [key, value] of Object.entries(parsed)) assert.ok((original[key] as string).startsWith(value.slice(0, value.lastIndexOf("... ["))));
  }
  // The n counts bytes as written: "a" has 66 bytes between its quotes, of which 31 are kept at 300.
  assert.equal(bytesOf(`${x(31)}\\"quoted\\" and a long tail after it`), 66);
});

test("json-aware: numbers, literals and keys are copied as written", () => {
  const text = '{\n  "big": 12345678901234567890123,\n  "huge": 1e400,\n  "list": [\n    -0,\n    1.50,\n    1e400,\n    12345678901234567890123,\n    -1.5E-7\n  ],\n  "ok": true,\n  "none": null,\n  "caf\\u00e9 \\"k\\"": 0\n}';
  const size = bytesOf(text);
  // One byte short: the last three items give way to the (shorter) marker.
  assert.equal(
    cutTo(text, size - 1, "json-aware"),
    '{\n  "big": 12345678901234567890123,\n  "huge": 1e400,\n  "list": [\n    -0,\n    1.50,\n    "... [3 more items cut to the result budget]"\n  ],\n  "ok": true,\n  "none": null,\n  "caf\\u00e9 \\"k\\"": 0\n}',
  );
  // Compact JSON comes out in the turn stage's layout. At 60 bytes even the skeleton (100 bytes) is over,
  // but it is shorter than head+tail would be (60 bytes and a 60-byte notice): it is the answer.
  const compact = '{"n":[1e400,-0,1.50,12345678901234567890123],"s":"t","e":{},"a":[]}';
  const laidOut = '{\n  "n": [\n    1e400,\n    -0,\n    1.50,\n    12345678901234567890123\n  ],\n  "s": "t",\n  "e": {},\n  "a": []\n}';
  assert.deepEqual(applyResultBudget(compact, { maxBytes: 60, cut: "json-aware" }), { content: `{\n  "n": [\n    ${items(4)}\n  ],\n  "s": "t",\n  "e": {},\n  "a": []\n}`, cut: true, originalBytes: 67 });
  assert.equal(bytesOf(cutTo(compact, 60, "head+tail")), 120);
  // Over the limit only by the space around it: laid out again, nothing is cut.
  assert.equal(applyResultBudget(` ${laidOut} `, { maxBytes: bytesOf(laidOut), cut: "json-aware" }).content, laidOut);
});

test("json-aware: text that is not an object or array falls back to head+tail", () => {
  const long = `"${"é".repeat(40)}"`;
  for (const text of [long, "12345678901234567890123456789", "[1, 2,]", '{"a": 1} x', '{"a": "\t"}', "[" + "1,".repeat(20) + "]", "not json at all, really", '{"a" 1}', "[01]", '{"a": tru}']) {
    const limit = 12;
    assert.equal(cutTo(text, limit, "json-aware"), cutTo(text, limit, "head+tail"), text);
  }
  assert.equal(cutTo(long, 12, "json-aware"), `"éé\n${notice(70, 82)} ...\nééé"`);
});

test("json-aware: a skeleton over the limit is kept when no longer than head+tail, else head+tail", () => {
  // An object keeps every key: its skeleton is the whole object, 20 lines of 11 bytes (the last without a comma) and the braces.
  const text = `{\n${Array.from({ length: 20 }, (_, i) => `  "k${String(i).padStart(2, "0")}": 1`).join(",\n")}\n}`;
  const size = bytesOf(text);
  assert.equal(size, 242);
  const over = applyResultBudget(text, { maxBytes: size - 10, cut: "json-aware" });
  assert.deepEqual(over, { content: text, cut: true, originalBytes: size });
  // head+tail at 200 would be 200 + 64 bytes: the 243-byte skeleton is shorter, and valid JSON.
  assert.equal(cutTo(text, 200, "json-aware"), text);
  // At 150 head+tail is 150 + 63 bytes, less than the skeleton.
  assert.equal(cutTo(text, 150, "json-aware"), cutTo(text, 150, "head+tail"));
});

test("json-aware: a 5 MB array of 50,000 objects keeps its first whole objects", () => {
  const values = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `item ${i}`, text: `lorem ipsum dolor sit amet, café ${i} 😀` }));
  const text = JSON.stringify(values, null, 2);
  assert.ok(bytesOf(text) > 5_000_000);
  const layout = (kept: number): string => JSON.stringify([...values.slice(0, kept), `... [${50_000 - kept} more items cut to the result budget]`], null, 2);
  const result = applyResultBudget(text, { maxBytes: 4000, cut: "json-aware" });
  assert.equal(result.content, layout(38));
  assert.ok(bytesOf(layout(38)) <= 4000 && bytesOf(layout(39)) > 4000);
  assert.equal(result.originalBytes, bytesOf(text));
  // A budget of most of the text: still valid JSON under the limit.
  const most = applyResultBudget(text, { maxTokens: 1_000_000, cut: "json-aware" });
  assert.ok(bytesOf(most.content) <= 4_000_000);
  const parsed = JSON.parse(most.content) as unknown[];
  assert.equal(parsed.at(-1), `... [${50_001 - parsed.length} more items cut to the result budget]`);
  assert.deepEqual(parsed.slice(0, -1), values.slice(0, parsed.length - 1));
});

test("json-aware: 10,000 levels of nesting do not overflow the stack", () => {
  const arrays = "[".repeat(10_000) + "]".repeat(10_000);
  assert.deepEqual(applyResultBudget(arrays, { maxBytes: 1000, cut: "json-aware" }), { content: `[\n  ${items(1)}\n]`, cut: true, originalBytes: 20_000 });
  // Every key of 10,000 nested objects is kept: far too big, head+tail.
  const objects = '{"a":'.repeat(10_000) + '"end"' + "}".repeat(10_000);
  const cut = cutTo(objects, 1000, "json-aware");
  assert.equal(cut, `${objects.slice(0, 500)}\n${notice(59_005, 60_005)} ...\n${"}".repeat(500)}`);
  // An item whose whole layout is ~50 MB of indentation, measured without building it.
  const mixed = `[${'{"k": ['.repeat(5000)}1${"]}".repeat(5000)}, 2, 3]`;
  assert.equal(cutTo(mixed, 100, "json-aware"), `[\n  ${items(3)}\n]`);
});

test("checkResultBudget: one error text per bad field, undefined when good", () => {
  const where = "createTurn: resultBudget";
  const object = `${where}: must be an object { maxBytes | maxTokens, cut? }; got`;
  const positive = `${where}.maxBytes: must be a positive safe integer; got`;
  const cases: [unknown, string][] = [
    [null, `${object} null`],
    [[], `${object} an array`],
    ["x", `${object} string`],
    [undefined, `${object} undefined`],
    [new Map(), `${where}: must be a plain object { maxBytes | maxTokens, cut? }; got an instance of Map`],
    [{ maxBytes: 10, extra: 1 }, `${where}: unknown option "extra"; expected one of maxBytes, maxTokens, cut`],
    [{ maxBytes: 10, [Symbol("s")]: 1 }, `${where}: unknown option Symbol(s); expected one of maxBytes, maxTokens, cut`],
    [{ maxBytes: 10, maxTokens: 2 }, `${where}: set exactly one of maxBytes and maxTokens; got both`],
    [{}, `${where}: set exactly one of maxBytes and maxTokens; got neither`],
    [{ cut: "head", maxBytes: undefined }, `${where}: set exactly one of maxBytes and maxTokens; got neither`],
    [{ maxBytes: 0 }, `${positive} 0`],
    [{ maxBytes: -1 }, `${positive} -1`],
    [{ maxBytes: 1.5 }, `${positive} 1.5`],
    [{ maxBytes: Number.NaN }, `${positive} NaN`],
    [{ maxBytes: Number.POSITIVE_INFINITY }, `${positive} Infinity`],
    [{ maxBytes: "10" }, `${positive} "10"`],
    [{ maxBytes: 10n }, `${positive} 10n`],
    [{ maxBytes: null }, `${positive} null`],
    [{ maxTokens: 2 ** 53 }, `${where}.maxTokens: must be a positive safe integer; got 9007199254740992`],
    [{ maxBytes: 10, cut: "middle" }, `${where}.cut: must be one of "head", "head+tail", "json-aware"; got "middle"`],
    [{ maxBytes: 10, cut: 1 }, `${where}.cut: must be one of "head", "head+tail", "json-aware"; got 1`],
    [Object.defineProperty({}, "maxBytes", { get: () => 5, enumerable: true }), `${where}.maxBytes: must be a plain value; got an accessor`],
    [
      new Proxy({}, { ownKeys: () => { throw new Error("trap"); } }),
      `${where}: must be a plain object { maxBytes | maxTokens, cut? }; got an object that cannot be read`,
    ],
  ];
  for (const [budget, message] of cases) assert.equal(checkResultBudget(budget, where), message);
  for (const good of [{ maxBytes: 1 }, { maxTokens: 3, cut: "head+tail" }, { maxBytes: 10, cut: undefined }, Object.assign(Object.create(null) as object, { maxBytes: 5, cut: "json-aware" })]) {
    assert.equal(checkResultBudget(good, where), undefined);
  }
  assert.throws(
    () => applyResultBudget("text", { maxBytes: 0 }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === "applyResultBudget: budget.maxBytes: must be a positive safe integer; got 0",
  );
});

test("maxTokens counts 4 UTF-8 bytes a token", () => {
  assert.equal(budgetBytes({ maxTokens: 5 }), 20);
  assert.equal(budgetBytes({ maxBytes: 7 }), 7);
  assert.equal(applyResultBudget("0123456789", { maxTokens: 2 }).content, `01234567\n${notice(2, 10)}`);
  assert.equal(applyResultBudget("01234567", { maxTokens: 2 }).cut, false);
});

// ---- property test ----

/** A generated JSON value with its literals as written. */
type Gen = { readonly raw: string } | { readonly str: string } | readonly Gen[] | { readonly members: readonly (readonly [string, Gen])[] };

const NUMBERS = ["0", "-0", "1", "1.50", "1e400", "-1e-400", "12345678901234567890123", "3.14", "-2E+5"];
const PIECES = ["a", "b", "xyz", " ", "é", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\u00e9", "\\ud83d\\ude00", "\\u2028", "\u4e2d", "lorem ipsum "];

function generate(rand: () => number, depth: number): Gen {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const r = rand();
  if (depth > 4 || r < 0.4) {
    if (rand() < 0.5) return { raw: pick([...NUMBERS, "true", "false", "null"]) };
    const parts: string[] = [];
    const n = rand() < 0.3 ? Math.floor(rand() * 60) : Math.floor(rand() * 6);
    for (let i = 0; i < n; i++) parts.push(pick(PIECES));
    return { str: parts.join("") };
  }
  // Now and then a long array near the top; a few KB a value on average.
  const n = depth < 2 && rand() < 0.2 ? Math.floor(rand() * 40) : Math.floor(rand() * 5);
  if (r < 0.7) return Array.from({ length: n }, () => generate(rand, depth + 1));
  return { members: Array.from({ length: n }, (_, i) => [`k${i}${pick(["", "é", "\\\"q"])}`, generate(rand, depth + 1)] as const) };
}

/** The turn stage's layout of a generated value, and the skeleton by the documented rules (t = 0), written independently of the module. */
function layout(v: Gen, depth: number, skeleton: boolean): string {
  if ("raw" in v) return v.raw;
  if ("str" in v) {
    const marker = `... [${bytesOf(v.str)} bytes cut]`;
    return skeleton && marker.length < bytesOf(v.str) ? `"${marker}"` : `"${v.str}"`;
  }
  const pad = "  ".repeat(depth + 1);
  const close = `\n${"  ".repeat(depth)}`;
  if (Array.isArray(v)) {
    const list = v as readonly Gen[];
    if (list.length === 0) return "[]";
    const whole = list.map((item) => layout(item, depth + 1, false)).join(`,\n${pad}`);
    const marker = items(list.length);
    if (skeleton && bytesOf(whole) > marker.length) return `[\n${pad}${marker}${close}]`;
    return `[\n${pad}${list.map((item) => layout(item, depth + 1, skeleton)).join(`,\n${pad}`)}${close}]`;
  }
  const { members } = v as { readonly members: readonly (readonly [string, Gen])[] };
  if (members.length === 0) return "{}";
  return `{\n${pad}${members.map(([k, item]) => `"${k}": ${layout(item, depth + 1, skeleton)}`).join(`,\n${pad}`)}${close}}`;
}

/** Asserts that `out` (parsed) is `original` (parsed) with arrays and strings cut as documented, every key kept in order. */
function assertCutOf(original: unknown, out: unknown): void {
  if (Array.isArray(original)) {
    assert.ok(Array.isArray(out));
    const last = out.at(-1);
    const match = typeof last === "string" ? /^\.\.\. \[(\d+) more items cut to the result budget\]$/.exec(last) : null;
    // Generated arrays hold no marker-like string: a marker is a cut, and it counts the items cut.
    const kept = match === null ? out.length : out.length - 1;
    assert.equal(kept + (match === null ? 0 : Number(match[1])), original.length);
    for (let i = 0; i < kept; i++) assertCutOf(original[i], out[i]);
  } else if (original !== null && typeof original === "object") {
    assert.ok(out !== null && typeof out === "object" && !Array.isArray(out));
    assert.deepEqual(Object.keys(out), Object.keys(original));
    for (const key of Object.keys(original)) assertCutOf((original as Record<string, unknown>)[key], (out as Record<string, unknown>)[key]);
  } else if (typeof original === "string" && out !== original) {
    assert.equal(typeof out, "string");
    const match = /^([\s\S]*)\.\.\. \[\d+ bytes cut\]$/.exec(out as string);
    assert.ok(match !== null && original.startsWith(match[1] as string), `${JSON.stringify(out)} cuts ${JSON.stringify(original)}`);
  } else assert.equal(out, original);
}

test("json-aware property: 200 seeded values and limits give valid JSON under the limit whenever the skeleton fits", () => {
  const rand = random(20_240_611);
  let cutCount = 0;
  let fallbacks = 0;
  let skeletons = 0;
  let whole = 0;
  for (let i = 0; i < 200; i++) {
    let value = generate(rand, 0);
    if ("raw" in value || "str" in value) value = [value, generate(rand, 1)];
    const text = layout(value, 0, false);
    const size = bytesOf(text);
    // Small limits now and then, where even the skeleton may not fit; else anywhere up to past the size.
    const limit = 1 + Math.floor(rand() * (rand() < 0.3 ? Math.min(size, 200) : size * 1.1));
    const budget: ResultBudget = { maxBytes: limit, cut: "json-aware" };
    const out = applyResultBudget(text, budget);
    if (size <= limit) {
      assert.equal(out.content, text);
      whole++;
      continue;
    }
    const skeleton = layout(value, 0, true);
    const fallback = cutTo(text, limit, "head+tail");
    if (bytesOf(skeleton) <= limit) {
      assert.ok(bytesOf(out.content) <= limit, `case ${i}: ${bytesOf(out.content)} > ${limit}`);
      assertCutOf(JSON.parse(text), JSON.parse(out.content));
      cutCount++;
    } else if (bytesOf(skeleton) <= bytesOf(fallback)) {
      assert.equal(out.content, skeleton, `case ${i}`);
      skeletons++;
    } else {
      assert.equal(out.content, fallback, `case ${i}`);
      fallbacks++;
    }
  }
  // The seed reaches every branch.
  assert.ok(cutCount > 50 && fallbacks > 5 && skeletons > 5 && whole > 5, `${cutCount} cut, ${fallbacks} fallbacks, ${skeletons} skeletons, ${whole} whole`);
});

test("json-aware property: every limit on a text with escapes at each cut gives valid JSON or the documented fallback", () => {
  const text = '{\n  "s": "ab\\"c\\\\d\\u00e9e😀f\\ud83d\\ude00g\u4e2dh lorem ipsum dolor sit amet",\n  "l": [\n    "x\\n",\n    1e400,\n    "yy"\n  ]\n}';
  const size = bytesOf(text);
  for (let limit = 1; limit < size; limit++) {
    const out = cutTo(text, limit, "json-aware");
    if (out === cutTo(text, limit, "head+tail")) continue;
    const parsed: unknown = JSON.parse(out);
    assertCutOf(JSON.parse(text), parsed);
    assert.ok(out.includes("1e400") || out.includes("more items"));
  }
});
