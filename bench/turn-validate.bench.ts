// Argument validation cost once the schema is compiled (PromptKit's stage
// validates every call's arguments against its tool's schema).
//
// 1. validateArguments on a typical schema: an object with 5 typed properties,
//    3 of them required; valid arguments, and arguments with two errors.
//    Target: <= 2 us per call.
// 2. The same schema's cold path: the first call on a text not yet compiled
//    (compile + validate), reported for scale.
// 3. JSON.parse of the same arguments, the floor any validator pays to read them.
//
// Run alone: node --expose-gc --import tsx bench/turn-validate.bench.ts [--json]
import { bench, do_not_optimize, run, summary } from "mitata";
import { validateArguments } from "../src/turn/validate.js";
import { round3, type SummaryRow } from "./support.js";

const json = process.argv.includes("--json");

const SCHEMA =
  '{"properties":{"city":{"type":"string"},"days":{"maximum":14,"minimum":1,"type":"integer"},"detailed":{"type":"boolean"},"lat":{"type":"number"},"units":{"enum":["metric","imperial"],"type":"string"}},"required":["city","days","units"],"type":"object"}';
const VALID = '{"city":"Paris","days":3,"detailed":true,"lat":48.8566,"units":"metric"}';
const INVALID = '{"city":5,"days":30,"units":"metric"}';

// Warm the cache and check that the bench measures what it says.
if (!validateArguments("get_weather", SCHEMA, VALID).ok) throw new Error("bench: valid arguments failed validation");
const bad = validateArguments("get_weather", SCHEMA, INVALID);
if (bad.ok || !bad.error.endsWith("[city: Invalid type. Expected: string, given: integer days: Must be less than or equal to 14]")) {
  throw new Error(`bench: unexpected verdict ${JSON.stringify(bad)}`);
}

let cold = 0;
summary(() => {
  bench("validateArguments, compiled, valid (5 properties)", () => do_not_optimize(validateArguments("get_weather", SCHEMA, VALID)));
  bench("validateArguments, compiled, 2 errors", () => do_not_optimize(validateArguments("get_weather", SCHEMA, INVALID)));
  bench("JSON.parse of the same arguments", () => do_not_optimize(JSON.parse(VALID)));
});
// A new schema text every iteration: compile + validate (the cache evicts the oldest).
bench("validateArguments, cold (compile + validate)", () =>
  do_not_optimize(validateArguments("get_weather", SCHEMA.replace('"maximum":14', `"maximum":${14 + (cold++ % 100_000)}`), VALID)),
);

const results = await run(json ? { format: "quiet", colors: false } : { colors: false });
// The median, as the other micro-benches report: one GC pause skews a mean on this shared machine.
const medianUs = (name: string): number => {
  const stats = results.benchmarks.find((b) => b.alias === name)?.runs[0]?.stats;
  if (stats === undefined) throw new Error(`no result for ${name}`);
  return stats.p50 / 1000;
};
const validUs = medianUs("validateArguments, compiled, valid (5 properties)");
const invalidUs = medianUs("validateArguments, compiled, 2 errors");
const parseUs = medianUs("JSON.parse of the same arguments");
const coldUs = medianUs("validateArguments, cold (compile + validate)");

const figures = {
  statistic: "median",
  validUs: round3(validUs),
  invalidUs: round3(invalidUs),
  jsonParseUs: round3(parseUs),
  coldUs: round3(coldUs),
  target: { compiledUsMax: 2 },
};

if (json) {
  const rows: SummaryRow[] = [
    { name: "turn validation: compiled schema, valid arguments (5 properties)", value: figures.validUs, unit: "us/call", max: 2 },
    { name: "turn validation: compiled schema, 2 errors", value: figures.invalidUs, unit: "us/call", max: 2 },
    { name: "turn validation: cold (compile + validate)", value: figures.coldUs, unit: "us/call" },
  ];
  console.log(JSON.stringify({ area: "turn-validate", ...figures, summary: rows }));
} else {
  console.log(`\nvalidateArguments on a compiled 5-property schema: ${figures.validUs} us valid, ${figures.invalidUs} us with 2 errors (target <= 2 us)`);
  console.log(`JSON.parse of the same arguments: ${figures.jsonParseUs} us; cold compile + validate: ${figures.coldUs} us`);
}
