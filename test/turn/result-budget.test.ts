// createTurn's resultBudget (beyond PromptKit): what the model reads of a
// large result, against a real MCP server returning 5 MB of JSON and an HTTP
// backend's 2 MB body. The record keeps what PromptKit would have shown.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createTurn } from "../../src/turn/index.js";
import { InvalidOptionError } from "../../src/core/index.js";
import { backend, executorFor, httpHandler, registry } from "./fixture.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { httpReply } from "../../src/testing/index.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

const BIG = { total: 50_000, items: Array.from({ length: 50_000 }, (_, n) => ({ id: n, name: `item-${n}`, note: "x".repeat(60) })) };

test("json-aware against a real MCP server's 5 MB result: valid JSON within the budget, every key kept, the arrays say what they lost; the record keeps PromptKit's 1 MiB text", async () => {
  const server = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [{ name: "export", call: () => ({ content: [{ type: "text", text: "part" }, { type: "text", text: "part" }], structuredContent: BIG }) }],
  });
  after(() => server.close());
  const { executor, recorder } = executorFor(registry(`  - name: data
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: ${server.url} }
`));
  await executor.listTools();
  const logger = createCaptureLogger();
  const turn = createTurn(executor, { logger, resultBudget: { maxTokens: 5_000, cut: "json-aware" } });
  const [message] = (await turn.run([{ id: "e1", name: "export", arguments: "{}" }])).messages;
  assert.ok(message !== undefined && !message.isError);
  const size = Buffer.byteLength(message.content, "utf8");
  assert.ok(size <= 20_000, `${size} bytes`);
  const parsed = JSON.parse(message.content) as { total: number; items: unknown[] };
  assert.deepEqual(Object.keys(parsed), ["items", "total"]);
  assert.equal(parsed.total, 50_000);
  const kept = parsed.items.length - 1;
  assert.deepEqual(parsed.items.slice(0, kept), BIG.items.slice(0, kept));
  assert.equal(parsed.items[kept], `... [${50_000 - kept} more items cut to the result budget]`);
  // The text is the turn's own layout (sorted keys, 2-space indent), only shorter.
  assert.ok(message.content.startsWith('{\n  "items": [\n    {\n      "id": 0,\n      "name": "item-0",\n      "note": "xxxx'));
  // The record keeps what PromptKit would have shown the model: the 1 MiB cut of the whole text.
  const recorded = recorder.records[0]?.result as string;
  assert.equal(Buffer.byteLength(recorded, "utf8") > 1_048_576, true);
  assert.match(recorded, /\n\.\.\. \[truncated, \d+ bytes exceeded limit of 1048576 bytes\]$/);
  assert.deepEqual(logger.lines.map((l) => [l.message, l.fields?.["tool"], l.fields?.["cut"]]), [["Tool result cut to the result budget", "export", "json-aware"]]);
});

