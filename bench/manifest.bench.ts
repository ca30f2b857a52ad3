// Manifest loading and reconciliation cost.
//
// 1. loadToolRegistry on a generated 1,000-handler manifest, relative to a plain
//    yaml.parse of the same text. Target: <= 3x.
// 2. A 10,000-tool manifest as YAML, as JSON text, as JSON text with one unknown
//    field (a warning with its line) and as a parsed object. Targets: JSON text
//    loads >= 5x faster than the same manifest in YAML; YAML <= 1.2x yaml.parse.
//    Timed as whole loads (a few per variant, interleaved), not with mitata: one
//    load takes seconds.
// 3. reconcileTools as the pack and the registry double in size. Target: linear,
//    <= 2.2x per doubling.
//
// Run alone: node --expose-gc --import tsx bench/manifest.bench.ts [--json]
import { bench, run, summary } from "mitata";
import { parse, stringify } from "yaml";
import { loadToolRegistry } from "../src/manifest/index.js";
import { reconcileTools, type ReconcilablePack } from "../src/reconcile/index.js";

const json = process.argv.includes("--json");
const HANDLERS = 1_000;

function handler(i: number): Record<string, unknown> {
  const tool = {
    name: `tool_${i}`,
    description: `Tool number ${i}: looks something up in backend ${i % 17}.`,
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "The identifier" }, limit: { type: "integer", minimum: 1, maximum: 100 } },
      required: ["id"],
    },
  };
  switch (i % 20) {
    case 0:
    case 1:
    case 2:
      return { name: `grpc-${i}`, type: "grpc", tool, grpcConfig: { endpoint: `svc-${i}:9090`, tls: true, retryPolicy: { maxAttempts: 3 } }, timeout: "5s" };
    case 3:
    case 4:
      return { name: `client-${i}`, type: "client", tool, clientConfig: { consentMessage: "Allow?", categories: ["location"] } };
    case 5:
      return { name: `mcp-${i}`, type: "mcp", mcpConfig: { transport: "sse", endpoint: `http://mcp-${i}:8080/sse`, toolFilter: { allowlist: ["a", "b"] } } };
    case 6:
      return { name: `openapi-${i}`, type: "openapi", openAPIConfig: { specURL: `https://api-${i}/openapi.json`, operationFilter: ["getThing"] } };
    default:
      return {
        name: `http-${i}`,
        type: "http",
        tool,
        httpConfig: {
          endpoint: `https://api-${i % 50}.example.com/v1/things`,
          method: i % 2 === 0 ? "GET" : "POST",
          headers: { Accept: "application/json", "X-Team": "tools" },
          queryParams: ["id", "limit"],
          staticQuery: { format: "json" },
          redact: ["secret"],
          retryPolicy: { maxAttempts: 3, initialBackoff: "200ms", backoffMultiplier: "2.0", maxBackoff: "5s", retryOn: [502, 503] },
        },
        auth: { type: "bearer", secretRef: { name: `token-${i}`, key: "token" } },
        timeout: "10s",
      };
  }
}

const manifest = stringify({
  apiVersion: "omnia.altairalabs.ai/v1alpha1",
  kind: "ToolRegistry",
  metadata: { name: "bench" },
  spec: { handlers: Array.from({ length: HANDLERS }, (_, i) => handler(i)) },
});
if (loadToolRegistry(manifest).handlers.length !== HANDLERS) throw new Error("bench manifest did not load");

const LARGE = 10_000;
const largeObject = {
  apiVersion: "omnia.altairalabs.ai/v1alpha1",
  kind: "ToolRegistry",
  metadata: { name: "large" },
  spec: { handlers: Array.from({ length: LARGE }, (_, i) => handler(7 + 20 * (i >> 3) + (i % 8)) ) },
};
for (const [i, h] of largeObject.spec.handlers.entries()) {
  h.name = `http-${i}`;
  (h.tool as { name: string }).name = `tool_${i}`;
}
const largeYaml = stringify(largeObject);
const largeJson = JSON.stringify(largeObject, null, 2);
// One unknown field near the end: its warning carries a line, so the lookup runs over the text.
const lastTimeout = largeJson.lastIndexOf('"timeout": "10s"');
const largeJsonWarning = `${largeJson.slice(0, lastTimeout)}"colour": "red",\n        ${largeJson.slice(lastTimeout)}`;
const warned = loadToolRegistry(largeJsonWarning).warnings;
if (warned.length !== 1 || warned[0]?.line === undefined) throw new Error(`bench: expected one warning with a line; got ${JSON.stringify(warned)}`);
if (loadToolRegistry(largeYaml).tools.length !== LARGE || loadToolRegistry(largeJson).tools.length !== LARGE) throw new Error("bench: large manifest did not load");

