// scripts/failure-recap.mjs (issue #32 item 12): the test run ends with every failing test named (file, suites and
// name, first line of the error), so a failure is found without reading the TAP.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { LOADER, sourcePath } from "./helpers/source.js";

// Under `npm test` the fixture runs compiled, from .test-out/: the recap still names the .ts it came from.
test("the failure recap names each failing test with its file, its suite and the first line of its error", () => {
  // A child of a test run reports to its parent unless NODE_TEST_CONTEXT is cleared: this one is a run of its own.
  const env = { ...process.env };
  delete env["NODE_TEST_CONTEXT"];
  const run = spawnSync(process.execPath, [...LOADER, "--test", "--test-reporter=./scripts/failure-recap.mjs", "--test-reporter-destination=stdout", sourcePath("test/fixtures/recap-fixture.ts")], { encoding: "utf8", env });
  assert.equal(run.status, 1);
  const file = `${process.cwd()}/test/fixtures/recap-fixture.ts`;
  assert.equal(
    run.stdout,
    `\nrun-tests: 2 failing tests:\n  ${file}: fails with an assertion\n    one is not two\n  ${file}: a suite > throws\n    boom\n`,
  );
});
