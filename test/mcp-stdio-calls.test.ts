// The stdio MCP call path without the per-call machinery it does not need
// (issue #38): no AsyncLocalStorage for an untraced request (stdio sends no
// HTTP request to account for), the executor's per-attempt signal handed
// to the SDK as it is, and the messages of one turn written to the child at
// once. Against a real stdio child built with the SDK.
import type { AsyncLocalStorage } from "node:async_hooks";
import { getEventListeners } from "node:events";
import type { Writable } from "node:stream";
import { test } from "node:test";
import assert from "node:assert/strict";
import { AbortedError, ClosedError } from "../src/core/index.js";
import { createMcpToolClient, MCP_OWN_SIGNAL, type McpCallResult, type McpToolClient } from "../src/mcp/index.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import { createManualClock, MemoryRecorder } from "../src/testing/index.js";
import { until } from "./helpers/policy-broker.js";
import { LOADER, sourcePath } from "./helpers/source.js";

const COMMAND = process.execPath;
const ARGS = [...LOADER, sourcePath("test/fixtures/mcp-cancel-stdio-server.ts")];

function success(out: McpCallResult): unknown {
  assert.equal(out.status, "success", JSON.stringify(out));
  return out.status === "success" ? out.result : undefined;
}

/** Counts the runs of the client's AsyncLocalStorage (the exchange an HTTP request belongs to). */
function countStorageRuns(client: McpToolClient): () => number {
  const storage = (client as unknown as { http: { exchanges: AsyncLocalStorage<unknown> } }).http.exchanges;
  let runs = 0;
  const run = storage.run.bind(storage);
  storage.run = ((store: unknown, fn: () => unknown) => {
    runs++;
    return run(store, fn);
  }) as typeof storage.run;
  return () => runs;
}

test("stdio: an untraced call, listing or ping enters no AsyncLocalStorage; an observed call does, and its trace gets the request's id", async () => {
  const client = createMcpToolClient({ name: "local", mcpConfig: { transport: "stdio", command: COMMAND, args: ARGS } });
  const runs = countStorageRuns(client);
  try {
    assert.deepEqual(
      (await client.listTools()).map((t) => t.name),
      ["wait", "cancellations", "echo"],
    );
    assert.equal(success(await client.callTool("echo", { text: "one" })), "one");
    await client.ping();
    assert.equal(runs(), 0);

    const sent: (string | number | undefined)[] = [];
    const ended: unknown[] = [];
    const observer = {
      start: () => ({ meta: undefined, sent: (id: string | number, session: string | undefined) => sent.push(id, session), end: (result: unknown) => ended.push(result) }),
    };
    assert.equal(success(await client.callTool("echo", { text: "two" }, { observer })), "two");
    assert.equal(runs(), 1);
    // initialize was 0, tools/list 1, tools/call 2, ping 3: the observed call is request 4, with no session id on stdio.
    assert.deepEqual(sent, [4, undefined]);
    assert.deepEqual(ended, [{ content: [{ type: "text", text: "two" }] }]);
  } finally {
    await client.close();
  }
});

test("stdio: a signal marked as the call's own goes to the SDK as it is; any other signal gets a linked one and keeps no listener", async () => {
  const client = createMcpToolClient({ name: "local", mcpConfig: { transport: "stdio", command: COMMAND, args: ARGS } });
  try {
    const own = new AbortController();
    assert.equal(success(await client.callTool("echo", { text: "own" }, { signal: own.signal, [MCP_OWN_SIGNAL]: true } as never)), "own");
    // The SDK's abort listener, which it never removes: the signal is the call's, and goes with it.
    assert.equal(getEventListeners(own.signal, "abort").length, 1);

    const caller = new AbortController();
    for (let i = 0; i < 20; i++) assert.equal(success(await client.callTool("echo", { text: `c${i}` }, { signal: caller.signal })), `c${i}`);
    assert.equal(getEventListeners(caller.signal, "abort").length, 0);
    // The mark is ignored with a timeout of the client's own: that needs a linked signal.
    assert.equal(success(await client.callTool("echo", { text: "timed" }, { signal: caller.signal, timeoutMs: 5_000, [MCP_OWN_SIGNAL]: true } as never)), "timed");
    assert.equal(getEventListeners(caller.signal, "abort").length, 0);
  } finally {
    await client.close();
  }
});

