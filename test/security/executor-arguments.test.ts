// Issue #19 items 6, 7 and 15 at the executor: arguments larger than the limit
// or nested too deep are refused before anything is parsed further or sent, on
// every handler type; and a request that cannot be built is never a breaker
// failure, so ten such calls do not refuse the next user's valid call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isOmniaToolsError } from "../../src/core/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { faultTest, httpRegistry, rig, expectError, closedSnapshot } from "../faults/helpers/harness.js";

const objects = (depth: number): string => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

faultTest("arguments over maxArgumentBytes (default 10 MiB) are refused with nothing sent; at the limit they go through", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: "      method: POST" }));
  const big = `{"s":"${"x".repeat(10 * 1024 * 1024)}"}`;
  expectError(await r.call("big", big), `invalid arguments for tool "t": arguments of ${10 * 1024 * 1024 + 8} bytes exceed the limit of 10485760 bytes`, "ERR_OMNIA_INVALID_ARGUMENTS");
  assert.equal(server.requests.length, 0);
  // Text is measured in UTF-8 bytes: each "é" is 2 bytes.
  const small = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: "      method: POST" }), { maxArgumentBytes: 20 });
  expectError(await small.call("e", '{"s":"éééééééé"}'), 'invalid arguments for tool "t": arguments of 24 bytes exceed the limit of 20 bytes', "ERR_OMNIA_INVALID_ARGUMENTS");
  assert.equal((await small.call("ok", '{"s":"abcdefghijk"}')).status, "success", "20 bytes exactly pass");
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0]?.body.toString(), '{"s":"abcdefghijk"}');
  // Refusals are not breaker events.
  assert.deepEqual(r.breakers.get("t").snapshot(), closedSnapshot("t", 0, 0));
});

faultTest("arguments nested deeper than 1000 levels are refused at the parse stage, as text or as a parsed value", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: "      method: POST" }));
  expectError(await r.call("deep", objects(100_000)), 'invalid arguments for tool "t": JSON nested deeper than 1000 levels', "ERR_OMNIA_INVALID_ARGUMENTS");
  const value = JSON.parse(objects(5_000)) as Record<string, never>;
  const out = await r.ex.execute({ id: "v", name: "t", arguments: value });
  expectError(out, 'invalid arguments for tool "t": JSON nested deeper than 1000 levels', "ERR_OMNIA_INVALID_ARGUMENTS");
  assert.equal(server.requests.length, 0);
  assert.deepEqual(
    r.recorder.records.map((rec) => [rec.status, rec.attempts]),
    [
      ["error", 0],
      ["error", 0],
    ],
  );
});

faultTest("ten calls whose arguments cannot shape a request fail with no attempt and leave the breaker closed", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  // A GET carries its arguments in the query: an array cannot be a query.
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: "      method: GET" }));
  for (let i = 0; i < 10; i++) {
    const out = await r.call(`bad-${i}`, "[1,2]");
    assert.equal(out.status, "error");
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_HTTP_REQUEST");
  }
  assert.deepEqual(r.breakers.get("t").snapshot(), closedSnapshot("t", 0, 0));
  assert.deepEqual(new Set(r.recorder.records.map((rec) => rec.attempts)), new Set([0]));
  assert.equal(server.requests.length, 0);
  const ok = await r.call("good", '{"q":"1"}');
  assert.equal(ok.status, "success", JSON.stringify(ok));
  assert.equal(server.requests.length, 1);
});

test("maxArgumentBytes must be a positive whole number", async () => {
  const { loadToolRegistry } = await import("../../src/manifest/index.js");
  const registry = loadToolRegistry('handlers:\n  - { name: h, type: http, tool: { name: t, description: d, inputSchema: {} }, httpConfig: { endpoint: "http://127.0.0.1:1/x" } }\n');
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(
      () => createToolExecutor({ registry, maxArgumentBytes: bad }),
      (e: unknown) => isOmniaToolsError(e) && e.message === `createToolExecutor: maxArgumentBytes must be a positive whole number of bytes; got ${String(bad)}`,
    );
  }
});
