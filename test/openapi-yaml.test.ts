// OpenAPI specs in YAML (the CRD documents specURL as "JSON or YAML"), served by a real
// node:http server on loopback: the real Swagger Petstore in both forms discovers the
// same operations; a spec that is neither keeps Omnia's JSON message; alias bombs are refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Agent } from "undici";
import { loadOpenApiOperations, OpenApiSpecError } from "../src/openapi/index.js";
import { startHttpServer } from "./helpers/http-server.js";

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/real-world/openapi/${name}`, import.meta.url), "utf8");

async function serving(body: string, contentType: string) {
  return startHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": contentType });
    res.end(body);
  });
}

test("the real Petstore YAML served over HTTP discovers the same 20 operations as its JSON form", async () => {
  const agent = new Agent();
  const yaml = await serving(fixture("petstore.yaml"), "application/yaml");
  const json = await serving(fixture("petstore.json"), "application/json");
  try {
    const fromYaml = await loadOpenApiOperations({ name: "pets", openAPIConfig: { specURL: `${yaml.url}/openapi.yaml` } }, { dispatcher: agent });
    const fromJson = await loadOpenApiOperations({ name: "pets", openAPIConfig: { specURL: `${json.url}/openapi.yaml` } }, { dispatcher: agent });
    assert.equal(fromYaml.length, 20);
    assert.deepEqual(
      fromYaml.map((op) => op.name),
      fromJson.map((op) => op.name),
    );
    assert.deepEqual(fromYaml, fromJson);
    const get = fromYaml.find((op) => op.name === "getPetById");
    assert.equal(get?.method, "GET");
    assert.equal(get?.baseURL, "http://petstore.swagger.io/v2");
    assert.equal(yaml.requests.length, 1);
    assert.equal(yaml.requests[0]?.url, "/openapi.yaml");
  } finally {
    await yaml.close();
    await json.close();
    await agent.close();
  }
});

test("a YAML spec given as text (options.spec) is parsed too; numeric response keys become strings", async () => {
  const spec = [
    "openapi: 3.0.3",
    "info: {title: t, version: '1'}",
    "servers: [{url: 'http://127.0.0.1:1/api'}]",
    "paths:",
    "  /things/{id}:",
    "    get:",
    "      operationId: getThing",
    "      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]",
    "      responses: {200: {description: ok}}",
    "",
  ].join("\n");
  const ops = await loadOpenApiOperations({ name: "things", openAPIConfig: { specURL: "http://127.0.0.1:1/x.yaml" } }, { spec });
  assert.deepEqual(
    ops.map((op) => [op.name, op.method, op.path, op.baseURL]),
    [["getThing", "GET", "/things/{id}", "http://127.0.0.1:1/api"]],
  );
});

async function specError(body: string): Promise<OpenApiSpecError> {
  const agent = new Agent();
  const server = await serving(body, "text/plain");
  try {
    await loadOpenApiOperations({ name: "api", openAPIConfig: { specURL: `${server.url}/spec` } }, { dispatcher: agent });
  } catch (error) {
    assert.ok(error instanceof OpenApiSpecError, String(error));
    return error;
  } finally {
    await server.close();
    await agent.close();
  }
  assert.fail("the load succeeded");
}

test("a spec that is neither JSON nor a YAML mapping keeps Omnia's JSON message", async () => {
  const html = await specError("<html><body>Not here</body></html>");
  assert.equal(html.code, "ERR_OMNIA_OPENAPI_SPEC");
  assert.match(html.message, /^handler "api": failed to fetch OpenAPI spec: failed to parse spec as JSON: Unexpected token '<', "<html><bod"\.\.\. is not valid JSON$/);
  const broken = await specError("openapi: 3.0.0\npaths: {\n");
  assert.match(broken.message, /^handler "api": failed to fetch OpenAPI spec: failed to parse spec as JSON: Unexpected token 'o', "openapi: 3"\.\.\. is not valid JSON$/);
  const list = await specError("- a\n- b\n");
  assert.match(list.message, /^handler "api": failed to fetch OpenAPI spec: failed to parse spec as JSON: /);
});

test("a YAML spec whose aliases expand past the bound is refused before it is built", async () => {
  const node = `{${Array.from({ length: 20 }, (_, i) => `k${i}: v${i}`).join(", ")}}`;
  const body = `openapi: 3.0.0\nx-anchor: &a ${node}\nx-copies:\n${"  - *a\n".repeat(999)}paths: {}\n`;
  const error = await specError(body);
  assert.equal(
    error.message,
    'handler "api": failed to fetch OpenAPI spec: failed to parse spec as YAML: YAML aliases expand the document by more than 50000 nodes (alias *a); refusing it as a resource exhaustion attack',
  );
});