test("stdio through the executor: the attempt's timeout cancels the call in the child, which serves the next one; the caller's signal keeps no listener", async () => {
  const clock = createManualClock(0);
  const recorder = new MemoryRecorder();
  const registry = loadToolRegistry(`
handlers:
  - name: local
    type: mcp
    mcpConfig: { transport: stdio, command: ${JSON.stringify(COMMAND)}, args: ${JSON.stringify(ARGS)} }
    timeout: 2s
`);
  const ex = createToolExecutor({ registry, clock, recorder });
  try {
    await ex.refresh();
    const caller = new AbortController();
    const pending = ex.execute({ id: "w1", name: "wait", arguments: "{}" }, { signal: caller.signal });
    await until(() => clock.pendingTimers() === 1, "the attempt's timer armed");
    clock.advance(2_000);
    const out = await pending;
    assert.deepEqual(out.status === "error" && [out.message, out.error.code], ["timed out after 2000ms", "ERR_OMNIA_TIMEOUT"]);
    // notifications/cancelled went out after the request, on the same pipe: the child has counted it before it reads the next call.
    const counted = await ex.execute({ id: "w2", name: "cancellations", arguments: "" }, { signal: caller.signal });
    assert.deepEqual(counted.status === "success" && counted.result, { cancelled: 1 });
    const echoed = await ex.execute({ id: "w3", name: "echo", arguments: '{"text":"after"}' }, { signal: caller.signal });
    assert.equal(echoed.status === "success" && echoed.result, "after");
    assert.equal(getEventListeners(caller.signal, "abort").length, 0);
    assert.equal(clock.pendingTimers(), 0);
    assert.deepEqual(
      recorder.records.map((r) => [r.toolName, r.status, r.errorMessage ?? null]),
      [
        ["wait", "error", "timed out after 2000ms"],
        ["cancellations", "success", null],
        ["echo", "success", null],
      ],
    );
  } finally {
    await ex.close();
  }
});

test("stdio: the calls started in one turn reach the child's stdin in one write, in order; a lone call is written at once", async () => {
  const client = createMcpToolClient({ name: "local", mcpConfig: { transport: "stdio", command: COMMAND, args: ARGS } });
  try {
    await client.listTools();
    const stdin = (client as unknown as { current: { transport: { _process: { stdin: Writable } } } }).current.transport._process.stdin;
    // Each write to the pipe, as the lines it carried.
    const writes: string[][] = [];
    const lines = (chunk: Buffer | string): string[] => String(chunk).split(/(?<=\n)/);
    const write = stdin._write.bind(stdin);
    const writev = stdin._writev!.bind(stdin);
    stdin._write = (chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) => {
      writes.push(lines(chunk));
      write(chunk, encoding, callback);
    };
    stdin._writev = (chunks: { chunk: Buffer; encoding: BufferEncoding }[], callback: (error?: Error | null) => void) => {
      writes.push(chunks.flatMap((c) => lines(c.chunk)));
      writev(chunks, callback);
    };
    let drainWaits = 0;
    const once = stdin.once.bind(stdin);
    stdin.once = ((event: string, listener: (...args: unknown[]) => void) => {
      if (event === "drain") drainWaits++;
      return once(event, listener);
    }) as typeof stdin.once;
    const texts = Array.from({ length: 8 }, (_, i) => `t${i}`);
    const results = await Promise.all(texts.map((text) => client.callTool("echo", { text })));
    assert.deepEqual(results.map(success), texts);
    assert.equal(writes.length, 1);
    // Requests 2 to 9 (initialize was 0, tools/list 1), each a whole line.
    assert.deepEqual(
      writes[0]!.map((line) => [line.endsWith("\n"), (JSON.parse(line) as { id: number; params: { arguments: { text: string } } }).id, (JSON.parse(line) as { params: { arguments: { text: string } } }).params.arguments.text]),
      texts.map((text, i) => [true, i + 2, text]),
    );
    assert.equal(success(await client.callTool("echo", { text: "alone" })), "alone");
    assert.equal(writes.length, 2);
    assert.equal(writes[1]!.length, 1);
    // A turn of a hundred 1 KB calls is one write, with at most one wait for drain (one per call would pile up
    // listeners and warn), and so is a turn past the pipe's size (three 300 KB calls), which waits for drain once.
    const hundred = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(1_000, "."));
    assert.deepEqual((await Promise.all(hundred.map((text) => client.callTool("echo", { text })))).map(success), hundred);
    const big = ["a", "b", "c"].map((c) => c.repeat(300_000));
    assert.deepEqual((await Promise.all(big.map((text) => client.callTool("echo", { text })))).map(success), big);
    assert.deepEqual(
      writes.slice(2).map((w) => w.length),
      [100, 3],
    );
    assert.deepEqual(writes[3]!.map((line) => (JSON.parse(line) as { params: { arguments: { text: string } } }).params.arguments.text.slice(0, 1)), ["a", "b", "c"]);
    assert.ok(drainWaits <= 2, `${drainWaits} waits for drain`);
    assert.equal(getEventListeners(stdin, "drain").length, 0);
  } finally {
    await client.close();
  }
});

test("stdio: a call aborted, or a client closed, in the turn the call was made writes nothing to the child", async () => {
  const client = createMcpToolClient({ name: "local", mcpConfig: { transport: "stdio", command: COMMAND, args: ARGS } });
  await client.listTools();
  const stdin = (client as unknown as { current: { transport: { _process: { stdin: Writable } } } }).current.transport._process.stdin;
  let writes = 0;
  const write = stdin._write.bind(stdin);
  stdin._write = (chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) => {
    writes++;
    write(chunk, encoding, callback);
  };
  try {
    const controller = new AbortController();
    const aborted = client.callTool("echo", { text: "never" }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(aborted, (e: unknown) => e instanceof AbortedError && e.message === 'mcp handler "local": the caller\'s signal aborted');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes, 0);
    const closing = client.callTool("echo", { text: "never" });
    const closed = client.close();
    await assert.rejects(closing, (e: unknown) => e instanceof ClosedError && e.message === 'mcp handler "local": the client is closed');
    await closed;
    assert.equal(writes, 0);
  } finally {
    await client.close();
  }
});
