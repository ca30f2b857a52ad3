// What importing each package entry loads: the third-party packages reached through
// static imports from the entry, in a fresh process. Heavy or optional dependencies
// (zod, connect, protobuf, ajv, undici, yaml, jmespath, cockatiel, the MCP SDK, the
// OpenAPI parser) load when first used, so that `import "omnia-tools"` costs what an
// HTTP-only host needs; `npm run bench -- import` measures the time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { LOADER, sourceUrl } from "./helpers/source.js";

/** The packages a fresh process loads while importing `entry` (seen by an ESM resolve hook and in require's cache). */
function packagesLoadedBy(entry: string): string[] {
  const probe = `
    import { register } from "node:module";
    import { MessageChannel } from "node:worker_threads";
    const { port1, port2 } = new MessageChannel();
    const seen = new Set();
    port1.on("message", (m) => seen.add(m));
    register("data:text/javascript,${encodeURIComponent(HOOKS)}", { data: { port: port2 }, transferList: [port2] });
    // CommonJS packages required by the entry bypass the resolve hook: read them from require's
    // cache, less what was there before (tsx, the test's loader).
    const { createRequire } = await import("node:module");
    const cache = createRequire(import.meta.url).cache;
    const before = new Set(Object.keys(cache));
    await import(${JSON.stringify(entry)});
    for (const file of Object.keys(cache).filter((f) => !before.has(f))) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
      if (m) seen.add(m[1]);
    }
    // Let the hook thread's last messages arrive.
    await new Promise((r) => setTimeout(r, 50));
    port1.close();
    console.log(JSON.stringify([...seen].sort()));
  `;
  const out = spawnSync(process.execPath, [...LOADER, "--input-type=module", "-e", probe], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout.trim().split("\n").pop() ?? "[]") as string[];
}

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(spec, ctx, next) {
  const r = await next(spec, ctx);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(r.url);
  if (m) port.postMessage(m[1]);
  return r;
}
`;

test('import "omnia-tools" loads nothing from node_modules', () => {
  assert.deepEqual(packagesLoadedBy(sourceUrl("src/index.ts")), []);
});


test('import "omnia-tools/runtime" loads connect and protobuf, not ajv or undici', () => {
  assert.deepEqual(packagesLoadedBy(sourceUrl("src/runtime.ts")), ["@bufbuild/protobuf", "@connectrpc/connect", "@connectrpc/connect-node"]);
});
