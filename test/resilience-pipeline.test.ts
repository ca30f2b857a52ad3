// The retry → [attempt timeout → breaker → backend] composition the registry's executor pipeline will use
// (STYLE §3.5, runtime-tools.md §2.5), exercised with fake HTTP, gRPC and MCP backends on a manual clock.
// Covers runtime-tools.md R10–R24 and B14–B18, and http.md §4.4 T1, T3–T6, T19, T20.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createCircuitBreakers, CircuitOpenError } from "../src/breaker/index.js";
import type { CircuitBreakers } from "../src/breaker/index.js";
import {
  classifyGrpcStatus,
  classifyHttpError,
  classifyHttpStatus,
  DEFAULT_GRPC_RETRYABLE_STATUS_CODES,
  DEFAULT_HTTP_RETRY_RULES,
  RetriesExhaustedError,
  runAttempt,
  runWithRetry,
} from "../src/retry/index.js";
import type { AttemptOutcome, AttemptSettlement, HttpRetryRules, RetryPolicyOptions, RetryResult } from "../src/retry/index.js";
import { createManualClock } from "../src/testing/index.js";
import type { ManualClock } from "../src/testing/index.js";

type Interpret<R, T> = (settled: AttemptSettlement<R>) => { breaker: "success" | "failure"; outcome: AttemptOutcome<T> };

interface Setup<R, T> {
  clock: ManualClock;
  breakers: CircuitBreakers;
  backend: (signal: AbortSignal) => Promise<R>;
  interpret: Interpret<R, T>;
  policy?: RetryPolicyOptions;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One tool call through the pipeline. Counts backend invocations. */
function callTool<R, T>(setup: Setup<R, T>): { result: Promise<RetryResult<T>>; requests: () => number } {
  let requests = 0;
  const { clock, breakers } = setup;
  const result = runWithRetry<T>(
    async ({ signal }) => {
      const ticket = breakers.get("t").admit(); // a CircuitOpenError thrown here ends the call, unretried
      const settled = await runAttempt(
        (s) => {
          requests++;
          return setup.backend(s);
        },
        { clock, timeoutMs: setup.timeoutMs ?? 30_000, ...(signal === undefined ? {} : { signal }) },
      );
      if (settled.kind === "abandoned") {
        ticket.abandon();
        return { kind: "abandoned", error: settled.error };
      }
      const { breaker, outcome } = setup.interpret(settled);
      if (breaker === "success") ticket.success();
      else ticket.failure();
      return outcome;
    },
    { policy: setup.policy ?? {}, clock, random: () => 0.5, ...(setup.signal === undefined ? {} : { signal: setup.signal }) },
  );
  return { result, requests: () => requests };
}

/** Advances the manual clock until the promise settles. */
async function settle<T>(clock: ManualClock, promise: Promise<T>, stepMs = 100): Promise<T> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10_000 && !done; i++) await clock.advanceAsync(stepMs);
  return promise;
}

// ---- HTTP ----

interface HttpReply {
  status: number;
  body: string;
  retryAfter?: string;
}

const http =
  (clock: ManualClock, rules: HttpRetryRules = DEFAULT_HTTP_RETRY_RULES): Interpret<HttpReply, string> =>
  (settled) => {
    if (settled.kind === "success") {
      const { status, body, retryAfter } = settled.value;
      if (status >= 200 && status < 300) return { breaker: "success", outcome: { kind: "success", value: body } };
      // 4xx is not a breaker failure: the backend answered; the request was wrong.
      return {
        breaker: status >= 400 && status < 500 ? "success" : "failure",
        outcome: { kind: "failure", error: new Error(`HTTP ${status}: ${body}`), ...classifyHttpStatus(status, retryAfter, rules, clock.now()) },
      };
    }
    // A transport error or a per-attempt timeout: a breaker failure, retried if network-class.
    const error = (settled as { error: Error }).error;
    return { breaker: "failure", outcome: { kind: "failure", error, ...classifyHttpError(error, rules) } };
  };

