// createToolExecutor with mcp and openapi handlers, discovered at run time from real loopback servers (issue #11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createCircuitBreakers } from "../../src/breaker/index.js";
import { MemoryRecorder } from "../../src/testing/index.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { startOpenApiServer } from "../helpers/openapi-server.js";
import { closedPortUrl } from "../helpers/policy-broker.js";

test("mcp: tools are discovered on first use, called through the pipeline, and listed by executor.tools", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const registry = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig:
      transport: streamable-http
      endpoint: ${mcp.url}
      toolFilter: { blocklist: [image] }
`);
  const recorder = new MemoryRecorder();
  const breakers = createCircuitBreakers();
  const ex = createToolExecutor({ registry, recorder, breakers, policy: () => ({ allow: true, headers: { "X-Policy": "p1" } }) });
  try {
    assert.equal(ex.tools.length, 0, "nothing is discovered before first use");
    const out = await ex.execute({ id: "m1", name: "echo", arguments: '{"text":"hi"}' });
    assert.deepEqual(out.status === "success" && [out.result, out.resultJson, out.handlerType], ["hi", '"hi"', "mcp"]);
    assert.ok(ex.tools.some((t) => t.name === "echo" && t.handlerName === "kb" && t.handlerType === "mcp" && t.execution === "server"));
    assert.ok(!ex.tools.some((t) => t.name === "image"), "the blocklist applies");
    const call = mcp.requests.find((r) => r.rpcMethod === "tools/call");
    assert.equal(call?.headers["x-policy"], "p1", "broker-injected headers reach the MCP request");
    const blocked = await ex.execute({ id: "m2", name: "image", arguments: "{}" });
    assert.equal(blocked.status === "error" && blocked.message, 'tool "image" not found');
    assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.handlerName]), [
      ["m1", "success", "kb"],
      ["m2", "error", ""],
    ]);
  } finally {
    await ex.close();
    await mcp.close();
  }
});

test("openapi: one tool per operation; requests go through the HTTP transport with params placed by their `in`", async () => {
  const api = await startOpenApiServer();
  const registry = loadToolRegistry(`
handlers:
  - name: pets
    type: openapi
    openAPIConfig:
      specURL: ${api.specURL}
      operationFilter: [getPetById, addPet, status]
`);
  const ex2 = createToolExecutor({ registry });
  try {
    await ex2.refresh();
    assert.deepEqual(ex2.tools.map((t) => t.name).sort(), ["addPet", "getPetById", "status"]);
    const out = await ex2.execute({ id: "o1", name: "addPet", arguments: '{"name":"rex","tag":"dog","dryRun":true,"X-Trace-Id":"t-1"}' });
    assert.equal(out.status, "success", JSON.stringify(out));
    const req = api.apiRequests()[0];
    assert.equal(req?.method, "POST");
    assert.equal(req?.url, "/v1/pets?dryRun=true");
    assert.equal(req?.headers["x-trace-id"], "t-1");
    assert.equal(req?.headers["x-omnia-tool-name"], "addPet");
    assert.equal(req?.headers["x-omnia-tool-registry"], "pets");
    assert.deepEqual(JSON.parse(req?.body.toString() ?? ""), { name: "rex", tag: "dog" });
    api.setStatus(503, "maintenance");
    const failed = await ex2.execute({ id: "o2", name: "status", arguments: "{}" });
    assert.equal(failed.status === "error" && failed.message, "HTTP 503: maintenance");
  } finally {
    await ex2.close();
    await api.close();
  }
});

test("an MCP handler's auth failure is said once, and the outcome and record name the mcp handler", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const registry = loadToolRegistry(`
handlers:
  - name: m
    type: mcp
    auth: { type: workloadIdentity, workloadIdentity: { cloud: azure, audience: "api://tools" } }
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    const out = await ex.execute({ id: "a1", name: "echo", arguments: "{}" });
    assert.equal(out.status, "error");
    assert.equal(out.status === "error" && out.message, 'handler "m" auth: workloadIdentity: no token acquirer configured');
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_MCP_AUTH");
    assert.equal(out.handlerType, "mcp");
    assert.deepEqual(
      recorder.records.map((r) => [r.handlerName, r.handlerType, r.errorMessage]),
      [["m", "mcp", 'handler "m" auth: workloadIdentity: no token acquirer configured']],
    );
  } finally {
    await ex.close();
    await mcp.close();
  }
});

test("discovery failures stay with their handler: an unreachable MCP server or a colliding name does not fail another handler's tools", async () => {
  const good = await startMcpHttpServer({ transport: "streamable-http" });
  const other = await startMcpHttpServer({ transport: "streamable-http" });
  const refused = await closedPortUrl();
  const registry = loadToolRegistry(`
handlers:
  - name: static-echo
    type: http
    tool: { name: echo, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${refused}/echo" }
  - name: gone
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${refused}/mcp" }
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${good.url}", toolFilter: { allowlist: [echo, structured] } }
  - name: kb2
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${other.url}", toolFilter: { allowlist: [structured, multi] } }
`);
  const ex = createToolExecutor({ registry });
  try {
    // kb's "structured" is served though "gone" is unreachable and kb's "echo" collides with the static tool.
    const out = await ex.execute({ id: "s", name: "structured", arguments: "{}" });
    assert.equal(out.status, "success", JSON.stringify(out));
    assert.equal(out.handlerType, "mcp");
    const multi = await ex.execute({ id: "m", name: "multi", arguments: "{}" });
    assert.equal(multi.status, "success", JSON.stringify(multi));
    assert.deepEqual(
      ex.tools.map((t) => [t.name, t.handlerName]),
      [
        ["echo", "static-echo"],
        ["structured", "kb"],
        ["multi", "kb2"],
      ],
    );
    // A name nobody listed fails with the unreachable handler's error (it may be one of its tools).
    const unknown = await ex.execute({ id: "u", name: "search_docs", arguments: "{}" });
    assert.equal(unknown.status, "error");
    assert.match(unknown.status === "error" ? unknown.message : "", /^handler "gone": failed to connect MCP: /);
    // refresh() tells the host about the first failure, after installing the rest.
    await assert.rejects(ex.refresh(), (e: unknown) => (e as Error).message.startsWith('handler "gone": failed to connect MCP: '));
    assert.equal(ex.tools.length, 3);
  } finally {
    await ex.close();
    await good.close();
    await other.close();
  }
});

