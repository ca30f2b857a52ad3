// The README's quick start (issue #23 item 8): its marked blocks are the files in examples/quickstart/, byte for byte,
// and the script, run from the sources against the stand-in backends, prints what the README says it prints.
// (scripts/check-pack.mjs runs the same blocks in a fresh project that installed the packed tarball.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { once } from "node:events";
import { loadPromptPack, loadToolRegistry } from "../../src/index.js";

const README = readFileSync("README.md", "utf8");
const DIR = "examples/quickstart";

/** The fenced block after `<!-- <marker> -->`, for every such marker. */
function marked(marker: string): RegExpMatchArray[] {
  return [...README.matchAll(new RegExp(`<!-- ${marker} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`, "g"))];
}

test("the README leads with the fresh-machine commands, then the quick start's files in full, as shipped in examples/quickstart/", async () => {
  assert.ok(README.includes("npm ci && npm run demo\n") && README.includes("npm ci && npm test\n"));
  assert.ok(README.indexOf("## Quick start") < README.indexOf("## Concepts"), "the first hour comes before the concepts");
  const files = marked("quickstart-file: ([\\w.-]+)");
  assert.deepEqual(files.map((m) => m[1]), ["registry.yaml", "pack.json", "quickstart.mjs"]);
  for (const [, name, text] of files) assert.equal(text, await readFile(join(DIR, name as string), "utf8"), `README's ${name} differs from ${DIR}/${name}`);
  // What `cp node_modules/omnia-tools/examples/quickstart/* .` copies, and what package.json ships.
  assert.ok(README.includes("\ncp node_modules/omnia-tools/examples/quickstart/* .\n"));
  assert.deepEqual(readdirSync(DIR).sort(), ["docs-server.mjs", "pack.json", "quickstart.mjs", "registry.yaml", "weather-api.mjs"]);
  assert.ok((JSON.parse(readFileSync("package.json", "utf8")) as { files: string[] }).files.includes("examples/quickstart"));
});

test("the quick start's registry passes --strict and its pack declares exactly what it serves", () => {
  const registry = loadToolRegistry(readFileSync(join(DIR, "registry.yaml"), "utf8"), { strict: true });
  assert.deepEqual(registry.warnings, []);
  assert.deepEqual(registry.handlers.map((h) => h.type), ["http", "mcp", "client"]);
  assert.deepEqual(loadPromptPack(readFileSync(join(DIR, "pack.json"), "utf8")).prompts["support"]?.tools, ["get_weather", "search_docs", "get_location"]);
});

test("the README text cites no document the package does not ship", () => {
  for (const name of ["http.md", "API.md", "runtime-tools.md", "seed 0", "seeds 0"]) assert.ok(!README.includes(name), `README cites ${name}`);
  for (const link of README.matchAll(/\]\((docs\/[^)#]+)\)/g)) assert.ok(readdirSync("docs").includes((link[1] as string).slice(5)), `${link[1]} exists`);
});

test("quickstart.mjs, run from the sources, prints the README's output", async () => {
  const [run] = marked("quickstart-run");
  const [output] = marked("quickstart-output");
  assert.equal(run?.[1], "node weather-api.mjs & node quickstart.mjs; kill $!\n");
  const scratch = await mkdtemp(join(tmpdir(), "omnia-tools-quickstart-"));
  let weather: ChildProcess | undefined;
  try {
    // The script as written, with "omnia-tools" resolved to this checkout's sources.
    const script = (await readFile(join(DIR, "quickstart.mjs"), "utf8")).replace('from "omnia-tools"', `from ${JSON.stringify(pathToFileURL(resolve("src/index.ts")).href)}`);
    await writeFile(join(scratch, "quickstart.mjs"), script);
    weather = spawn(process.execPath, ["weather-api.mjs"], { cwd: DIR, stdio: ["ignore", "ignore", "pipe"] });
    await once(weather.stderr as NodeJS.ReadableStream, "data");
    const child = spawn(process.execPath, ["--import", "tsx", join(scratch, "quickstart.mjs")], { cwd: DIR, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const [code] = (await once(child, "close")) as [number | null];
    assert.equal(code, 0, stderr);
    assert.equal(stdout, output?.[1]);
  } finally {
    weather?.kill();
    if (weather !== undefined && weather.exitCode === null) await once(weather, "close");
    await rm(scratch, { recursive: true, force: true });
  }
});