const replies = (...list: HttpReply[]) => {
  let i = 0;
  return async () => list[Math.min(i++, list.length - 1)] as HttpReply;
};
const refused = async (): Promise<never> => {
  throw Object.assign(new Error("Post \"http://127.0.0.1:1/\": dial tcp 127.0.0.1:1: connect: connection refused"), { code: "ECONNREFUSED" });
};

function setupHttp() {
  const clock = createManualClock(Date.UTC(2026, 10, 29));
  return { clock, breakers: createCircuitBreakers({ clock }) };
}

test("T1/R10: 502, 502, then 200 with retryOn [502], max 3: 3 requests and the 200's body", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({
    clock,
    breakers,
    backend: replies({ status: 502, body: "bad gateway" }, { status: 502, body: "bad gateway" }, { status: 200, body: '{"result":"ok"}' }),
    interpret: http(clock, { ...DEFAULT_HTTP_RETRY_RULES, retryOn: [502] }),
    policy: { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 100 },
  });
  assert.deepEqual(await settle(clock, call.result), { status: "success", value: '{"result":"ok"}', attempts: 3 });
  assert.equal(call.requests(), 3);
});

test("T3/R11: always 400 with retryOn [502, 503]: 1 request, `HTTP 400` unwrapped", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({
    clock,
    breakers,
    backend: replies({ status: 400, body: "bad request" }),
    interpret: http(clock, { ...DEFAULT_HTTP_RETRY_RULES, retryOn: [502, 503] }),
    policy: { maxAttempts: 3 },
  });
  const result = await settle(clock, call.result);
  assert.equal(result.status === "failure" && result.error.message, "HTTP 400: bad request");
  assert.equal(call.requests(), 1);
});

test("T4: always 502 with retryOn [502], max 3: 3 requests, `3 attempts exhausted: HTTP 502: bad gateway`", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({
    clock,
    breakers,
    backend: replies({ status: 502, body: "bad gateway" }),
    interpret: http(clock, { ...DEFAULT_HTTP_RETRY_RULES, retryOn: [502] }),
    policy: { maxAttempts: 3 },
  });
  const result = await settle(clock, call.result);
  assert.ok(result.status === "failure" && result.error instanceof RetriesExhaustedError);
  assert.equal(result.error.message, "3 attempts exhausted: HTTP 502: bad gateway");
  assert.equal(call.requests(), 3);
  assert.equal(breakers.get("t").snapshot().failures, 3); // each attempt is its own breaker event
});

test("T5: no retryPolicy, 503: 1 request, the error ends with `HTTP 503: …` and is not wrapped", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({ clock, breakers, backend: replies({ status: 503, body: "down" }), interpret: http(clock) });
  const result = await settle(clock, call.result);
  assert.equal(result.status === "failure" && result.error.message, "HTTP 503: down");
  assert.equal(call.requests(), 1);
});

test("R14/R15 (T6): connection refused is retried only with retryOnNetworkError", async () => {
  for (const [retryOnNetworkError, requests] of [
    [false, 1],
    [true, 3],
  ] as const) {
    const { clock, breakers } = setupHttp();
    const call = callTool({
      clock,
      breakers,
      backend: refused,
      interpret: http(clock, { ...DEFAULT_HTTP_RETRY_RULES, retryOnNetworkError }),
      policy: { maxAttempts: 3 },
    });
    const result = await settle(clock, call.result);
    assert.equal(call.requests(), requests);
    const message = result.status === "failure" ? result.error.message : "";
    assert.equal(
      message,
      `${retryOnNetworkError ? "3 attempts exhausted: " : ""}Post "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: connection refused`,
    );
  }
});

test("R16: retryOn explicitly [] with a 503, max 3: 1 attempt", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({
    clock,
    breakers,
    backend: replies({ status: 503, body: "" }),
    interpret: http(clock, { ...DEFAULT_HTTP_RETRY_RULES, retryOn: [] }),
    policy: { maxAttempts: 3 },
  });
  const result = await settle(clock, call.result);
  assert.equal(result.status === "failure" && result.error.message, "HTTP 503: ");
  assert.equal(call.requests(), 1);
});

