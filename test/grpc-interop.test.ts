// Interop with an independent gRPC implementation, @grpc/grpc-js with
// @grpc/proto-loader on proto/omnia/tools/v1/tools.proto, both directions:
// grpc-js as the server for createToolServiceClient, and as the client of
// serveToolService. Success, is_error, non-OK statuses, metadata and deadlines.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { Code, ConnectError } from "@connectrpc/connect";
import { GrpcStatusError, ToolError } from "../src/index.js";
import { createToolServiceClient, interpretToolResponse, serveToolService, type ToolServiceClient, type ToolServiceServer } from "../src/grpc.js";
import { grpcJsHealthCheck, grpcJsToolClient, settledLeaks, startGrpcJsToolServer, type GrpcJsToolClient, type GrpcJsToolServer } from "./helpers/grpc-server.js";
import { withoutUnhandledRejections } from "./helpers/http-server.js";

let baseline: string[];
before(() => {
  baseline = process.getActiveResourcesInfo();
});
after(async () => {
  // Every socket, server and timer of both stacks is gone.
  const left = await settledLeaks(baseline);
  assert.deepEqual(left, []);
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => assert.fail("expected a rejection"),
    (e: unknown) => e,
  );
}

describe("grpc-js server ← our client", () => {
  let server: GrpcJsToolServer;
  let client: ToolServiceClient;
  before(async () => {
    server = await startGrpcJsToolServer();
    client = createToolServiceClient({ endpoint: server.endpoint });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test("success: the request carries tool_name and arguments_json, metadata is empty; result_json comes back verbatim", async () => {
    server.handle(() => ({ result_json: '{"tempC": 21.5}' }));
    server.calls.length = 0;
    const response = await client.execute("get_weather", '{"city":"Paris"}');
    assert.deepEqual(server.calls[0]?.request, { tool_name: "get_weather", arguments_json: '{"city":"Paris"}', metadata: {} });
    assert.deepEqual(interpretToolResponse(response), { status: "success", result: { tempC: 21.5 }, resultJson: '{"tempC": 21.5}' });
    server.handle(() => ({}));
    assert.deepEqual(interpretToolResponse(await client.execute("get_weather", "{}")), { status: "success", result: null, resultJson: "null" });
  });

  test("the exact metadata set arrives, lower-cased, with no x-omnia-param-* entries", async () => {
    server.handle(() => ({ result_json: "{}" }));
    server.calls.length = 0;
    await client.execute("get_weather", "{}", {
      headers: {
        "x-omnia-tool-name": "get_weather",
        "x-omnia-tool-registry": "weather-handler",
        "x-omnia-agent-name": "travel-agent",
        "x-omnia-user-id": "injected-user",
        "X-Injected-Auth": "secret-token",
        "X-Omnia-Claim-Tier": "gold",
        "x-omnia-param-City": "Paris",
        authorization: "Bearer grpc-tok",
      },
    });
    const { "user-agent": userAgent, ...metadata } = server.calls[0]?.metadata ?? {};
    assert.match(userAgent ?? "", /^connect-es\//);
    assert.deepEqual(metadata, {
      authorization: "Bearer grpc-tok",
      "x-injected-auth": "secret-token",
      "x-omnia-agent-name": "travel-agent",
      "x-omnia-claim-tier": "gold",
      "x-omnia-tool-name": "get_weather",
      "x-omnia-tool-registry": "weather-handler",
      "x-omnia-user-id": "injected-user",
    });
  });

  test("is_error: the call resolves and maps to tool error: <msg>", async () => {
    server.handle(() => ({ is_error: true, error_message: "city not found", result_json: "{}" }));
    const out = interpretToolResponse(await client.execute("get_weather", "{}"));
    assert.ok(out.status === "error" && out.error instanceof ToolError);
    assert.equal(out.message, "tool error: city not found");
  });

  test("non-OK statuses reject with GrpcStatusError, canonical names for multi-word codes too", async () => {
    const table: [grpc.status, string, string][] = [
      [grpc.status.UNAVAILABLE, "UNAVAILABLE", "rpc error: code = Unavailable desc = backend down"],
      [grpc.status.INTERNAL, "INTERNAL", "rpc error: code = Internal desc = backend down"],
      [grpc.status.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "rpc error: code = DeadlineExceeded desc = backend down"],
      [grpc.status.RESOURCE_EXHAUSTED, "RESOURCE_EXHAUSTED", "rpc error: code = ResourceExhausted desc = backend down"],
      [grpc.status.PERMISSION_DENIED, "PERMISSION_DENIED", "rpc error: code = PermissionDenied desc = backend down"],
    ];
    for (const [code, name, message] of table) {
      server.handle(() => ({ code, details: "backend down" }));
      const error = await rejection(client.execute("get_weather", "{}"));
      assert.ok(error instanceof GrpcStatusError, String(error));
      assert.equal(error.grpcCode, name);
      assert.equal(error.message, message);
    }
  });

  test("the deadline reaches grpc-js as grpc-timeout, the server call is cancelled, DEADLINE_EXCEEDED comes back", async () => {
    await withoutUnhandledRejections(async () => {
      let cancelled: Promise<void> | undefined;
      server.handle(async (call) => {
        cancelled = call.cancelled;
        await call.cancelled;
        return { result_json: "{}" };
      });
      server.calls.length = 0;
      const error = await rejection(client.execute("slow", "{}", { timeoutMs: 200 }));
      assert.ok(error instanceof GrpcStatusError);
      assert.equal(error.message, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
      const deadline = server.calls[0]?.deadlineMs ?? Infinity;
      assert.ok(deadline > 0 && deadline <= 200, `deadline seen by grpc-js: ${deadline}ms`);
      await cancelled;
    });
  });

  test("ListTools", async () => {
    assert.deepEqual(
      (await client.listTools()).map((t) => [t.name, t.description, t.inputSchema]),
      [["echo", "Echoes its arguments", '{"type":"object"}']],
    );
  });
});

describe("grpc-js client → our serveToolService", () => {
  let server: ToolServiceServer;
  let client: GrpcJsToolClient;
  const headersSeen: Record<string, string>[] = [];
  before(async () => {
    server = await serveToolService({
      get_weather: {
        description: "Current weather for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        execute: (args: { city: string }, ctx) => {
          headersSeen.push({ ...ctx.headers });
          if (args.city === "Atlantis") throw new Error("city not found");
          if (args.city === "Down") throw new ConnectError("backend down", Code.Unavailable);
          return { city: args.city, tempC: 21.5 };
        },
      },
      slow: {
        description: "Waits for its deadline",
        inputSchema: true,
        execute: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late"))),
      },
    });
    client = grpcJsToolClient(`127.0.0.1:${server.port}`);
  });
  after(async () => {
    client.close();
    await server.close();
  });

  test("success, with the metadata grpc-js sent visible to the tool", async () => {
    headersSeen.length = 0;
    const r = await client.execute({ tool_name: "get_weather", arguments_json: '{"city":"Paris"}' }, { "x-omnia-agent-name": "travel-agent", authorization: "Bearer x" });
    assert.deepEqual(r, { result_json: '{"city":"Paris","tempC":21.5}', is_error: false, error_message: "" });
    assert.equal(headersSeen[0]?.["x-omnia-agent-name"], "travel-agent");
    assert.equal(headersSeen[0]?.["authorization"], "Bearer x");
    assert.match(headersSeen[0]?.["user-agent"] ?? "", /^grpc-node-js\//);
  });

  test("is_error: a thrown error, invalid arguments and an unknown tool", async () => {
    assert.deepEqual(await client.execute({ tool_name: "get_weather", arguments_json: '{"city":"Atlantis"}' }), {
      result_json: "",
      is_error: true,
      error_message: "city not found",
    });
    assert.deepEqual(await client.execute({ tool_name: "get_weather", arguments_json: "{}" }), {
      result_json: "",
      is_error: true,
      error_message: "invalid arguments for tool \"get_weather\": (root) must have required property 'city'",
    });
    assert.deepEqual(await client.execute({ tool_name: "nope", arguments_json: "{}" }), { result_json: "", is_error: true, error_message: 'unknown tool "nope"' });
  });

  test("a non-OK status reaches grpc-js as that code and details", async () => {
    const error = (await rejection(client.execute({ tool_name: "get_weather", arguments_json: '{"city":"Down"}' }))) as grpc.ServiceError;
    assert.equal(error.code, grpc.status.UNAVAILABLE);
    assert.equal(error.details, "backend down");
  });

  test("a grpc-js deadline aborts the tool's signal and comes back as DEADLINE_EXCEEDED", async () => {
    const error = (await rejection(client.execute({ tool_name: "slow", arguments_json: "{}" }, {}, { deadlineMs: 150 }))) as grpc.ServiceError;
    assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED);
  });

  test("ListTools and grpc.health.v1 Check", async () => {
    const listed = await client.listTools();
    assert.deepEqual(listed.tools, [
      { name: "get_weather", description: "Current weather for a city", input_schema: '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}' },
      { name: "slow", description: "Waits for its deadline", input_schema: "true" },
    ]);
    assert.equal(await grpcJsHealthCheck(`127.0.0.1:${server.port}`, ""), "SERVING");
    assert.equal(await grpcJsHealthCheck(`127.0.0.1:${server.port}`, "omnia.tools.v1.ToolService"), "SERVING");
    const missing = (await rejection(grpcJsHealthCheck(`127.0.0.1:${server.port}`, "nope"))) as grpc.ServiceError;
    assert.equal(missing.code, grpc.status.NOT_FOUND);
  });
});
