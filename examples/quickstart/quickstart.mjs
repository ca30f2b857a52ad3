import { readFileSync } from "node:fs";
import { createToolExecutor, loadPromptPack, loadToolRegistry, reconcileTools } from "omnia-tools";

// 1. Load: a ConfigError lists every problem with its line.
const registry = loadToolRegistry(readFileSync("registry.yaml", "utf8"));
const pack = loadPromptPack(readFileSync("pack.json", "utf8"));
const executor = createToolExecutor({ registry, agent: { name: "support", namespace: "agents" } });

// 2. List tools: the static ones, and those the MCP server lists (discovered now).
const tools = await executor.listTools();

// 3. Reconcile: a model is offered only tools the prompt declares AND the registry serves.
const { byPrompt, mismatches } = reconcileTools(pack, tools.map((t) => t.name));
for (const m of mismatches) console.warn(m.message);
const offered = tools.filter((t) => byPrompt.support.includes(t.name));
console.log("offered:", offered.map((t) => t.name).join(", "));

// 4. Execute the calls a model makes; every outcome is a value, never a throw.
const identity = { userId: "u-1", sessionId: "s-1" };
const weather = await executor.execute({ id: "call-1", name: "get_weather", arguments: '{"city":"Paris"}' }, { identity });
console.log(weather.status, weather.status === "success" ? weather.resultJson : weather.message);

const docs = await executor.execute({ id: "call-2", name: "search_docs", arguments: '{"query":"returns"}' }, { identity });
console.log(docs.status, docs.status === "success" ? docs.resultJson : docs.message);

// A client tool is handed back to you: forward it to the client, then pass its answer in.
const located = await executor.execute({ id: "call-3", name: "get_location", arguments: "{}" }, { identity, clientToolsAvailable: true });
if (located.status === "client") {
  const answer = executor.completeClientCall({ callId: located.request.callId, resultJson: '{"lat":48.86,"lon":2.35}' });
  console.log(answer.status, answer.status === "success" ? answer.resultJson : answer.message);
}

// 5. Offer the tools to a model: name, description and JSON Schema, in any SDK's shape.
const forModel = offered.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }));
console.log(JSON.stringify(forModel.map((t) => t.name)));

await executor.close();
