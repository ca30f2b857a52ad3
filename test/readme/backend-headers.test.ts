// The README's "What a backend receives" example is what a real call sends: the same call, made here
// against a node:http server on loopback, must produce the block's request line, headers (in order)
// and body; only the port in `host` differs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createToolExecutor, loadToolRegistry } from "../../src/index.js";
import { startHttpServer } from "../helpers/http-server.js";

test("README: the backend-headers example is byte for byte what the call sends", async () => {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("\n### What a backend receives\n"));
  const block = /```http\n([\s\S]*?)```\n/.exec(section)?.[1];
  assert.ok(block !== undefined, "the section has an http block");
  const server = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end("{}");
  });
  const port = new URL(server.url).port;
  const registry = loadToolRegistry(`
handlers:
  - name: weather-api
    type: http
    tool: { name: get_weather, description: d, inputSchema: { type: object, properties: { city: { type: string } } } }
    httpConfig: { endpoint: "${server.url}/weather", method: POST, headers: { X-Api-Version: "2" } }
`);
  const executor = createToolExecutor({ registry, agent: { name: "support", namespace: "agents", workspace: "acme", provider: "openai", model: "gpt-4.1" } });
  try {
    const identity = { userId: "u-42", sessionId: "s-1", requestId: "r-7", userEmail: "ada@example.com", subjectId: "sub-9", origin: "web", claims: { tier: "gold" } };
    const out = await executor.execute({ id: "call-1", name: "get_weather", arguments: '{"city":"Paris"}' }, { identity });
    assert.equal(out.status, "success");
    const req = server.requests[0]!;
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (const [name, value] of req.rawHeaders) lines.push(`${name}: ${value}`);
    const sent = `${lines.join("\n")}\n\n${req.body.toString("utf8")}\n`;
    assert.equal(sent.replace(`host: 127.0.0.1:${port}`, "host: 127.0.0.1:8787"), block);
  } finally {
    await executor.close();
    await server.close();
  }
});
