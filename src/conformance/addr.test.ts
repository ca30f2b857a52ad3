import { test } from "node:test";
import assert from "node:assert/strict";
import { runtimeBaseUrl } from "./addr.js";

test("host:port forms become plaintext base URLs", () => {
  for (const [addr, url] of [
    ["127.0.0.1:9000", "http://127.0.0.1:9000"],
    ["localhost:1", "http://localhost:1"],
    ["runtime.agents.svc.cluster.local:65535", "http://runtime.agents.svc.cluster.local:65535"],
    ["[::1]:9000", "http://[::1]:9000"],
  ] as const) {
    assert.equal(runtimeBaseUrl(addr, "x"), url);
  }
});

test("anything else is an InvalidOptionError naming the value", () => {
  for (const addr of ["", "localhost", ":9000", "localhost:", "localhost:0", "localhost:65536", "localhost:9000x", "http://localhost:9000", "localhost:9000/", "user@localhost:9000", "local host:9000", "::1:9000", "[::1]", "a:b:9000"]) {
    assert.throws(() => runtimeBaseUrl(addr, "dial " + addr), {
      name: "InvalidOptionError",
      code: "ERR_OMNIA_INVALID_OPTION",
      message: `dial ${addr}: addr must be host:port; got ${JSON.stringify(addr)}`,
    }, addr);
  }
});
