// omnia-tools/testing (issue #12): the loopback tool backends with fault
// injection, each fault's outcome in the real executor, the outcome assertions,
// and no handle left after close().
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "node:assert";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolOutcome } from "../src/executor/index.js";
import { HttpStatusError } from "../src/http/index.js";
import {
  assertOutcome,
  assertRecord,
  createManualClock,
  httpReply,
  MemoryRecorder,
  startGrpcToolBackend,
  startHttpToolBackend,
  toOutcomeJson,
  type GrpcFault,
  type HttpFault,
  type ManualClock,
} from "../src/testing.js";
import { settle } from "./helpers/settle.js";
import { leakedResources, resourceBaseline } from "./helpers/resources.js";

const START = Date.UTC(2026, 0, 2, 3, 4, 5);

function httpRegistry(endpoint: string, extra = "", handlerExtra = "") {
  return loadToolRegistry(`
handlers:
  - name: h
    type: http
${handlerExtra}
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${endpoint}
${extra}
`);
}

function grpcRegistry(endpoint: string, extra = "", handlerExtra = "") {
  return loadToolRegistry(`
handlers:
  - name: g
    type: grpc
${handlerExtra}
    tool: { name: echo, description: d, inputSchema: { type: object } }
    grpcConfig:
      endpoint: "${endpoint}"
${extra}
`);
}

function executorFor(registry: ReturnType<typeof loadToolRegistry>, clock: ManualClock = createManualClock(START)) {
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry, clock, recorder, random: () => 0.5 });
  return { executor, clock, recorder };
}

