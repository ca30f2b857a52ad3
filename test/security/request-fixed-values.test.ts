// Issue #19 item 5: the manifest's fixed values (the endpoint's own query,
// staticQuery, staticBody) cannot be replaced by a same-named argument. The
// fixed value is sent, the argument dropped, and one warning is logged per
// handler. Omnia 1.3.0 lets the argument win (a deliberate divergence).
import assert from "node:assert/strict";
import { startHttpServer } from "../helpers/http-server.js";
import { faultTest, httpRegistry, rig } from "../faults/helpers/harness.js";

faultTest("GET: the endpoint's query and staticQuery keep their values; same-named arguments are dropped; one warning per handler", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/search?tenant=acme`, { httpConfig: "      method: GET\n      staticQuery: { api_key: K-FIXED }" }));
  for (const id of ["a", "b"]) {
    const out = await r.call(id, JSON.stringify({ tenant: "evil", api_key: "stolen", q: "cats" }));
    assert.equal(out.status, "success", JSON.stringify(out));
  }
  assert.deepEqual(
    server.requests.map((q) => q.url),
    ["/search?api_key=K-FIXED&q=cats&tenant=acme", "/search?api_key=K-FIXED&q=cats&tenant=acme"],
  );
  const warnings = r.logs.filter((l) => l.level === "warn" && l.message.includes("fixed value"));
  assert.deepEqual(warnings, [
    {
      level: "warn",
      message: "an argument named like a fixed value of the handler was dropped; the fixed value is sent (logged once per handler)",
      fields: { tool: "t", handler: "h", argument: "tenant", fixed: "endpoint query" },
    },
  ]);
});

faultTest("POST: staticBody keys and queryParams named like staticQuery keys keep the fixed values", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(
    ctx,
    httpRegistry(`${server.url}/items`, {
      httpConfig: "      method: POST\n      staticQuery: { api_key: K-FIXED }\n      queryParams: [api_key, page]\n      staticBody: { tenant: acme, version: 2 }",
    }),
  );
  const out = await r.call("p", JSON.stringify({ tenant: "evil", version: 9, api_key: "stolen", page: 3, name: "rex" }));
  assert.equal(out.status, "success", JSON.stringify(out));
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0]?.url, "/items?api_key=K-FIXED&page=3");
  assert.equal(server.requests[0]?.body.toString(), '{"name":"rex","tenant":"acme","version":2}');
  const warnings = r.logs.filter((l) => l.level === "warn" && l.message.includes("fixed value"));
  assert.equal(warnings.length, 1);
  assert.deepEqual(warnings[0]?.fields, { tool: "t", handler: "h", argument: "api_key", fixed: "staticQuery" });
});

faultTest("an argument that matches no fixed key still reaches the query or body, with no warning", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/search?tenant=acme`, { httpConfig: "      method: GET\n      staticQuery: { api_key: K-FIXED }" }));
  assert.equal((await r.call("n", JSON.stringify({ q: "dogs", Tenant: "T2" }))).status, "success");
  assert.equal(server.requests[0]?.url, "/search?Tenant=T2&api_key=K-FIXED&q=dogs&tenant=acme");
  assert.deepEqual(r.logs.filter((l) => l.level === "warn"), []);
});
