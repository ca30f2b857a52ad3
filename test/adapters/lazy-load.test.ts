// The model-SDK adapters add nothing to `import "omnia-tools"`, and their own
// entries load no SDK: checked in a fresh node process by a module hook that
// sees every ESM resolution, with the positive control that building an AI SDK
// tool set loads `ai`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const HOOK = `
import { appendFileSync } from "node:fs";
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/node_modules\\/(ai|@ai-sdk\\/[^/]+|openai|@anthropic-ai\\/sdk)\\//.test(r.url)) appendFileSync(out, r.url.replace(/^.*node_modules\\/((@[^/]+\\/)?[^/]+)\\/.*$/, "$1") + "\\n");
  if (r.url.includes("/src/ai-sdk/") || r.url.includes("/src/openai/") || r.url.includes("/src/anthropic/")) appendFileSync(out, r.url.replace(/^.*\\/src\\//, "src/") + "\\n");
  return r;
}`;

const SCRIPT = `
import { register } from "node:module";
import { readFileSync, existsSync } from "node:fs";
const out = process.env.SDK_SEEN;
register("data:text/javascript," + encodeURIComponent(process.env.SDK_HOOK), { data: { out } });
const seen = () => [...new Set(existsSync(out) ? readFileSync(out, "utf8").split("\\n").filter(Boolean) : [])].sort();
const root = await import(process.cwd() + "/src/index.ts");
const afterRoot = seen();
const aiSdk = await import(process.cwd() + "/src/ai-sdk.ts");
await import(process.cwd() + "/src/openai.ts");
await import(process.cwd() + "/src/anthropic.ts");
const afterEntries = seen().filter((u) => !u.startsWith("src/"));
const registry = root.loadToolRegistry("handlers:\\n  - name: loc\\n    type: client\\n    tool: { name: get_location, description: d, inputSchema: { type: object } }\\n");
const executor = root.createToolExecutor({ registry });
await aiSdk.toAiSdkTools(executor);
await executor.close();
console.log(JSON.stringify({ afterRoot, afterEntries, afterBuild: seen().filter((u) => !u.startsWith("src/")) }));
`;

test('import "omnia-tools" loads no adapter and no model SDK; the adapter entries load no SDK; toAiSdkTools() loads ai', () => {
  const dir = mkdtempSync(join(tmpdir(), "sdk-lazy-"));
  try {
    const stdout = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
      cwd: process.cwd(),
      env: { ...process.env, SDK_HOOK: HOOK, SDK_SEEN: join(dir, "seen.txt") },
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"), {
      afterRoot: [],
      afterEntries: [],
      afterBuild: ["@ai-sdk/gateway", "@ai-sdk/provider", "@ai-sdk/provider-utils", "ai"],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