/** Median ms of whole runs of each variant, interleaved (A B C ... C B A per cycle). */
function timeWhole(variants: Record<string, () => unknown>, cycles: number): Record<string, number> {
  const names = Object.keys(variants);
  const times = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let c = 0; c < cycles; c++) {
    for (const name of c % 2 === 0 ? names : [...names].reverse()) {
      const t0 = performance.now();
      variants[name]!();
      times.get(name)!.push(performance.now() - t0);
    }
  }
  const out: Record<string, number> = {};
  for (const name of names) {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    out[name] = sorted[sorted.length >> 1] as number;
  }
  return out;
}
const large = timeWhole(
  {
    "yaml.parse": () => parse(largeYaml),
    "load YAML": () => loadToolRegistry(largeYaml),
    "load JSON text": () => loadToolRegistry(largeJson),
    "load JSON text, one warning": () => loadToolRegistry(largeJsonWarning),
    "load parsed object": () => loadToolRegistry(largeObject),
  },
  5,
);

/** A pack with n/20 prompts of 20 entries and a registry serving about n names (10% of each side unmatched). */
function reconcileInput(n: number): { pack: ReconcilablePack; served: string[] } {
  const prompts: Record<string, { tools: string[] }> = {};
  for (let p = 0; p < n / 20; p++) {
    const tools: string[] = [];
    for (let k = 0; k < 20; k++) {
      const i = p * 20 + k;
      tools.push(i % 10 === 9 ? `declared_only_${i}` : `tool_${i}`);
    }
    if (p % 10 === 0) tools.push(`family_${p}__*`);
    prompts[`prompt-${p}`] = { tools };
  }
  const served: string[] = [];
  for (let i = 0; i < n; i++) served.push(i % 10 === 9 ? `served_only_${i}` : `tool_${i}`);
  for (let i = 0; i < n / 50; i++) served.push(`family_${i}__op`);
  served.push("memory__recall", "skill__activate", "mcp__fs__read", "a2a__agent__ask", "workflow__transition");
  return { pack: { prompts }, served };
}

const SIZES = [1_000, 2_000, 4_000, 8_000];
const inputs = new Map(SIZES.map((n) => [n, reconcileInput(n)]));

summary(() => {
  bench("yaml.parse (1,000 handlers)", () => parse(manifest));
  bench("loadToolRegistry (1,000 handlers)", () => loadToolRegistry(manifest));
});
for (const n of SIZES) {
  const input = inputs.get(n) as { pack: ReconcilablePack; served: string[] };
  bench(`reconcileTools (${n} served, ${n / 20} prompts)`, () => reconcileTools(input.pack, input.served));
}
// Baseline: the least any reconciliation does, one hash set of the served names and one
// lookup per name. Its own ratio per doubling shows what the machine's memory hierarchy
// adds on top of linear work at these sizes.
for (const n of SIZES) {
  const served = (inputs.get(n) as { served: string[] }).served;
  bench(`baseline Set build + lookups (${n})`, () => {
    const set = new Set(served);
    let hits = 0;
    for (const name of served) if (set.has(name)) hits++;
    return hits;
  });
}

const results = await run(json ? { format: "quiet", colors: false } : { colors: false });
// The median, not the mean: this machine is small and shared, and one GC pause in a
// short run skews a mean far more than the work being measured.
const medianNs = (name: string): number => {
  const trial = results.benchmarks.find((b) => b.alias === name);
  const stats = trial?.runs[0]?.stats;
  if (stats === undefined) throw new Error(`no result for ${name}`);
  return stats.p50;
};

