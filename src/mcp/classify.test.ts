import { test } from "node:test";
import assert from "node:assert/strict";
import { AbortedError, ClosedError, InvalidOptionError, TimeoutError } from "../core/index.js";
import { classifyMcpError, isMcpBreakerFailure } from "./classify.js";
import { McpArgumentsError, McpAuthError, McpToolError, McpTransportError } from "./errors.js";
import { mcpToolAllowed } from "./tool-filter.js";

// runtime-tools.md §1.3 (breaker) and §2.3 (retry) for MCP.
const CASES: readonly [string, unknown, boolean, boolean][] = [
  // [name, error, breaker failure, retryable]
  ["isError tool error", new McpToolError("t", "boom"), false, false],
  ["transport error", new McpTransportError("MCP tool call failed: fetch failed", "h", { causeCode: "ECONNREFUSED" }), true, true],
  ["JSON-RPC error", new McpTransportError("MCP tool call failed: MCP error -32602: bad", "h", { rpcCode: -32602 }), true, true],
  ["HTTP 404 from the MCP endpoint", new McpTransportError("MCP tool call failed: Streamable HTTP error: x", "h", { httpStatus: 404 }), true, true],
  ["per-attempt timeout", new TimeoutError(30_000), true, true],
  ["bad arguments", new McpArgumentsError("failed to parse MCP args: x"), false, false],
  ["credential provider failure", new McpAuthError("h", "no token"), false, false],
  ["closed client", new ClosedError("closed"), false, false],
  ["filtered tool", new InvalidOptionError("not served"), false, false],
  ["caller abort", new AbortedError("aborted"), false, true],
  ["a plain Error", new Error("something"), true, true],
];

for (const [name, error, failure, retryable] of CASES) {
  test(`MCP classification: ${name} → breaker failure ${failure}, retryable ${retryable}`, () => {
    assert.equal(isMcpBreakerFailure(error), failure);
    assert.deepEqual(classifyMcpError(error), { retryable, retryAfterMs: 0 });
  });
}

test("isMcpBreakerFailure: no error is no failure", () => {
  assert.equal(isMcpBreakerFailure(undefined), false);
  assert.equal(isMcpBreakerFailure(null), false);
});

test("McpAuthError reads like an HTTP handler's auth error", () => {
  assert.equal(new McpAuthError("docs", "read auth token file \"/x\": ENOENT").message, 'handler "docs" auth: read auth token file "/x": ENOENT');
});

// runtime-tools.md §7.4 toolFilter, V20 and V21.
test("mcpToolAllowed: a non-empty allowlist means exactly those names and wins over the blocklist (V20)", () => {
  const filter = { allowlist: ["a"], blocklist: ["a"] };
  assert.deepEqual(["a", "b", "c"].filter((n) => mcpToolAllowed(filter, n)), ["a"]);
});

test("mcpToolAllowed: otherwise anything not in the blocklist (V21); exact, case-sensitive matches", () => {
  assert.deepEqual(["a", "b", "c", "B"].filter((n) => mcpToolAllowed({ allowlist: [], blocklist: ["b"] }, n)), ["a", "c", "B"]);
  assert.deepEqual(["a", "A"].filter((n) => mcpToolAllowed({ allowlist: ["a"] }, n)), ["a"]);
  assert.equal(mcpToolAllowed(undefined, "anything"), true);
  assert.equal(mcpToolAllowed({}, "anything"), true);
});
