// The openapi handler against a real loopback service: the spec is fetched over
// HTTP, $refs resolved, tools derived, and each request is checked as the
// backend received it through the HTTP transport. runtime-tools.md §7.4
// (V17–V19 shapes), http.md §3 (outcomes), issue #11.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "undici";
import { AbortedError, InvalidOptionError } from "../src/core/index.js";
import { HttpStatusError, HttpTransportError } from "../src/http/index.js";
import { executeOpenApiOperation, loadOpenApiOperations, OpenApiSpecError, type OpenApiOperation } from "../src/openapi/index.js";
import { createManualClock } from "../src/testing/index.js";
import { startHttpServer } from "./helpers/http-server.js";
import { PETS_SPEC, startOpenApiServer } from "./helpers/openapi-server.js";
import { closedPort, leakedResources, resourceBaseline } from "./helpers/resources.js";

const agent = new Agent({ keepAliveTimeout: 1_000 });
after(() => agent.close());

/** Headers undici adds on the wire; everything else must be exactly what we built. */
const TRANSPORT_HEADERS = new Set(["host", "connection", "content-length"]);

function sentHeaders(raw: readonly (readonly [string, string])[]): [string, string][] {
  return raw.filter(([name]) => !TRANSPORT_HEADERS.has(name.toLowerCase())).map(([n, v]) => [n, v]);
}

function byName(operations: readonly OpenApiOperation[], name: string): OpenApiOperation {
  const op = operations.find((o) => o.name === name);
  assert.ok(op !== undefined, `no operation ${name}`);
  return op;
}

test("tools are derived from a spec fetched over HTTP, with every $ref resolved", async () => {
  const api = await startOpenApiServer();
  try {
    const ops = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } }, { dispatcher: agent });
    assert.deepEqual(
      ops.map((o) => [o.name, o.method, o.path, o.description]),
      [
        ["getPetById", "GET", "/pets/{petId}", "Find a pet by id"],
        ["delete_pets_petId", "DELETE", "/pets/{petId}", "Deletes a pet"],
        ["listPets", "GET", "/pets", "GET /pets"],
        ["addPet", "POST", "/pets", "Add a pet"],
        ["status", "GET", "/status", "GET /status"],
      ],
    );
    for (const op of ops) assert.equal(op.baseURL, `${api.url}/v1`);
    assert.deepEqual(byName(ops, "getPetById").inputSchema, {
      type: "object",
      properties: {
        petId: { type: "integer", format: "int64" },
        "X-Trace-Id": { type: "string", description: "Correlation id" },
        fields: { type: "string", description: "Fields to return" },
      },
      required: ["petId"],
    });
    assert.deepEqual(byName(ops, "addPet").inputSchema, {
      type: "object",
      properties: {
        "X-Trace-Id": { type: "string", description: "Correlation id" },
        dryRun: { type: "boolean" },
        name: { type: "string" },
        tag: { type: "string", enum: ["dog", "cat"] },
      },
      required: ["name"],
    });
    assert.deepEqual(byName(ops, "listPets").inputSchema, {
      type: "object",
      properties: { limit: { type: "integer" }, tag: { type: "string", enum: ["dog", "cat"] } },
    });
    // The served spec object was not touched by dereferencing ($refs still in our copy of the fixture).
    assert.deepEqual((PETS_SPEC["paths"] as Record<string, Record<string, unknown>>)["/pets/{petId}"]?.["parameters"], [
      { $ref: "#/components/parameters/PetId" },
      { $ref: "#/components/parameters/TraceId" },
    ]);
  } finally {
    await api.close();
  }
});

