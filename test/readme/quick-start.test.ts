// The README's quick start, run against a loopback backend: README examples are tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadToolRegistry, loadPromptPack, reconcileTools, createToolExecutor } from "../../src/index.js";
import { startHttpServer } from "../helpers/http-server.js";

test("the README quick start works as written (with the backend on loopback)", async () => {
  const readme = readFileSync("README.md", "utf8");
  const snippet = /## Quick start\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet, "README has a Quick start ts block");
  assert.ok(snippet.split("\n").length <= 26, "the quick start stays within 25 lines");
  const server = await startHttpServer((_req, res) => void res.end('{"temp":21}'));
  try {
    const registry = loadToolRegistry(
      readFileSync("examples/registry.yaml", "utf8").replace("https://weather.example.com/v1/current", `${server.url}/v1/current`),
    );
    const pack = loadPromptPack(readFileSync("examples/pack.json", "utf8"));
    const warnings: string[] = [];
    const { offered, mismatches } = reconcileTools(pack, registry, { logger: { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} } });
    assert.ok(offered.includes("get_weather"));
    assert.equal(warnings.length, mismatches.length);
    const executor = createToolExecutor({ registry, agent: { name: "support", namespace: "agents" }, secrets: () => "tok" });
    const conversation = new AbortController();
    const outcome = await executor.execute(
      { id: "call-1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { identity: { userId: "u-1", claims: { tier: "gold" } }, signal: conversation.signal },
    );
    assert.equal(outcome.status === "success" && outcome.resultJson, '{"temp":21}');
    assert.equal(server.requests[0]?.url, "/v1/current?city=Paris&format=json");
    assert.equal(server.requests[0]?.headers["x-omnia-claim-tier"], "gold");
    await executor.close();
  } finally {
    await server.close();
  }
});
