// Issue #31 item 7: an endpoint whose scheme is not http or https can only fail every call, and `data:` or
// `javascript:` in a manifest is a sign of tampering. Every scheme but http and https is refused at load, with or
// without `//`, in any letter case, in a urlTemplate up to its first placeholder; the issue names the field and quotes
// at most 200 characters of the value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../../src/core/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";

const tool = (name: string): string => `tool: {name: ${name}, description: d, inputSchema: {type: object}}`;

function issuesOf(text: string): string[] {
  try {
    loadToolRegistry(text);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.issues.map((i) => `${i.path}: ${i.message}`);
  }
  return assert.fail("loaded");
}

test("data:, javascript:, mailto: and an ftp: urlTemplate are ConfigErrors naming the field", () => {
  const big = `data:text/plain;base64,${"A".repeat(100_000)}`;
  assert.deepEqual(
    issuesOf(`handlers:
  - {name: a, type: http, ${tool("a")}, httpConfig: {endpoint: "data:application/json,{}"}}
  - {name: b, type: http, ${tool("b")}, httpConfig: {endpoint: "JavaScript:alert(1)"}}
  - {name: c, type: http, ${tool("c")}, httpConfig: {endpoint: "", urlTemplate: "ftp://127.0.0.1/{id}"}}
  - {name: d, type: mcp, mcpConfig: {transport: streamable-http, endpoint: "mailto:ops@example.com"}}
  - {name: e, type: openapi, openAPIConfig: {specURL: "https://127.0.0.1/spec.json", baseURL: "data:,x"}}
  - {name: f, type: http, ${tool("f")}, httpConfig: {endpoint: "${big}"}}
`),
    [
      'handlers[0].httpConfig.endpoint: unsupported protocol scheme "data": expected http or https; got "data:application/json,{}"',
      'handlers[1].httpConfig.endpoint: unsupported protocol scheme "JavaScript": expected http or https; got "JavaScript:alert(1)"',
      'handlers[2].httpConfig.urlTemplate: unsupported protocol scheme "ftp": expected http or https; got "ftp://127.0.0.1/{id}"',
      'handlers[3].mcpConfig.endpoint: unsupported protocol scheme "mailto": expected http or https; got "mailto:ops@example.com"',
      'handlers[4].openAPIConfig.baseURL: unsupported protocol scheme "data": expected http or https; got "data:,x"',
      `handlers[5].httpConfig.endpoint: unsupported protocol scheme "data": expected http or https; got "${big.slice(0, 200)}..."`,
    ],
  );
});

test("http and https in any case, a urlTemplate with placeholders in the path, and an endpoint without a scheme still load", () => {
  const registry = loadToolRegistry(`handlers:
  - {name: a, type: http, ${tool("a")}, httpConfig: {endpoint: "HTTPS://127.0.0.1/x"}}
  - {name: b, type: http, ${tool("b")}, httpConfig: {endpoint: "", urlTemplate: "http://127.0.0.1:8080/items/{id}"}}
  - {name: c, type: http, ${tool("c")}, httpConfig: {endpoint: "/relative"}}
`);
  assert.deepEqual(registry.handlers.map((h) => h.name), ["a", "b", "c"]);
});
