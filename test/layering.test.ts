// Enforces STYLE.md §3.2: which folder under src/ may import which, and where each
// third-party dependency may be used. Test files are exempt; generated code is checked
// as its own module ("gen").
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";

const SRC = "src";

/** module -> internal modules it may import (itself is always allowed). */
const INTERNAL: Record<string, readonly string[]> = {
  core: [],
  headers: ["core"],
  manifest: ["core", "yaml-limits"],
  "yaml-limits": ["core"],
  retry: ["core"],
  breaker: ["core"],
  records: ["core", "telemetry"],
  telemetry: ["core"],
  policy: ["core", "headers"],
  reconcile: ["core"],
  http: ["core", "headers", "retry"],
  grpc: ["core", "headers", "retry", "gen/omnia/tools", "gen/grpc/health"],
  // telemetry: types only (the request observer the executor's telemetry implements, so spans and `_meta` stay out of mcp).
  mcp: ["core", "headers", "retry", "telemetry"],
  openapi: ["core", "headers", "retry", "http", "yaml-limits"],
  "client-tools": ["core", "records"],
  backends: ["core", "manifest", "headers", "retry", "breaker", "http", "grpc", "mcp", "openapi"],
  executor: ["core", "manifest", "headers", "retry", "breaker", "policy", "records", "http", "mcp", "openapi", "client-tools", "backends", "telemetry"],
  contract: ["core", "headers", "gen/omnia/runtime"],
  conformance: ["core", "contract"],
  // startRuntime, the deployable frame, loads the mounted pack and registry, reconciles them and asks the broker.
  runtime: ["core", "headers", "contract", "executor", "client-tools", "records", "grpc", "gen/grpc/health", "manifest", "reconcile", "policy"],
  testing: ["core", "headers", "records", "grpc", "contract", "http"],
  // checkBackend calls backends through the real executor and judges arguments and results with the turn's validator.
  "backend-check": ["core", "headers", "manifest", "executor", "turn", "grpc"],
  turn: ["core", "headers", "manifest", "reconcile", "client-tools"],
  // types only (the code -> class map of isOmniaToolsError); at run time it imports core alone
  errors: ["core", "breaker", "retry", "manifest", "http", "grpc", "mcp", "openapi", "policy", "client-tools", "executor", "turn"],
  "ai-sdk": ["core", "executor", "turn", "client-tools"],
  openai: ["core", "turn", "client-tools"],
  anthropic: ["core", "turn", "client-tools"],
  cli: ["*"],
  gen: ["gen"],
  entry: ["*"],
};

/** third-party package -> modules that may import it. Node builtins are free. */
const THIRD_PARTY: Record<string, readonly string[]> = {
  zod: ["manifest", "reconcile"],
  yaml: ["manifest", "cli", "openapi", "yaml-limits"],
  undici: ["http", "openapi", "mcp", "testing", "policy", "records", "backend-check"],
  jmespath: ["http"],
  cockatiel: ["retry", "breaker", "turn"],
  "@bufbuild/protobuf": ["gen", "grpc", "contract", "conformance", "runtime", "testing"],
  "@connectrpc/connect": ["grpc", "contract", "conformance", "runtime", "testing"],
  "@connectrpc/connect-node": ["grpc", "conformance", "runtime", "testing"],
  "@modelcontextprotocol/sdk": ["mcp", "testing"],
  // The 2.x client, for revision 2026-07-28: loaded when a server refuses the older ones.
  "@modelcontextprotocol/client": ["mcp"],
  ajv: ["grpc", "testing"],
  "@readme/openapi-parser": ["openapi", "testing"],
  "@opentelemetry/api": ["telemetry"],
  // An optional peer dependency: types, and jsonSchema loaded when a tool set is built.
  ai: ["ai-sdk"],
};

const ENTRIES = new Set(["index.ts", "runtime.ts", "conformance.ts", "testing.ts", "grpc.ts", "ai-sdk.ts", "openai.ts", "anthropic.ts"]);

/** The model-SDK adapters: only their package entries import them. */
const ADAPTERS = new Set(["ai-sdk", "openai", "anthropic"]);

function moduleOf(file: string): string {
  const rel = relative(SRC, file).split(sep);
  if (rel.length === 1) return ENTRIES.has(rel[0] ?? "") ? "entry" : `?${rel[0]}`;
  if (rel[0] === "gen") return "gen";
  return rel[0] ?? "?";
}

function genModuleOf(file: string): string {
  const rel = relative(SRC, file).split(sep);
  return rel.slice(0, 3).join("/");
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".test-d.ts"))
    .map((f) => join(SRC, f))
    .sort();
}

// `require("pkg")` and `createRequire(...)("pkg")` too: a dependency loaded on first use is still an edge.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']|\)\(\s*["']([^."'][^"']*)["']\s*\)|\brequire\(\s*["']([^."'][^"']*)["']\s*\)/g;

function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) as string);
  return out;
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

