// A node:test reporter that stays silent while the tests run and ends with a recap of every failing test: its file,
// its name (with its suites) and the first line of its error. `scripts/run-tests.mjs` runs it beside the TAP
// reporter, so a failure in 13,000 lines of TAP is named at the very end of the output.
export default async function* failureRecap(source) {
  const failures = [];
  const suites = [];
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === "test:start") {
      suites[data.nesting] = data.name;
      continue;
    }
    if (event.type !== "test:fail") continue;
    const error = data.details?.error;
    // A suite (or a file) that failed only because a test in it did: that test has its own line.
    if (error?.failureType === "subtestsFailed") continue;
    const cause = error?.cause ?? error;
    const message = cause instanceof Error ? cause.message : String(cause ?? "");
    const path = [...suites.slice(0, data.nesting), data.name].join(" > ");
    failures.push(`  ${sourceOf(data.file) ?? "(unknown file)"}: ${path}\n    ${message.split("\n")[0]}`);
  }
  if (failures.length === 0) return;
  yield `\nrun-tests: ${failures.length} failing test${failures.length === 1 ? "" : "s"}:\n${failures.join("\n")}\n`;
}

/** The .ts a compiled test file in .test-out/ (scripts/run-tests.mjs) came from; any other path as it is. */
function sourceOf(file) {
  return typeof file === "string" ? file.replace(/\/\.test-out\/(.*)\.js$/, "/$1.ts") : file;
}