test("head+tail against an HTTP backend's 2 MB body, per-tool budgets beside the turn's, and a tool without a budget untouched", async () => {
  const body = `"${"A".repeat(1_000_000)}${"B".repeat(1_000_000)}"`;
  const b = await backend({ routes: { "/dump": () => httpReply({ status: 200, text: body, headers: { "content-type": "application/json" } }), "/small": { ok: true }, "/other": { n: "y".repeat(200) } } });
  const { executor, recorder } = executorFor(registry(httpHandler(b.url, "dump") + httpHandler(b.url, "small") + httpHandler(b.url, "other")));
  const turn = createTurn(executor, { resultBudget: { maxBytes: 100, tools: { dump: { maxBytes: 1_000, cut: "head+tail" } } }, maxResultBytes: 0 });
  const round = await turn.run([
    { id: "d", name: "dump", arguments: "{}" },
    { id: "s", name: "small", arguments: "{}" },
    { id: "o", name: "other", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages.map((m) => m.content), [
    `${"A".repeat(500)}\n... [cut to the result budget: 1999000 of 2000000 bytes left out] ...\n${"B".repeat(500)}`,
    '{\n  "ok": true\n}',
    `{\n  "n": "${"y".repeat(90)}\n... [cut to the result budget: 113 of 213 bytes left out]`,
  ]);
  // maxResultBytes 0: PromptKit's cut is off, so the record keeps all 2 MB.
  assert.equal((recorder.records.find((r) => r.callId === "d")?.result as string).length, 2_000_000);
});

test("the budget applies after maxResultBytes only where it is larger; errors are never cut; no budget, no change", async () => {
  const b = await backend({ routes: { "/big": { s: "z".repeat(3_000) }, "/fail": () => httpReply({ status: 500, text: "e".repeat(400) }) } });
  const { executor } = executorFor(registry(httpHandler(b.url, "big") + httpHandler(b.url, "fail")));
  const budgeted = createTurn(executor, { resultBudget: { maxBytes: 2_000 }, maxResultBytes: 1_000 });
  const [big, fail] = (await budgeted.run([{ id: "b", name: "big", arguments: "{}" }, { id: "f", name: "fail", arguments: "{}" }])).messages;
  // The budget's cut (2,000 bytes plus its notice) is still over maxResultBytes: PromptKit's cut follows.
  assert.equal(big?.content, `{\n  "s": "${"z".repeat(990)}\n... [truncated, 2060 bytes exceeded limit of 1000 bytes]`);
  assert.equal(fail?.content, `Tool execution failed: HTTP 500: ${"e".repeat(400)}`);
  const plain = createTurn(executor, { maxResultBytes: 1_000 });
  const [same] = (await plain.run([{ id: "b2", name: "big", arguments: "{}" }])).messages;
  assert.equal(same?.content, `{\n  "s": "${"z".repeat(990)}\n... [truncated, 3013 bytes exceeded limit of 1000 bytes]`);
});

test("resultBudget is checked eagerly, field by field", async () => {
  const b = await backend({ routes: {} });
  const { executor } = executorFor(registry(httpHandler(b.url, "t")));
  const bad = (resultBudget: unknown, message: string) => assert.throws(() => createTurn(executor, { resultBudget: resultBudget as never }), (e: unknown) => e instanceof InvalidOptionError && e.message === message);
  bad(null, "createTurn: resultBudget must be an object { maxBytes | maxTokens, cut?, tools? }; got null");
  bad({ tools: [] }, "createTurn: resultBudget.tools must be an object of budgets by tool name; got an array");
  bad(
    new Proxy({}, { ownKeys: () => { throw new Error("trap"); } }),
    "createTurn: resultBudget could not be read: trap",
  );
  assert.throws(() => createTurn(executor, { resultBudget: { maxBytes: 0 } }), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith("createTurn: resultBudget.maxBytes: "));
  assert.throws(() => createTurn(executor, { resultBudget: { tools: { t: { maxBytes: 5, maxTokens: 5 } } } }), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith('createTurn: resultBudget.tools["t"]'));
  assert.throws(() => createTurn(executor, { resultBudget: { maxBytes: 5, cut: "middle" as never } }), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith("createTurn: resultBudget.cut: "));
});

test("a small answer of deep arrays cannot make the budget's render unbounded: the text a budget reads stops at 16 MiB", async () => {
  // 9,990 nested arrays and 12,000 numbers: 44 KB that indentation would turn into about 256 MiB.
  const body = `${"[".repeat(9_990)}${Array.from({ length: 12_000 }, () => "1").join(",")}${"]".repeat(9_990)}`;
  const b = await backend({ routes: { "/deep": () => httpReply({ status: 200, text: body, headers: { "content-type": "application/json" } }) } });
  const { executor } = executorFor(registry(httpHandler(b.url, "deep")));
  const turn = createTurn(executor, { resultBudget: { maxBytes: 1_000, cut: "json-aware" } });
  const [message] = (await turn.run([{ id: "d", name: "deep", arguments: "{}" }])).messages;
  assert.ok(message !== undefined && !message.isError);
  // Cut at 16 MiB first, the text is no longer JSON: head+tail, within the budget plus its notice.
  assert.ok(Buffer.byteLength(message.content, "utf8") < 1_100, String(Buffer.byteLength(message.content, "utf8")));
  assert.match(message.content, /\n\.\.\. \[cut to the result budget: \d+ of \d+ bytes left out\] \.\.\.\n/);
});