/** Lets the event loop turn (no timers) until `cond` holds. */
async function until(cond: () => boolean, turns = 5000): Promise<void> {
  for (let i = 0; i < turns && !cond(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(cond(), "condition not reached");
}

const ECHO = { echo: { description: "Echoes its arguments", inputSchema: { type: "object" }, execute: (args: unknown) => args } } as const;

describe("startHttpToolBackend: routes and recording", () => {
  test("routes answer JSON per path and method, a prefix matches, an unknown path is 404; every request is recorded", async () => {
    const backend = await startHttpToolBackend({
      routes: {
        "GET /weather": (req) => ({ city: req.query["city"] ?? null, tempC: 21 }),
        "POST /weather": httpReply({ status: 405, text: "use GET" }),
        "/static": { fixed: true },
        "/convert/*": (req) => ({ path: req.path }),
        "/convert/EUR/USD": { exact: true },
      },
    });
    try {
      const get = async (path: string, init?: RequestInit) => {
        const res = await fetch(`${backend.url}${path}`, init);
        return [res.status, res.headers.get("content-type"), await res.text()];
      };
      assert.deepEqual(await get("/weather?city=Paris&units=metric&units=imperial"), [200, "application/json", '{"city":"Paris","tempC":21}']);
      assert.deepEqual(await get("/weather", { method: "POST", body: '{"city":"Oslo"}', headers: { "x-omnia-tool-name": "get_weather" } }), [405, "text/plain; charset=utf-8", "use GET"]);
      assert.deepEqual(await get("/static", { method: "PUT" }), [200, "application/json", '{"fixed":true}']);
      assert.deepEqual(await get("/convert/GBP/JPY"), [200, "application/json", '{"path":"/convert/GBP/JPY"}']);
      assert.deepEqual(await get("/convert/EUR/USD"), [200, "application/json", '{"exact":true}']);
      assert.deepEqual(await get("/nowhere"), [404, "application/json", '{"error":"no route for GET /nowhere"}']);

      const first = backend.requests[0];
      assert.ok(first);
      assert.equal(first.route, "GET /weather");
      assert.equal(first.call, 1);
      assert.equal(first.method, "GET");
      assert.equal(first.url, "/weather?city=Paris&units=metric&units=imperial");
      assert.equal(first.path, "/weather");
      assert.deepEqual(first.query, { city: "Paris", units: ["metric", "imperial"] });
      assert.equal(first.body, "");
      assert.equal(first.json, undefined);
      const post = backend.requests[1];
      assert.equal(post?.route, "POST /weather");
      assert.equal(post?.body, '{"city":"Oslo"}');
      assert.deepEqual(post?.json, { city: "Oslo" });
      assert.equal(post?.headers["x-omnia-tool-name"], "get_weather");
      assert.deepEqual(
        backend.requests.map((r) => r.route ?? null),
        ["GET /weather", "POST /weather", "/static", "/convert/*", "/convert/EUR/USD", null],
      );
      assert.equal(backend.count(), 6);
      assert.equal(backend.count("GET /weather"), 1);
      assert.equal(backend.count("/convert/*"), 1);
      assert.equal(backend.count(null), 1);
      assert.equal(backend.count("/unused"), 0);
    } finally {
      await backend.close();
    }
  });

  test("a route function that throws answers 500 with its message", async () => {
    const backend = await startHttpToolBackend({
      routes: {
        "/boom": () => {
          throw new Error("kaput");
        },
      },
    });
    const { executor } = executorFor(httpRegistry(`${backend.url}/boom`));
    assertOutcome(await executor.execute({ id: "c1", name: "t", arguments: "{}" }), { status: "error", message: "HTTP 500: kaput" });
    await executor.close();
    await backend.close();
  });

  test("malformed routes and faults are refused with the offending value", async () => {
    await assert.rejects(startHttpToolBackend({ routes: { "weather": {} } }), {
      name: "TypeError",
      message: 'startHttpToolBackend: a route key is "<METHOD> /path" or "/path" (a trailing * matches a prefix); got "weather"',
    });
    await assert.rejects(startHttpToolBackend({ routes: { "/t": {} }, faults: { "/t": { kind: "explode" } as unknown as HttpFault } }), {
      name: "TypeError",
      message:
        'startHttpToolBackend: faults["/t"].kind: expected one of latency, status, reset-before-headers, reset-mid-body, hang, oversized-body, invalid-json, invalid-utf8; got "explode"',
    });
    await assert.rejects(startHttpToolBackend({ routes: { "/t": {} }, faults: { "/t": [{ kind: "status", status: [] }] } }), {
      message: 'startHttpToolBackend: faults["/t"][0].status: expected a status or a non-empty list of statuses in [200, 999]; got []',
    });
    await assert.rejects(startHttpToolBackend({ routes: { "/t": {} }, faults: { "/t": { kind: "hang", calls: [0] } } }), {
      message: 'startHttpToolBackend: faults["/t"].calls: expected a list of call numbers (integers from 1); got [0]',
    });
    assert.throws(() => httpReply({ json: 1, text: "1" }), { message: "httpReply: give at most one of json, text and bytes; got json, text" });
  });
});

describe("each HTTP fault gives the documented outcome in the executor", () => {
  async function run(fault: HttpFault, handlerExtra = "") {
    const backend = await startHttpToolBackend({ routes: { "/t": { ok: true } }, faults: { "/t": fault } });
    const { executor, clock, recorder } = executorFor(httpRegistry(`${backend.url}/t`, "", handlerExtra));
    const outcome = await settle(executor.execute({ id: "c1", name: "t", arguments: "{}" }), clock);
    await executor.close();
    await backend.close();
    return { outcome, recorder, backend };
  }

  test("status: HTTP <status>: <status text>, or the given body", async () => {
    const { outcome, recorder } = await run({ kind: "status", status: 503 });
    assertOutcome(outcome, { status: "error", message: "HTTP 503: Service Unavailable", error: { name: "HttpStatusError", code: "ERR_OMNIA_HTTP_STATUS" } });
    assertRecord(recorder.records[0], { status: "error", errorMessage: "HTTP 503: Service Unavailable", attempts: 1 });
    assertOutcome((await run({ kind: "status", status: 429, body: "slow down" })).outcome, { status: "error", message: "HTTP 429: slow down" });
  });

  test("status sequence: 503, 503, then the route, through the retry policy (3 attempts)", async () => {
    const backend = await startHttpToolBackend({ routes: { "/t": { ok: true } }, faults: { "/t": { kind: "status", status: [503, 503] } } });
    const { executor, clock, recorder } = executorFor(httpRegistry(`${backend.url}/t`, "      retryPolicy: { maxAttempts: 3, initialBackoff: 100ms }"));
    const outcome = await settle(executor.execute({ id: "c1", name: "t", arguments: "{}" }), clock);
    assertOutcome(outcome, { status: "success", result: { ok: true }, resultJson: '{"ok":true}' });
    assertRecord(recorder.records[0], { status: "success", attempts: 3 });
    assert.equal(backend.count("/t"), 3);
    // Past the sequence, the route answers.
    assertOutcome(await executor.execute({ id: "c2", name: "t", arguments: "{}" }), { status: "success" });
    await executor.close();
    await backend.close();
  });

  test("a 2xx entry in a sequence lets the route answer; calls scopes a fault to call numbers", async () => {
    const backend = await startHttpToolBackend({
      routes: { "/t": { ok: true } },
      faults: { "/t": [{ kind: "status", status: [500, 200, 502] }, { kind: "invalid-json", calls: [4] }] },
    });
    const { executor } = executorFor(httpRegistry(`${backend.url}/t`));
    const messages: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const out = await executor.execute({ id: `c${i}`, name: "t", arguments: "{}" });
      messages.push(out.status === "error" ? out.message : out.status === "success" ? out.resultJson : out.status);
    }
    assert.deepEqual(messages, ["HTTP 500: Internal Server Error", '{"ok":true}', "HTTP 502: Bad Gateway", '{"result":"{\\"result\\": \\"unterminated"}', '{"ok":true}']);
    await executor.close();
    await backend.close();
  });

  test("reset-before-headers: a transport error, connection reset by peer", async () => {
    const { outcome, backend } = await run({ kind: "reset-before-headers" });
    const message = `Post "${backend.url}/t": read tcp 127.0.0.1:${backend.port}: connection reset by peer`;
    assertOutcome(outcome, { status: "error", message, error: { name: "HttpTransportError", code: "ERR_OMNIA_TRANSPORT" } });
  });

  test("reset-mid-body: the body breaks off after the headers", async () => {
    const { outcome } = await run({ kind: "reset-mid-body", afterBytes: 5 });
    assertOutcome(outcome, { status: "error", message: "reading response body: other side closed", error: { code: "ERR_OMNIA_TRANSPORT" } });
    assert.equal(outcome.status === "error" && (outcome.error as { status?: number }).status, 200);
  });

  test("hang: the handler's timeout, on the executor's clock", async () => {
    const { outcome, recorder } = await run({ kind: "hang" }, "    timeout: 250ms");
    assertOutcome(outcome, { status: "error", message: "timed out after 250ms", error: { name: "TimeoutError", code: "ERR_OMNIA_TIMEOUT" } });
    assertRecord(recorder.records[0], { status: "error", errorMessage: "timed out after 250ms", attempts: 1 });
  });

  test("latency on the backend's clock: under the timeout it answers, over it the call times out", async () => {
    const clock = createManualClock(START);
    const backend = await startHttpToolBackend({ routes: { "/t": { ok: true } }, faults: { "/t": [{ kind: "latency", ms: 400, calls: [1] }, { kind: "latency", ms: 1500, calls: [2] }] }, clock });
    const { executor } = executorFor(httpRegistry(`${backend.url}/t`, "", "    timeout: 1s"), clock);
    const fast = executor.execute({ id: "c1", name: "t", arguments: "{}" });
    await until(() => backend.count() === 1);
    clock.advance(400);
    assertOutcome(await fast, { status: "success", durationMs: 400, resultJson: '{"ok":true}' });
    const slow = executor.execute({ id: "c2", name: "t", arguments: "{}" });
    await until(() => backend.count() === 2);
    clock.advance(1000);
    assertOutcome(await slow, { status: "error", message: "timed out after 1000ms", durationMs: 1000 });
    await executor.close();
    await backend.close();
  });

  test("oversized-body: the first 10 MiB, wrapped, truncated: true", async () => {
    const { outcome } = await run({ kind: "oversized-body" });
    assert.equal(outcome.status, "success");
    if (outcome.status !== "success") return;
    assert.equal(outcome.truncated, true);
    const text = (outcome.result as { result: string }).result;
    assert.equal(text.length, 10 * 1024 * 1024);
    assert.equal(text.slice(0, 12), '{"data":"xxx');
    assert.equal(outcome.resultJson.slice(0, 20), '{"result":"{\\"data\\"');
  });

  test("invalid-json: success, the body wrapped as {\"result\": ...}", async () => {
    const { outcome } = await run({ kind: "invalid-json", body: "{nope" });
    assertOutcome(outcome, { status: "success", result: { result: "{nope" }, resultJson: '{"result":"{nope"}', truncated: undefined });
  });

  test("invalid-utf8: success, each bad byte read as U+FFFD", async () => {
    const { outcome } = await run({ kind: "invalid-utf8" });
    assertOutcome(outcome, { status: "success", result: { text: "caf\uFFFD \uFFFD" }, resultJson: '{"text":"caf\uFFFD \uFFFD"}' });
  });

  test("setFaults and clearFaults change the faults between calls", async () => {
    const backend = await startHttpToolBackend({ routes: { "/t": { ok: true } } });
    const { executor } = executorFor(httpRegistry(`${backend.url}/t`));
    backend.setFaults("/t", { kind: "status", status: 404, body: "gone" });
    assertOutcome(await executor.execute({ id: "c1", name: "t", arguments: "{}" }), { status: "error", message: "HTTP 404: gone" });
    backend.setFaults("*", { kind: "status", status: 500, body: "all down" });
    assertOutcome(await executor.execute({ id: "c2", name: "t", arguments: "{}" }), { status: "error", message: "HTTP 404: gone" });
    backend.setFaults("/t", []);
    assertOutcome(await executor.execute({ id: "c3", name: "t", arguments: "{}" }), { status: "error", message: "HTTP 500: all down" });
    backend.clearFaults();
    assertOutcome(await executor.execute({ id: "c4", name: "t", arguments: "{}" }), { status: "success" });
    await executor.close();
    await backend.close();
  });
});

describe("startGrpcToolBackend: each fault gives the documented outcome", () => {
  async function withBackend(faults: Record<string, GrpcFault | GrpcFault[]>, body: (ex: ToolExecutor, clock: ManualClock, recorder: MemoryRecorder, count: () => number) => Promise<void>, extra = "", handlerExtra = "") {
    const backend = await startGrpcToolBackend(ECHO, { faults });
    const { executor, clock, recorder } = executorFor(grpcRegistry(backend.endpoint, extra, handlerExtra));
    try {
      await body(executor, clock, recorder, () => backend.count("echo"));
    } finally {
      await executor.close();
      await backend.close();
    }
  }
  const call = (ex: ToolExecutor, clock: ManualClock, id = "c1"): Promise<ToolOutcome> => settle(ex.execute({ id, name: "echo", arguments: '{"a":1}' }), clock);

  test("UNAVAILABLE then OK, retried by retryableStatusCodes: success on attempt 2", async () => {
    await withBackend(
      { echo: { kind: "status", code: ["UNAVAILABLE"] } },
      async (ex, clock, recorder, count) => {
        assertOutcome(await call(ex, clock), { status: "success", result: { a: 1 }, resultJson: '{"a":1}' });
        assertRecord(recorder.records[0], { status: "success", attempts: 2 });
        assert.equal(count(), 2);
      },
      "      retryPolicy: { maxAttempts: 3, retryableStatusCodes: [UNAVAILABLE] }",
    );
  });

  test("a status sequence without retries: UNAVAILABLE, DEADLINE_EXCEEDED, then the tool", async () => {
    await withBackend({ echo: { kind: "status", code: ["UNAVAILABLE", "DEADLINE_EXCEEDED"], message: "backend restarting" } }, async (ex, clock) => {
      assertOutcome(await call(ex, clock, "c1"), { status: "error", message: "gRPC tool execution failed: rpc error: code = Unavailable desc = backend restarting", error: { name: "GrpcStatusError", code: "ERR_OMNIA_GRPC_STATUS" } });
      assertOutcome(await call(ex, clock, "c2"), { status: "error", message: "gRPC tool execution failed: rpc error: code = DeadlineExceeded desc = backend restarting" });
      assertOutcome(await call(ex, clock, "c3"), { status: "success", resultJson: '{"a":1}' });
    });
  });

  test("is-error: tool error: <message>, not retried", async () => {
    await withBackend(
      { echo: { kind: "is-error", message: "no such order" } },
      async (ex, clock, recorder, count) => {
        assertOutcome(await call(ex, clock), { status: "error", message: "tool error: no such order", error: { name: "ToolError", code: "ERR_OMNIA_TOOL_ERROR" } });
        assertRecord(recorder.records[0], { attempts: 1 });
        assert.equal(count(), 1);
      },
      "      retryPolicy: { maxAttempts: 3, retryableStatusCodes: [UNAVAILABLE, UNKNOWN, INTERNAL] }",
    );
  });

  test("hang: the handler's timeout", async () => {
    await withBackend({ echo: { kind: "hang" } }, async (ex, clock) => {
      assertOutcome(await call(ex, clock), { status: "error", message: "timed out after 300ms", error: { code: "ERR_OMNIA_TIMEOUT" } });
    }, "", "    timeout: 300ms");
  });

  test("latency on the backend's clock, and the calls are recorded with their metadata", async () => {
    const clock = createManualClock(START);
    const backend = await startGrpcToolBackend(ECHO, { faults: { "*": { kind: "latency", ms: 700 } }, clock });
    const { executor } = executorFor(grpcRegistry(backend.endpoint, "", "    timeout: 1s"), clock);
    const pending = executor.execute({ id: "c1", name: "echo", arguments: '{"a":2}' }, { identity: { userId: "u-7" } });
    await until(() => backend.count() === 1);
    clock.advance(700);
    assertOutcome(await pending, { status: "success", resultJson: '{"a":2}', durationMs: 700 });
    const seen = backend.calls[0];
    assert.equal(seen?.toolName, "echo");
    assert.equal(seen?.call, 1);
    assert.deepEqual(seen?.args, { a: 2 });
    assert.equal(seen?.headers["x-omnia-tool-name"], "echo");
    assert.equal(seen?.headers["x-omnia-user-id"], "u-7");
    await executor.close();
    await backend.close();
  });

  test("faults for a tool that is not served, or malformed, are refused", async () => {
    await assert.rejects(startGrpcToolBackend(ECHO, { faults: { ech0: { kind: "hang" } } }), {
      name: "TypeError",
      message: 'startGrpcToolBackend: faults for "ech0", a tool this backend does not serve; serving echo',
    });
    await assert.rejects(startGrpcToolBackend(ECHO, { faults: { echo: { kind: "status", code: "UNAVAILBLE" } as unknown as GrpcFault } }), {
      message: 'startGrpcToolBackend: faults["echo"].code: expected a gRPC status name (UNAVAILABLE, DEADLINE_EXCEEDED, ...) or a non-empty list of them; got "UNAVAILBLE"',
    });
  });
});

describe("close() leaves no handle", () => {
  test("after calls, a pending hang and a pending real-clock latency", async () => {
    const baseline = resourceBaseline();
    const http = await startHttpToolBackend({
      routes: { "/ok": { ok: true }, "/hang": {}, "/slow": {} },
      faults: { "/hang": { kind: "hang" }, "/slow": { kind: "latency", ms: 60_000 } },
    });
    const grpc = await startGrpcToolBackend(ECHO, { faults: { echo: { kind: "hang", calls: [2] } } });
    const ok = await fetch(`${http.url}/ok`);
    assert.equal(await ok.text(), '{"ok":true}');
    const hanging = fetch(`${http.url}/hang`).then(
      () => "answered",
      () => "ended",
    );
    const slow = fetch(`${http.url}/slow`).then(
      () => "answered",
      () => "ended",
    );
    const { executor, clock } = executorFor(grpcRegistry(grpc.endpoint));
    assertOutcome(await executor.execute({ id: "c1", name: "echo", arguments: "{}" }), { status: "success" });
    const grpcHang = executor.execute({ id: "c2", name: "echo", arguments: "{}" });
    await until(() => http.count() === 3 && grpc.count() === 2);
    await Promise.all([http.close(), grpc.close()]);
    assert.equal(await hanging, "ended");
    assert.equal(await slow, "ended");
    assertOutcome(await grpcHang, { status: "error", error: { code: "ERR_OMNIA_GRPC_STATUS" } });
    await executor.close();
    assert.equal(clock.pendingTimers(), 0);
    // close() twice is harmless.
    await http.close();
    await grpc.close();
    assert.deepEqual(await leakedResources(baseline), []);
  });
});

describe("assertOutcome and assertRecord", () => {
  const error = new HttpStatusError(503, "down");
  const outcome = { status: "error", message: "HTTP 503: down", error, toolName: "t", callId: "c1", handlerType: "http", durationMs: 12 } as const;

  test("a match passes: only the given fields are compared, error fields partially", () => {
    assertOutcome(outcome, { status: "error", message: "HTTP 503: down" });
    assertOutcome(outcome, { error: { code: "ERR_OMNIA_HTTP_STATUS" } });
    assertOutcome(outcome, { durationMs: 12, reason: undefined });
  });

  test("a mismatch throws an AssertionError with a line diff, the other fields as context", () => {
    let thrown: unknown;
    try {
      assertOutcome(outcome, { status: "success", error: { code: "ERR_OMNIA_TIMEOUT" } });
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof AssertionError);
    assert.equal(
      thrown.message,
      [
        "assertOutcome: the outcome differs (- expected, + actual):",
        "  {",
        '-   "status": "success",',
        '+   "status": "error",',
        '    "message": "HTTP 503: down",',
        '    "error": {',
        '-     "code": "ERR_OMNIA_TIMEOUT",',
        '+     "code": "ERR_OMNIA_HTTP_STATUS",',
        '      "message": "HTTP 503: down",',
        '      "name": "HttpStatusError"',
        "    },",
        '    "toolName": "t",',
        '    "callId": "c1",',
        '    "handlerType": "http"',
        "  }",
      ].join("\n"),
    );
  });

  test("an expected-absent field, a long string cut in the diff, and a custom label", () => {
    const long = { status: "success", result: "y".repeat(500), resultJson: "x", truncated: true } as const;
    assert.throws(() => assertOutcome(long, { truncated: undefined, resultJson: "x" }, "big call"), {
      message: [
        "big call: the outcome differs (- expected, + actual):",
        "  {",
        '    "status": "success",',
        `    "result": "${"y".repeat(200)}… (500 chars)",`,
        '-   "resultJson": "x"',
        '+   "resultJson": "x",',
        '+   "truncated": true',
        "  }",
      ].join("\n"),
    });
  });

  test("assertRecord ignores startedAt and durationMs unless given", () => {
    const record = { callId: "c1", toolName: "t", handlerName: "h", handlerType: "http", execution: "server", status: "denied", arguments: {}, errorMessage: "no", startedAt: 5, durationMs: 1, attempts: 0 } as const;
    assertRecord(record, { status: "denied", attempts: 0 });
    assert.throws(() => assertRecord(record, { attempts: 1 }), (e: unknown) => e instanceof AssertionError && e.message.includes('-   "attempts": 1\n+   "attempts": 0') && !e.message.includes("startedAt"));
    assert.throws(() => assertRecord(undefined, { status: "success" }), { message: "assertRecord: expected a record; got undefined" });
  });

  test("toOutcomeJson turns the error into { name, code, message }", () => {
    assert.deepEqual(toOutcomeJson(outcome), {
      status: "error",
      message: "HTTP 503: down",
      error: { name: "HttpStatusError", code: "ERR_OMNIA_HTTP_STATUS", message: "HTTP 503: down" },
      toolName: "t",
      callId: "c1",
      handlerType: "http",
      durationMs: 12,
    });
  });
});
