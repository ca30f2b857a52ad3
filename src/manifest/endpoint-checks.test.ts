import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../core/index.js";
import { loadToolRegistry } from "./load-tool-registry.js";

const tool = "tool: {name: t_NAME, description: d, inputSchema: {type: object}}";

test("endpoints with which every call fails are ConfigErrors at load, with their path", () => {
  const text = `handlers:
  - {name: a, type: http, ${tool.replace("NAME", "a")}, httpConfig: {endpoint: "ftp://127.0.0.1/x"}}
  - {name: b, type: http, ${tool.replace("NAME", "b")}, httpConfig: {endpoint: "http://127.0.0.1:70000/x"}}
  - {name: c, type: grpc, ${tool.replace("NAME", "c")}, grpcConfig: {endpoint: "127.0.0.1:99999"}}
  - {name: d, type: mcp, mcpConfig: {transport: sse, endpoint: "ws://127.0.0.1:1/sse"}}
  - {name: e, type: openapi, openAPIConfig: {specURL: "file:///spec.yaml"}}
  - {name: f, type: http, ${tool.replace("NAME", "f")}, httpConfig: {endpoint: "https://[::1]:65535/ok"}}
  - {name: g, type: grpc, ${tool.replace("NAME", "g")}, grpcConfig: {endpoint: "dns:///tools.local:9000"}}
`;
  try {
    loadToolRegistry(text);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(
      error.issues.map((i) => `${i.path}: ${i.message}`),
      [
        'handlers[0].httpConfig.endpoint: unsupported protocol scheme "ftp": expected http or https; got "ftp://127.0.0.1/x"',
        'handlers[1].httpConfig.endpoint: invalid port ":70000" after host: ports end at 65535',
        'handlers[2].grpcConfig.endpoint: invalid port ":99999" after host: ports end at 65535',
        'handlers[3].mcpConfig.endpoint: unsupported protocol scheme "ws": expected http or https; got "ws://127.0.0.1:1/sse"',
        'handlers[4].openAPIConfig.specURL: unsupported protocol scheme "file": expected http or https; got "file:///spec.yaml"',
      ],
    );
    return;
  }
  assert.fail("loaded");
});