test("listTools(): discovers every mcp and openapi handler, then lists static, discovered and platform tools as executor.tools does", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const api = await startOpenApiServer();
  const registry = loadToolRegistry(`
handlers:
  - name: weather
    type: http
    tool: { name: get_weather, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "http://127.0.0.1:1/weather" }
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}", toolFilter: { allowlist: [echo, structured] } }
  - name: pets
    type: openapi
    openAPIConfig: { specURL: "${api.specURL}", operationFilter: [getPetById, status] }
`);
  const ex = createToolExecutor({
    registry,
    platformTools: { memory__store: { description: "Store a memory", inputSchema: { type: "object" }, execute: () => null } },
  });
  try {
    assert.deepEqual(ex.tools.map((t) => t.name), ["get_weather", "memory__store"], "before discovery only static and platform tools");
    const listed = await ex.listTools();
    assert.deepEqual(
      listed.map((t) => [t.name, t.handlerName, t.handlerType, t.execution]),
      [
        ["get_weather", "weather", "http", "server"],
        ["echo", "kb", "mcp", "server"],
        ["structured", "kb", "mcp", "server"],
        ["getPetById", "pets", "openapi", "server"],
        ["status", "pets", "openapi", "server"],
        ["memory__store", "platform", "platform", "server"],
      ],
    );
    assert.deepEqual(ex.tools, listed, "executor.tools lists the same tools afterwards");
    assert.equal(mcp.requests.filter((r) => r.rpcMethod === "tools/list").length, 1, "one MCP tools/list");
    await ex.listTools();
    assert.equal(mcp.requests.filter((r) => r.rpcMethod === "tools/list").length, 2, "each listTools() discovers again, as refresh() does");
  } finally {
    await ex.close();
    await mcp.close();
    await api.close();
  }
  await assert.rejects(ex.listTools(), (e: Error) => e.name === "ClosedError" && e.message === "listTools: the executor is closed");
});

test("listTools(): a handler whose discovery fails rejects with its error; the other handlers' tools are installed", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const refused = await closedPortUrl();
  const registry = loadToolRegistry(`
handlers:
  - name: gone
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${refused}/mcp" }
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}", toolFilter: { allowlist: [echo] } }
`);
  const ex = createToolExecutor({ registry });
  try {
    await assert.rejects(ex.listTools(), (e: Error & { code?: string }) => e.code === "ERR_OMNIA_MCP_TRANSPORT");
    assert.deepEqual(ex.tools.map((t) => [t.name, t.handlerName]), [["echo", "kb"]]);
  } finally {
    await ex.close();
    await mcp.close();
  }
});

test("mcp: an object the executor parsed reaches the server as it is; empty, blank, null, non-object and JSON-string text follows the client's rules (parsed once)", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  const registry = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    const shown = async (args: string | Record<string, unknown> | null): Promise<string> => {
      const out = await ex.execute({ id: "a", name: "args", arguments: args as string });
      return out.status === "success" ? `ok ${out.resultJson}` : out.status === "client" ? "client" : `${out.status} ${out.message}`;
    };
    const vectors: [string | Record<string, unknown> | null, string][] = [
      ['{"b":1,"a":"x","n":[1,2.5,{"z":null}]}', 'ok {"a":"x","b":1,"n":[1,2.5,{"z":null}]}'],
      [{ n: [1, 2] }, 'ok {"n":[1,2]}'],
      ["", "ok {}"],
      ["null", "ok {}"],
      // Blank text parses to no value in the executor, and the client refuses it, as Go's json.Unmarshal does.
      ["  ", "error failed to parse MCP args: unexpected end of JSON input"],
      ["[1,2]", "error failed to parse MCP args: json: cannot unmarshal array into Go value of type map[string]interface {}"],
      ["5", "error failed to parse MCP args: json: cannot unmarshal number into Go value of type map[string]interface {}"],
      // A JSON string is a string, never argument text to read again, whatever it holds.
      ['"{\\"x\\":1}"', "error failed to parse MCP args: json: cannot unmarshal string into Go value of type map[string]interface {}"],
      ['""', "error failed to parse MCP args: json: cannot unmarshal string into Go value of type map[string]interface {}"],
      ['"null"', "error failed to parse MCP args: json: cannot unmarshal string into Go value of type map[string]interface {}"],
    ];
    for (const [args, want] of vectors) assert.equal(await shown(args), want, JSON.stringify(args));
    assert.deepEqual(recorder.records.map((r) => r.arguments), [{ b: 1, a: "x", n: [1, 2.5, { z: null }] }, { n: [1, 2] }, null, null, null, [1, 2], 5, '{"x":1}', "", "null"]);
  } finally {
    await ex.close();
    await mcp.close();
  }
});