test("R12/R13: 503 with Retry-After 5 waits 5 s; Retry-After 60 with maxBackoff 2 s waits 2 s", async () => {
  for (const [retryAfter, maxBackoffMs, waited] of [
    ["5", 30_000, 5_000],
    ["60", 2_000, 2_000],
  ] as const) {
    const { clock, breakers } = setupHttp();
    const times: number[] = [];
    const inner = replies({ status: 503, body: "", retryAfter }, { status: 200, body: "{}" });
    const call = callTool({
      clock,
      breakers,
      backend: () => {
        times.push(clock.now());
        return inner();
      },
      interpret: http(clock),
      policy: { maxAttempts: 3, maxBackoffMs },
    });
    await settle(clock, call.result);
    assert.equal((times[1] as number) - (times[0] as number), waited);
  }
});

test("T19: always 502 without retries: after 10 calls the next fails without reaching the backend", async () => {
  const { clock, breakers } = setupHttp();
  let requests = 0;
  const backend = async () => {
    requests++;
    return { status: 502, body: "bad gateway" };
  };
  for (let i = 0; i < 10; i++) {
    const result = await settle(clock, callTool({ clock, breakers, backend, interpret: http(clock) }).result);
    assert.equal(result.status === "failure" && result.error.message, "HTTP 502: bad gateway");
  }
  const result = await settle(clock, callTool({ clock, breakers, backend, interpret: http(clock) }).result);
  assert.ok(result.status === "failure" && result.error instanceof CircuitOpenError);
  assert.equal(result.error.message, "circuit breaker [t]: circuit breaker is open");
  assert.equal(requests, 10);
});

test("T20: always 400: 12 calls all reach the backend and the breaker stays closed", async () => {
  const { clock, breakers } = setupHttp();
  let requests = 0;
  const backend = async () => {
    requests++;
    return { status: 400, body: "bad request" };
  };
  for (let i = 0; i < 12; i++) await settle(clock, callTool({ clock, breakers, backend, interpret: http(clock) }).result);
  assert.equal(requests, 12);
  assert.equal(breakers.get("t").state, "closed");
});

test("R23: with 9 prior failures, attempt 1's 503 opens the breaker; attempts 2–3 are not made and the breaker error is returned", async () => {
  const { clock, breakers } = setupHttp();
  for (let i = 0; i < 9; i++) breakers.get("t").admit().failure();
  const call = callTool({
    clock,
    breakers,
    backend: replies({ status: 503, body: "unavailable" }),
    interpret: http(clock, { ...DEFAULT_HTTP_RETRY_RULES, retryOn: [503] }),
    policy: { maxAttempts: 3 },
  });
  const result = await settle(clock, call.result);
  assert.ok(result.status === "failure" && result.error instanceof CircuitOpenError);
  assert.equal(result.error.message, "circuit breaker [t]: circuit breaker is open");
  assert.equal(result.attempts, 2); // attempt 2 was rejected by the breaker and ended the call
  assert.equal(call.requests(), 1);
});

test("R24: 429, 429, then 200 with the default retryOn: 3 requests, success, and no breaker failure", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({
    clock,
    breakers,
    backend: replies({ status: 429, body: "" }, { status: 429, body: "" }, { status: 200, body: "[]" }),
    interpret: http(clock),
    policy: { maxAttempts: 3 },
  });
  assert.deepEqual(await settle(clock, call.result), { status: "success", value: "[]", attempts: 3 });
  assert.equal(call.requests(), 3);
  assert.deepEqual([breakers.get("t").snapshot().calls, breakers.get("t").snapshot().failures], [3, 0]);
});

