// serveToolService / createToolServiceHandler for backend authors, over real
// HTTP/2 on 127.0.0.1: argument parsing and ajv validation, errors, ListTools,
// grpc.health.v1.Health, create-time checks and a clean close().
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { Http2SessionManager, createGrpcTransport } from "@connectrpc/connect-node";
import { ConfigError, InvalidOptionError } from "../src/index.js";
import { createToolServiceClient, createToolServiceHandler, serveToolService, type ToolServiceClient, type ToolServiceServer } from "../src/grpc.js";
import { Health, HealthCheckResponse_ServingStatus } from "../src/gen/grpc/health/v1/health_pb.js";
import { settledLeaks } from "./helpers/grpc-server.js";
import { withoutUnhandledRejections } from "./helpers/http-server.js";

const weatherSchema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    units: { enum: ["metric", "imperial"] },
    days: { type: "integer", minimum: 1, maximum: 7 },
  },
  required: ["city", "units"],
  additionalProperties: false,
};

let server: ToolServiceServer;
let client: ToolServiceClient;
let baseline: string[];

before(async () => {
  baseline = process.getActiveResourcesInfo();
  server = await serveToolService({
    get_weather: {
      description: "Current weather for a city",
      inputSchema: weatherSchema,
      execute: (args: { city: string; units: string }) => ({ city: args.city, units: args.units, tempC: 21.5 }),
    },
    tuple: {
      description: "A draft 2020-12 schema",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false } },
      },
      execute: (args) => args,
    },
    args_echo: { description: "Echoes what it got", inputSchema: true, execute: (args) => ({ got: args }) },
    throws_string: {
      description: "Throws a non-Error",
      inputSchema: true,
      execute: () => {
        throw "just a string";
      },
    },
    bigint: { description: "Returns a value JSON cannot hold", inputSchema: true, execute: () => ({ n: 10n }) },
    unavailable: {
      description: "Answers with a gRPC status",
      inputSchema: true,
      execute: () => {
        throw new ConnectError("maintenance window", Code.Unavailable);
      },
    },
    async_fail: {
      description: "Rejects",
      inputSchema: true,
      execute: async () => {
        throw new RangeError("days out of range");
      },
    },
  });
  client = createToolServiceClient({ endpoint: server.url });
});

after(async () => {
  await client.close();
  await server.close();
  assert.deepEqual(await settledLeaks(baseline), []);
});

test("valid arguments reach the tool parsed; its value comes back JSON-stringified", async () => {
  const r = await client.execute("get_weather", '{"city":"Paris","units":"metric"}');
  assert.deepEqual([r.isError, r.errorMessage, r.resultJson], [false, "", '{"city":"Paris","units":"metric","tempC":21.5}']);
});

test("arguments failing the schema: is_error listing every ajv error with its path", async () => {
  const r = await client.execute("get_weather", '{"city":"","units":"kelvin","days":9,"extra":1}');
  assert.equal(r.isError, true);
  assert.equal(
    r.errorMessage,
    'invalid arguments for tool "get_weather": (root) must NOT have additional properties ("extra"); /city must NOT have fewer than 1 characters; /units must be equal to one of the allowed values; /days must be <= 7',
  );
  const missing = await client.execute("get_weather", "{}");
  assert.equal(missing.errorMessage, "invalid arguments for tool \"get_weather\": (root) must have required property 'city'; (root) must have required property 'units'");
  const wrongType = await client.execute("get_weather", "[1]");
  assert.equal(wrongType.errorMessage, 'invalid arguments for tool "get_weather": (root) must be object');
});

test("a draft 2020-12 schema is validated with its own rules", async () => {
  assert.equal((await client.execute("tuple", '{"pair":["a",1]}')).resultJson, '{"pair":["a",1]}');
  const r = await client.execute("tuple", '{"pair":["a","b",3]}');
  assert.equal(r.errorMessage, 'invalid arguments for tool "tuple": /pair/1 must be number; /pair must NOT have more than 2 items');
});

