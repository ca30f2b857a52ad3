import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getEventListeners } from "node:events";
import { McpHttp } from "./http-fetch.js";

// The MCP SDK passes one long-lived signal (its transport's) with every request of a session. Handed to undici's
// fetch as it is, each request would add an `abort` listener to it that only garbage collection removes.
test("200 requests on one transport signal leave at most one abort listener on it, and none once their bodies are read; its abort still reaches a request in flight", async () => {
  let held: (() => void) | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/hang") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("event: message\ndata: {}\n\n");
        held = () => res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = new McpHttp("docs", undefined, undefined, () => {});
  const transport = new AbortController();
  const init = { method: "POST", body: "{}", headers: { "content-type": "application/json" }, signal: transport.signal, redirect: "manual" as const };
  try {
    const counts: number[] = [];
    const texts = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const response = await http.fetch(`${base}/mcp`, init);
        counts.push(getEventListeners(transport.signal, "abort").length);
        return response.text();
      }),
    );
    assert.deepEqual(new Set(texts), new Set(['{"jsonrpc":"2.0","id":1,"result":{}}']));
    assert.ok(counts.every((n) => n <= 1), `listeners while in flight: ${Math.max(...counts)}`);
    assert.equal(getEventListeners(transport.signal, "abort").length, 0);

    // A stream still being read when the transport aborts ends with the transport's reason.
    const stream = await http.fetch(`${base}/hang`, init);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), "event: message\ndata: {}\n\n");
    assert.equal(getEventListeners(transport.signal, "abort").length, 1);
    const reason = new Error("transport closed");
    transport.abort(reason);
    await assert.rejects(reader.read(), (e: unknown) => e === reason);
    assert.equal(getEventListeners(transport.signal, "abort").length, 0);
  } finally {
    held?.();
    await http.destroy();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
});