test("B17: a backend slower than the 1 s timeout: 10 timeouts of 1 s each open the breaker; the 11th call fails at once", async () => {
  const { clock, breakers } = setupHttp();
  let requests = 0;
  const slow = (signal: AbortSignal) => {
    requests++;
    return new Promise<HttpReply>((resolve, reject) => {
      const timer = clock.setTimeout(() => resolve({ status: 200, body: "{}" }), 5_000);
      signal.addEventListener("abort", () => {
        timer.clear();
        reject(signal.reason as Error);
      });
    });
  };
  for (let i = 0; i < 10; i++) {
    const start = clock.now();
    const result = await settle(clock, callTool({ clock, breakers, backend: slow, interpret: http(clock), timeoutMs: 1_000 }).result);
    assert.equal(result.status === "failure" && result.error.message, "timed out after 1000ms");
    assert.equal(clock.now() - start, 1_000);
  }
  assert.equal(breakers.get("t").state, "open");
  const start = clock.now();
  const call = callTool({ clock, breakers, backend: slow, interpret: http(clock), timeoutMs: 1_000 });
  const result = await call.result; // no clock advance needed: it fails at once
  assert.equal(clock.now(), start);
  assert.equal(result.status === "failure" && result.error.message, "circuit breaker [t]: circuit breaker is open");
  assert.equal(requests, 10);
  assert.equal(clock.pendingTimers(), 0);
});

test("B18 (API.md): a caller abort mid-attempt rejects the call, is not recorded by the breaker, and leaves no timer", async () => {
  const { clock, breakers } = setupHttp();
  for (let i = 0; i < 9; i++) breakers.get("t").admit().failure();
  const caller = new AbortController();
  const call = callTool({
    clock,
    breakers,
    backend: (signal) => new Promise<HttpReply>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error))),
    interpret: http(clock),
    policy: { maxAttempts: 3 },
    signal: caller.signal,
  });
  await clock.advanceAsync(10);
  caller.abort(new Error("conversation ended"));
  await assert.rejects(call.result, { code: "ERR_OMNIA_ABORTED", message: "attempt: the caller's signal aborted" });
  assert.deepEqual([breakers.get("t").snapshot().calls, breakers.get("t").snapshot().consecutiveFailures], [9, 9]);
  assert.equal(clock.pendingTimers(), 0);
});

// ---- gRPC ----

type GrpcReply = { isError: boolean; resultJson: string; errorMessage: string };

const grpc =
  (codes: readonly string[] = DEFAULT_GRPC_RETRYABLE_STATUS_CODES): Interpret<GrpcReply, string> =>
  (settled) => {
    if (settled.kind === "success") {
      const r = settled.value;
      // is_error=true: the RPC succeeded (a breaker success); the tool error is produced outside the breaker.
      if (r.isError) return { breaker: "success", outcome: { kind: "failure", error: new Error(`tool error: ${r.errorMessage}`), retryable: false } };
      return { breaker: "success", outcome: { kind: "success", value: r.resultJson === "" ? "null" : r.resultJson } };
    }
    const error = (settled as { error: Error & { grpcCode?: number } }).error;
    return { breaker: "failure", outcome: { kind: "failure", error, ...classifyGrpcStatus(error.grpcCode, codes) } };
  };

const status = (grpcCode: number, message: string) => Object.assign(new Error(message), { grpcCode });
const grpcSequence = (...steps: (GrpcReply | Error)[]) => {
  let i = 0;
  return async (): Promise<GrpcReply> => {
    const step = steps[Math.min(i++, steps.length - 1)] as GrpcReply | Error;
    if (step instanceof Error) throw step;
    return step;
  };
};
const OK: GrpcReply = { isError: false, resultJson: '{"ok":true}', errorMessage: "" };

test("R17: gRPC UNAVAILABLE ×2 then OK with codes [UNAVAILABLE], max 3: 3 calls, OK", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({
    clock,
    breakers,
    backend: grpcSequence(status(14, "rpc error: code = Unavailable"), status(14, "rpc error: code = Unavailable"), OK),
    interpret: grpc(["UNAVAILABLE"]),
    policy: { maxAttempts: 3 },
  });
  assert.deepEqual(await settle(clock, call.result), { status: "success", value: '{"ok":true}', attempts: 3 });
  assert.equal(call.requests(), 3);
});

