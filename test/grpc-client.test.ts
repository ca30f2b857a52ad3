// createToolServiceClient against a real HTTP/2 ToolService on 127.0.0.1
// (our serveToolService), no mocks: the mapping rows over the wire, the exact
// metadata set, the grpc-timeout deadline, cancellation and close().
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { getEventListeners } from "node:events";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { AbortedError, ClosedError, GrpcStatusError, TimeoutError, ToolError } from "../src/index.js";
import { createToolServiceClient, createToolServiceHandler, interpretToolResponse, serveToolService, type ToolServiceContext, type ToolServiceServer } from "../src/grpc.js";
import { settledLeaks } from "./helpers/grpc-server.js";
import { withoutUnhandledRejections } from "./helpers/http-server.js";

/** Transport headers connect's client adds to every call; everything else is ours. */
const TRANSPORT = { "content-type": "application/grpc+proto", "grpc-accept-encoding": "gzip,br", te: "trailers" };

interface Seen {
  args: unknown;
  ctx: ToolServiceContext;
}

let server: ToolServiceServer;
const seen: Seen[] = [];
let onAbortSeen: ((reason: unknown) => void) | undefined;
let baseline: string[];

before(async () => {
  baseline = process.getActiveResourcesInfo();
  server = await serveToolService({
    echo: {
      description: "Echoes its arguments",
      inputSchema: { type: "object" },
      execute: (args, ctx) => {
        seen.push({ args, ctx });
        return args;
      },
    },
    nothing: { description: "Returns nothing", inputSchema: true, execute: () => undefined },
    fails: {
      description: "Always a tool error",
      inputSchema: true,
      execute: () => {
        throw new Error("city not found");
      },
    },
    status: {
      description: "Answers with the gRPC status named in its arguments",
      inputSchema: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } }, required: ["code", "message"] },
      execute: (args: { code: Code; message: string }) => {
        throw new ConnectError(args.message, args.code);
      },
    },
    hang: {
      description: "Waits until its call is cancelled or its deadline passes",
      inputSchema: true,
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          seen.push({ args: null, ctx });
          ctx.signal.addEventListener("abort", () => {
            onAbortSeen?.(ctx.signal.reason);
            reject(ctx.signal.reason as Error);
          });
        }),
    },
  });
});

after(async () => {
  await server.close();
  assert.deepEqual(await settledLeaks(baseline), []);
});

test("success row over the wire: result_json verbatim; Execute carries tool_name and arguments_json only", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: server.url });
    try {
      const response = await client.execute("echo", '{"city":"Paris","n":1}');
      assert.equal(response.resultJson, '{"city":"Paris","n":1}');
      assert.equal(response.isError, false);
      assert.deepEqual(interpretToolResponse(response), { status: "success", result: { city: "Paris", n: 1 }, resultJson: '{"city":"Paris","n":1}' });
      const empty = await client.execute("nothing", "{}");
      assert.equal(empty.resultJson, "");
      assert.deepEqual(interpretToolResponse(empty), { status: "success", result: null, resultJson: "null" });
    } finally {
      await client.close();
    }
  });
});

test("is_error row over the wire: resolves (the RPC succeeded) and maps to tool error: <msg>", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: `127.0.0.1:${server.port}` });
    try {
      const response = await client.execute("fails", "{}");
      assert.equal(response.isError, true);
      assert.equal(response.errorMessage, "city not found");
      const out = interpretToolResponse(response);
      assert.ok(out.status === "error" && out.error instanceof ToolError);
      assert.equal(out.message, "tool error: city not found");
    } finally {
      await client.close();
    }
  });
});