const parseMs = medianNs("yaml.parse (1,000 handlers)") / 1e6;
const loadMs = medianNs("loadToolRegistry (1,000 handlers)") / 1e6;
const reconcileMs = SIZES.map((n) => medianNs(`reconcileTools (${n} served, ${n / 20} prompts)`) / 1e6);
const doublingRatios = reconcileMs.slice(1).map((ms, i) => ms / (reconcileMs[i] as number));
const baselineMs = SIZES.map((n) => medianNs(`baseline Set build + lookups (${n})`) / 1e6);
const baselineRatios = baselineMs.slice(1).map((ms, i) => ms / (baselineMs[i] as number));
/** The per-doubling ratio over the whole range: (last / first) ^ (1 / doublings). */
const overall = (ms: readonly number[]): number => ((ms[ms.length - 1] as number) / (ms[0] as number)) ** (1 / (ms.length - 1));
const figures = {
  statistic: "median",
  manifest: { handlers: HANDLERS, bytes: manifest.length, yamlParseMs: round(parseMs), loadToolRegistryMs: round(loadMs), ratio: round(loadMs / parseMs), target: 3 },
  reconcile: { sizes: SIZES, ms: reconcileMs.map(round), doublingRatios: doublingRatios.map(round), maxDoublingRatio: round(Math.max(...doublingRatios)), overallPerDoubling: round(overall(reconcileMs)), target: 2.2 },
  large: {
    tools: LARGE,
    yamlBytes: largeYaml.length,
    jsonBytes: largeJson.length,
    ms: Object.fromEntries(Object.entries(large).map(([k, v]) => [k, round(v)])),
    yamlOverJson: round((large["load YAML"] as number) / (large["load JSON text"] as number)),
    yamlOverJsonWithWarning: round((large["load YAML"] as number) / (large["load JSON text, one warning"] as number)),
    yamlOverObject: round((large["load YAML"] as number) / (large["load parsed object"] as number)),
    yamlOverYamlParse: round((large["load YAML"] as number) / (large["yaml.parse"] as number)),
  },
  baselineSet: { sizes: SIZES, ms: baselineMs.map(round), doublingRatios: baselineRatios.map(round), overallPerDoubling: round(overall(baselineMs)) },
};

if (json) {
  const summary = [
    { name: "manifest: loadToolRegistry / yaml.parse (1,000 handlers)", value: figures.manifest.ratio, unit: "ratio", max: 3 },
    { name: `manifest: ${LARGE} tools, YAML load time / JSON text load time`, value: figures.large.yamlOverJson, unit: `ratio (JSON with one warning ${figures.large.yamlOverJsonWithWarning}, parsed object ${figures.large.yamlOverObject})`, min: 5 },
    { name: `manifest: ${LARGE} tools, YAML load / yaml.parse`, value: figures.large.yamlOverYamlParse, unit: `ratio (${round(large["load YAML"] as number)} ms / ${round(large["yaml.parse"] as number)} ms)`, max: 1.2 },
    { name: "reconcile: time per doubling (1k -> 8k, geometric mean)", value: figures.reconcile.overallPerDoubling, unit: `ratio (steps ${figures.reconcile.doublingRatios.join(", ")})`, max: 2.2 },
    { name: "reconcile baseline: Set build + lookups per doubling", value: figures.baselineSet.overallPerDoubling, unit: `ratio (steps ${figures.baselineSet.doublingRatios.join(", ")})` },
  ];
  console.log(JSON.stringify({ area: "manifest", ...figures, summary }));
} else {
  console.log(`\nloadToolRegistry / yaml.parse on ${HANDLERS} handlers: ${figures.manifest.ratio}x (target <= 3x)`);
  console.log(`${LARGE} tools, median ms: ${JSON.stringify(figures.large.ms)}`);
  console.log(
    `  YAML / JSON text ${figures.large.yamlOverJson}x (target >= 5), YAML / JSON with one warning ${figures.large.yamlOverJsonWithWarning}x, YAML / parsed object ${figures.large.yamlOverObject}x; YAML load / yaml.parse ${figures.large.yamlOverYamlParse}x (target <= 1.2)`,
  );
  console.log(
    `reconcileTools time ratio per doubling: ${figures.reconcile.doublingRatios.join(", ")}; over the range ${figures.reconcile.overallPerDoubling} (target <= 2.2x)`,
  );
  console.log(
    `baseline Set build + lookups, ratio per doubling: ${figures.baselineSet.doublingRatios.join(", ")}; over the range ${figures.baselineSet.overallPerDoubling}`,
  );
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
