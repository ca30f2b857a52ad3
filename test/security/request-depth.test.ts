// Issue #19 item 7: JSON nested 100000 deep, in the arguments, in staticBody or
// in inputSchema, gives a typed error (never a RangeError), sends nothing, and
// leaves the process able to serve the next call. The limit is 1000 levels
// (MAX_JSON_DEPTH): exactly 1000 goes through the whole pipeline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, InvalidArgumentsError, MAX_JSON_DEPTH, jsonTextTooDeep, jsonValueTooDeep } from "../../src/core/index.js";
import { buildHttpRequest, HttpRequestError } from "../../src/http/index.js";
import { buildOpenApiRequest } from "../../src/openapi/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { faultTest, httpRegistry, rig, expectError } from "../faults/helpers/harness.js";

const DEEP = 100_000;
const arrays = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

test("the depth checks count containers as Go's scanner does: depth 1000 passes, 1001 does not; strings are not counted", () => {
  assert.equal(MAX_JSON_DEPTH, 1000);
  for (const make of [arrays, objects]) {
    assert.equal(jsonTextTooDeep(make(1000)), false);
    assert.equal(jsonTextTooDeep(make(1001)), true);
    assert.equal(jsonValueTooDeep(JSON.parse(make(1000))), false);
    assert.equal(jsonValueTooDeep(JSON.parse(make(1001))), true);
    assert.equal(jsonValueTooDeep(JSON.parse(make(DEEP))), true);
  }
  assert.equal(jsonTextTooDeep(JSON.stringify({ s: "[".repeat(5000) + '\\"{'.repeat(5000) })), false);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(jsonValueTooDeep(cyclic), true);
});

const DEEP_ARGS = `{"a":${objects(DEEP)}}`;

faultTest("arguments nested 100000 deep: a typed error on every handler shape, nothing sent, the next call served", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const shapes = ["      method: POST", "      method: GET", "      method: POST\n      staticBody: { v: 1 }", `      method: GET\n      urlTemplate: ${server.url}/u/{a}`];
  for (const [i, shape] of shapes.entries()) {
    const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: shape }));
    // The executor's parse stage refuses them first (buildHttpRequest's own check is tested below).
    expectError(await r.call(`deep-${i}`, DEEP_ARGS), 'invalid arguments for tool "t": JSON nested deeper than 1000 levels', "ERR_OMNIA_INVALID_ARGUMENTS");
    expectError(await r.call(`deep-arr-${i}`, `{"a":${arrays(DEEP)}}`), 'invalid arguments for tool "t": JSON nested deeper than 1000 levels', "ERR_OMNIA_INVALID_ARGUMENTS");
    assert.equal(server.requests.length, i, "nothing was sent for the deep arguments");
    assert.equal((await r.call(`ok-${i}`, '{"a":"1"}')).status, "success");
  }
});

faultTest("arguments exactly 1000 deep go through the executor to the backend, byte for byte", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: "      method: POST\n      staticBody: { v: 1 }" }));
  const args = `{"a":${objects(999)}}`;
  const out = await r.call("edge", args);
  assert.equal(out.status, "success", JSON.stringify(out).slice(0, 300));
  assert.equal(server.requests[0]?.body.toString(), `{"a":${objects(999)},"v":1}`);
});

test("buildHttpRequest and buildOpenApiRequest refuse deep parsed values with a typed error", () => {
  const handler = { name: "h", tool: { name: "t" }, httpConfig: { endpoint: "http://127.0.0.1:1/x", method: "POST" } };
  const value = JSON.parse(DEEP_ARGS) as Record<string, never>;
  assert.throws(() => buildHttpRequest(handler, value), (e: unknown) => e instanceof InvalidArgumentsError && e.message === "invalid arguments: JSON nested deeper than 1000 levels");
  assert.throws(
    () => buildHttpRequest({ ...handler, httpConfig: { ...handler.httpConfig, staticBody: value } }, "{}"),
    (e: unknown) => e instanceof HttpRequestError && e.message === "staticBody: JSON nested deeper than 1000 levels",
  );
  const operation = { handlerName: "p", name: "op", operationId: "op", method: "POST" as const, path: "/x", baseURL: "http://127.0.0.1:1", headers: {}, parameters: [], description: "d", inputSchema: {} };
  for (const args of [DEEP_ARGS, value]) {
    assert.throws(
      () => buildOpenApiRequest(operation, args),
      (e: unknown) => e instanceof InvalidArgumentsError && e.message === "building OpenAPI request: invalid arguments: JSON nested deeper than 1000 levels",
    );
  }
});

test("staticBody, inputSchema and outputSchema nested 100000 deep are a ConfigError naming the field, as JSON text, UTF-8 bytes and a parsed object", () => {
  const manifest = (tool: string, http: string) =>
    `{"handlers":[{"name":"h","type":"http","httpConfig":{"endpoint":"http://127.0.0.1:1/x"${http}},"tool":{"name":"t","description":"d",${tool}}}]}`;
  const cases: [string, string][] = [
    [manifest('"inputSchema":{"type":"object"}', `,"staticBody":${objects(DEEP)}`), "handlers[0].httpConfig.staticBody"],
    [manifest(`"inputSchema":{"properties":${objects(DEEP)}}`, ""), "handlers[0].tool.inputSchema"],
    [manifest(`"inputSchema":{"type":"object"},"outputSchema":{"x":${arrays(DEEP)}}`, ""), "handlers[0].tool.outputSchema"],
  ];
  for (const [text, path] of cases) {
    for (const input of [text, JSON.parse(text) as object, new TextEncoder().encode(text)]) {
      assert.throws(
        () => loadToolRegistry(input),
        (e: unknown) => e instanceof ConfigError && e.message === `${path}: JSON nested deeper than 1000 levels`,
      );
    }
  }
});
