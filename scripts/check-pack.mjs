// Packs the package, installs the tarball into a scratch project, and imports each
// of the entries there, as a user would (the model-SDK adapters without their SDKs installed:
// `ai` is an optional peer, loaded only when a tool set is built). Prints CONTRACT_VERSION from /runtime.
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const scratch = mkdtempSync(join(tmpdir(), "omnia-tools-pack-"));
try {
  execFileSync(npm, ["pack", "--pack-destination", scratch, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("check-pack: npm pack produced no tarball");
  const app = join(scratch, "app");
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent", resolve(scratch, tarball)], { cwd: app, stdio: "inherit" });
  const probe = [
    'const runtime = await import("omnia-tools/runtime");',
    'const root = await import("omnia-tools");',
    'const conformance = await import("omnia-tools/conformance");',
    'const testing = await import("omnia-tools/testing");',
    'const aiSdk = await import("omnia-tools/ai-sdk");',
    'const openai = await import("omnia-tools/openai");',
    'const anthropic = await import("omnia-tools/anthropic");',
    'if (runtime.CONTRACT_VERSION !== "1.9.0") throw new Error("CONTRACT_VERSION " + runtime.CONTRACT_VERSION);',
    'for (const [n, m] of Object.entries({ root, runtime, conformance, testing, aiSdk, openai, anthropic })) if (Object.keys(m).length === 0) throw new Error(n + " exports nothing");',
    'console.log("check-pack: CONTRACT_VERSION = " + runtime.CONTRACT_VERSION + "; entries:", Object.keys(root).length, Object.keys(runtime).length, Object.keys(conformance).length, Object.keys(testing).length);',
  ].join("\n");
  writeFileSync(join(app, "probe.mjs"), probe);
  execFileSync(process.execPath, ["probe.mjs"], { cwd: app, stdio: "inherit" });
  // A CommonJS consumer on Node >= 20.19 can require() the ESM package.
  writeFileSync(join(app, "probe.cjs"), 'const r = require("omnia-tools/runtime"); if (r.CONTRACT_VERSION !== "1.9.0") process.exit(1); console.log("check-pack: require(esm) ok");');
  execFileSync(process.execPath, ["probe.cjs"], { cwd: app, stdio: "inherit" });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
