import { test } from "node:test";
import assert from "node:assert/strict";
import { HttpRequestError } from "../http/index.js";
import { buildOpenApiRequest } from "./request.js";
import type { OpenApiOperation, OpenApiParameter } from "./types.js";

function operation(method: OpenApiOperation["method"], path: string, parameters: OpenApiParameter[], headers: Record<string, string> = {}): OpenApiOperation {
  return {
    handlerName: "pets-api",
    name: "updatePet",
    operationId: "updatePet",
    method,
    path,
    baseURL: "https://api.example.com/v1",
    headers,
    parameters,
    description: "",
    inputSchema: { type: "object", properties: {} },
  };
}

const PARAMS: OpenApiParameter[] = [
  { name: "petId", in: "path", required: true },
  { name: "verbose", in: "query", required: false },
  { name: "limit", in: "query", required: false },
  { name: "X-Trace-Id", in: "header", required: false },
  { name: "session", in: "cookie", required: false },
];

test("POST: path, query and header parameters go by their in; the other arguments are the JSON body", () => {
  const req = buildOpenApiRequest(operation("POST", "/pets/{petId}/visits", PARAMS), '{"petId":42,"limit":1000000,"verbose":true,"X-Trace-Id":"t-1","session":"s","name":"Rex <3","age":3}');
  assert.deepEqual(req, {
    method: "POST",
    url: "https://api.example.com/v1/pets/42/visits?limit=1e%2B06&verbose=true",
    headers: {
      "Content-Type": "application/json",
      "x-omnia-tool-name": "updatePet",
      "x-omnia-tool-registry": "pets-api",
      "x-omnia-param-PetId": "42",
      "x-omnia-param-Limit": "1e+06",
      "x-omnia-param-Verbose": "true",
      "x-omnia-param-XTraceId": "t-1",
      "x-omnia-param-Session": "s",
      "x-omnia-param-Name": "Rex <3",
      "x-omnia-param-Age": "3",
      "X-Trace-Id": "t-1",
    },
    body: '{"age":3,"name":"Rex \\u003c3"}',
  });
});

test("GET: undeclared arguments are not sent (no body on GET); no query string without query arguments", () => {
  const req = buildOpenApiRequest(operation("GET", "/pets/{petId}", PARAMS), { petId: "a/b c?#", extra: 1 });
  assert.equal(req.url, "https://api.example.com/v1/pets/a%2Fb%20c%3F%23");
  assert.equal(req.body, undefined);
  assert.equal(req.headers["Content-Type"], undefined);
});

test("path values are Go %v text escaped as a path segment; every occurrence is replaced; a missing one stays a template", () => {
  const op = operation("DELETE", "/owners/{id}/pets/{id}/{other}", [
    { name: "id", in: "path", required: true },
    { name: "other", in: "path", required: true },
  ]);
  // Go's url.PathEscape keeps "+" (and "$&,;=:@") in a segment.
  assert.equal(buildOpenApiRequest(op, { id: 1.5e21 }).url, "https://api.example.com/v1/owners/1.5e+21/pets/1.5e+21/{other}");
  assert.equal(buildOpenApiRequest(op, { id: "a/b", other: "é" }).url, "https://api.example.com/v1/owners/a%2Fb/pets/a%2Fb/%C3%A9");
  // A dot segment would climb out of the operation's path (issue #19): refused, as for urlTemplate.
  for (const id of ["..", ".", "%2E%2e"]) {
    assert.throws(() => buildOpenApiRequest(op, { id, other: "x" }), {
      name: "HttpRequestError",
      message: `building OpenAPI request: path parameter "id" would be a dot path segment; got ${JSON.stringify(id)}`,
    });
  }
});

test("PUT and PATCH carry a body; DELETE does not; no undeclared argument means no body", () => {
  for (const method of ["PUT", "PATCH"] as const) {
    assert.equal(buildOpenApiRequest(operation(method, "/p", []), { b: 1, a: [true] }).body, '{"a":[true],"b":1}');
  }
  assert.equal(buildOpenApiRequest(operation("DELETE", "/p", []), { a: 1 }).body, undefined);
  assert.equal(buildOpenApiRequest(operation("POST", "/pets/{petId}", PARAMS), { petId: 1 }).body, undefined);
});

test("empty arguments: no body, no query, no x-omnia-param-*", () => {
  for (const args of [undefined, null, "", "null", "{}", {}]) {
    const req = buildOpenApiRequest(operation("POST", "/pets", PARAMS), args);
    assert.deepEqual(req, {
      method: "POST",
      url: "https://api.example.com/v1/pets",
      headers: { "x-omnia-tool-name": "updatePet", "x-omnia-tool-registry": "pets-api" },
    });
  }
});

test("header precedence: static < auth < Omnia < injected < header parameters; Authorization from the caller never appears", () => {
  const op = operation("GET", "/h", [{ name: "X-Level", in: "header", required: false }], { "X-Level": "static", Authorization: "static", "x-omnia-tool-name": "spoof", "X-Static": "s" });
  const req = buildOpenApiRequest(op, { "X-Level": "param" }, {
    auth: { Authorization: "Bearer tool-cred" },
    injected: { "x-level": "injected", "X-Injected": "i" },
    identity: { userId: "u-1", claims: { team: "eng" } },
  });
  assert.equal(req.headers["X-Level"], "param");
  assert.equal(req.headers["Authorization"], "Bearer tool-cred");
  assert.equal(req.headers["x-omnia-tool-name"], "updatePet");
  assert.equal(req.headers["x-omnia-user-id"], "u-1");
  assert.equal(req.headers["X-Omnia-Claim-Team"], "eng");
  assert.equal(req.headers["X-Injected"], "i");
  assert.equal(req.headers["X-Static"], "s");
  assert.equal(Object.keys(req.headers).filter((k) => k.toLowerCase() === "x-level").length, 1);
});

test("a header parameter whose value is not a valid header value is skipped and logged", () => {
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, error() {}, warn: (m: string) => void warnings.push(m) };
  const req = buildOpenApiRequest(operation("GET", "/h", [{ name: "X-Bad", in: "header", required: false }]), { "X-Bad": "a\r\nb" }, { logger });
  assert.equal(req.headers["X-Bad"], undefined);
  assert.deepEqual(warnings, ["skipping an OpenAPI header parameter with an invalid value"]);
});

test("arguments that are not a JSON object are an HttpRequestError", () => {
  const cases: [unknown, string][] = [
    ["[1]", "building OpenAPI request: json: cannot unmarshal array into Go value of type map[string]interface {}"],
    [[1], "building OpenAPI request: json: cannot unmarshal array into Go value of type map[string]interface {}"],
    ["7", "building OpenAPI request: json: cannot unmarshal number into Go value of type map[string]interface {}"],
    [true, "building OpenAPI request: json: cannot unmarshal bool into Go value of type map[string]interface {}"],
  ];
  for (const [args, message] of cases) {
    assert.throws(
      () => buildOpenApiRequest(operation("POST", "/p", []), args as never),
      (e: unknown) => e instanceof HttpRequestError && e.code === "ERR_OMNIA_HTTP_REQUEST" && e.message === message,
    );
  }
  assert.throws(() => buildOpenApiRequest(operation("POST", "/p", []), "{oops"), (e: unknown) => e instanceof HttpRequestError && e.message.startsWith("building OpenAPI request: "));
});
