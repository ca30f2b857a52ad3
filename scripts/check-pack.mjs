// Packs the package, installs the tarball into a scratch project, and imports each
// of the entries there, as a user would (the model-SDK adapters without their SDKs installed:
// `ai` is an optional peer, loaded only when a tool set is built). Prints CONTRACT_VERSION from /runtime.
// Then runs the README's quick start as written in a second fresh project: the `cp`
// line of its install block, every block marked `<!-- quickstart-file: <name> -->`
// written to <name>, the block marked `<!-- quickstart-run -->` run with bash, and
// its stdout compared with the block marked `<!-- quickstart-output -->`.
import { mkdtempSync, rmSync, writeFileSync, readdirSync, readFileSync } from "node:fs";
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
    'const grpc = await import("omnia-tools/grpc");',
    'const aiSdk = await import("omnia-tools/ai-sdk");',
    'const openai = await import("omnia-tools/openai");',
    'const anthropic = await import("omnia-tools/anthropic");',
    'if (runtime.CONTRACT_VERSION !== "1.9.0") throw new Error("CONTRACT_VERSION " + runtime.CONTRACT_VERSION);',
    'for (const [n, m] of Object.entries({ root, runtime, conformance, testing, grpc, aiSdk, openai, anthropic })) if (Object.keys(m).length === 0) throw new Error(n + " exports nothing");',
    'console.log("check-pack: CONTRACT_VERSION = " + runtime.CONTRACT_VERSION + "; entries:", Object.keys(root).length, Object.keys(runtime).length, Object.keys(conformance).length, Object.keys(testing).length);',
  ].join("\n");
  writeFileSync(join(app, "probe.mjs"), probe);
  execFileSync(process.execPath, ["probe.mjs"], { cwd: app, stdio: "inherit" });
  // A CommonJS consumer on Node >= 20.19 can require() the ESM package.
  writeFileSync(join(app, "probe.cjs"), 'const r = require("omnia-tools/runtime"); if (r.CONTRACT_VERSION !== "1.9.0") process.exit(1); console.log("check-pack: require(esm) ok");');
  execFileSync(process.execPath, ["probe.cjs"], { cwd: app, stdio: "inherit" });
  runQuickStart(resolve(scratch, tarball), join(scratch, "quickstart"));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** The fenced block right after `<!-- <marker> -->` in the README, or every such block. */
function markedBlocks(readme, marker) {
  const re = new RegExp(`<!-- ${marker} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`, "g");
  return [...readme.matchAll(re)];
}

function runQuickStart(tarballPath, dir) {
  const readme = readFileSync("README.md", "utf8");
  const files = markedBlocks(readme, "quickstart-file: ([\\w.-]+)");
  const run = markedBlocks(readme, "quickstart-run");
  const output = markedBlocks(readme, "quickstart-output");
  const install = /### 1\. Install\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const copy = install.split("\n").filter((line) => line.startsWith("cp "));
  if (files.length !== 3 || run.length !== 1 || output.length !== 1 || copy.length !== 1) {
    throw new Error(`check-pack: the README's quick start lost a marker: ${files.length} files, ${run.length} run, ${output.length} output, ${copy.length} cp lines`);
  }
  execFileSync("mkdir", ["-p", dir]);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-agent", private: true, type: "module" }));
  // `npm install omnia-tools`, from the packed tarball.
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent", tarballPath], { cwd: dir, stdio: "inherit" });
  execFileSync("bash", ["-euc", copy[0]], { cwd: dir, stdio: "inherit" });
  // The cp line copied every file; each README block must be what it copied.
  for (const [, name, text] of files) {
    if (readFileSync(join(dir, name), "utf8") !== text) throw new Error(`check-pack: the README's ${name} differs from the one the cp line copied`);
  }
  // Background jobs the block starts are stopped however it ends, so that none holds stdout open.
  const printed = execFileSync("bash", ["-euc", `trap 'jobs -p | xargs -r kill 2>/dev/null || true' EXIT\n${run[0][1]}`], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 60_000 });
  if (printed !== output[0][1]) {
    throw new Error(`check-pack: the quick start printed\n${printed}\nbut the README says\n${output[0][1]}`);
  }
  console.log(`check-pack: the README quick start ran as written (${files.map((f) => f[1]).join(", ")})`);
}
