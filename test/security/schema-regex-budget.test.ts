// Issue #31 item 9: the schemas an MCP server lists are a peer's. A `pattern` whose program is large made createTurn's
// validation of a 32,000-character argument block the event loop for minutes. Go's own `repeatIsValid` now refuses
// nested counted repetitions past 1000 copies (`(?:x{999}){99}z` is not a valid regex, as under Go), and every
// validation has a regex step budget proportional to the text it validates: past it, a validation error names the
// pattern. The MCP server is the official SDK's, on loopback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createTurn } from "../../src/turn/index.js";
import { boundPeerText } from "../../src/core/index.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

const COSTLY = `${"x{1000}".repeat(99)}z`;
const NESTED = "(?:x{999}){99}z";

test("a listed pattern too costly for the value is a validation error naming it; a nested repeat past 1000 copies is an invalid schema", async () => {
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [
      { name: "costly", inputSchema: { type: "object", properties: { q: { type: "string", pattern: COSTLY } } }, call: () => ({ content: [{ type: "text", text: "ran" }] }) },
      { name: "nested", inputSchema: { type: "object", properties: { q: { type: "string", pattern: NESTED } } }, call: () => ({ content: [{ type: "text", text: "ran" }] }) },
    ],
  });
  const registry = loadToolRegistry(`
handlers:
  - name: m
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${server.url}" }
`);
  const executor = createToolExecutor({ registry });
  try {
    await executor.refresh();
    const args = JSON.stringify({ q: "x".repeat(32_000) });
    const round = await createTurn(executor).run([
      { id: "1", name: "costly", arguments: args },
      { id: "2", name: "nested", arguments: args },
    ]);
    const steps = 1_000_000 + 64 * args.length;
    assert.deepEqual(
      round.messages.map((m) => [m.callId, m.isError, m.content]),
      [
        ["1", true, `Error: tool costly validation error (args_invalid): argument validation failed: [q: Matching pattern '${boundPeerText(COSTLY)}' needs more than the ${steps} regex steps this value may spend]`],
        ["2", true, "Error: invalid input schema for tool nested: pattern must be a valid regex"],
      ],
    );
    assert.equal(boundPeerText(COSTLY), `${COSTLY.slice(0, 512)}...`);
    assert.deepEqual(server.calls, []);
  } finally {
    await executor.close();
    await server.close();
  }
});
