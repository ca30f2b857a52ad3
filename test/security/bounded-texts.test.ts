// Issue #31 item 5: every model-visible text built from a peer's data is bounded as serveToolService bounds
// `error_message`: at most 512 UTF-8 bytes of the peer's text, cut at a character boundary, then `...`. Each
// attack comes from a real loopback peer: a connect-node gRPC backend whose status message is 60,000
// characters, an MCP SDK server answering a JSON-RPC error as long, a policy broker whose denial reason and
// rule name are as long, an OpenAPI host whose spec has a `$ref` and an operation name as long. A tool's own
// result and error text (`tool error: ...`, an MCP `isError` text) is not cut: Omnia passes those whole.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolOutcome } from "../../src/executor/index.js";
import { createPolicyBrokerClient } from "../../src/policy/index.js";
import { MemoryRecorder, startGrpcToolBackend } from "../../src/testing/index.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { startOpenApiServer } from "../helpers/openapi-server.js";
import { startFakeBroker } from "../helpers/policy-broker.js";

const HUGE = 60_000;
/** 60,000 characters: `<` + x... + `>`, so that a cut shows where it fell. */
const huge = (c = "x"): string => `<${c.repeat(HUGE - 2)}>`;
/** The first `bytes` bytes of {@link huge} (ASCII), then `...`. */
const cut = (prefixBytes: number, c = "x"): string => `<${c.repeat(511 - prefixBytes)}...`;

/** assert.equal, with a short report: a 60,000-character diff says nothing. */
function sameText(actual: string | undefined | false, want: string): void {
  if (actual === want) return;
  if (typeof actual !== "string") assert.fail(`expected text of ${want.length} characters; got ${String(actual)}`);
  let i = 0;
  while (i < actual.length && i < want.length && actual[i] === want[i]) i++;
  assert.fail(
    `texts differ at ${i}: ${actual.length} characters, want ${want.length}; got ${JSON.stringify(actual.slice(Math.max(0, i - 40), i + 40))}, want ${JSON.stringify(want.slice(Math.max(0, i - 40), i + 40))}`,
  );
}

function messageOf(out: ToolOutcome): string {
  assert.ok(out.status === "error" || out.status === "denied", `expected an error or a denial; got ${out.status}`);
  return out.message;
}

test("gRPC: a 60,000-character grpc-message reaches the model cut at 512 bytes", async () => {
  const backend = await startGrpcToolBackend(
    { t: { description: "d", inputSchema: { type: "object" }, execute: () => ({}) } },
    { faults: { t: { kind: "status", code: "INTERNAL", message: huge() } } },
  );
  const registry = loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    tool: { name: t, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${backend.endpoint}" }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    const out = await ex.execute({ id: "c1", name: "t", arguments: "{}" });
    const want = `gRPC tool execution failed: rpc error: code = Internal desc = ${cut(0)}`;
    sameText(messageOf(out), want);
    sameText(recorder.records[0]?.errorMessage, want);
  } finally {
    await ex.close();
    await backend.close();
  }
});

