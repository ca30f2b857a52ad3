// `import "omnia-tools"` loads no OpenTelemetry code: checked in a fresh node process
// (ESM resolutions seen by a module hook, CommonJS loads in require.cache), with the
// positive control that creating a telemetry object does load @opentelemetry/api.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const HOOK = `
import { appendFileSync } from "node:fs";
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.includes("@opentelemetry")) appendFileSync(out, r.url + "\\n");
  return r;
}`;

const SCRIPT = `
import { register, createRequire } from "node:module";
import { readFileSync, existsSync } from "node:fs";
const out = process.env.OTEL_SEEN;
register("data:text/javascript," + encodeURIComponent(process.env.OTEL_HOOK), { data: { out } });
const require = createRequire(process.cwd() + "/");
const seen = () => [
  ...(existsSync(out) ? readFileSync(out, "utf8").split("\\n").filter(Boolean) : []),
  ...Object.keys(require.cache).filter((k) => k.includes("@opentelemetry")),
];
const lib = await import(process.cwd() + "/src/index.ts");
const afterImport = seen();
const { createToolExecutor } = lib;
const { createTelemetry } = await import(process.cwd() + "/src/telemetry/index.ts");
const afterCreate = createTelemetry(undefined).enabled;
console.log(JSON.stringify({ exports: Object.keys(lib).length > 10 && typeof createToolExecutor, afterImport, afterCreate, loaded: seen().some((k) => k.includes("@opentelemetry/api")) }));
`;

test('import "omnia-tools" loads no @opentelemetry module; createTelemetry() then loads the API', () => {
  const dir = mkdtempSync(join(tmpdir(), "otel-lazy-"));
  try {
    const stdout = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
      cwd: process.cwd(),
      env: { ...process.env, OTEL_HOOK: HOOK, OTEL_SEEN: join(dir, "seen.txt") },
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"), { exports: "function", afterImport: [], afterCreate: true, loaded: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("no file under src/ imports @opentelemetry/*, not even types (a host without it type-checks): one lazy require in load-api.ts", () => {
  const offenders: string[] = [];
  let requires = 0;
  for (const file of readdirSync("src", { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    const text = readFileSync(join("src", file), "utf8");
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']@opentelemetry\/[^"']+["']/g)) offenders.push(`${file}: ${m[0].trim()}`);
    if (/import\(\s*["']@opentelemetry/.test(text)) offenders.push(`${file}: dynamic import`);
    if (/(?:^|\n)\s*import\s+["']@opentelemetry/.test(text)) offenders.push(`${file}: side-effect import`);
    requires += [...text.matchAll(/require\("@opentelemetry\/api"\)/g)].length;
  }
  assert.deepEqual(offenders, []);
  assert.equal(requires, 1);
});
