// The README's "Use with model SDKs" snippets: each is examples/<sdk>.ts, word for word, with its imports pointed at the
// package (the examples import ../src/ so that they run from a checkout; test/adapters/<sdk>.test.ts runs them against
// the SDKs' real clients). So the README shows code that runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";

const README = readFileSync("README.md", "utf8");
const EXPORTS = (JSON.parse(readFileSync("package.json", "utf8")) as { exports: Record<string, unknown> }).exports;

/** The README section that starts at `heading` and ends at the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = README.slice(start + heading.length + 2);
  const next = new RegExp(`^#{1,${level}} `, "m").exec(rest);
  return next === null ? rest : rest.slice(0, next.index);
}

/** The example's code as a project that installed the package writes it: its leading comment lines dropped,
 * `../src/index.js` read as `omnia-tools` and `../src/<entry>.js` as `omnia-tools/<entry>`. */
function asPublished(file: string): string {
  const lines = readFileSync(file, "utf8").split("\n");
  let first = 0;
  while (lines[first]?.startsWith("//")) first++;
  return lines
    .slice(first)
    .join("\n")
    .replace(/from "\.\.\/src\/([\w-]+)\.js"/g, (_, entry: string) => {
      const subpath = entry === "index" ? "." : `./${entry}`;
      assert.ok(subpath in EXPORTS, `package.json exports ${subpath} (imported by ${file} as ../src/${entry}.js)`);
      assert.ok(existsSync(`src/${entry}.ts`), `src/${entry}.ts exists`);
      return entry === "index" ? 'from "omnia-tools"' : `from "omnia-tools/${entry}"`;
    });
}

const SNIPPETS = [
  { file: "examples/ai-sdk.ts", heading: "### Vercel AI SDK", entry: "omnia-tools/ai-sdk" },
  { file: "examples/openai.ts", heading: "### OpenAI", entry: "omnia-tools/openai" },
  { file: "examples/anthropic.ts", heading: "### Anthropic", entry: "omnia-tools/anthropic" },
];

test('the README has one "Use with model SDKs" section, with a subsection per SDK in the order of its table', () => {
  assert.equal(README.split("\n## Use with model SDKs\n").length, 2);
  const sdks = section("## Use with model SDKs");
  assert.ok(!sdks.includes("<!--"), "no placeholder comment is left");
  const at = SNIPPETS.map((s) => sdks.indexOf(`\n${s.heading}\n`));
  assert.ok(at.every((i, n) => i > 0 && (n === 0 || i > (at[n - 1] as number))), `subsections in order: ${at.join(", ")}`);
  for (const { entry } of SNIPPETS) assert.ok(sdks.includes(`| \`${entry}\` |`), `the table has a row for ${entry}`);
});

for (const { file, heading, entry } of SNIPPETS) {
  test(`the README's ${heading.slice(4)} snippet is ${file} with its imports pointed at the package`, () => {
    const blocks = [...section(heading).matchAll(/```ts\n([\s\S]*?)```\n/g)].map((m) => m[1]);
    assert.equal(blocks.length, 1, `one ts block under "${heading}"`);
    const published = asPublished(file);
    assert.ok(published.includes(`from "${entry}";\n`) && published.includes('from "omnia-tools";\n'), `${file} imports ../src/index.js and its entry`);
    assert.ok(!published.includes("../src/"), `every ../src/ import of ${file} is mapped`);
    assert.equal(blocks[0], published, `README's ${heading.slice(4)} block differs from ${file}`);
  });
}