test("gRPC: a 60,000-character is_error error_message is the tool's own text (serveToolService cut it, the client does not)", async () => {
  const backend = await startGrpcToolBackend(
    { t: { description: "d", inputSchema: { type: "object" }, execute: () => ({}) } },
    { faults: { t: { kind: "is-error", message: huge("\u00e9") } } },
  );
  const registry = loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    tool: { name: t, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${backend.endpoint}" }
`);
  const ex = createToolExecutor({ registry });
  try {
    const out = await ex.execute({ id: "c1", name: "t", arguments: "{}" });
    // 1 byte of `<`, then 255 two-byte characters: 511 bytes; the next one would be 513.
    sameText(messageOf(out), `tool error: <${"\u00e9".repeat(255)}...`);
  } finally {
    await ex.close();
    await backend.close();
  }
});

test("MCP: a 60,000-character JSON-RPC error message reaches the model cut at 512 bytes", async () => {
  const mcp = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [
      {
        name: "boom",
        call: () => {
          throw new Error(huge());
        },
      },
      { name: "tool_error", call: () => ({ isError: true, content: [{ type: "text", text: huge("y") }] }) },
    ],
  });
  const registry = loadToolRegistry(`
handlers:
  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`);
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, recorder });
  try {
    const out = await ex.execute({ id: "c1", name: "boom", arguments: "{}" });
    // The SDK's own prefix `MCP error -32603: ` (18 bytes) is part of the JSON-RPC error's text.
    const want = `MCP tool call failed: MCP error -32603: ${cut(18)}`;
    sameText(messageOf(out), want);
    sameText(recorder.records[0]?.errorMessage, want);
    // An isError result is the tool's answer: whole.
    const own = await ex.execute({ id: "c2", name: "tool_error", arguments: "{}" });
    sameText(messageOf(own), huge("y"));
  } finally {
    await ex.close();
    await mcp.close();
  }
});

test("policy broker: a 60,000-character message and deniedBy reach the model cut at 512 bytes each", async () => {
  const broker = await startFakeBroker({ allow: false, message: huge("m"), deniedBy: huge("r") });
  const api = await startOpenApiServer();
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${api.url}/v1/status" }
`);
  const policy = createPolicyBrokerClient({ url: broker.url });
  const recorder = new MemoryRecorder();
  const ex = createToolExecutor({ registry, policy, recorder });
  try {
    const out = await ex.execute({ id: "c1", name: "t", arguments: "{}" });
    assert.equal(out.status, "denied");
    const reason = `${cut(0, "m")} (rule "${cut(0, "r")}")`;
    sameText(out.status === "denied" && out.reason, reason);
    sameText(messageOf(out), `tool call denied by policy: ${reason}`);
    sameText(recorder.records[0]?.errorMessage, `tool call denied by policy: ${reason}`);
    assert.equal(api.apiRequests().length, 0, "a denied call is not sent");
  } finally {
    await ex.close();
    await policy.close();
    await broker.close();
    await api.close();
  }
});

test("OpenAPI: a 60,000-character bad $ref reaches the model cut at 512 bytes", async () => {
  const ref = `#/components/schemas/${huge()}`;
  const api = await startOpenApiServer({
    spec: {
      openapi: "3.0.0",
      servers: [{ url: "/v1" }],
      paths: { "/status": { post: { operationId: "status", requestBody: { content: { "application/json": { schema: { $ref: ref } } } } } } },
    },
  });
  const registry = loadToolRegistry(`
handlers:
  - name: pets
    type: openapi
    openAPIConfig: { specURL: "${api.specURL}" }
`);
  const ex = createToolExecutor({ registry });
  try {
    const out = await ex.execute({ id: "c1", name: "status", arguments: "{}" });
    // The parser's text, `Missing $ref pointer "<ref>". Token "components" does not exist.`, cut: its
    // first 43 bytes are `Missing $ref pointer "#/components/schemas/`.
    sameText(messageOf(out), `handler "pets": failed to resolve the OpenAPI spec: Missing $ref pointer "#/components/schemas/${cut(43)}`);
  } finally {
    await ex.close();
    await api.close();
  }
});

test("OpenAPI: a 60,000-character duplicate operation name reaches the model cut at 512 bytes", async () => {
  const name = huge();
  const api = await startOpenApiServer({
    spec: {
      openapi: "3.0.0",
      servers: [{ url: "/v1" }],
      paths: { "/a": { get: { operationId: name } }, "/b": { get: { operationId: name } } },
    },
  });
  const registry = loadToolRegistry(`
handlers:
  - name: pets
    type: openapi
    openAPIConfig: { specURL: "${api.specURL}" }
`);
  const ex = createToolExecutor({ registry });
  try {
    await assert.rejects(ex.refresh(), (e: Error) => {
      // `two operations have the tool name "` is 35 bytes of the 512.
      sameText(e.message, `handler "pets": two operations have the tool name "${cut(35)}`);
      return true;
    });
    const out = await ex.execute({ id: "c1", name: "anything", arguments: "{}" });
    sameText(messageOf(out), `handler "pets": two operations have the tool name "${cut(35)}`);
  } finally {
    await ex.close();
    await api.close();
  }
});
