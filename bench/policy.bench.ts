// Policy broker client: request encoding, response decoding, and one decision
// round trip to a node:http broker on loopback (keep-alive).
// Run alone: node --expose-gc --import tsx bench/policy.bench.ts [--json]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { bench, do_not_optimize, run, summary } from "mitata";
import { createPolicyBrokerClient, decodeDecisionResponse, marshalDecisionRequest, type DecisionRequest } from "../src/policy/index.js";

const json = process.argv.includes("--json");

const request: DecisionRequest = {
  toolName: "my_tool",
  handlerName: "h",
  handlerType: "http",
  registryName: "my-registry",
  arguments: { customer_id: "cust-1", limit: 10, verbose: true },
  identity: { origin: "web", subject: "user-1", endUser: "user-1", workspace: "ws", agent: "agent-1", claims: { role: "editor", team: "eng" } },
  headers: {
    "X-Omnia-Agent-Name": "agent-1",
    "X-Omnia-User-Id": "user-1",
    "X-Omnia-Claim-Role": "editor",
    "X-Omnia-Claim-Team": "eng",
    "X-Omnia-Tool-Name": "my_tool",
    "X-Omnia-Tool-Registry": "my-registry",
    "X-Omnia-Param-Customerid": "cust-1",
    "X-Omnia-Param-Limit": "10",
    "X-Omnia-Param-Verbose": "true",
  },
};
const answer = '{"allow":true,"wouldDeny":true,"deniedBy":"rule1","message":"would deny","mode":"audit","injectedHeaders":{"X-Tenant":"t-1"}}';
const answerBytes = new TextEncoder().encode(answer);

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.setHeader("content-type", "application/json");
    res.end(answer);
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;
const client = createPolicyBrokerClient({ url: `http://127.0.0.1:${port}` });

summary(() => {
  bench("marshalDecisionRequest (9 headers, 3 args, identity)", () => {
    do_not_optimize(marshalDecisionRequest(request));
  });
  bench("decodeDecisionResponse (audit answer with a header)", () => {
    do_not_optimize(decodeDecisionResponse(answerBytes));
  });
});
bench("decide(): one POST /v1/decision round trip on loopback", async () => {
  do_not_optimize(await client.decide(request));
});

const results = await run(json ? { format: "quiet" } : { colors: false });
await client.close();
await new Promise<void>((resolve) => server.close(() => resolve()));

const avgNs = (name: string): number => {
  for (const trial of results.benchmarks) {
    for (const r of trial.runs) if (r.name === name && r.stats !== undefined) return r.stats.avg;
  }
  return Number.NaN;
};
const figures = {
  marshalOpsPerSec: Math.round(1e9 / avgNs("marshalDecisionRequest (9 headers, 3 args, identity)")),
  decodeOpsPerSec: Math.round(1e9 / avgNs("decodeDecisionResponse (audit answer with a header)")),
  decisionRoundTripMicros: Math.round(avgNs("decide(): one POST /v1/decision round trip on loopback") / 100) / 10,
};
if (json) console.log(JSON.stringify(figures));
else {
  console.log(`\nmarshal: ${figures.marshalOpsPerSec.toLocaleString("en")} ops/s`);
  console.log(`decode: ${figures.decodeOpsPerSec.toLocaleString("en")} ops/s`);
  console.log(`decision round trip on loopback: ${figures.decisionRoundTripMicros} µs`);
}
