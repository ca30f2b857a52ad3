import { test } from "node:test";
import assert from "node:assert/strict";
import { OpenApiSpecError } from "./errors.js";
import { deriveOpenApiOperations } from "./operations.js";
import type { OpenApiHandlerInput } from "./types.js";

const handler = (config: Partial<OpenApiHandlerInput["openAPIConfig"]> = {}): OpenApiHandlerInput => ({
  name: "pets",
  openAPIConfig: { specURL: "http://specs.local/v1/openapi.json", ...config },
});

const v3 = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  servers: [{ url: "https://api.example.com/v1/" }],
  paths,
  ...extra,
});

function specError(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof OpenApiSpecError);
    assert.equal(e.code, "ERR_OMNIA_OPENAPI_SPEC");
    assert.equal(e.message, message);
    assert.equal(e.handlerName, "pets");
    return true;
  });
}

test("V17: an operation without operationId is named <method>_<path> with / as _, braces removed, outer _ trimmed", () => {
  const ops = deriveOpenApiOperations(handler(), v3({ "/users/{id}/posts": { get: {} }, "/": { post: {} }, "/a_b/{c}/": { delete: {} } }));
  assert.deepEqual(
    ops.map((o) => o.name),
    ["get_users_id_posts", "post_", "delete_a_b_c"],
  );
  assert.equal(ops[0]?.operationId, undefined);
});

test("V18: operationFilter keeps exact matches only, including generated names", () => {
  const spec = v3({
    "/pets/{petId}": { get: { operationId: "getPetById" }, delete: {} },
    "/pets": { post: { operationId: "addPet" } },
  });
  assert.deepEqual(deriveOpenApiOperations(handler({ operationFilter: ["getPetById"] }), spec).map((o) => o.name), ["getPetById"]);
  assert.deepEqual(deriveOpenApiOperations(handler({ operationFilter: ["delete_pets_petId", "addpet"] }), spec).map((o) => o.name), ["delete_pets_petId"]);
  assert.deepEqual(deriveOpenApiOperations(handler({ operationFilter: [] }), spec).map((o) => o.name), ["getPetById", "delete_pets_petId", "addPet"]);
});

test("document order: paths as written, then get, post, put, patch, delete; other methods are not served", () => {
  const ops = deriveOpenApiOperations(
    handler(),
    v3({ "/b": { delete: {}, head: {}, get: {}, options: {}, trace: {}, patch: {}, put: {}, post: {} }, "/a": { get: {} } }),
  );
  assert.deepEqual(
    ops.map((o) => `${o.method} ${o.path}`),
    ["GET /b", "POST /b", "PUT /b", "PATCH /b", "DELETE /b", "GET /a"],
  );
});

test("V19 and description rules: summary, else description cut at 200 bytes to 197 + ..., else <METHOD> <path>", () => {
  const long = "x".repeat(250);
  const exactly200 = "y".repeat(200);
  // 196 ASCII bytes then "é" (2 bytes): the cut at 197 splits it, as Go's byte slice does.
  const split = `${"z".repeat(196)}é${"z".repeat(10)}`;
  const ops = deriveOpenApiOperations(
    handler(),
    v3({
      "/a": { get: { summary: "Short summary", description: long } },
      "/b": { get: { description: long } },
      "/c": { get: { description: exactly200 } },
      "/d": { get: { description: split } },
      "/e": { put: { summary: "", description: "" } },
    }),
  );
  assert.deepEqual(
    ops.map((o) => o.description),
    ["Short summary", `${"x".repeat(197)}...`, exactly200, `${"z".repeat(196)}\uFFFD...`, "PUT /e"],
  );
});

test("base URL: the override (one trailing / dropped), servers[0] with variables, relative to the spec, Swagger host", () => {
  const base = (config: Partial<OpenApiHandlerInput["openAPIConfig"]>, doc: Record<string, unknown>) =>
    deriveOpenApiOperations(handler(config), { paths: { "/p": { get: {} } }, ...doc })[0]?.baseURL;
  assert.equal(base({ baseURL: "http://override:8080/api/" }, { servers: [{ url: "https://ignored" }] }), "http://override:8080/api");
  assert.equal(base({}, { servers: [{ url: "https://api.example.com/v1/" }, { url: "https://second" }] }), "https://api.example.com/v1");
  assert.equal(
    base({}, { servers: [{ url: "https://{region}.example.com/{ver}", variables: { region: { default: "eu" }, ver: { default: "v2" } } }] }),
    "https://eu.example.com/v2",
  );
  assert.equal(base({}, { servers: [{ url: "/api" }] }), "http://specs.local/api");
  assert.equal(base({}, { servers: [{ url: "api/v3" }] }), "http://specs.local/v1/api/v3");
  assert.equal(base({}, { swagger: "2.0", host: "legacy.example.com:81", basePath: "/base/" }), "https://legacy.example.com:81/base");
  assert.equal(base({}, { swagger: "2.0", host: "legacy.example.com", schemes: ["http", "https"] }), "http://legacy.example.com");
  specError(() => deriveOpenApiOperations(handler(), { paths: {} }), 'handler "pets": no base URL configured and none found in spec');
  specError(() => deriveOpenApiOperations(handler(), { servers: [{ url: "http://x" }] }), 'handler "pets": failed to parse operations: no paths found in spec');
  specError(() => deriveOpenApiOperations(handler(), [1]), 'handler "pets": failed to parse operations: the spec is not a JSON object');
});

