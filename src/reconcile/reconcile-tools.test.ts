// Every reconciliation scenario of runtime-tools.md §6.5 (K1–K11), the seed's
// fixes (seed 000) and API.md decision 4.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ConfigError, InvalidOptionError, type LogFields, type Logger } from "../core/index.js";
import { EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "./exempt.js";
import { reconcileTools, type ReconcilablePack } from "./reconcile-tools.js";

const NOT_DECLARED =
  "ToolRegistry tools are not declared by any pack prompt and will not be offered to the model: ";
const NOT_SERVED = "pack prompts declare tools the ToolRegistry does not serve, so they will not be offered to the model: ";
const FIX_DECLARE = "add the name to the prompt's tools list and republish the pack";
const FIX_EXPOSE = "expose the tool from the attached ToolRegistry";

function recordingLogger(): Logger & { records: { level: string; message: string; fields: LogFields | undefined }[] } {
  const records: { level: string; message: string; fields: LogFields | undefined }[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: LogFields): void =>
      void records.push({ level, message, fields });
  return { records, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const pack = (prompts: Record<string, string[] | undefined>): ReconcilablePack => ({
  prompts: Object.fromEntries(Object.entries(prompts).map(([k, tools]) => [k, tools === undefined ? {} : { tools }])),
});

describe("runtime-tools.md §6.5 scenarios", () => {
  test("K1 a:[get_weather], b:[search]; served get_weather, lookup_order", () => {
    const logger = recordingLogger();
    const result = reconcileTools(pack({ a: ["get_weather"], b: ["search"] }), ["get_weather", "lookup_order"], { logger, registryName: "tools" });
    assert.deepEqual(result.byPrompt, { a: ["get_weather"], b: [] });
    assert.deepEqual(result.offered, ["get_weather"]);
    assert.deepEqual(result.servedNotDeclared, ["lookup_order"]);
    assert.deepEqual(result.declaredNotServed, ["search"]);
    assert.deepEqual(result.exempt, []);
    assert.deepEqual(result.mismatches, [
      { kind: "served-not-declared", tools: ["lookup_order"], message: `${NOT_DECLARED}lookup_order; fix: ${FIX_DECLARE}`, fix: FIX_DECLARE },
      {
        kind: "declared-not-served",
        tools: ["search"],
        message: `${NOT_SERVED}search (b); fix: ${FIX_EXPOSE}`,
        fix: FIX_EXPOSE,
        prompts: { search: ["b"] },
      },
    ]);
    assert.deepEqual(logger.records, [
      {
        level: "warn",
        message: `${NOT_DECLARED}lookup_order; fix: ${FIX_DECLARE}`,
        fields: { kind: "served-not-declared", tools: ["lookup_order"], fix: FIX_DECLARE, registry: "tools" },
      },
      {
        level: "warn",
        message: `${NOT_SERVED}search (b); fix: ${FIX_EXPOSE}`,
        fields: { kind: "declared-not-served", tools: ["search"], fix: FIX_EXPOSE, registry: "tools", prompts: { search: ["b"] } },
      },
    ]);
  });

  test("K2 a:[x, y] served x, y: everything offered, no mismatch record", () => {
    const logger = recordingLogger();
    const result = reconcileTools(pack({ a: ["x", "y"] }), ["x", "y"], { logger });
    assert.deepEqual(result.byPrompt, { a: ["x", "y"] });
    assert.deepEqual(result.offered, ["x", "y"]);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(logger.records, []);
  });

  test("K3 a:[] or no tools key, served x: nothing offered, x flagged as not declared", () => {
    for (const p of [pack({ a: [] }), pack({ a: undefined }), { prompts: { a: { tools: null } } }]) {
      const result = reconcileTools(p, ["x"]);
      assert.deepEqual(result.byPrompt, { a: [] });
      assert.deepEqual(result.offered, []);
      assert.deepEqual(result.servedNotDeclared, ["x"]);
      assert.deepEqual(
        result.mismatches.map((m) => [m.kind, m.tools]),
        [["served-not-declared", ["x"]]],
      );
    }
  });

  test("K4 a:[memory__recall, skill__activate], nothing served: not flagged", () => {
    const logger = recordingLogger();
    const result = reconcileTools(pack({ a: ["memory__recall", "skill__activate"] }), [], { logger });
    assert.deepEqual(result.declaredNotServed, []);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.exempt, ["memory__recall", "skill__activate"]);
    assert.deepEqual(result.byPrompt, { a: [] }); // offered only if PromptKit registers (serves) them
    assert.deepEqual(logger.records, []);
  });

  test("K5 a:[], served mcp__fs__read, a2a__agent__ask, workflow__transition: none flagged, all offered", () => {
    const result = reconcileTools(pack({ a: [] }), ["mcp__fs__read", "a2a__agent__ask", "workflow__transition"]);
    assert.deepEqual(result.servedNotDeclared, []);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.byPrompt, { a: ["a2a__agent__ask", "mcp__fs__read", "workflow__transition"] });
    assert.deepEqual(result.offered, ["a2a__agent__ask", "mcp__fs__read", "workflow__transition"]);
    assert.deepEqual(result.exempt, ["a2a__agent__ask", "mcp__fs__read", "workflow__transition"]);
  });

  test("K6 a:[Get_Weather], served get_weather: both flagged (exact, case-sensitive)", () => {
    const result = reconcileTools(pack({ a: ["Get_Weather"] }), ["get_weather"]);
    assert.deepEqual(result.byPrompt, { a: [] });
    assert.deepEqual(result.servedNotDeclared, ["get_weather"]);
    assert.deepEqual(result.declaredNotServed, ["Get_Weather"]);
    assert.equal(result.mismatches.length, 2);
  });

  test("K7 a:[b, a], b:[a], served a, b, c: sorted per prompt, c flagged, names once per record", () => {
    const result = reconcileTools(pack({ a: ["b", "a", "b"], b: ["a"] }), ["c", "b", "a", "c"]);
    assert.deepEqual(result.byPrompt, { a: ["a", "b"], b: ["a"] });
    assert.deepEqual(result.offered, ["a", "b"]);
    assert.deepEqual(result.mismatches, [
      { kind: "served-not-declared", tools: ["c"], message: `${NOT_DECLARED}c; fix: ${FIX_DECLARE}`, fix: FIX_DECLARE },
    ]);
  });

  test("K8 a pack without a prompts key, served x: x flagged, no crash", () => {
    for (const p of [{}, { prompts: null }] as ReconcilablePack[]) {
      const result = reconcileTools(p, ["x"]);
      assert.deepEqual(result.byPrompt, {});
      assert.deepEqual(result.offered, []);
      assert.deepEqual(result.servedNotDeclared, ["x"]);
    }
  });

  test("K9 a pack-level tools.x descriptor does not change the names: x is offered, no mismatch", () => {
    // The description the model sees (the pack's D1) is chosen where descriptors are
    // built; reconciliation decides names only and leaves the pack untouched.
    const withPackTool = { prompts: { a: { tools: ["x"] } }, tools: { x: { name: "x", description: "D1" } } };
    const registry = { tools: [{ name: "x", description: "D2" }] };
    const result = reconcileTools(withPackTool, registry);
    assert.deepEqual(result.byPrompt, { a: ["x"] });
    assert.deepEqual(result.mismatches, []);
    assert.equal(withPackTool.tools.x.description, "D1");
  });

  test("K10 no 1.3.0 surfacing: the pack is not rewritten and no prompt is widened", () => {
    const p = { prompts: { a: { tools: ["get_weather"] }, b: { tools: ["search"] } } };
    const before = structuredClone(p);
    const frozen = Object.freeze({ prompts: Object.freeze({ a: Object.freeze({ tools: Object.freeze(["get_weather"]) }) }) });
    const result = reconcileTools(p, ["get_weather", "lookup_order"]);
    assert.deepEqual(p, before);
    assert.deepEqual(result.byPrompt.b, []);
    assert.equal(result.byPrompt.a?.includes("lookup_order"), false);
    assert.deepEqual(reconcileTools(frozen, ["get_weather", "lookup_order"]).byPrompt, { a: ["get_weather"] });
  });

  test("K11 a:[ext__*], served ext__one, ext__two: both offered, neither flagged, the wildcard not reported", () => {
    const result = reconcileTools(pack({ a: ["ext__*"], b: ["other"] }), ["ext__one", "ext__two", "other", "extra"]);
    assert.deepEqual(result.byPrompt, { a: ["ext__one", "ext__two"], b: ["other"] });
    assert.deepEqual(result.servedNotDeclared, ["extra"]);
    assert.deepEqual(result.declaredNotServed, []);
  });
});

describe("the rules around the scenarios", () => {
  test("exempt tools are offered to every prompt, even undeclared, and never reported in either direction", () => {
    const result = reconcileTools(pack({ a: ["x", "skill__missing"], b: [] }), ["x", "memory__recall", "mcp__gh__issues"]);
    assert.deepEqual(result.byPrompt, { a: ["mcp__gh__issues", "memory__recall", "x"], b: ["mcp__gh__issues", "memory__recall"] });
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.exempt, ["mcp__gh__issues", "memory__recall", "skill__missing"]);
  });

  test("the exempt test is on the text before the first __", () => {
    assert.equal(isExemptToolName("mcp__fs__read"), true);
    assert.equal(isExemptToolName("workflow__transition"), true);
    assert.equal(isExemptToolName("mcpx__a"), false);
    assert.equal(isExemptToolName("Memory__a"), false);
    assert.equal(isExemptToolName("memory_recall"), false);
    assert.equal(isExemptToolName("__memory__x"), false);
    assert.equal(isExemptToolName("image__gen"), false);
    assert.equal(isExemptToolName("image__gen", ["image"]), true);
  });

  test("exemptNamespaces can be widened by the host (image__, video__)", () => {
    const result = reconcileTools(pack({ a: [] }), ["image__gen"], { exemptNamespaces: ["memory", "image"] });
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.byPrompt, { a: ["image__gen"] });
  });

  test("a declared-not-served record lists every declaring prompt per tool", () => {
    const result = reconcileTools(pack({ z: ["search", "b"], a: ["search"], m: ["b"] }), []);
    const record = result.mismatches[0];
    assert.deepEqual(record?.tools, ["b", "search"]);
    assert.deepEqual(record?.prompts, { b: ["m", "z"], search: ["a", "z"] });
    assert.equal(record?.message, `${NOT_SERVED}b (m, z), search (a, z); fix: ${FIX_EXPOSE}`);
  });

  test("a bare * matches every served tool", () => {
    const result = reconcileTools(pack({ a: ["*"] }), ["x", "y"]);
    assert.deepEqual(result.byPrompt, { a: ["x", "y"] });
    assert.deepEqual(result.mismatches, []);
  });

  test("served may be any iterable, or a registry (its name labels the record)", () => {
    const logger = recordingLogger();
    function* names(): Generator<string> {
      yield "x";
    }
    assert.deepEqual(reconcileTools(pack({ a: ["x"] }), names()).byPrompt, { a: ["x"] });
    assert.deepEqual(reconcileTools(pack({ a: ["x"] }), new Set(["x"])).byPrompt, { a: ["x"] });
    reconcileTools(pack({ a: [] }), { name: "reg", tools: [{ name: "x" }] }, { logger });
    assert.equal(logger.records[0]?.fields?.registry, "reg");
  });

  test("a prompt key that is not an identifier survives, and __proto__ is an ordinary key", () => {
    const prompts = JSON.parse('{"store-finder": {"tools": ["x"]}, "__proto__": {"tools": ["x"]}}') as ReconcilablePack["prompts"];
    const result = reconcileTools({ prompts }, ["x"]);
    assert.deepEqual(Object.keys(result.byPrompt), ["store-finder", "__proto__"]);
    assert.deepEqual(result.byPrompt["store-finder"], ["x"]);
  });

  test("malformed packs throw ConfigError with the path; bad served lists throw InvalidOptionError", () => {
    assert.throws(() => reconcileTools({ prompts: { a: { tools: "x" } } } as unknown as ReconcilablePack, []), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.message, "prompts.a.tools: expected a list of tool names; got string");
      return true;
    });
    assert.throws(() => reconcileTools({ prompts: { "b-c": { tools: ["x", 1] } } } as unknown as ReconcilablePack, []), {
      message: 'prompts["b-c"].tools[1]: expected a tool name string; got number',
    });
    assert.throws(() => reconcileTools({ prompts: [] } as unknown as ReconcilablePack, []), { message: "prompts: expected an object of prompts; got an array" });
    assert.throws(() => reconcileTools(pack({}), "x" as unknown as string[]), (e: unknown) => {
      assert.ok(e instanceof InvalidOptionError);
      assert.equal(e.message, "reconcileTools: served must be an iterable of tool names or a ToolRegistry; got string");
      return true;
    });
    assert.throws(() => reconcileTools(pack({}), [1] as unknown as string[]), { message: "reconcileTools: served[0] must be a tool name string; got number" });
  });
});

