// createTurn's `promptkit` option: 1.5.5 (the default, Omnia 1.9.0's) looks a
// prompt's tools entries up by exact name and offers `mcp__` tools without an
// entry; 1.5.11 expands trailing-`*` entries, offers `mcp__` tools only through
// an entry, and counts the calls that ran for `maxToolCalls`.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createTurn, TurnError, type TurnExecutor } from "../../src/turn/index.js";
import { InvalidOptionError } from "../../src/core/index.js";
import { loadPromptPack } from "../../src/manifest/index.js";
import { backend, clientHandler, executorFor, httpHandler, registry } from "./fixture.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import type { TestTool } from "../helpers/mcp-tools.js";

const pack = (tools: readonly string[], extra: object = {}) => loadPromptPack(JSON.stringify({ prompts: { support: { tools } }, ...extra }));

test("1.5.5 (default): entries are exact names, a wildcard is looked up literally and logged; mcp__ and the other system namespaces need no entry", async () => {
  const b = await backend({ routes: {} });
  const reg = registry(["get_a", "get_b", "search", "mcp__fs__read", "memory__recall", "image__generate", "other"].map((t) => httpHandler(b.url, t)).join(""));
  const { executor } = executorFor(reg);
  const logger = createCaptureLogger();
  const p = pack(["get_*", "search", "nope", "defined"], { tools: { defined: { name: "defined", description: "pack only" } } });
  const turn = createTurn(executor, { pack: p, logger });
  assert.deepEqual(turn.tools.map((t) => t.name), ["image__generate", "mcp__fs__read", "memory__recall", "search"]);
  // PromptKit's registry holds the pack's own tools too: "defined" is not "not found" there.
  assert.deepEqual(logger.lines, [
    { level: "warn", message: "Tool not found in registry", fields: { tool: "get_*", error: "tool not found: get_*" } },
    { level: "warn", message: "Tool not found in registry", fields: { tool: "nope", error: "tool not found: nope" } },
  ]);
  // The list is computed once per tool list: reading it again logs nothing more.
  assert.equal(turn.tools.length, 4);
  assert.equal(logger.lines.length, 2);
  assert.deepEqual(createTurn(executor, { pack: p, promptkit: "1.5.5" }).tools.map((t) => t.name), ["image__generate", "mcp__fs__read", "memory__recall", "search"]);
});

test("1.5.11: a trailing-* entry offers every served tool with that prefix; mcp__ tools only through an entry", async () => {
  const b = await backend({ routes: {} });
  const reg = registry(["get_a", "get_b", "getaway", "search", "mcp__fs__read", "mcp__fs__write", "mcp__gh__issue", "memory__recall", "video__generate"].map((t) => httpHandler(b.url, t)).join(""));
  const { executor } = executorFor(reg);
  const logger = createCaptureLogger();
  const offered = (tools: readonly string[]) => createTurn(executor, { pack: pack(tools), promptkit: "1.5.11", logger }).tools.map((t) => t.name);
  assert.deepEqual(offered(["get_*", "search"]), ["get_a", "get_b", "memory__recall", "search", "video__generate"]);
  assert.deepEqual(offered(["mcp__fs__*"]), ["mcp__fs__read", "mcp__fs__write", "memory__recall", "video__generate"]);
  assert.deepEqual(offered(["mcp__*", "get_a", "get_*"]), ["get_a", "get_b", "mcp__fs__read", "mcp__fs__write", "mcp__gh__issue", "memory__recall", "video__generate"]);
  // "*" alone matches every served tool; a wildcard that matches nothing is not logged (PromptKit logs only exact misses).
  assert.deepEqual(offered(["*"]), ["get_a", "get_b", "getaway", "mcp__fs__read", "mcp__fs__write", "mcp__gh__issue", "memory__recall", "search", "video__generate"]);
  assert.deepEqual(offered(["zzz*", "mcp__gh__issue"]), ["mcp__gh__issue", "memory__recall", "video__generate"]);
  assert.deepEqual(logger.lines, []);
});

