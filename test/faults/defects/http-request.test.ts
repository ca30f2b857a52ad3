// D1, D2, D7: HTTP request-building defects found by the fault, security and
// fuzz suites. Fixed; kept as regression tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildHttpRequest, HttpRequestError } from "../../../src/http/index.js";
import { startHttpServer } from "../../helpers/http-server.js";
import { closedPort } from "../../helpers/resources.js";
import { faultTest, httpRegistry, rig } from "../helpers/harness.js";
import { nastyString } from "../../fuzz/arbitraries.js";

faultTest("D1: an urlTemplate argument that is a dot segment never leaves the template's path", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: `      method: GET\n      urlTemplate: ${server.url}/api/users/{id}/profile` }));
  for (const id of ["..", ".", "%2e%2e", "a/../.."]) {
    const out = await r.call(`d-${id}`, JSON.stringify({ id }));
    // Either refused before sending, or sent with the user's segment still inside /api/users/.
    if (out.status === "error") assert.equal(out.error.code, "ERR_OMNIA_HTTP_REQUEST", out.message);
  }
  for (const got of server.requests) assert.ok(got.url.startsWith("/api/users/") && got.url.endsWith("/profile"), `the backend was asked for ${got.url}`);
  // The pure builder must not produce a dot segment either.
  const handler = { name: "h", tool: { name: "t" }, httpConfig: { endpoint: "http://b.test/x", method: "GET", urlTemplate: "http://b.test/api/users/{id}/profile" } };
  for (const id of ["..", "."]) {
    let url: string | undefined;
    try {
      url = buildHttpRequest(handler, JSON.stringify({ id })).url;
    } catch (e) {
      assert.ok(e instanceof HttpRequestError);
    }
    if (url !== undefined) assert.equal(new URL(url).pathname.startsWith("/api/users/"), true, url);
  }
});

test("D7: a placeholder in the urlTemplate's query cannot add query parameters", () => {
  const handler = { name: "h", tool: { name: "t" }, httpConfig: { endpoint: "http://b.test/x", method: "GET", urlTemplate: "http://b.test/search?q={q}" } };
  const url = new URL(buildHttpRequest(handler, JSON.stringify({ q: "x&admin=true" })).url);
  assert.deepEqual([...url.searchParams], [["q", "x&admin=true"]]);
});

faultTest("D2: the endpoint's userinfo never reaches the outcome or the record (Go prints user:***@; the user is hidden too, issue #19)", async (ctx) => {
  const port = await closedPort();
  const r = rig(ctx, httpRegistry(`http://svc:s3cret-pw@127.0.0.1:${port}/x`));
  const out = await r.call("u");
  assert.equal(out.status, "error");
  assert.equal(out.status === "error" && out.message, `Post "http://***:***@127.0.0.1:${port}/x": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  assert.ok(!JSON.stringify(r.recorder.records).includes("s3cret-pw"));
  assert.ok(!JSON.stringify(r.logs).includes("s3cret-pw"));
});

test("D1, D7 (fuzz): no argument changes the URL's path depth (after the URL parser resolves it) or its query keys (API.md decision 6)", () => {
  const templates = ["http://b.test/api/users/{id}/profile", "http://b.test/search?q={q}&x=1", "http://b.test/files/{id}"];
  fc.assert(
    fc.property(fc.constantFrom(...templates), fc.constantFrom("GET", "POST"), fc.record({ id: nastyString, q: nastyString }), (template, method, args) => {
      let url: string;
      try {
        url = buildHttpRequest({ name: "h", tool: { name: "t" }, httpConfig: { endpoint: "http://b.test/x", method, urlTemplate: template } }, JSON.stringify(args)).url;
      } catch (e) {
        if (e instanceof HttpRequestError) return;
        throw e;
      }
      const want = new URL(template.replace(/\{[^}]*\}/g, "x"));
      const got = new URL(url);
      assert.equal(got.pathname.split("/").length, want.pathname.split("/").length, `${template} with ${JSON.stringify(args)} -> ${url}`);
      // GET sends the arguments left over as query parameters: those keys are expected.
      const allowed = new Set([...want.searchParams.keys(), ...Object.keys(args)]);
      for (const key of got.searchParams.keys()) assert.ok(allowed.has(key), `query key ${JSON.stringify(key)}: ${template} with ${JSON.stringify(args)} -> ${url}`);
    }),
    { numRuns: 10_000 },
  );
});