describe("properties", () => {
  const name = fc.stringMatching(/^(?:(?:memory|skill|mcp|ext)__)?[a-d]{1,2}$/);
  const entry = fc.oneof(name, fc.constantFrom("ext__*", "*", "a*"));
  const packArb = fc.dictionary(fc.constantFrom("p", "q", "r"), fc.option(fc.array(entry, { maxLength: 6 }), { nil: undefined }));
  const servedArb = fc.array(name, { maxLength: 10 });

  test("never widens a prompt, never throws on a mismatch, and the lists partition the names", () => {
    fc.assert(
      fc.property(packArb, servedArb, (prompts, served) => {
        const p = { prompts: Object.fromEntries(Object.entries(prompts).map(([k, t]) => [k, t === undefined ? {} : { tools: t }])) };
        const result = reconcileTools(p, served);
        const servedSet = new Set(served);
        for (const [key, offered] of Object.entries(result.byPrompt)) {
          const entries = prompts[key] ?? [];
          for (const tool of offered) {
            assert.ok(servedSet.has(tool), `${tool} offered but not served`);
            const declared = entries.includes(tool) || entries.some((e) => e.endsWith("*") && tool.startsWith(e.slice(0, -1)));
            assert.ok(declared || isExemptToolName(tool), `${tool} widened prompt ${key}`);
          }
          assert.deepEqual(offered, [...new Set(offered)].sort());
        }
        for (const tool of servedSet) {
          const inOffered = result.offered.includes(tool);
          const inMissing = result.servedNotDeclared.includes(tool);
          assert.ok(inOffered !== inMissing, `${tool} must be either offered or reported`);
        }
        for (const tool of result.declaredNotServed) assert.ok(!servedSet.has(tool) && !isExemptToolName(tool) && !tool.endsWith("*"));
        assert.ok(result.mismatches.length <= 2);
      }),
      { numRuns: 500 },
    );
  });
});