test("non-OK status rows over the wire: execute rejects with a GrpcStatusError in grpc-go's words", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: server.url });
    try {
      const table: [Code, string, string][] = [
        [Code.Unavailable, "UNAVAILABLE", "rpc error: code = Unavailable desc = backend down"],
        [Code.Internal, "INTERNAL", "rpc error: code = Internal desc = backend down"],
        [Code.InvalidArgument, "INVALID_ARGUMENT", "rpc error: code = InvalidArgument desc = backend down"],
        [Code.ResourceExhausted, "RESOURCE_EXHAUSTED", "rpc error: code = ResourceExhausted desc = backend down"],
        [Code.NotFound, "NOT_FOUND", "rpc error: code = NotFound desc = backend down"],
      ];
      for (const [code, name, message] of table) {
        const error = await client.execute("status", JSON.stringify({ code, message: "backend down" })).then(
          () => assert.fail("expected a rejection"),
          (e: unknown) => e,
        );
        assert.ok(error instanceof GrpcStatusError, String(error));
        assert.equal(error.code, "ERR_OMNIA_GRPC_STATUS");
        assert.equal(error.grpcCode, name);
        assert.equal(error.message, message);
        const out = interpretToolResponse(error);
        assert.ok(out.status === "error");
        assert.equal(out.message, message);
      }
    } finally {
      await client.close();
    }
  });
});

test("the backend receives exactly the metadata given: lower-cased, no x-omnia-param-*, illegal entries skipped", async () => {
  await withoutUnhandledRejections(async () => {
    const warnings: unknown[] = [];
    const client = createToolServiceClient({
      endpoint: server.url,
      logger: { debug: () => {}, info: () => {}, warn: (m, f) => warnings.push([m, f]), error: () => {} },
    });
    try {
      seen.length = 0;
      await client.execute("echo", '{"city":"Paris"}', {
        headers: {
          "x-omnia-tool-name": "echo",
          "x-omnia-tool-registry": "weather-handler",
          "x-omnia-agent-name": "travel-agent",
          "x-omnia-session-id": "sess-1",
          "x-omnia-delegation": "eyJhbGciOi.payload.sig",
          "x-omnia-namespace": "prod",
          "x-omnia-request-id": "req-9",
          "x-omnia-user-id": "u-123",
          "X-Omnia-Claim-Team": "gold",
          "x-omnia-param-City": "Paris",
          authorization: "Bearer handler-cred",
          "x-injected-auth": "secret-token",
          "x-bad-value": "two\nlines",
          "x-omnia-claim-https://example.com/roles": "admin",
        },
      });
      const ctx = seen[0]?.ctx;
      assert.ok(ctx !== undefined);
      const { "user-agent": userAgent, ...rest } = ctx.headers;
      assert.match(userAgent ?? "", /^connect-es\//);
      assert.deepEqual(rest, {
        ...TRANSPORT,
        authorization: "Bearer handler-cred",
        "x-injected-auth": "secret-token",
        "x-omnia-agent-name": "travel-agent",
        "x-omnia-claim-team": "gold",
        "x-omnia-delegation": "eyJhbGciOi.payload.sig",
        "x-omnia-namespace": "prod",
        "x-omnia-request-id": "req-9",
        "x-omnia-session-id": "sess-1",
        "x-omnia-tool-name": "echo",
        "x-omnia-tool-registry": "weather-handler",
        "x-omnia-user-id": "u-123",
      });
      assert.ok(!Object.keys(ctx.headers).some((k) => k.startsWith("x-omnia-param-")));
      assert.equal(ctx.toolName, "echo");
      assert.deepEqual(warnings, [
        ["grpc metadata: skipped an entry whose value is not a valid metadata value", { key: "x-bad-value" }],
        ["grpc metadata: skipped an entry with an illegal or reserved key", { key: "x-omnia-claim-https://example.com/roles" }],
      ]);
    } finally {
      await client.close();
    }
  });
});

test("the deadline goes on the wire as grpc-timeout, aborts the backend, and DeadlineExceeded comes back", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: server.url });
    try {
      seen.length = 0;
      const aborted = new Promise<unknown>((resolve) => (onAbortSeen = resolve));
      const error = await client.execute("hang", "{}", { timeoutMs: 150.2 }).then(
        () => assert.fail("expected a rejection"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof GrpcStatusError, String(error));
      assert.equal(error.grpcCode, "DEADLINE_EXCEEDED");
      assert.equal(error.message, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
      assert.equal(seen[0]?.ctx.headers["grpc-timeout"], "151m");
      const reason = await aborted;
      assert.ok(reason instanceof ConnectError);
      // Whichever fires first, the server's own deadline timer or the client's RST_STREAM, the backend is told.
      assert.ok([Code.DeadlineExceeded, Code.Canceled, Code.Internal].includes(reason.code), `${reason.code} ${reason.message}`);
    } finally {
      onAbortSeen = undefined;
      await client.close();
    }
  });
});