test("arguments_json that is not JSON: is_error with the parser's message; an empty one reads as {}", async () => {
  let parserMessage = "";
  try {
    JSON.parse("{city:");
  } catch (e) {
    parserMessage = (e as Error).message;
  }
  const r = await client.execute("args_echo", "{city:");
  assert.equal(r.isError, true);
  assert.equal(r.errorMessage, `invalid arguments for tool "args_echo": arguments_json is not valid JSON: ${parserMessage}`);
  assert.equal((await client.execute("args_echo", "")).resultJson, '{"got":{}}');
  assert.equal((await client.execute("args_echo", "  ")).resultJson, '{"got":{}}');
  assert.equal((await client.execute("args_echo", "null")).resultJson, '{"got":null}');
});

test("an unknown tool: is_error unknown tool \"<name>\"", async () => {
  const r = await client.execute("no_such_tool", "{}");
  assert.deepEqual([r.isError, r.errorMessage, r.resultJson], [true, 'unknown tool "no_such_tool"', ""]);
});

test("a thrown error becomes is_error with its message; a non-Error is normalised", async () => {
  assert.deepEqual(
    [(await client.execute("async_fail", "{}")).errorMessage, (await client.execute("throws_string", "{}")).errorMessage],
    ["days out of range", "non-error thrown: just a string"],
  );
});

test("a value JSON cannot hold: is_error naming the tool", async () => {
  const r = await client.execute("bigint", "{}");
  assert.equal(r.isError, true);
  assert.equal(r.errorMessage, 'tool "bigint" returned a value that is not JSON: Do not know how to serialize a BigInt');
});

test("a thrown ConnectError is sent as that gRPC status, not as is_error", async () => {
  await assert.rejects(client.execute("unavailable", "{}"), {
    code: "ERR_OMNIA_GRPC_STATUS",
    grpcCode: "UNAVAILABLE",
    message: "rpc error: code = Unavailable desc = maintenance window",
  });
});

test("ListTools serves name, description and input_schema (JSON text) in insertion order", async () => {
  const tools = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ["get_weather", "tuple", "args_echo", "throws_string", "bigint", "unavailable", "async_fail"],
  );
  assert.deepEqual([tools[0]?.description, tools[0]?.inputSchema], ["Current weather for a city", JSON.stringify(weatherSchema)]);
  assert.equal(tools[2]?.inputSchema, "true");
});

test("grpc.health.v1.Health: Check answers SERVING for the server and ToolService, NOT_FOUND otherwise; Watch streams the status", async () => {
  await withoutUnhandledRejections(async () => {
    const manager = new Http2SessionManager(server.url);
    const health = createClient(Health, createGrpcTransport({ baseUrl: server.url, sessionManager: manager }));
    try {
      assert.equal((await health.check({ service: "" })).status, HealthCheckResponse_ServingStatus.SERVING);
      assert.equal((await health.check({ service: "omnia.tools.v1.ToolService" })).status, HealthCheckResponse_ServingStatus.SERVING);
      await assert.rejects(health.check({ service: "other.Service" }), (e: unknown) => e instanceof ConnectError && e.code === Code.NotFound && e.rawMessage === 'unknown service "other.Service"');
      const controller = new AbortController();
      const statuses: HealthCheckResponse_ServingStatus[] = [];
      const watching = (async () => {
        try {
          for await (const m of health.watch({ service: "" }, { signal: controller.signal })) {
            statuses.push(m.status);
            controller.abort();
          }
        } catch (e) {
          if (!(e instanceof ConnectError && e.code === Code.Canceled)) throw e;
        }
      })();
      await watching;
      assert.deepEqual(statuses, [HealthCheckResponse_ServingStatus.SERVING]);
      const unknown: HealthCheckResponse_ServingStatus[] = [];
      const c2 = new AbortController();
      try {
        for await (const m of health.watch({ service: "x" }, { signal: c2.signal })) {
          unknown.push(m.status);
          c2.abort();
        }
      } catch (e) {
        if (!(e instanceof ConnectError && e.code === Code.Canceled)) throw e;
      }
      assert.deepEqual(unknown, [HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN]);
    } finally {
      manager.abort();
    }
  });
});