// reconcileTools sorts and merges (no hash table of every name) and finds wildcard
// matches by binary search. This reference does the same job the obvious way, with
// sets and filters; the two must agree on every field, message and log record.
interface Expected {
  readonly result: unknown;
  readonly records: { level: string; message: string; fields: LogFields | undefined }[];
}

function naiveReconcile(prompts: readonly (readonly [string, readonly string[] | undefined])[], served: readonly string[], options: { namespaces?: readonly string[]; registry?: string } = {}): Expected {
  const namespaces = options.namespaces ?? EXEMPT_TOOL_NAMESPACES;
  const isExempt = (name: string): boolean => {
    const end = name.indexOf("__");
    return end > 0 && namespaces.includes(name.slice(0, end));
  };
  const isPattern = (entry: string): boolean => entry.endsWith("*");
  const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();
  /** Whether a list of entries declares a name: exactly, or by a prefix wildcard. */
  const declarer = (entries: readonly string[]): ((name: string) => boolean) => {
    const exact = new Set(entries.filter((e) => !isPattern(e)));
    const prefixes = [...new Set(entries.filter(isPattern).map((e) => e.slice(0, -1)))];
    return (name) => exact.has(name) || prefixes.some((p) => name.startsWith(p));
  };
  const servedNames = sorted(served);
  const servedSet = new Set(servedNames);
  const byPrompt = Object.fromEntries(
    prompts.map(([key, tools]) => {
      const declares = declarer(tools ?? []);
      return [key, servedNames.filter((name) => isExempt(name) || declares(name))];
    }),
  );
  const allEntries = prompts.flatMap(([, tools]) => tools ?? []);
  const declaredByAny = declarer(allEntries);
  const declaredNames = sorted(allEntries.filter((e) => !isPattern(e)));
  const offered = servedNames.filter((name) => isExempt(name) || declaredByAny(name));
  const servedNotDeclared = servedNames.filter((name) => !isExempt(name) && !declaredByAny(name));
  const declaredNotServed = declaredNames.filter((name) => !servedSet.has(name) && !isExempt(name));
  const exempt = sorted([...servedNames, ...declaredNames].filter(isExempt));
  const mismatches: Record<string, unknown>[] = [];
  const records: Expected["records"] = [];
  const registry = options.registry === undefined ? {} : { registry: options.registry };
  if (servedNotDeclared.length > 0) {
    const message = `${NOT_DECLARED}${servedNotDeclared.join(", ")}; fix: ${FIX_DECLARE}`;
    mismatches.push({ kind: "served-not-declared", tools: servedNotDeclared, message, fix: FIX_DECLARE });
    records.push({ level: "warn", message, fields: { kind: "served-not-declared", tools: servedNotDeclared, fix: FIX_DECLARE, ...registry } });
  }
  if (declaredNotServed.length > 0) {
    const promptsOf = Object.fromEntries(
      declaredNotServed.map((name) => [name, sorted(prompts.filter(([, tools]) => (tools ?? []).includes(name)).map(([key]) => key))]),
    );
    const listed = declaredNotServed.map((name) => `${name} (${(promptsOf[name] as string[]).join(", ")})`).join(", ");
    const message = `${NOT_SERVED}${listed}; fix: ${FIX_EXPOSE}`;
    mismatches.push({ kind: "declared-not-served", tools: declaredNotServed, message, fix: FIX_EXPOSE, prompts: promptsOf });
    records.push({
      level: "warn",
      message,
      fields: { kind: "declared-not-served", tools: declaredNotServed, fix: FIX_EXPOSE, ...registry, prompts: promptsOf },
    });
  }
  return { result: { offered, byPrompt, declaredNotServed, servedNotDeclared, exempt, mismatches, agentMembers: [], compositionTools: [], uses: [] }, records };
}