test("a deadline past connect's 8-digit milliseconds goes on the wire in a coarser unit, as grpc-go sends it, and the call works", async () => {
  const client = createToolServiceClient({ endpoint: server.url });
  try {
    // 99,999,999 ms is connect's own `99999999m`; one more is `100000S`; 48h (and a half ms) is
    // `172801S`. Past a Node timer's 24.8 days the server drops the deadline (connect's setTimeout
    // would fire after 1 ms) and the client's own deadline governs: 2,000 days, Go's longest duration.
    const cases: [number, string | undefined][] = [
      [99_999_999, "99999999m"],
      [100_000_000, "100000S"],
      [48 * 3_600_000 + 0.5, "172801S"],
      [2_147_483_000, "2147483S"],
      [2_000 * 86_400_000, undefined],
      [9_223_372_036_854, undefined],
    ];
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      for (const [timeoutMs, header] of cases) {
        seen.length = 0;
        const response = await client.execute("echo", '{"a":1}', { timeoutMs });
        assert.equal(response.resultJson, '{"a":1}');
        assert.equal(seen[0]?.ctx.headers["grpc-timeout"], header, String(timeoutMs));
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    assert.deepEqual(warnings, []);
    // The caller's signal still abandons such a call.
    seen.length = 0;
    const controller = new AbortController();
    const pending = client.execute("hang", "{}", { timeoutMs: 48 * 3_600_000, signal: controller.signal });
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(getEventListeners(controller.signal, "abort").length, 1);
    controller.abort();
    await assert.rejects(pending, { code: "ERR_OMNIA_ABORTED", message: "tool service client: the call was aborted by its signal" });
    assert.equal(getEventListeners(controller.signal, "abort").length, 0);
  } finally {
    await client.close();
  }
});

test("the caller's signal abandons the call: AbortedError (or the signal's own OmniaToolsError reason); the backend sees the cancel", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: server.url });
    try {
      for (const reason of [undefined, new TimeoutError(30_000)]) {
        seen.length = 0;
        const controller = new AbortController();
        const backendSawCancel = new Promise<unknown>((resolve) => (onAbortSeen = resolve));
        const pending = client.execute("hang", "{}", { signal: controller.signal });
        while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
        controller.abort(reason);
        const error = await pending.then(
          () => assert.fail("expected a rejection"),
          (e: unknown) => e,
        );
        if (reason === undefined) {
          assert.ok(error instanceof AbortedError, String(error));
          assert.equal(error.message, "tool service client: the call was aborted by its signal");
        } else {
          assert.equal(error, reason);
          assert.equal((error as TimeoutError).message, "timed out after 30000ms");
        }
        assert.ok((await backendSawCancel) instanceof ConnectError);
      }
      // Already aborted: nothing is sent.
      seen.length = 0;
      await assert.rejects(client.execute("echo", "{}", { signal: AbortSignal.abort() }), AbortedError);
      assert.equal(seen.length, 0);
    } finally {
      onAbortSeen = undefined;
      await client.close();
    }
  });
});

test("a bad timeoutMs is a host error, thrown before anything is sent", async () => {
  const client = createToolServiceClient({ endpoint: server.url });
  try {
    for (const t of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 9_223_372_036_855]) {
      await assert.rejects(client.execute("echo", "{}", { timeoutMs: t }), {
        code: "ERR_OMNIA_INVALID_OPTION",
        message: `tool service client: timeoutMs must be a number in (0, 9223372036854]; got ${String(t)}`,
      });
    }
  } finally {
    await client.close();
  }
});

