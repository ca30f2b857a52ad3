// Issue #19 items 1 and 2: model-controlled arguments can never move a request
// off the host and port the manifest names, nor consume the template's text.
// Every attack goes through the executor over real loopback sockets; a second
// listener on 127.0.0.2 proves that nothing went there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../../src/core/index.js";
import { buildHttpRequest, HttpRequestError } from "../../src/http/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { startHttpServer } from "../helpers/http-server.js";
import { faultTest, httpRegistry, rig } from "../faults/helpers/harness.js";
import { startElsewhereListener } from "./request-support.js";

function loadTemplate(urlTemplate: string): unknown {
  try {
    return loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: http://127.0.0.1:1/x
      method: GET
      urlTemplate: "${urlTemplate}"
`);
  } catch (e) {
    return e;
  }
}

test("a urlTemplate placeholder in the scheme, userinfo, host or port is a ConfigError at load, naming the field", () => {
  const cases: [string, string, string][] = [
    ["http://127.0.0.1:{port}/api/{id}", "{port}", "port"],
    ["http://127.0.0.1:A{path}", "{path}", "port"],
    ["http://{host}/api", "{host}", "host"],
    ["http://{sub}.example.test/api", "{sub}", "host"],
    ["http://[::1]:{p}/x", "{p}", "port"],
    ["http://{user}@127.0.0.1/x", "{user}", "userinfo"],
    ["http://u:{pw}@127.0.0.1/x", "{pw}", "userinfo"],
    ["{scheme}://127.0.0.1/x", "{scheme}", "scheme"],
    ["http:{host}/x", "{host}", "host"],
    ["http:\\\\\\\\{host}/x", "{host}", "host"],
    ["http://127.0.0.1{a/b}/x", "{a/b}", "host"],
  ];
  for (const [template, placeholder, field] of cases) {
    const error = loadTemplate(template);
    assert.ok(error instanceof ConfigError, `${template}: ${String(error)}`);
    assert.equal(
      error.message,
      `handlers[0].httpConfig.urlTemplate: placeholder ${JSON.stringify(placeholder)} stands in the ${field}; a placeholder may stand only in the path or the query`,
      template,
    );
  }
  // The path, the query and the fragment may hold placeholders.
  for (const template of ["http://127.0.0.1:8080/api/{id}", "http://127.0.0.1/s?q={q}", "http://u@127.0.0.1/{id}#{f}", "http://127.0.0.1/a:{b}@{c}"]) {
    assert.ok(!(loadTemplate(template) instanceof Error), template);
  }
});

faultTest("the built request never leaves the template's origin: a host-moving value is refused by the builder and nothing is sent", async (ctx) => {
  const elsewhere = await startElsewhereListener();
  ctx.defer(() => elsewhere.close());
  const attacks: [string, Record<string, string>, string][] = [
    ["http://127.0.0.1:{port}/api/{id}", { port: `A@127.0.0.2:${elsewhere.port}`, id: "1" }, "port"],
    ["http://127.0.0.1:A{path}", { path: `@127.0.0.2:${elsewhere.port}` }, "port"],
  ];
  for (const [urlTemplate, args, field] of attacks) {
    const handler = { name: "h", tool: { name: "t" }, httpConfig: { endpoint: "http://127.0.0.1:1/x", method: "GET", urlTemplate, headers: { Authorization: "Bearer handler-secret" } } };
    assert.throws(() => buildHttpRequest(handler, JSON.stringify(args)), (e: unknown) => {
      assert.ok(e instanceof HttpRequestError);
      assert.equal(e.code, "ERR_OMNIA_HTTP_REQUEST");
      const name = Object.keys(args)[0] as string;
      assert.equal(e.message, `urlTemplate: placeholder ${JSON.stringify(`{${name}}`)} stands in the ${field}; a placeholder may stand only in the path or the query`);
      return true;
    });
  }
  assert.equal(elsewhere.connections(), 0);
});

faultTest("a value with @, : and // stays one path segment on the template's host, and nothing reaches 127.0.0.2", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const elsewhere = await startElsewhereListener();
  ctx.defer(() => elsewhere.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: `      method: GET\n      urlTemplate: ${server.url}/api/{id}\n      headers: { Authorization: Bearer handler-secret }` }));
  const values = [`@127.0.0.2:${elsewhere.port}`, `//127.0.0.2:${elsewhere.port}/`, `\\\\127.0.0.2:${elsewhere.port}\\x`, `x@127.0.0.2:${elsewhere.port}?y#z`];
  for (const [i, id] of values.entries()) {
    const out = await r.call(`c${i}`, JSON.stringify({ id }));
    assert.equal(out.status, "success", JSON.stringify(out));
  }
  assert.deepEqual(
    server.requests.map((q) => q.url),
    [
      `/api/@127.0.0.2:${elsewhere.port}`,
      `/api/%2F%2F127.0.0.2:${elsewhere.port}%2F`,
      `/api/%5C%5C127.0.0.2:${elsewhere.port}%5Cx`,
      `/api/x@127.0.0.2:${elsewhere.port}%3Fy%23z`,
    ],
  );
  for (const q of server.requests) assert.equal(q.headers.authorization, "Bearer handler-secret");
  assert.equal(elsewhere.connections(), 0);
});

faultTest("placeholders match whole declared names only, in one pass: a key spanning two placeholders consumes nothing", async (ctx) => {
  const server = await startHttpServer();
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`, { httpConfig: `      method: GET\n      urlTemplate: "${server.url}/orgs/{org}/members/{user}/profile?v={ver}&fixed=1"` }));
  const attackKey = "org}/members/{user}/profile?v={ver";
  // The attack key alone: it names no placeholder, so it substitutes nothing (a GET sends it as a query parameter).
  assert.equal((await r.call("a", JSON.stringify({ [attackKey]: "X" }))).status, "success");
  // With the real names: each is substituted by its own value, once; a value holding a placeholder is not expanded again.
  assert.equal((await r.call("b", JSON.stringify({ [attackKey]: "X", org: "{user}", user: "u", ver: "2" }))).status, "success");
  assert.deepEqual(
    server.requests.map((q) => q.url),
    [
      "/orgs/%7Borg%7D/members/%7Buser%7D/profile?fixed=1&org%7D%2Fmembers%2F%7Buser%7D%2Fprofile%3Fv%3D%7Bver=X&v=%7Bver%7D",
      "/orgs/%7Buser%7D/members/u/profile?fixed=1&org%7D%2Fmembers%2F%7Buser%7D%2Fprofile%3Fv%3D%7Bver=X&v=2",
    ],
  );
});