test("health can be left out", async () => {
  const other = await serveToolService({}, { health: false });
  const manager = new Http2SessionManager(other.url);
  try {
    const health = createClient(Health, createGrpcTransport({ baseUrl: other.url, sessionManager: manager }));
    await assert.rejects(health.check({ service: "" }), (e: unknown) => e instanceof ConnectError && e.code === Code.Unimplemented);
  } finally {
    manager.abort();
    await other.close();
  }
});

test("close(): aborts in-flight tools and open health watches, closes every session; idempotent; nothing left", async () => {
  await withoutUnhandledRejections(async () => {
    const before = process.getActiveResourcesInfo();
    let toolSignal: AbortSignal | undefined;
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const s = await serveToolService({
      wait: {
        description: "Waits for its signal",
        inputSchema: true,
        execute: (_a, ctx) =>
          new Promise((resolve) => {
            toolSignal = ctx.signal;
            markStarted();
            ctx.signal.addEventListener("abort", () => resolve({ stopped: true }));
          }),
      },
    });
    const c = createToolServiceClient({ endpoint: s.url });
    const manager = new Http2SessionManager(s.url);
    const health = createClient(Health, createGrpcTransport({ baseUrl: s.url, sessionManager: manager }));
    const watch = (async () => {
      const seen: HealthCheckResponse_ServingStatus[] = [];
      try {
        for await (const m of health.watch({ service: "" })) seen.push(m.status);
      } catch (e) {
        return [seen, e];
      }
      return [seen, undefined];
    })();
    const call = c.execute("wait", "{}").then(
      (r) => r,
      (e: unknown) => e,
    );
    await started;
    const closing = s.close();
    assert.equal(s.close(), closing);
    await closing;
    assert.equal(toolSignal?.aborted, true);
    const [seen] = await watch;
    assert.deepEqual(seen, [HealthCheckResponse_ServingStatus.SERVING]);
    // The in-flight call ended one way or the other (an answer or a status), never hanging.
    await call;
    await c.close();
    manager.abort();
    assert.deepEqual(await settledLeaks(before), []);
  });
});

test("create-time checks: every invalid tool is listed in one ConfigError; bad maps and options are InvalidOptionErrors", async () => {
  assert.throws(
    () =>
      createToolServiceHandler({
        a: { description: 1, inputSchema: { type: "object" }, execute: () => 1 } as never,
        b: { description: "b", inputSchema: { type: "nonsense" }, execute: () => 1 },
        c: { description: "c", inputSchema: [] as never, execute: "no" as never },
        d: null as never,
      }),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.deepEqual(
        e.issues.map((i) => i.path),
        ['tools["a"].description', 'tools["b"].inputSchema', 'tools["c"].execute', 'tools["c"].inputSchema', 'tools["d"]'],
      );
      assert.equal(e.issues[0]?.message, "expected a string; got number");
      assert.match(e.issues[1]?.message ?? "", /^invalid JSON Schema: schema is invalid: data\/type must be equal to one of the allowed values/);
      assert.equal(e.issues[3]?.message, "expected a JSON Schema object; got an array");
      assert.equal(e.issues[4]?.message, "expected { description, inputSchema, execute }; got null");
      return true;
    },
  );
  assert.throws(() => createToolServiceHandler(null as never), InvalidOptionError);
  assert.throws(() => createToolServiceHandler([] as never), {
    message: "createToolServiceHandler: tools must be an object of name -> { description, inputSchema, execute }; got an array",
  });
  await assert.rejects(serveToolService({}, { port: 70000 }), { code: "ERR_OMNIA_INVALID_OPTION", message: "serveToolService: port must be an integer in [0, 65535]; got 70000" });
  await assert.rejects(serveToolService({}, { tls: { cert: "c", key: "k", requireClientCert: true } }), {
    message: "serveToolService: tls.requireClientCert needs tls.ca to verify client certificates; got no ca",
  });
});

test("a port already in use rejects serveToolService and leaves nothing behind", async () => {
  const before = process.getActiveResourcesInfo();
  await assert.rejects(serveToolService({}, { port: server.port }), { code: "EADDRINUSE" });
  assert.deepEqual(await settledLeaks(before), []);
});
