// Cost of one conformance run against a loopback fixture runtime (the suite's six
// checks: Health, two Converse probes, Invoke, a duplex probe — 5 RPCs and one
// HTTP/2 connection per run), with a fresh `addr` connection and over a shared
// transport, and of formatting the report. No target: the figures are for the record.
// Run alone: node --expose-gc --import tsx bench/conformance.bench.ts [--json]
import { bench, do_not_optimize, run, summary } from "mitata";
import { opsPerSecond } from "./support.js";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { formatConformanceReport, runConformance } from "../src/conformance/index.js";
import { KNOWN, done, fixtureImpl, hello, startFixtureRuntime } from "../test/helpers/runtime-fixture.js";

const json = process.argv.includes("--json");

const rt = await startFixtureRuntime(
  fixtureImpl({
    health: { healthy: true, status: "ready", contractVersion: "1.9.0", capabilities: KNOWN },
    converse: (first) => (first?.duplexStart !== undefined ? [hello(KNOWN, { codec: "pcm", sampleRate: 16000, channels: 1 })] : [hello(KNOWN), done("ok")]),
    invoke: () => ({ outputJson: "{}" }),
  }),
);
const sessionManager = new Http2SessionManager(`http://${rt.addr}`);
const transport = createGrpcTransport({ baseUrl: `http://${rt.addr}`, sessionManager });
const sample = await runConformance({ addr: rt.addr });
if (!sample.passed) throw new Error(`bench fixture is not conformant:\n${formatConformanceReport(sample)}`);

summary(() => {
  bench("runConformance({ addr }) (new HTTP/2 connection per run)", async () => do_not_optimize(await runConformance({ addr: rt.addr })));
  bench("runConformance({ transport }) (shared connection)", async () => do_not_optimize(await runConformance({ transport })));
  bench("formatConformanceReport", () => do_not_optimize(formatConformanceReport(sample)));
});

const result = await run(json ? { format: "quiet" } : { colors: false });
sessionManager.abort();
await rt.close();
const figures = opsPerSecond(result);
if (json) {
  const summary = Object.entries(figures).map(([name, value]) => ({ name: `conformance: ${name}`, value, unit: "ops/s" }));
  console.log(JSON.stringify({ area: "conformance", unit: "ops/s", results: figures, summary }));
} else {
  console.log("\nops/s");
  for (const [name, ops] of Object.entries(figures)) console.log(`  ${ops.toLocaleString("en-US").padStart(12)}  ${name}`);
}