test("the backend receives exactly the request built for GET with path, query and header parameters", async () => {
  const api = await startOpenApiServer();
  try {
    const ops = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL, headers: { "X-Api-Version": "2" } } }, { dispatcher: agent });
    const attempt = await executeOpenApiOperation(agent, byName(ops, "getPetById"), '{"petId":7,"fields":"name,tag","X-Trace-Id":"trace-1","ignored":true}', {
      identity: { userId: "u-1", sessionId: "s-9" },
      auth: { Authorization: "Bearer tool-cred" },
    });
    const [received] = api.apiRequests();
    assert.ok(received !== undefined);
    assert.equal(received.method, "GET");
    assert.equal(received.url, "/v1/pets/7?fields=name%2Ctag");
    assert.deepEqual(sentHeaders(received.rawHeaders), [
      ["X-Api-Version", "2"],
      ["Authorization", "Bearer tool-cred"],
      ["x-omnia-session-id", "s-9"],
      ["x-omnia-user-id", "u-1"],
      ["x-omnia-tool-name", "getPetById"],
      ["x-omnia-tool-registry", "pets-api"],
      ["x-omnia-param-PetId", "7"],
      ["x-omnia-param-Fields", "name,tag"],
      ["x-omnia-param-XTraceId", "trace-1"],
      ["x-omnia-param-Ignored", "true"],
      ["X-Trace-Id", "trace-1"],
    ]);
    assert.equal(received.body.byteLength, 0);
    assert.deepEqual(attempt.interpretation, { status: "success", result: { id: "7", name: "Rex" }, resultJson: '{"id":"7","name":"Rex"}' });
    assert.equal(attempt.response.status, 200);
    assert.equal(attempt.request.url, `${api.url}/v1/pets/7?fields=name%2Ctag`);
  } finally {
    await api.close();
  }
});

test("the backend receives the JSON body for POST, with the body's properties taken from the top-level arguments", async () => {
  const api = await startOpenApiServer();
  try {
    const ops = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } }, { dispatcher: agent });
    const attempt = await executeOpenApiOperation(agent, byName(ops, "addPet"), { name: "Tom & Jerry", tag: "cat", dryRun: false, "X-Trace-Id": "t-2" }, { injected: { "X-Broker": "yes" } });
    const [received] = api.apiRequests();
    assert.ok(received !== undefined);
    assert.equal(received.method, "POST");
    assert.equal(received.url, "/v1/pets?dryRun=false");
    assert.equal(received.body.toString("utf8"), '{"name":"Tom \\u0026 Jerry","tag":"cat"}');
    assert.deepEqual(sentHeaders(received.rawHeaders), [
      ["Content-Type", "application/json"],
      ["x-omnia-tool-name", "addPet"],
      ["x-omnia-tool-registry", "pets-api"],
      ["x-omnia-param-Name", "Tom & Jerry"],
      ["x-omnia-param-Tag", "cat"],
      ["x-omnia-param-DryRun", "false"],
      ["x-omnia-param-XTraceId", "t-2"],
      ["X-Broker", "yes"],
      ["X-Trace-Id", "t-2"],
    ]);
    assert.equal(attempt.response.status, 201);
    assert.deepEqual(attempt.interpretation, {
      status: "success",
      result: { created: { name: "Tom & Jerry", tag: "cat" } },
      resultJson: '{"created":{"name":"Tom \\u0026 Jerry","tag":"cat"}}',
    });
  } finally {
    await api.close();
  }
});

test("outcomes go through the HTTP interpretation: 5xx and 4xx errors with the body, a non-JSON 2xx wrapped", async () => {
  const api = await startOpenApiServer();
  try {
    const status = byName(await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } }, { dispatcher: agent }), "status");
    api.setStatus(503, "upstream down");
    const down = await executeOpenApiOperation(agent, status, {});
    assert.equal(down.interpretation.status, "error");
    assert.equal(down.interpretation.status === "error" && down.interpretation.message, "HTTP 503: upstream down");
    assert.ok(down.interpretation.status === "error" && down.interpretation.error instanceof HttpStatusError);
    api.setStatus(404, "x".repeat(600), "text/plain");
    const missing = await executeOpenApiOperation(agent, status, {});
    assert.equal(missing.interpretation.status === "error" && missing.interpretation.message, `HTTP 404: ${"x".repeat(512)}...`);
    api.setStatus(200, "plain <text>", "text/plain");
    const text = await executeOpenApiOperation(agent, status, {});
    assert.deepEqual(text.interpretation, { status: "success", result: { result: "plain <text>" }, resultJson: '{"result":"plain \\u003ctext\\u003e"}' });
  } finally {
    await api.close();
  }
});

