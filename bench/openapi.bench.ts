// OpenAPI handler costs: building one operation's request (per call, against
// buildHttpRequest for the same call as an http handler), deriving the tools
// of the pets spec (per discovery), and a whole load from a parsed spec
// (clone + $ref resolution + derive). `--json` prints only a JSON object.
// Run alone: node --expose-gc --import tsx bench/openapi.bench.ts [--json]
import { bench, do_not_optimize, run, summary } from "mitata";
import { opsPerSecond } from "./support.js";
import { buildHttpRequest } from "../src/http/index.js";
import { buildOpenApiRequest, deriveOpenApiOperations, loadOpenApiOperations } from "../src/openapi/index.js";
import { PETS_SPEC } from "../test/helpers/openapi-server.js";

const JSON_ONLY = process.argv.includes("--json");

const handler = { name: "pets-api", openAPIConfig: { specURL: "http://127.0.0.1:8080/openapi.json" } };
const operations = await loadOpenApiOperations(handler, { spec: PETS_SPEC });
const addPet = operations.find((o) => o.name === "addPet");
const getPet = operations.find((o) => o.name === "getPetById");
if (addPet === undefined || getPet === undefined) throw new Error("bench: the pets spec lost an operation");
const { dereference } = await import("@readme/openapi-parser");
const resolved = await dereference(structuredClone(PETS_SPEC) as never, { resolve: { external: false } });

const context = {
  identity: { userId: "u-1", sessionId: "s-1", agentName: "support", claims: { tier: "gold", team: "payments" } },
  auth: { Authorization: "Bearer tool-cred" },
};
const postArgs = '{"name":"Rex","tag":"dog","dryRun":true,"X-Trace-Id":"t-1"}';
const getArgs = '{"petId":7,"fields":"name,tag","X-Trace-Id":"t-1"}';
const httpHandler = {
  name: "pets-api",
  tool: { name: "addPet" },
  httpConfig: { endpoint: "http://127.0.0.1:8080/v1/pets", method: "POST", queryParams: ["dryRun"], headerParams: { "X-Trace-Id": "X-Trace-Id" } },
};

summary(() => {
  bench("buildOpenApiRequest: POST, body + query + header param", () => do_not_optimize(buildOpenApiRequest(addPet, postArgs, context)));
  bench("buildOpenApiRequest: GET, path + query + header param", () => do_not_optimize(buildOpenApiRequest(getPet, getArgs, context)));
  bench("buildHttpRequest: the same POST as an http handler", () => do_not_optimize(buildHttpRequest(httpHandler, postArgs, context)));
});
summary(() => {
  bench("deriveOpenApiOperations: pets spec (5 operations)", () => do_not_optimize(deriveOpenApiOperations(handler, resolved)));
  bench("loadOpenApiOperations: pets spec object ($refs resolved)", async () => do_not_optimize(await loadOpenApiOperations(handler, { spec: PETS_SPEC })));
});

const result = await run(JSON_ONLY ? { format: "quiet" } : { colors: false });
const figures = opsPerSecond(result);
if (JSON_ONLY) {
  const summary = Object.entries(figures).map(([name, value]) => ({ name: `openapi: ${name}`, value, unit: "ops/s" }));
  console.log(JSON.stringify({ area: "openapi", unit: "ops/s", results: figures, summary }));
} else {
  console.log("\nops/s");
  for (const [name, ops] of Object.entries(figures)) console.log(`  ${ops.toLocaleString("en-US").padStart(12)}  ${name}`);
}