test("1.5.11 against a real MCP server: the discovered tools are offered through a wildcard entry, and called", async () => {
  const tools: TestTool[] = ["read_file", "read_dir", "write_file"].map((name) => ({
    name,
    description: `the ${name} tool`,
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    call: (args) => ({ content: [{ type: "text", text: `${name}(${String(args["path"])})` }] }),
  }));
  const server = await startMcpHttpServer({ transport: "streamable-http", tools });
  after(() => server.close());
  const { executor } = executorFor(registry(`  - name: fs
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: ${server.url} }
`));
  await executor.listTools();
  const p = pack(["read_*"]);
  const logger = createCaptureLogger();
  assert.deepEqual(createTurn(executor, { pack: p, logger }).tools.map((t) => t.name), []);
  assert.deepEqual(logger.lines.map((l) => l.fields?.["tool"]), ["read_*"]);
  const turn = createTurn(executor, { pack: p, promptkit: "1.5.11" });
  assert.deepEqual(turn.tools, [
    { name: "read_dir", description: "the read_dir tool", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
    { name: "read_file", description: "the read_file tool", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  ]);
  const round = await turn.run([{ id: "c1", name: "read_file", arguments: '{"path":"/etc/motd"}' }]);
  assert.deepEqual(round.messages, [{ callId: "c1", name: "read_file", content: "read_file(/etc/motd)", isError: false }]);
});

test("maxToolCalls (1.5.11): every call that got a result counts; the round that reaches the limit fails the turn with PromptKit's text and its messages", async () => {
  const b = await backend({ routes: { "/ok": { ok: true } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "ok", { inputSchema: "{ type: object, properties: { n: { type: integer } } }" })));
  const turn = createTurn(executor, { promptkit: "1.5.11", maxToolCalls: 4 });
  // A success, an unknown tool and a validation error: three calls that ran.
  const first = await turn.run([
    { id: "a", name: "ok", arguments: "{}" },
    { id: "b", name: "missing", arguments: "{}" },
    { id: "c", name: "ok", arguments: '{"n":"x"}' },
  ]);
  assert.deepEqual(first.messages.map((m) => [m.callId, m.isError]), [["a", false], ["b", true], ["c", true]]);
  const second = turn.run([
    { id: "d", name: "ok", arguments: '{"n":1}' },
    { id: "e", name: "ok", arguments: '{"n":2}' },
  ]);
  const error = await second.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof TurnError);
  assert.equal(error.reason, "max-tool-calls");
  assert.equal(error.message, "workflow budget exhausted: max_tool_calls 5 reached limit 4");
  assert.deepEqual(error.messages.map((m) => [m.callId, m.content]), [["d", '{\n  "ok": true\n}'], ["e", '{\n  "ok": true\n}']]);
  // Both calls ran: the limit is checked after the round, as PromptKit counts after executing.
  assert.equal(b.requests.length, 3);
  await assert.rejects(turn.run([{ id: "f", name: "ok", arguments: "{}" }]), (e: unknown) => e === error);
  assert.equal(b.requests.length, 3);
});

test("maxToolCalls: client calls handed off do not count; calls that ran in a round that handed off are checked by the next run()", async () => {
  const b = await backend({ routes: { "/ok": { ok: true } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "ok") + clientHandler("ask")));
  const turn = createTurn(executor, { promptkit: "1.5.11", maxToolCalls: 2, ctx: { clientToolsAvailable: true } });
  const round = await turn.run([
    { id: "a", name: "ok", arguments: "{}" },
    { id: "b", name: "ask", arguments: "{}" },
    { id: "c", name: "ask", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages.map((m) => m.callId), ["a"]);
  assert.deepEqual(round.pending.map((p) => p.callId), ["b", "c"]);
  turn.complete({ callId: "b", resultJson: '"yes"' });
  turn.complete({ callId: "c", resultJson: '"no"' });
  // One call ran; the resumed round runs one more and reaches the limit.
  await assert.rejects(turn.run([{ id: "d", name: "ok", arguments: "{}" }]), (e: unknown) => e instanceof TurnError && e.message === "workflow budget exhausted: max_tool_calls 2 reached limit 2" && e.messages.length === 1);
  assert.equal(b.requests.length, 2);
});

test("maxToolCalls: a round that hands calls off and reaches the limit returns its pending calls; the next run() fails before running anything", async () => {
  const b = await backend({ routes: { "/ok": { ok: true } } });
  const { executor } = executorFor(registry(httpHandler(b.url, "ok") + clientHandler("ask")));
  const turn = createTurn(executor, { promptkit: "1.5.11", maxToolCalls: 1, ctx: { clientToolsAvailable: true } });
  const round = await turn.run([
    { id: "a", name: "ok", arguments: "{}" },
    { id: "b", name: "ask", arguments: "{}" },
  ]);
  assert.deepEqual(round.pending.map((p) => p.callId), ["b"]);
  assert.deepEqual(turn.complete({ callId: "b", resultJson: '"fine"' }), { callId: "b", name: "ask", content: '"fine"' });
  await assert.rejects(turn.run([{ id: "c", name: "ok", arguments: "{}" }]), (e: unknown) => e instanceof TurnError && e.reason === "max-tool-calls" && e.message === "workflow budget exhausted: max_tool_calls 1 reached limit 1" && e.messages.length === 0);
  assert.equal(b.requests.length, 1);
});

test("promptkit and maxToolCalls are checked eagerly", () => {
  const executor: TurnExecutor = { tools: [], execute: async () => ({ status: "success", resultJson: "{}" }), completeClientCall: () => ({ status: "success", resultJson: "{}" }) };
  const bad = (options: object, message: string) => assert.throws(() => createTurn(executor, options as never), (e: unknown) => e instanceof InvalidOptionError && e.message === message);
  bad({ promptkit: "1.5.6" }, 'createTurn: promptkit must be one of "1.5.5", "1.5.11"; got "1.5.6"');
  bad({ promptkit: 1.5 }, 'createTurn: promptkit must be one of "1.5.5", "1.5.11"; got 1.5');
  bad({ maxToolCalls: 3 }, 'createTurn: maxToolCalls needs promptkit: "1.5.11" (PromptKit 1.5.5 does not count tool calls)');
  bad({ maxToolCalls: 3, promptkit: "1.5.5" }, 'createTurn: maxToolCalls needs promptkit: "1.5.11" (PromptKit 1.5.5 does not count tool calls)');
  bad({ maxToolCalls: -1, promptkit: "1.5.11" }, "createTurn: maxToolCalls must be a non-negative integer (0 disables the limit); got -1");
  assert.equal(createTurn(executor, { maxToolCalls: 0 }).tools.length, 0);
});

test("mcpToolFilterWildcards: a trailing-* toolFilter entry matches by prefix in both lists, against a real MCP server; off, entries are exact", async () => {
  const tools: TestTool[] = ["read_file", "read_dir", "write_file", "read_*"].map((name) => ({ name, call: () => ({ content: [{ type: "text", text: name }] }) }));
  const server = await startMcpHttpServer({ transport: "streamable-http", tools });
  after(() => server.close());
  const handler = (filter: string) => registry(`  - name: fs
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: ${server.url}, toolFilter: ${filter} }
`);
  const names = async (filter: string, wildcards?: boolean) => {
    const { executor } = executorFor(handler(filter), wildcards === undefined ? {} : { mcpToolFilterWildcards: wildcards });
    return (await executor.listTools()).map((t) => t.name);
  };
  assert.deepEqual(await names("{ allowlist: [read_*] }"), ["read_*"]);
  assert.deepEqual(await names("{ allowlist: [read_*] }", true), ["read_file", "read_dir", "read_*"]);
  assert.deepEqual(await names("{ blocklist: [read_*] }", true), ["write_file"]);
  assert.deepEqual(await names("{ blocklist: [read_*] }", false), ["read_file", "read_dir", "write_file"]);
  // The filter also guards the call: a blocked name is never sent to the server.
  const { executor } = executorFor(handler("{ allowlist: [read_*] }"), { mcpToolFilterWildcards: true });
  await executor.listTools();
  const served = await executor.execute({ id: "1", name: "read_dir", arguments: "{}" });
  assert.deepEqual(served, { status: "success", result: "read_dir", resultJson: '"read_dir"', callId: "1", toolName: "read_dir", handlerType: "mcp", durationMs: 0 });
  const blocked = await executor.execute({ id: "2", name: "write_file", arguments: "{}" });
  assert.equal(blocked.status === "error" && blocked.message, 'tool "write_file" not found');
  assert.equal(server.calls.includes("write_file"), false);
  assert.throws(() => executorFor(handler("{}"), { mcpToolFilterWildcards: "yes" as never }), (e: unknown) => e instanceof InvalidOptionError && e.message === "createToolExecutor: mcpToolFilterWildcards must be a boolean; got string");
});
