// Runs the model-SDK adapter tests (test/adapters/{ai-sdk,openai,anthropic}.test.ts) on the newest
// `ai` 7, `openai` and `@anthropic-ai/sdk` the registry serves, as well as on the versions pinned in
// devDependencies (which `npm test` runs). ai 7 and openai 7 need Node 22 or later, so .ci/run calls
// this on Node 22 and 24. The SDKs go into a scratch project (OMNIA_CI_SDK_DIR, default a temporary
// directory) and test/fixtures/sdk-from.mjs resolves them from there; everything else resolves as usual.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SDKS = ["ai@7", "openai@latest", "@anthropic-ai/sdk@latest"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const given = process.env.OMNIA_CI_SDK_DIR;
const dir = given ?? mkdtempSync(join(tmpdir(), "omnia-tools-sdks-"));
try {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "omnia-tools-sdks", private: true }));
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--silent", "--no-package-lock", ...SDKS], { cwd: dir, stdio: "inherit" });
  const version = (name) => JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version;
  const versions = ["ai", "openai", "@anthropic-ai/sdk"].map((name) => `${name} ${version(name)}`).join(", ");
  console.log(`check-sdks: Node ${process.version}, ${versions}`);
  // The tests must load these SDKs, not the repository's pinned ones.
  const check = `for (const n of ["ai", "ai/test", "openai", "@anthropic-ai/sdk", "@ai-sdk/provider"]) { const u = import.meta.resolve(n); if (!u.startsWith(${JSON.stringify(new URL(`file://${dir}/`).href)})) throw new Error(n + " resolves to " + u); }`;
  execFileSync(process.execPath, ["--import", "./test/fixtures/sdk-from.mjs", "--input-type=module", "-e", check], { stdio: "inherit", env: { ...process.env, OMNIA_TEST_SDK_DIR: dir } });
  const files = ["test/adapters/ai-sdk.test.ts", "test/adapters/openai.test.ts", "test/adapters/anthropic.test.ts"];
  execFileSync(process.execPath, ["--import", "tsx", "--import", "./test/fixtures/sdk-from.mjs", "--test", "--test-reporter=dot", ...files], {
    stdio: "inherit",
    env: { ...process.env, OMNIA_TEST_SDK_DIR: dir },
  });
  console.log(`check-sdks: the adapter tests pass on ${versions}`);
} catch (e) {
  console.error(`check-sdks: FAIL ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  if (given === undefined) rmSync(dir, { recursive: true, force: true });
}
