// Pins the runtime export names of each package entry. Adding an export is a
// deliberate act: run `UPDATE_EXPORTS=1 npm run test:only -- test/exports.test.ts`
// and commit test/fixtures/exports.json together with the API reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";

const FIXTURE = "test/fixtures/exports.json";
const entries = {
  "omnia-tools": () => import("../src/index.js"),
  "omnia-tools/runtime": () => import("../src/runtime.js"),
  "omnia-tools/conformance": () => import("../src/conformance.js"),
  "omnia-tools/testing": () => import("../src/testing.js"),
  "omnia-tools/grpc": () => import("../src/grpc.js"),
  "omnia-tools/ai-sdk": () => import("../src/ai-sdk.js"),
  "omnia-tools/openai": () => import("../src/openai.js"),
  "omnia-tools/anthropic": () => import("../src/anthropic.js"),
};

test("each entry exports exactly the pinned names", async () => {
  const actual: Record<string, string[]> = {};
  for (const [name, load] of Object.entries(entries)) actual[name] = Object.keys(await load()).sort();
  if (process.env["UPDATE_EXPORTS"] === "1") writeFileSync(FIXTURE, `${JSON.stringify(actual, null, 2)}\n`);
  const expected = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, string[]>;
  assert.deepEqual(actual, expected);
});

test("importing an entry starts nothing: no timer, socket or server", async () => {
  const before = process.getActiveResourcesInfo().sort();
  for (const load of Object.values(entries)) await load();
  assert.deepEqual(process.getActiveResourcesInfo().sort(), before);
});