test("operationFilter keeps only the listed operations (V18)", async () => {
  const api = await startOpenApiServer();
  try {
    const ops = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL, operationFilter: ["getPetById", "delete_pets_petId", "nope"] } }, { dispatcher: agent });
    assert.deepEqual(
      ops.map((o) => o.name),
      ["getPetById", "delete_pets_petId"],
    );
  } finally {
    await api.close();
  }
});

test("baseURL overrides the spec's server: requests go to the other service", async () => {
  const api = await startOpenApiServer();
  const other = await startHttpServer((_req, res) => void res.end('{"from":"override"}'));
  try {
    const ops = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL, baseURL: `${other.url}/api/` } }, { dispatcher: agent });
    const op = byName(ops, "getPetById");
    assert.equal(op.baseURL, `${other.url}/api`);
    const attempt = await executeOpenApiOperation(agent, op, { petId: 3 });
    assert.deepEqual(attempt.interpretation, { status: "success", result: { from: "override" }, resultJson: '{"from":"override"}' });
    assert.deepEqual(other.requests.map((r) => [r.method, r.url]), [["GET", "/api/pets/3"]]);
    assert.deepEqual(api.apiRequests(), []);
  } finally {
    await api.close();
    await other.close();
  }
});

test("the spec fetch carries the given credential; a spec passed as text or object is not fetched", async () => {
  const api = await startOpenApiServer();
  try {
    await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } }, { dispatcher: agent, headers: { Authorization: "Bearer spec-cred" } });
    assert.equal(api.server.requests[0]?.headers.authorization, "Bearer spec-cred");
    const before = api.server.requests.length;
    const fromText = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } }, { spec: JSON.stringify(PETS_SPEC) });
    const fromObject = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } }, { spec: PETS_SPEC });
    assert.equal(api.server.requests.length, before);
    assert.deepEqual(fromText, fromObject);
    assert.equal(fromText.length, 5);
  } finally {
    await api.close();
  }
});

