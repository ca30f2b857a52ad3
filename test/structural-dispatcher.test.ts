// The `dispatcher` options take any object with undici's dispatch(options, handler), the one
// method the package calls: a host's own wrapper (or an undici 8 Agent) works, not only an
// undici 7 class instance. Real node:http servers on 127.0.0.1, through undici.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "undici";
import { createPolicyBrokerClient, createToolExecutor, loadToolRegistry, type HttpDispatcher } from "../src/index.js";
import { startHttpServer, type TestServer } from "./helpers/http-server.js";
import { startFakeBroker, type FakeBroker } from "./helpers/policy-broker.js";

const agent = new Agent();
const servers: (TestServer | FakeBroker)[] = [];
after(async () => {
  for (const s of servers) await s.close();
  await agent.close();
});

/** A dispatcher that is nothing but dispatch(): it records each request and forwards it to a real Agent. */
function bareDispatcher(seen: string[]): HttpDispatcher {
  return {
    dispatch(options, handler) {
      seen.push(`${options.method} ${options.path}`);
      return agent.dispatch(options as never, handler as never);
    },
  };
}

test("an http tool call goes through a host dispatcher that has only dispatch()", async () => {
  const server = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  servers.push(server);
  const registry = loadToolRegistry(
    `handlers:\n  - name: h\n    type: http\n    tool: { name: t, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: "${server.url}/t" }\n`,
  );
  const seen: string[] = [];
  const executor = createToolExecutor({ registry, dispatcher: bareDispatcher(seen) });
  const out = await executor.execute({ id: "c1", name: "t", arguments: '{"a":1}' });
  await executor.close();
  assert.equal(out.status, "success");
  assert.equal(out.status === "success" && out.resultJson, '{"ok":true}');
  assert.deepEqual(seen, ["POST /t"]);
  assert.equal(server.requests[0]?.body.toString(), '{"a":1}');
});

test("the policy broker client sends its decision through a host dispatcher that has only dispatch()", async () => {
  const broker = await startFakeBroker({ allow: true });
  servers.push(broker);
  const seen: string[] = [];
  const policy = createPolicyBrokerClient({ url: broker.url, dispatcher: bareDispatcher(seen) });
  const decision = await policy.decide({ toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} });
  await policy.close();
  assert.deepEqual(decision, { allow: true });
  assert.deepEqual(seen, ["POST /v1/decision"]);
});
