// Issue #31 item 10: a stdio MCP server's long lines cost work linear in their
// size. The SDK's read buffer joined its whole buffer with every 64 KiB chunk
// the child wrote, so one 19 MiB line copied about 3 GiB (some 2 s of CPU).
// The work is counted here as the bytes Buffer.concat copies while the
// client reads the child's answer (no timing): at most the line's own size.
// The child is a real stdio MCP server (test/fixtures/mcp-stdio-server.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createMcpToolClient, McpTransportError } from "../../src/mcp/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { LOADER, sourcePath } from "../helpers/source.js";

const STDIO = {
  transport: "stdio" as const,
  command: process.execPath,
  args: [...LOADER, sourcePath("test/fixtures/mcp-stdio-server.ts")],
};
const MiB = 1024 * 1024;

/** Runs `fn` with Buffer.concat counting the bytes it returns; resolves with fn's value and that count. */
async function countingConcat<T>(fn: () => Promise<T>): Promise<{ value: T; copied: number }> {
  const original = Buffer.concat;
  let copied = 0;
  Buffer.concat = function concat(list: readonly Uint8Array[], totalLength?: number): Buffer {
    const out = original.call(Buffer, list, totalLength);
    copied += out.length;
    return out;
  } as typeof Buffer.concat;
  try {
    const value = await fn();
    return { value, copied };
  } finally {
    Buffer.concat = original;
  }
}

test("stdio: five 19 MiB lines are each read with one copy of the line; the child is kept", async () => {
  const logger = createCaptureLogger();
  const client = createMcpToolClient({ name: "local", mcpConfig: STDIO }, { logger });
  try {
    const first = await client.callTool("pid", {});
    assert.equal(first.status, "success");
    const childPid = first.status === "success" ? first.result : undefined;
    const text = 19 * MiB;
    for (let i = 0; i < 5; i++) {
      const { value: out, copied } = await countingConcat(() => client.callTool("big", { bytes: text }));
      assert.equal(out.status === "error" && out.message, `MCP tool result of ${text + 2} bytes exceeds the 10485760-byte cap`);
      assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_MCP_RESULT_TOO_LARGE");
      // The line is the text plus its JSON-RPC envelope (under 200 bytes): one copy of it, not one per chunk.
      assert.ok(copied >= text && copied <= text + 200, `line ${i}: Buffer.concat copied ${copied} bytes for a ${text}-byte text`);
    }
    const again = await client.callTool("pid", {});
    assert.deepEqual(again.status === "success" && again.result, childPid, "the same child answered");
    assert.equal(logger.lines.filter((l) => l.level === "warn").length, 0);
  } finally {
    await client.close();
  }
});

test("stdio: a line past the 20 MiB cap ends the child as before; the next call starts a new one", async () => {
  const client = createMcpToolClient({ name: "local", mcpConfig: STDIO });
  try {
    const before = await client.callTool("pid", {});
    assert.equal(before.status, "success");
    await assert.rejects(client.callTool("big", { bytes: 20 * MiB }), (e: unknown) => {
      assert.ok(e instanceof McpTransportError);
      assert.equal(e.message, "MCP tool call failed: MCP error -32000: Connection closed");
      assert.equal(e.code, "ERR_OMNIA_MCP_TRANSPORT");
      assert.equal(e.rpcCode, -32000);
      return true;
    });
    const after = await client.callTool("pid", {});
    assert.equal(after.status, "success");
    assert.notEqual(after.status === "success" && after.result, before.status === "success" && before.result);
    assert.deepEqual(await client.callTool("echo", { text: "still here" }), { status: "success", result: "still here", resultJson: '"still here"' });
  } finally {
    await client.close();
  }
});
