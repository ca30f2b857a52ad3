import { test } from "node:test";
import assert from "node:assert/strict";
import { isLoopbackAddress, runtimeContextValues, RUNTIME_PEER_ADDRESS } from "./peer.js";

// contract.md §1.2.5 / seed 003: WatchInvocation serves loopback peers only.
test("isLoopbackAddress: loopback spellings Node reports", () => {
  for (const a of ["127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "[::1]", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1", "0::1", "::0:1", "::1%lo", "::FFFF:127.0.0.1"]) {
    assert.equal(isLoopbackAddress(a), true, a);
  }
});

test("isLoopbackAddress: everything else is not loopback", () => {
  for (const a of [undefined, "", "localhost", "10.0.0.1", "128.0.0.1", "0.0.0.0", "::", "::2", "::ffff:10.0.0.1", "127.0.0.256", "127.0.0", "1::1", "fe80::1", "0:0:0:0:0:0:1:1", "::1::1", "12700.0.0.1", "0:0:0:0:0:0:0:0:1"]) {
    assert.equal(isLoopbackAddress(a), false, String(a));
  }
});

test("runtimeContextValues: carries the socket's remote address", () => {
  assert.equal(runtimeContextValues({ socket: { remoteAddress: "10.1.2.3" } }).get(RUNTIME_PEER_ADDRESS), "10.1.2.3");
  assert.equal(runtimeContextValues({ socket: null }).get(RUNTIME_PEER_ADDRESS), undefined);
});