test("spec failures are OpenApiSpecErrors with Omnia's texts", async () => {
  const expectSpecError = async (promise: Promise<unknown>, message: string | RegExp) => {
    await assert.rejects(promise, (e: unknown) => {
      assert.ok(e instanceof OpenApiSpecError, String(e));
      assert.equal(e.code, "ERR_OMNIA_OPENAPI_SPEC");
      if (typeof message === "string") assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    });
  };
  const load = (specURL: string, spec?: string) =>
    loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL } }, { dispatcher: agent, ...(spec === undefined ? {} : { spec }) });

  const notFound = await startOpenApiServer({ specStatus: 404, spec: "spec not here" });
  const notJson = await startOpenApiServer({ spec: "<html>spec not here</html>" });
  const array = await startOpenApiServer({ spec: "[1,2]" });
  const noServer = await startOpenApiServer({ spec: { openapi: "3.0.0", paths: {} } });
  const noPaths = await startOpenApiServer({ spec: { openapi: "3.0.0", servers: [{ url: "http://x" }] } });
  const badRef = await startOpenApiServer({ spec: { openapi: "3.0.0", servers: [{ url: "http://x" }], paths: { "/a": { get: { parameters: [{ $ref: "#/components/parameters/Missing" }] } } } } });
  const created = await startOpenApiServer({ specStatus: 201 });
  const port = await closedPort();
  try {
    await expectSpecError(load(notFound.specURL), 'handler "pets-api": failed to fetch OpenAPI spec: HTTP 404: spec not here');
    await expectSpecError(load(created.specURL), /^handler "pets-api": failed to fetch OpenAPI spec: HTTP 201: \{"openapi"/);
    await expectSpecError(load(notJson.specURL), /^handler "pets-api": failed to fetch OpenAPI spec: failed to parse spec as JSON: Unexpected token/);
    await expectSpecError(load(array.specURL), 'handler "pets-api": failed to fetch OpenAPI spec: failed to parse spec as JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
    await expectSpecError(load(noServer.specURL), 'handler "pets-api": no base URL configured and none found in spec');
    await expectSpecError(load(noPaths.specURL), 'handler "pets-api": failed to parse operations: no paths found in spec');
    await expectSpecError(
      load(badRef.specURL),
      'handler "pets-api": failed to resolve the OpenAPI spec: Missing $ref pointer "#/components/parameters/Missing". Token "components" does not exist.',
    );
    await expectSpecError(
      load(`http://127.0.0.1:${port}/openapi.json`),
      `handler "pets-api": failed to fetch OpenAPI spec: Get "http://127.0.0.1:${port}/openapi.json": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    await assert.rejects(load(`http://127.0.0.1:${port}/openapi.json`), (e: unknown) => e instanceof OpenApiSpecError && e.cause instanceof HttpTransportError);
    await expectSpecError(load("ftp://specs/openapi.json"), 'handler "pets-api": failed to fetch OpenAPI spec: Get "ftp://specs/openapi.json": unsupported protocol scheme "ftp"');
  } finally {
    for (const s of [notFound, notJson, array, noServer, noPaths, badRef, created]) await s.close();
  }
});

test("the spec fetch times out after the handler's timeout on the injected clock (default 30 s), and honours the caller's abort", async () => {
  const silent = await startHttpServer(() => undefined);
  const clock = createManualClock(0);
  try {
    const slow = loadOpenApiOperations({ name: "pets-api", timeoutMs: 0, openAPIConfig: { specURL: `${silent.url}/openapi.json` } }, { dispatcher: agent, clock });
    while (silent.requests.length < 1) await new Promise((r) => setImmediate(r));
    clock.advance(29_999);
    assert.equal(clock.pendingTimers(), 1);
    clock.advance(1);
    await assert.rejects(slow, (e: unknown) => e instanceof OpenApiSpecError && e.message === 'handler "pets-api": failed to fetch OpenAPI spec: timed out after 30000ms');

    const short = loadOpenApiOperations({ name: "pets-api", timeoutMs: 1_500, openAPIConfig: { specURL: `${silent.url}/openapi.json` } }, { dispatcher: agent, clock });
    while (silent.requests.length < 2) await new Promise((r) => setImmediate(r));
    clock.advance(1_500);
    await assert.rejects(short, (e: unknown) => e instanceof OpenApiSpecError && e.message === 'handler "pets-api": failed to fetch OpenAPI spec: timed out after 1500ms');

    const controller = new AbortController();
    const abandoned = loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: `${silent.url}/openapi.json` } }, { dispatcher: agent, clock, signal: controller.signal });
    while (silent.requests.length < 3) await new Promise((r) => setImmediate(r));
    controller.abort();
    await assert.rejects(abandoned, (e: unknown) => e instanceof AbortedError && e.message === 'loadOpenApiOperations: handler "pets-api": the caller\'s signal aborted');
    assert.equal(clock.pendingTimers(), 0);
  } finally {
    await silent.close();
  }
});

test("loading with the private dispatcher leaves no live handle", async () => {
  const api = await startOpenApiServer();
  const baseline = resourceBaseline();
  const ops = await loadOpenApiOperations({ name: "pets-api", openAPIConfig: { specURL: api.specURL } });
  assert.equal(ops.length, 5);
  await api.close();
  assert.deepEqual(await leakedResources(baseline), []);
});

test("loadOpenApiOperations checks its inputs", async () => {
  await assert.rejects(
    loadOpenApiOperations({ name: "", openAPIConfig: { specURL: "http://x" } }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === 'loadOpenApiOperations: handler must have a non-empty name; got {"name":"","openAPIConfig":{"specURL":"http://x"}}',
  );
  await assert.rejects(
    loadOpenApiOperations({ name: "p", openAPIConfig: { specURL: "" } }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === 'loadOpenApiOperations: handler "p": openAPIConfig.specURL must be a non-empty string; got ""',
  );
  await assert.rejects(
    loadOpenApiOperations({ name: "p", openAPIConfig: { specURL: "http://x" } }, { spec: [1] as never }),
    (e: unknown) => e instanceof InvalidOptionError && e.message === "loadOpenApiOperations: spec must be JSON text or an object; got [1]",
  );
});
