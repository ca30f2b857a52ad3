// Issue #19 item 4 through the executor: the credentials a call carries (the
// handler's auth, headersFromSecret, broker-injected headers, the delegation
// token) never follow a redirect to another origin. The other origin is a
// real server on 127.0.0.2 (loopback on Linux) that records what it got.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { startHttpServer } from "../helpers/http-server.js";

test("a 302 to another origin drops auth, headersFromSecret, injected, delegation, static, identity and trace headers", async () => {
  const seen: IncomingHttpHeaders[] = [];
  const other = createServer((req, res) => {
    seen.push(req.headers);
    res.setHeader("content-type", "application/json");
    res.end('{"other":true}');
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.2", resolve));
  const otherUrl = `http://127.0.0.2:${(other.address() as AddressInfo).port}/landing`;
  const first = await startHttpServer((_req, res) => {
    res.statusCode = 302;
    res.setHeader("location", otherUrl);
    res.end();
  });
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    auth: { type: bearer, secretRef: { name: s, key: token } }
    delegation: { enabled: true }
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: "${first.url}/start"
      method: POST
      headers: { X-Static: api-key-in-a-static-header }
      headersFromSecret:
        X-Api-Key: { name: s, key: api }
`);
  const ex = createToolExecutor({
    registry,
    secrets: (ref) => (ref.key === "token" ? "tok-123" : "key-456"),
    delegation: () => "jwt-789",
    policy: () => ({ allow: true, headers: { "X-Broker-Grant": "grant-1" } }),
  });
  try {
    const out = await ex.execute({ id: "c", name: "t", arguments: '{"q":1}' }, { identity: { userId: "u1" } });
    assert.equal(out.status === "success" && out.resultJson, '{"other":true}');
    // The first hop carried every credential.
    const sent = first.requests[0]?.headers ?? {};
    assert.deepEqual([sent["authorization"], sent["x-api-key"], sent["x-broker-grant"], sent["x-omnia-delegation"]], ["Bearer tok-123", "key-456", "grant-1", "jwt-789"]);
    assert.equal(seen.length, 1);
    const landed = seen[0] ?? {};
    assert.deepEqual([sent["x-static"], sent["x-omnia-user-id"]], ["api-key-in-a-static-header", "u1"]);
    // Issue #31 item 3: the manifest's static headers and the caller's identity stay with the manifest's origin too.
    assert.deepEqual(
      Object.keys(landed)
        .filter((n) => !["accept", "accept-encoding", "accept-language", "connection", "host", "sec-fetch-mode", "user-agent"].includes(n))
        .sort(),
      [],
    );
  } finally {
    await ex.close();
    await first.close();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});
