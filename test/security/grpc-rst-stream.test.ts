// Issue #32 item 2: a gRPC stream the server resets is classified as grpc-go classifies it (its HTTP/2 error table),
// with grpc-go's text, for the executor and for createToolServiceClient. With a retry policy's default codes
// (UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED) a refused stream (never started) and a ResourceExhausted reset
// are sent again; INTERNAL_ERROR and the rest are not sent twice. CANCEL stays Unavailable with connect's text:
// connect-node reports a connection lost before the server's preface the same way, which grpc-go calls Unavailable
// (test/faults/defects/grpc-transport.test.ts, D3). A raw node:http2 backend resets each call with the code under test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { constants } from "node:http2";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createToolServiceClient } from "../../src/grpc/index.js";
import { MemoryRecorder } from "../../src/testing/index.js";
import { startH2Backend } from "../faults/helpers/h2-backend.js";

const CASES: readonly [string, number, string][] = [
  ["REFUSED_STREAM", constants.NGHTTP2_REFUSED_STREAM, "Unavailable"],
  ["ENHANCE_YOUR_CALM", constants.NGHTTP2_ENHANCE_YOUR_CALM, "ResourceExhausted"],
  ["FLOW_CONTROL_ERROR", constants.NGHTTP2_FLOW_CONTROL_ERROR, "ResourceExhausted"],
  ["INADEQUATE_SECURITY", constants.NGHTTP2_INADEQUATE_SECURITY, "PermissionDenied"],
  ["INTERNAL_ERROR", constants.NGHTTP2_INTERNAL_ERROR, "Internal"],
  ["PROTOCOL_ERROR", constants.NGHTTP2_PROTOCOL_ERROR, "Internal"],
  // connect-node ignores a NO_ERROR reset (a finished stream closes with it too): before any response the call
  // waited for its deadline. grpc-go fails it at once.
  ["NO_ERROR", constants.NGHTTP2_NO_ERROR, "Internal"],
];

test("RST_STREAM codes map as grpc-go's table, with its text; a retry policy resends only what its codes name", { timeout: 60_000 }, async () => {
  for (const [name, code, status] of CASES) {
    const backend = await startH2Backend((stream) => stream.close(code));
    const registry = loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    tool: { name: t, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${backend.endpoint}", tls: false, retryPolicy: { maxAttempts: 2, initialBackoff: 1ms } }
`);
    const recorder = new MemoryRecorder();
    const ex = createToolExecutor({ registry, recorder });
    const client = createToolServiceClient({ endpoint: backend.endpoint });
    try {
      // No deadline on either call: a reset that is not reported would hang the test, not end at a timeout.
      const out = await ex.execute({ id: name, name: "t", arguments: "{}" });
      const text = `rpc error: code = ${status} desc = stream terminated by RST_STREAM with error code: ${name}`;
      const retried = status === "Unavailable" || status === "ResourceExhausted";
      assert.deepEqual(
        [out.status, out.status === "error" && out.message, recorder.records.map((r) => r.attempts), backend.streams()],
        ["error", retried ? `2 attempts exhausted: gRPC tool execution failed: ${text}` : `gRPC tool execution failed: ${text}`, [retried ? 2 : 1], retried ? 2 : 1],
        name,
      );
      const direct = await client.listTools().then(
        () => "resolved",
        (e: unknown) => (e as Error).message,
      );
      assert.equal(direct, text, name);
    } finally {
      await ex.close();
      await client.close();
      await backend.close();
    }
  }
});

test("RST_STREAM CANCEL stays Unavailable with connect's text (a lost connection reads the same), retried by the default codes", { timeout: 30_000 }, async () => {
  const backend = await startH2Backend((stream) => stream.close(constants.NGHTTP2_CANCEL));
  const registry = loadToolRegistry(`
handlers:
  - name: g
    type: grpc
    tool: { name: t, description: d, inputSchema: { type: object } }
    grpcConfig: { endpoint: "${backend.endpoint}", tls: false, retryPolicy: { maxAttempts: 2, initialBackoff: 1ms } }
`);
  const ex = createToolExecutor({ registry });
  try {
    const out = await ex.execute({ id: "c", name: "t", arguments: "{}" });
    assert.deepEqual(
      [out.status === "error" && out.message, backend.streams()],
      ["2 attempts exhausted: gRPC tool execution failed: rpc error: code = Unavailable desc = http/2 stream closed with error code CANCEL (0x8)", 2],
    );
  } finally {
    await ex.close();
    await backend.close();
  }
});