function assertMatchesReference(
  prompts: readonly (readonly [string, readonly string[] | undefined])[],
  served: readonly string[],
  options: { namespaces?: readonly string[]; asRegistry?: boolean } = {},
): void {
  const logger = recordingLogger();
  const p = { prompts: Object.fromEntries(prompts.map(([key, tools]) => [key, tools === undefined ? {} : { tools }])) };
  const input = options.asRegistry === true ? { name: "reg", tools: served.map((name) => ({ name })) } : served;
  const result = reconcileTools(p, input, { logger, ...(options.namespaces === undefined ? {} : { exemptNamespaces: options.namespaces }) });
  const expected = naiveReconcile(prompts, served, { ...(options.namespaces === undefined ? {} : { namespaces: options.namespaces }), ...(options.asRegistry === true ? { registry: "reg" } : {}) });
  assert.deepEqual(result, expected.result);
  assert.deepEqual(Object.keys(result.byPrompt), Object.keys((expected.result as { byPrompt: object }).byPrompt));
  assert.deepEqual(logger.records, expected.records);
}

describe("the sort-and-merge reconciliation against a naive reference", () => {
  // Names mixing exempt and wildcard-matched prefixes, astral characters (UTF-16 surrogate
  // pairs, which sort below U+E000-U+FFFF in code-unit order but above them in UTF-8 byte
  // order), a lone surrogate, and characters that sort around "*" and "_".
  const char = fc.constantFrom("a", "b", "_", "*", ")", "+", "\u{1F600}", "\u{10000}", "\uE000", "\uFFFF", "\uD83D");
  const name = fc
    .tuple(fc.constantFrom("", "", "memory__", "mcp__", "mcp__fs__", "skill__", "ext__", "Memory__", "__", "a__"), fc.array(char, { maxLength: 3 }))
    .map(([prefix, chars]) => prefix + chars.join(""));
  const entry = fc.oneof({ weight: 4, arbitrary: name }, { weight: 1, arbitrary: name.map((n) => `${n}*`) });
  const promptsArb = fc.uniqueArray(
    fc.tuple(fc.constantFrom("p", "q", "r", "__proto__", "1", "0", "constructor", "store-finder"), fc.option(fc.array(entry, { maxLength: 8 }), { nil: undefined })),
    { selector: ([key]) => key, maxLength: 5 },
  );
  const servedArb = fc.array(name, { maxLength: 14 });
  const namespacesArb = fc.option(fc.subarray(["memory", "mcp", "skill", "ext", "a", "Memory"]), { nil: undefined });

  test("agrees on every list, message and log record (1,000 runs)", () => {
    fc.assert(
      fc.property(promptsArb, servedArb, namespacesArb, fc.boolean(), (prompts, served, namespaces, asRegistry) => {
        assertMatchesReference(prompts, served, { ...(namespaces === undefined ? {} : { namespaces }), asRegistry });
      }),
      { numRuns: 1000 },
    );
  });

  test("agrees at scale: 6,000 shuffled served names, 300 prompts, wildcards, exempt mixes and repeats", () => {
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const prompts: [string, string[]][] = [];
    for (let p = 0; p < 300; p++) {
      const tools: string[] = [];
      for (let k = 0; k < 20; k++) {
        const i = p * 20 + k;
        tools.push(i % 10 === 9 ? `declared_only_${i}` : `tool_${i}`);
      }
      if (p % 10 === 0) tools.push(`family_${p}__*`);
      if (p % 37 === 0) tools.push("memory__recall", "skill__not_served", "mcp__*", "tool_1*");
      if (p % 50 === 0) tools.push(`tool_${random(6000)}`, `declared_only_${p * 20 + 9}`, "\u{1F600}*");
      prompts.push([`prompt-${p}`, tools]);
    }
    const served: string[] = [];
    for (let i = 0; i < 6000; i++) served.push(i % 10 === 9 ? `served_only_${i}` : `tool_${i}`);
    for (let i = 0; i < 120; i++) served.push(`family_${i}__op`, `family_${i}__op2`);
    for (let i = 0; i < 40; i++) served.push(`mcp__fs__op${i}`, `\u{1F600}${i}`, `\uE000${i}`, `tool_${random(6000)}`);
    served.push("memory__recall", "skill__activate", "a2a__agent__ask", "workflow__transition");
    for (let i = served.length - 1; i > 0; i--) {
      const j = random(i + 1);
      [served[i], served[j]] = [served[j] as string, served[i] as string];
    }
    assertMatchesReference(prompts, served);
    assertMatchesReference(prompts, served, { namespaces: ["memory", "family_7"], asRegistry: true });
  });

  test("every list is in UTF-16 code-unit order: astral names before U+E000-U+FFFF, as Array.prototype.sort", () => {
    const astral = "\u{1F600}";
    const result = reconcileTools(pack({ a: ["\uFFFF", "b", `${astral}*`, "\uE000"] }), ["\uE000", `${astral}x`, "\uFFFF", astral, "b", "\u{1F601}", "c"]);
    assert.deepEqual(result.byPrompt, { a: ["b", astral, `${astral}x`, "\uE000", "\uFFFF"] });
    assert.deepEqual(result.offered, ["b", astral, `${astral}x`, "\uE000", "\uFFFF"]);
    assert.deepEqual(result.servedNotDeclared, ["c", "\u{1F601}"]);
  });

  test("the records keep their shape: byPrompt keys writable, mismatch records frozen throughout", () => {
    const prompts = JSON.parse('{"__proto__": {"tools": ["x", "gone"]}, "b": {"tools": ["gone"]}}') as ReconcilablePack["prompts"];
    const result = reconcileTools({ prompts }, ["x", "extra"]);
    assert.deepEqual(Object.getOwnPropertyDescriptor(result.byPrompt, "__proto__"), { value: ["x"], writable: true, enumerable: true, configurable: true });
    assert.equal(Object.getPrototypeOf(result.byPrompt), Object.prototype);
    const record = result.mismatches[1];
    assert.ok(record !== undefined && Object.isFrozen(record) && Object.isFrozen(record.tools) && Object.isFrozen(record.prompts));
    assert.deepEqual(Object.getOwnPropertyDescriptor(record.prompts, "gone"), { value: ["__proto__", "b"], writable: false, enumerable: true, configurable: false });
    assert.ok(Object.isFrozen(record.prompts?.gone));
    assert.ok(Object.isFrozen(result.mismatches[0]) && Object.isFrozen(result.mismatches[0]?.tools));
    result.offered.push("y"); // the result lists are the caller's own
    assert.deepEqual(result.mismatches[0]?.tools, ["extra"]);
  });

  test("isExemptToolName is namespaces.includes(text before the first __) (1,000 runs)", () => {
    const text = fc.array(fc.constantFrom("a", "m", "_", "__", "mcp", "memory", "\u{1F600}", ""), { maxLength: 6 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.option(fc.array(text, { maxLength: 4 }), { nil: undefined }), (name, namespaces) => {
        const list = namespaces ?? EXEMPT_TOOL_NAMESPACES;
        const end = name.indexOf("__");
        assert.equal(isExemptToolName(name, namespaces), end > 0 && list.includes(name.slice(0, end)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("a pack's other tool users: agents members and composition tool steps", () => {
  const NOTE_AGENTS = "pack prompts name agents members, which PromptKit offers as a2a__<member> tools over A2A, not from the ToolRegistry: ";
  const NOTE_COMPOSITION = "ToolRegistry tools are called by pack composition steps, which run them without a prompt's tools list: ";
  const STEPS_NOT_SERVED = "pack composition steps call tools the ToolRegistry does not serve, so those steps will fail: ";

  test("a prompt's tools entry naming an agents member is an agent, not a tool the registry fails to serve", () => {
    const logger = recordingLogger();
    const p = {
      prompts: { planner: { tools: ["writer", "reviewer", "search"] }, reviewer: { tools: ["writer"] }, writer: {} },
      agents: { entry: "planner", members: { planner: {}, writer: {}, reviewer: {} } },
    };
    const result = reconcileTools(p, ["search"], { logger });
    assert.deepEqual(result.byPrompt, { planner: ["search"], reviewer: [], writer: [] });
    assert.deepEqual(result.declaredNotServed, []);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.agentMembers, ["reviewer", "writer"]);
    const message = `${NOTE_AGENTS}reviewer (planner), writer (planner, reviewer)`;
    assert.deepEqual(result.uses, [{ kind: "agent-member", tools: ["reviewer", "writer"], message, prompts: { reviewer: ["planner"], writer: ["planner", "reviewer"] } }]);
    assert.deepEqual(logger.records, [
      { level: "info", message, fields: { kind: "agent-member", tools: ["reviewer", "writer"], prompts: { reviewer: ["planner"], writer: ["planner", "reviewer"] } } },
    ]);
  });

  test("a member name the registry also serves is an ordinary offered tool; a non-member stays declared-not-served", () => {
    const result = reconcileTools({ prompts: { a: { tools: ["writer", "other"] } }, agents: { members: { writer: {} } } }, ["writer"]);
    assert.deepEqual(result.byPrompt, { a: ["writer"] });
    assert.deepEqual(result.agentMembers, []);
    assert.deepEqual(result.uses, []);
    assert.deepEqual(result.declaredNotServed, ["other"]);
  });

  test("a served tool only a composition tool step names is in use, not served-not-declared", () => {
    const logger = recordingLogger();
    const p = {
      prompts: { a: { tools: ["x"] } },
      compositions: {
        flow: {
          steps: [
            { id: "s1", kind: "tool", tool: "parse" },
            { id: "fan", kind: "parallel", branches: [{ id: "b1", kind: "tool", tool: "parse" }, { id: "b2", kind: "tool", tool: "x" }, { id: "b3", kind: "prompt", prompt_task: "a" }] },
            { id: "agent", kind: "agent", prompt_task: "a", tools: ["unused"] },
          ],
        },
        other: { steps: [{ id: "only", kind: "tool", tool: "parse" }] },
      },
    };
    const result = reconcileTools(p, ["parse", "x", "unused"], { logger, registryName: "reg" });
    assert.deepEqual(result.byPrompt, { a: ["x"] });
    assert.deepEqual(result.offered, ["x"]);
    assert.deepEqual(result.compositionTools, ["parse", "x"]);
    // An agent step offers (its prompt's tools) ∩ (its own tools): listing a tool there alone does not declare it.
    assert.deepEqual(result.servedNotDeclared, ["unused"]);
    const message = `${NOTE_COMPOSITION}parse (flow.b1, flow.s1, other.only), x (flow.b2)`;
    const steps = { parse: ["flow.b1", "flow.s1", "other.only"], x: ["flow.b2"] };
    assert.deepEqual(result.uses, [{ kind: "composition-tool", tools: ["parse", "x"], message, steps }]);
    assert.deepEqual(logger.records.at(-1), { level: "info", message, fields: { kind: "composition-tool", tools: ["parse", "x"], registry: "reg", steps } });
  });

  test("a composition tool step naming an unserved tool is the mismatch composition-tool-not-served", () => {
    const logger = recordingLogger();
    const p = {
      prompts: {},
      compositions: { flow: { steps: [{ id: "s1", kind: "tool", tool: "missing" }, { kind: "tool", tool: "memory__recall" }, { kind: "tool", tool: "gone" }] } },
    };
    const result = reconcileTools(p, [], { logger });
    const message = `${STEPS_NOT_SERVED}gone (flow.2), missing (flow.s1); fix: ${FIX_EXPOSE}`;
    const steps = { gone: ["flow.2"], missing: ["flow.s1"] };
    assert.deepEqual(result.mismatches, [{ kind: "composition-tool-not-served", tools: ["gone", "missing"], message, fix: FIX_EXPOSE, steps }]);
    assert.deepEqual(logger.records, [{ level: "warn", message, fields: { kind: "composition-tool-not-served", tools: ["gone", "missing"], fix: FIX_EXPOSE, steps } }]);
    assert.deepEqual(result.compositionTools, []);
  });

  test("malformed agents and compositions throw ConfigError with the path", () => {
    const cases: [unknown, string][] = [
      [{ agents: [] }, "agents: expected an agents object; got an array"],
      [{ agents: { members: "x" } }, "agents.members: expected an object of members; got string"],
      [{ compositions: 1 }, "compositions: expected an object of compositions; got number"],
      [{ compositions: { "a-b": { steps: {} } } }, 'compositions["a-b"].steps: expected a list of steps; got object'],
      [{ compositions: { c: { steps: [null] } } }, "compositions.c.steps[0]: expected a step object; got null"],
      [{ compositions: { c: { steps: [{ kind: "tool", tool: 3 }] } } }, "compositions.c.steps[0].tool: expected a tool name string; got number"],
      [{ compositions: { c: { steps: [{ kind: "parallel", branches: [{ kind: "tool", tool: [] }] }] } } }, "compositions.c.steps[0].branches[0].tool: expected a tool name string; got an array"],
    ];
    for (const [p, message] of cases) {
      assert.throws(() => reconcileTools(p as ReconcilablePack, []), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.message, message);
        return true;
      });
    }
  });
});
