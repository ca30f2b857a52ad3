// Issue #19 item 17: model-visible error texts and records never carry the
// handler's secrets: the userinfo (user and password), staticQuery values and
// the endpoint's own query values are shown as `***` (Go hides the password only).
import assert from "node:assert/strict";
import { closedPort } from "../helpers/resources.js";
import { startHttpServer } from "../helpers/http-server.js";
import { faultTest, httpRegistry, rig, expectError } from "../faults/helpers/harness.js";

const SECRETS = ["svc-user-7d1", "pw-9c2e", "K-SECRET-41", "acme-tenant-5b"];

faultTest("a transport error shows the userinfo, staticQuery and endpoint query values as ***; records and logs hold none of them", async (ctx) => {
  const port = await closedPort();
  const r = rig(ctx, httpRegistry(`http://svc-user-7d1:pw-9c2e@127.0.0.1:${port}/x?tenant=acme-tenant-5b`, { httpConfig: "      method: GET\n      staticQuery: { api_key: K-SECRET-41 }" }));
  const out = await r.call("g", JSON.stringify({ q: "cats" }));
  expectError(out, `Get "http://***:***@127.0.0.1:${port}/x?api_key=***&q=cats&tenant=***": dial tcp 127.0.0.1:${port}: connect: connection refused`, "ERR_OMNIA_TRANSPORT");
  const visible = JSON.stringify({ out, records: r.recorder.records, logs: r.logs });
  for (const secret of SECRETS) assert.ok(!visible.includes(secret), `${secret} is visible`);
});

faultTest("a user without a password is hidden too; a POST with staticQuery shows it as ***", async (ctx) => {
  const port = await closedPort();
  const r = rig(ctx, httpRegistry(`http://svc-user-7d1@127.0.0.1:${port}/x`, { httpConfig: "      staticQuery: { api_key: K-SECRET-41, mode: fast }" }));
  expectError(await r.call("p", '{"a":1}'), `Post "http://***@127.0.0.1:${port}/x?api_key=***&mode=***": dial tcp 127.0.0.1:${port}: connect: connection refused`, "ERR_OMNIA_TRANSPORT");
  assert.ok(!JSON.stringify(r.recorder.records).includes("K-SECRET-41"));
});

faultTest("too many redirects: the error names the last URL with the fixed query value hidden", async (ctx) => {
  const server = await startHttpServer((req, res) => {
    res.statusCode = 302;
    res.setHeader("location", req.url ?? "/");
    res.end();
  });
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/loop`, { httpConfig: "      method: GET\n      staticQuery: { api_key: K-SECRET-41 }" }));
  expectError(await r.call("r", "{}"), `Get "${server.url}/loop?api_key=***": stopped after 10 redirects`, "ERR_OMNIA_TRANSPORT");
  assert.equal(server.requests.length, 11);
  assert.ok(!JSON.stringify(r.recorder.records).includes("K-SECRET-41"));
});
