// Issue #19 item 20: the runtime and ToolService servers against a hostile or
// confused client, over real loopback HTTP/2: a stray client_tool_result is
// dropped with one warning (never an empty turn), floods of unknown ids are
// rate-limited in the log, a recursive $ref schema answers is_error (not gRPC
// INTERNAL), and error_message is cut at 512 bytes plus "...".
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveRuntime, type Turn } from "../../src/runtime/index.js";
import { serveToolService, createToolServiceClient } from "../../src/grpc/index.js";
import { createRuntimeClient, converse, frameCases } from "../helpers/runtime-client.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";

test("a client_tool_result with no pending call is dropped with one warning; the next message is the only turn", async () => {
  const logger = createCaptureLogger();
  const turns: string[] = [];
  const server = await serveRuntime(
    {
      async converse(turn: Turn, emit) {
        turns.push(turn.content);
        await emit.done({ finalContent: `echo:${turn.content}` });
      },
    },
    { port: 0, logger, heartbeatIntervalMs: 0 },
  );
  const client = createRuntimeClient(server.url);
  try {
    const out = await converse(client, [{ clientToolResult: { callId: "ghost", resultJson: '"late"' } }, { sessionId: "s", content: "real" }]);
    assert.deepEqual(frameCases(out.frames), ["runtimeHello", "done"]);
    assert.deepEqual(turns, ["real"], "the stray result was never a turn");
    assert.deepEqual(logger.lines.filter((l) => l.level === "warn"), [
      { level: "warn", message: "runtime: dropped a client_tool_result whose call_id matches no pending tool call", fields: { callId: "ghost", dropped: 1 } },
    ]);
  } finally {
    client.close();
    await server.close();
  }
});

test("1000 unknown ids on one stream: logged at the 1st, 10th, 100th and 1000th drop only; ids cut at 128 characters", async () => {
  const logger = createCaptureLogger();
  const server = await serveRuntime({ async converse(_turn, emit) { await emit.done({}); } }, { port: 0, logger, heartbeatIntervalMs: 0 });
  const client = createRuntimeClient(server.url);
  try {
    const strays = Array.from({ length: 1000 }, (_, i) => ({ clientToolResult: { callId: i === 999 ? "x".repeat(5000) : `id-${i}`, resultJson: "1" } }));
    const out = await converse(client, [...strays, { sessionId: "s", content: "hi" }]);
    assert.deepEqual(frameCases(out.frames), ["runtimeHello", "done"]);
    assert.deepEqual(
      logger.lines.filter((l) => l.level === "warn").map((l) => l.fields),
      [
        { callId: "id-0", dropped: 1 },
        { callId: "id-9", dropped: 10 },
        { callId: "id-99", dropped: 100 },
        { callId: "x".repeat(128), dropped: 1000 },
      ],
    );
  } finally {
    client.close();
    await server.close();
  }
});

test("serveToolService: a recursive $ref schema answers is_error, not INTERNAL; error_message is bounded to 512 bytes + ...", async () => {
  const server = await serveToolService({
    loop: {
      description: "a schema whose $ref never consumes input",
      inputSchema: { $ref: "#" },
      execute: () => ({ ran: true }),
    },
    chatty: {
      description: "fails with a long message",
      inputSchema: { type: "object" },
      execute: () => {
        throw new Error(`é${"x".repeat(2000)}`);
      },
    },
  });
  const client = createToolServiceClient({ endpoint: server.url });
  try {
    const loop = await client.execute("loop", "{}");
    assert.equal(loop.isError, true);
    assert.equal(loop.resultJson, "");
    assert.match(loop.errorMessage, /^invalid arguments for tool "loop": the input schema could not be evaluated: Maximum call stack size exceeded$/);
    const chatty = await client.execute("chatty", "{}");
    assert.equal(chatty.isError, true);
    assert.equal(chatty.errorMessage, `é${"x".repeat(510)}...`);
    assert.equal(Buffer.byteLength(chatty.errorMessage), 515);
    // The server is unharmed.
    assert.deepEqual((await client.execute("loop", "{}")).errorMessage, loop.errorMessage);
  } finally {
    client.close();
    await server.close();
  }
});

test("serveToolService: a $ref cycle ajv cannot even compile is a ConfigError naming the tool, before anything listens", async () => {
  await assert.rejects(
    serveToolService({
      cycle: { description: "d", inputSchema: { definitions: { a: { $ref: "#/definitions/a" } }, $ref: "#/definitions/a" }, execute: () => 1 },
    }),
    { code: "ERR_OMNIA_CONFIG", message: /tools\["cycle"\]\.inputSchema: invalid JSON Schema: Maximum call stack size exceeded/ },
  );
});