test("two kept operations with one tool name are a spec error naming both (no silent last-wins)", () => {
  const spec = v3({ "/a": { get: { operationId: "same" } }, "/b": { post: { operationId: "same" } } });
  specError(() => deriveOpenApiOperations(handler(), spec), 'handler "pets": two operations have the tool name "same": GET /a and POST /b');
  assert.equal(deriveOpenApiOperations(handler({ operationFilter: ["other"] }), spec).length, 0);
});

test("input schema: parameters (schema + description), then JSON body properties merged at the top level; required in that order", () => {
  const [op] = deriveOpenApiOperations(
    handler(),
    v3({
      "/pets/{petId}": {
        parameters: [
          { name: "petId", in: "path", required: true, schema: { type: "integer" }, description: "overridden below" },
          { name: "X-Trace", in: "header", schema: { type: "string" } },
        ],
        put: {
          operationId: "updatePet",
          parameters: [
            { name: "petId", in: "path", required: true, schema: { type: "integer", format: "int64" }, description: "The pet" },
            { name: "dryRun", in: "query", schema: { type: "boolean" } },
            { name: "session", in: "cookie" },
            { name: "upload", in: "formData", type: "file" },
            { in: "query", schema: { type: "string" } },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["name"],
                  properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
                  allOf: [{ properties: { age: { type: "integer" } }, required: ["age"] }],
                },
              },
            },
          },
        },
      },
    }),
  );
  assert.ok(op !== undefined);
  assert.deepEqual(op.parameters, [
    { name: "petId", in: "path", required: true },
    { name: "X-Trace", in: "header", required: false },
    { name: "dryRun", in: "query", required: false },
    { name: "session", in: "cookie", required: false },
  ]);
  assert.deepEqual(op.inputSchema, {
    type: "object",
    properties: {
      petId: { type: "integer", format: "int64", description: "The pet" },
      "X-Trace": { type: "string" },
      dryRun: { type: "boolean" },
      session: { type: "string" },
      name: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
      age: { type: "integer" },
    },
    required: ["petId", "name", "age"],
  });
  assert.deepEqual(Object.keys(op.inputSchema["properties"] as object), ["petId", "X-Trace", "dryRun", "session", "name", "tags", "age"]);
});

test("input schema: no parameters and no body gives properties {} and no required; a non-JSON body adds nothing", () => {
  const ops = deriveOpenApiOperations(
    handler(),
    v3({
      "/ping": { get: {} },
      "/form": { post: { requestBody: { content: { "application/x-www-form-urlencoded": { schema: { properties: { a: { type: "string" } } } } } } } },
      "/vendor": { post: { requestBody: { content: { "application/vnd.pets+json; charset=utf-8": { schema: { properties: { v: { type: "string" } } } } } } } },
    }),
  );
  assert.deepEqual(ops[0]?.inputSchema, { type: "object", properties: {} });
  assert.deepEqual(ops[1]?.inputSchema, { type: "object", properties: {} });
  assert.deepEqual(ops[2]?.inputSchema, { type: "object", properties: { v: { type: "string" } } });
});

test("Swagger 2.0: parameter keywords become its schema, the in: body parameter is the JSON body", () => {
  const [op] = deriveOpenApiOperations(handler(), {
    swagger: "2.0",
    host: "h",
    paths: {
      "/pets": {
        post: {
          operationId: "addPet",
          parameters: [
            { name: "limit", in: "query", type: "integer", minimum: 1, description: "Max" },
            { name: "plain", in: "query" },
            { name: "pet", in: "body", required: true, schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
          ],
        },
      },
    },
  });
  assert.deepEqual(op?.inputSchema, {
    type: "object",
    properties: { limit: { type: "integer", minimum: 1, description: "Max" }, plain: { type: "string" }, name: { type: "string" } },
    required: ["name"],
  });
  assert.deepEqual(op?.parameters.map((p) => p.name), ["limit", "plain"]);
});

test("a recursive (dereferenced, cyclic) schema is cut to {} where it recurses; shared subtrees are kept", () => {
  const node: Record<string, unknown> = { type: "object", properties: { value: { type: "string" } } };
  (node["properties"] as Record<string, unknown>)["child"] = node;
  const shared = { type: "string", enum: ["a", "b"] };
  const [op] = deriveOpenApiOperations(
    handler(),
    v3({ "/tree": { post: { requestBody: { content: { "application/json": { schema: { properties: { root: node, x: shared, y: shared } } } } } } } }),
  );
  assert.deepEqual(op?.inputSchema, {
    type: "object",
    properties: {
      root: { type: "object", properties: { value: { type: "string" }, child: {} } },
      x: { type: "string", enum: ["a", "b"] },
      y: { type: "string", enum: ["a", "b"] },
    },
  });
  assert.doesNotThrow(() => JSON.stringify(op?.inputSchema));
});

test("a parameter or property named __proto__ is an ordinary key", () => {
  const [op] = deriveOpenApiOperations(handler(), v3({ "/x": { post: { parameters: [{ name: "__proto__", in: "query" }] } } }));
  assert.deepEqual(Object.keys(op?.inputSchema["properties"] as object), ["__proto__"]);
  assert.equal(JSON.stringify(op?.inputSchema), '{"type":"object","properties":{"__proto__":{"type":"string"}}}');
});

test("operations are frozen and carry the handler's static headers", () => {
  const [op] = deriveOpenApiOperations(handler({ headers: { "X-Api": "1" } }), v3({ "/x": { get: { operationId: "x" } } }));
  assert.ok(Object.isFrozen(op));
  assert.deepEqual(op?.headers, { "X-Api": "1" });
  assert.equal(op?.handlerName, "pets");
});