test("R18: gRPC NOT_FOUND with codes [UNAVAILABLE]: 1 call", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({ clock, breakers, backend: grpcSequence(status(5, "rpc error: code = NotFound")), interpret: grpc(["UNAVAILABLE"]), policy: { maxAttempts: 3 } });
  const result = await settle(clock, call.result);
  assert.equal(result.status === "failure" && result.error.message, "rpc error: code = NotFound");
  assert.equal(call.requests(), 1);
});

test("R19: gRPC DEADLINE_EXCEEDED then OK with the default codes: 2 calls (canonical-name matching)", async () => {
  const { clock, breakers } = setupHttp();
  const call = callTool({ clock, breakers, backend: grpcSequence(status(4, "rpc error: code = DeadlineExceeded"), OK), interpret: grpc(), policy: { maxAttempts: 3 } });
  assert.equal((await settle(clock, call.result)).status, "success");
  assert.equal(call.requests(), 2);
});

test("R20/B14: gRPC is_error=true: 1 call per tool call, `tool error: <msg>`, and 12 of them keep the breaker closed", async () => {
  const { clock, breakers } = setupHttp();
  const backend = grpcSequence({ isError: true, resultJson: "", errorMessage: "no such city" });
  let requests = 0;
  for (let i = 0; i < 12; i++) {
    const call = callTool({ clock, breakers, backend, interpret: grpc(), policy: { maxAttempts: 3 } });
    const result = await settle(clock, call.result);
    assert.equal(result.status === "failure" && result.error.message, "tool error: no such city");
    requests += call.requests();
  }
  assert.equal(requests, 12);
  assert.equal(breakers.get("t").state, "closed");
});

test("B15: 10 gRPC UNAVAILABLE statuses open the breaker", async () => {
  const { clock, breakers } = setupHttp();
  const backend = grpcSequence(status(14, "rpc error: code = Unavailable"));
  for (let i = 0; i < 10; i++) await settle(clock, callTool({ clock, breakers, backend, interpret: grpc() }).result);
  assert.equal(breakers.get("t").state, "open");
});

// ---- MCP ----

type McpReply = { isError: boolean; text: string };

const mcp: Interpret<McpReply, string> = (settled) => {
  if (settled.kind === "success") {
    const r = settled.value;
    // An isError result is a breaker success and the only MCP error that is not retried.
    if (r.isError) return { breaker: "success", outcome: { kind: "failure", error: new Error(r.text), retryable: false } };
    return { breaker: "success", outcome: { kind: "success", value: r.text } };
  }
  const error = (settled as { error: Error }).error;
  return { breaker: "failure", outcome: { kind: "failure", error: new Error(`MCP tool call failed: ${error.message}`), retryable: true } };
};

test("R21: MCP transport error ×2 then OK, max 3: 3 calls", async () => {
  const { clock, breakers } = setupHttp();
  let n = 0;
  const call = callTool({
    clock,
    breakers,
    backend: async () => {
      if (++n < 3) throw new Error("EOF");
      return { isError: false, text: "done" };
    },
    interpret: mcp,
    policy: { maxAttempts: 3 },
  });
  assert.deepEqual(await settle(clock, call.result), { status: "success", value: "done", attempts: 3 });
});

test("R22/B16: an MCP isError result is not retried, and 12 of them keep the breaker closed", async () => {
  const { clock, breakers } = setupHttp();
  let requests = 0;
  for (let i = 0; i < 12; i++) {
    const call = callTool({ clock, breakers, backend: async () => ({ isError: true, text: "bad input" }), interpret: mcp, policy: { maxAttempts: 3 } });
    const result = await settle(clock, call.result);
    assert.equal(result.status === "failure" && result.error.message, "bad input");
    requests += call.requests();
  }
  assert.equal(requests, 12);
  assert.equal(breakers.get("t").state, "closed");
});
