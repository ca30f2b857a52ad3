// D1, D2: HTTP request-building defects found by the fault and security suites.
// Fails today; see README.md here.
import assert from "node:assert/strict";
import { buildHttpRequest, HttpRequestError } from "../../../src/http/index.js";
import { startHttpServer } from "../../helpers/http-server.js";
import { closedPort } from "../../helpers/resources.js";
import { faultTest, httpRegistry, rig } from "../helpers/harness.js";

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

faultTest("D2: a password in the endpoint's userinfo never reaches the outcome or the record (Go prints user:***@)", async (ctx) => {
  const port = await closedPort();
  const r = rig(ctx, httpRegistry(`http://svc:s3cret-pw@127.0.0.1:${port}/x`));
  const out = await r.call("u");
  assert.equal(out.status, "error");
  assert.equal(out.status === "error" && out.message, `Post "http://svc:***@127.0.0.1:${port}/x": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  assert.ok(!JSON.stringify(r.recorder.records).includes("s3cret-pw"));
  assert.ok(!JSON.stringify(r.logs).includes("s3cret-pw"));
});