test("listTools returns name, description and input_schema of every tool", async () => {
  const client = createToolServiceClient({ endpoint: server.url });
  try {
    const tools = await client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.description, t.inputSchema]),
      [
        ["echo", "Echoes its arguments", '{"type":"object"}'],
        ["nothing", "Returns nothing", "true"],
        ["fails", "Always a tool error", "true"],
        ["status", "Answers with the gRPC status named in its arguments", '{"type":"object","properties":{"code":{"type":"integer"},"message":{"type":"string"}},"required":["code","message"]}'],
        ["hang", "Waits until its call is cancelled or its deadline passes", "true"],
      ],
    );
  } finally {
    await client.close();
  }
});

test("one HTTP/2 connection per client, reused across calls (64 in flight included), on a router built with createToolServiceHandler", async () => {
  const sessions: http2.ServerHttp2Session[] = [];
  const routes = createToolServiceHandler({ echo: { description: "e", inputSchema: true, execute: (args) => args } });
  const h2 = http2.createServer({}, connectNodeAdapter({ routes }));
  h2.on("session", (s: http2.ServerHttp2Session) => sessions.push(s));
  await new Promise<void>((resolve) => h2.listen(0, "127.0.0.1", resolve));
  const client = createToolServiceClient({ endpoint: `127.0.0.1:${(h2.address() as AddressInfo).port}` });
  try {
    await client.execute("echo", "{}");
    await Promise.all(Array.from({ length: 64 }, (_, i) => client.execute("echo", `{"i":${i}}`)));
    const last = await client.execute("echo", '{"last":true}');
    assert.equal(last.resultJson, '{"last":true}');
    assert.equal(sessions.length, 1);
  } finally {
    await client.close();
    await new Promise<void>((resolve) => h2.close(() => resolve()));
  }
});

test("close(): idempotent, leaves no client handle, in-flight calls reject with ClosedError, later calls too", async () => {
  await withoutUnhandledRejections(async () => {
    const before = process.getActiveResourcesInfo();
    const client = createToolServiceClient({ endpoint: server.url });
    await client.execute("echo", "{}");
    seen.length = 0;
    const inFlight = client.execute("hang", "{}");
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const settled = inFlight.then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    const first = client.close();
    assert.equal(client.close(), first);
    await first;
    const error = await settled;
    assert.ok(error instanceof ClosedError, String(error));
    assert.equal(error.message, `tool service client: closed while execute was in flight; got endpoint ${server.url}`);
    await assert.rejects(client.execute("echo", "{}"), { code: "ERR_OMNIA_CLOSED", message: `tool service client: execute after close(); got endpoint ${server.url}` });
    await assert.rejects(client.listTools(), ClosedError);
    // Nothing of the client is left: its socket is closed, and so (a few loop turns later) is the server's peer.
    assert.deepEqual(await settledLeaks(before), []);
  });
});

test("a client that never called anything closes at once and leaves nothing", async () => {
  const before = process.getActiveResourcesInfo();
  const client = createToolServiceClient({ endpoint: server.url });
  await client.close();
  assert.deepEqual(await settledLeaks(before), []);
});

test("connection refused is an UNAVAILABLE status, in grpc-go's words", async () => {
  await withoutUnhandledRejections(async () => {
    const before = process.getActiveResourcesInfo();
    const client = createToolServiceClient({ endpoint: "127.0.0.1:1" });
    const error = await client.execute("echo", "{}").then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrpcStatusError);
    assert.equal(error.grpcCode, "UNAVAILABLE");
    assert.equal(error.message, "rpc error: code = Unavailable desc = connect ECONNREFUSED 127.0.0.1:1");
    await client.close();
    assert.deepEqual(await settledLeaks(before), []);
  });
});