export function layeringViolations(files: readonly string[], read: (f: string) => string): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const from = moduleOf(file);
    if (from.startsWith("?")) {
      problems.push(`${file}: a file directly under src/ must be a package entry (${[...ENTRIES].join(", ")})`);
      continue;
    }
    for (const spec of importsOf(read(file))) {
      if (spec.startsWith("node:")) continue;
      if (spec.startsWith(".")) {
        const target = join(dirname(file), spec);
        const to = moduleOf(target);
        if (to === from && from !== "gen") continue;
        if (ADAPTERS.has(to) && file !== join(SRC, `${to}.ts`)) {
          problems.push(`${file}: only src/${to}.ts may import ${to}/ (${spec})`);
          continue;
        }
        const allowed = INTERNAL[from] ?? [];
        if (allowed.includes("*")) {
          // grpc/errors.js: the root entry exports the gRPC error classes without loading connect.
          const entryFile = target.endsWith(`${sep}index.js`) || target.endsWith(`contract${sep}gen.js`) || target.endsWith(`grpc${sep}errors.js`);
          if (from === "entry" && to !== "gen" && !entryFile) {
            problems.push(`${file}: a package entry imports only a folder's index.ts; got ${spec}`);
          }
          if (from === "entry" && to === "gen") problems.push(`${file}: a package entry must not import gen/ directly; got ${spec}`);
          continue;
        }
        const key = to === "gen" ? genModuleOf(target) : to;
        const ok = allowed.some((a) => key === a || key.startsWith(`${a}/`));
        if (!ok) problems.push(`${file}: ${from} may not import ${key} (${spec})`);
        else if (to !== "gen" && from !== "gen" && !target.endsWith(`${sep}index.js`)) {
          problems.push(`${file}: import another folder through its index.ts; got ${spec}`);
        }
        continue;
      }
      const pkg = packageName(spec);
      const users = THIRD_PARTY[pkg];
      if (users === undefined) {
        problems.push(`${file}: ${pkg} is not a dependency listed in the layering table`);
      } else if (!users.includes(from) && from !== "cli") {
        problems.push(`${file}: ${from} may not use ${pkg} (allowed in: ${users.join(", ")})`);
      }
    }
  }
  return problems;
}

test("every import under src/ follows STYLE.md §3.2", () => {
  const files = sourceFiles();
  assert.ok(files.length > 10, `expected the source tree, found ${files.length} files`);
  assert.deepEqual(layeringViolations(files, (f) => readFileSync(f, "utf8")), []);
});

test("the layering check catches a forbidden edge, a forbidden dependency (also one required lazily) and a deep import", () => {
  const fake: Record<string, string> = {
    [join(SRC, "core", "bad.ts")]: 'import { x } from "../headers/index.js";',
    [join(SRC, "breaker", "bad.ts")]: 'import { request } from "undici";',
    [join(SRC, "http", "deep.ts")]: 'import { y } from "../headers/keys.js";',
    [join(SRC, "conformance", "bad.ts")]: 'export { z } from "../executor/index.js";',
    [join(SRC, "records", "lazy.ts")]: 'const jmespath = () => createRequire(import.meta.url)("jmespath");',
    [join(SRC, "stray.ts")]: "export const a = 1;",
    [join(SRC, "index.ts")]: 'export { toAiSdkTools } from "./ai-sdk/index.js";',
  };
  assert.deepEqual(layeringViolations(Object.keys(fake), (f) => fake[f] ?? ""), [
    `${join(SRC, "core", "bad.ts")}: core may not import headers (../headers/index.js)`,
    `${join(SRC, "breaker", "bad.ts")}: breaker may not use undici (allowed in: http, openapi, mcp, testing, policy, records, backend-check)`,
    `${join(SRC, "http", "deep.ts")}: import another folder through its index.ts; got ../headers/keys.js`,
    `${join(SRC, "conformance", "bad.ts")}: conformance may not import executor (../executor/index.js)`,
    `${join(SRC, "records", "lazy.ts")}: records may not use jmespath (allowed in: http)`,
    `${join(SRC, "stray.ts")}: a file directly under src/ must be a package entry (index.ts, runtime.ts, conformance.ts, testing.ts, grpc.ts, ai-sdk.ts, openai.ts, anthropic.ts)`,
    `${join(SRC, "index.ts")}: only src/ai-sdk.ts may import ai-sdk/ (./ai-sdk/index.js)`,
  ]);
});

/** Each strongly connected group of more than one module under `root` (relative imports, type-only ones included). */
function importCircles(root: string): string[][] {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".test-d.ts"))
    .map((f) => resolve(root, f));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const deps: string[] = [];
    for (const m of readFileSync(file, "utf8").matchAll(/(?:import|export)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/g)) {
      const target = resolve(dirname(file), (m[1] as string).replace(/\.js$/, ".ts"));
      if (known.has(target)) deps.push(target);
    }
    edges.set(file, deps);
  }
  // Tarjan's strongly connected components.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(relative(root, w));
      } while (w !== v);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

test("no import circle anywhere in src/, type-only imports included: shared types live in a module both sides import", () => {
  assert.deepEqual(importCircles("src"), []);
});

test("importCircles finds a circle of type-only imports", () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-circles-"));
  try {
    writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b.js";\nexport type A = B;\n');
    writeFileSync(join(dir, "b.ts"), 'import type { C } from "./c.js";\nexport type B = C;\n');
    writeFileSync(join(dir, "c.ts"), 'import type { A } from "./a.js";\nexport type C = A | 1;\n');
    assert.deepEqual(importCircles(dir), [["a.ts", "b.ts", "c.ts"]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
