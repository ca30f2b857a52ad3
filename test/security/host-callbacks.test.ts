// Issue #31 items 11 and 12: the host's own callbacks (policy, secrets, workload identity, delegation, recorder,
// platform tools) are peers like any other. One that never settles is bounded by ctx.timeoutMs, ctx.signal and
// close(); one that throws anything (a Proxy whose every trap throws, null, a Symbol, an error whose `message`
// getter throws) becomes a typed outcome recorded once, never a rejection of execute() and never a pending call.
import { test } from "node:test";
import { runInNewContext } from "node:vm";
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { isOmniaToolsError, thrownText, toError } from "../../src/core/index.js";
import { createManualClock, MemoryRecorder } from "../../src/testing/index.js";
import { startHttpServer, type TestServer } from "../helpers/http-server.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";

const CLOSED = "execute: the executor closed while the call was in flight";
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !predicate(); i++) await tick();
  assert.ok(predicate(), "condition never held");
}

/** A value every trap of which throws: reading, `instanceof`, `in`, listing keys, turning it into text. */
function hostileProxy(): object {
  const boom = (): never => {
    throw new Error("trap");
  };
  return new Proxy({}, { get: boom, getPrototypeOf: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, apply: boom });
}

/** An Error whose `message` getter throws. */
function errorWithThrowingMessage(): Error {
  const e = new Error("x");
  Object.defineProperty(e, "message", {
    get() {
      throw new Error("getter");
    },
  });
  return e;
}

const NEVER = <T>(): Promise<T> => new Promise<T>(() => {});

/** The registry: one http tool, with bearer auth, delegation and a secret header, all resolved through the host. */
function registry(url: string, auth: string): ReturnType<typeof loadToolRegistry> {
  return loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    ${auth}
    httpConfig:
      endpoint: "${url}/x"
`);
}

const AUTH = {
  none: "",
  bearer: "auth: { type: bearer, secretRef: { name: s, key: k } }",
  workload: "auth: { type: workloadIdentity, workloadIdentity: { cloud: azure, audience: api://x, header: X-Api-Token } }",
  delegation: "delegation: { enabled: true }",
} as const;

interface Case {
  readonly name: string;
  readonly auth: keyof typeof AUTH;
  readonly options: (hang: () => Promise<never>) => Partial<ToolExecutorOptions>;
}

/** Each host callback that the call waits for, hung through `hang`. */
const WAITED: readonly Case[] = [
  { name: "policy function", auth: "none", options: (hang) => ({ policy: () => hang() }) },
  { name: "policy { decide }", auth: "none", options: (hang) => ({ policy: { decide: () => hang(), failOpen: true } }) },
  { name: "secrets resolver", auth: "bearer", options: (hang) => ({ secrets: () => hang() }) },
  { name: "workload identity acquirer", auth: "workload", options: (hang) => ({ workloadIdentity: () => hang() }) },
  { name: "delegation minter", auth: "delegation", options: (hang) => ({ delegation: () => hang() }) },
];

function outcomeOf(out: ToolOutcome): [string, string, string] {
  assert.equal(out.status, "error", JSON.stringify(out));
  return out.status === "error" ? [out.status, out.error.code, out.message] : ["", "", ""];
}

async function withServer(run: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

for (const c of WAITED) {
  test(`a ${c.name} that never settles: ctx.timeoutMs ends the call with the deadline's outcome, recorded once, nothing sent`, { timeout: 20_000 }, async () => {
    await withServer(async (server) => {
      const clock = createManualClock(0);
      const recorder = new MemoryRecorder();
      let calledBack = false;
      const hang = (): Promise<never> => ((calledBack = true), NEVER());
      const ex = createToolExecutor({ registry: registry(server.url, AUTH[c.auth]), clock, recorder, ...c.options(hang) });
      const pending = ex.execute({ id: "c1", name: "t", arguments: "{}" }, { timeoutMs: 1500 });
      await until(() => calledBack);
      clock.advance(1500);
      assert.deepEqual(outcomeOf(await pending), ["error", "ERR_OMNIA_TIMEOUT", "timed out after 1500ms"]);
      assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.errorMessage]), [["c1", "error", "timed out after 1500ms"]]);
      assert.equal(server.requests.length, 0);
      assert.equal(clock.pendingTimers(), 0);
      await ex.close();
    });
  });

  test(`a ${c.name} that never settles: the caller's signal abandons the call (AbortedError), recorded once`, { timeout: 20_000 }, async () => {
    await withServer(async (server) => {
      const recorder = new MemoryRecorder();
      let calledBack = false;
      const hang = (): Promise<never> => ((calledBack = true), NEVER());
      const ex = createToolExecutor({ registry: registry(server.url, AUTH[c.auth]), recorder, ...c.options(hang) });
      const controller = new AbortController();
      const pending = ex.execute({ id: "c2", name: "t", arguments: "{}" }, { signal: controller.signal });
      await until(() => calledBack);
      controller.abort(new Error("user left"));
      const e = await pending.then(
        () => assert.fail("execute resolved"),
        (e: unknown) => e,
      );
      assert.ok(isOmniaToolsError(e));
      assert.equal(e.code, "ERR_OMNIA_ABORTED");
      assert.equal(recorder.records.length, 1);
      assert.deepEqual([recorder.records[0]!.callId, recorder.records[0]!.status, recorder.records[0]!.errorMessage], ["c2", "error", e.message]);
      assert.equal(server.requests.length, 0);
      await ex.close();
    });
  });

  test(`a ${c.name} that never settles: close() ends the call with ERR_OMNIA_CLOSED, recorded once`, { timeout: 20_000 }, async () => {
    await withServer(async (server) => {
      const recorder = new MemoryRecorder();
      let calledBack = false;
      const hang = (): Promise<never> => ((calledBack = true), NEVER());
      const ex = createToolExecutor({ registry: registry(server.url, AUTH[c.auth]), recorder, ...c.options(hang) });
      const pending = ex.execute({ id: "c3", name: "t", arguments: "{}" });
      await until(() => calledBack);
      await ex.close();
      assert.deepEqual(outcomeOf(await pending), ["error", "ERR_OMNIA_CLOSED", CLOSED]);
      assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.errorMessage]), [["c3", "error", CLOSED]]);
      assert.equal(server.requests.length, 0);
    });
  });
}

/** What each hostile throw reads as in an outcome's text. */
/** `text`: as an untyped failure reads (toError); `auth`: as an auth failure quotes it (thrownText). */
const THROWN: readonly { readonly name: string; readonly value: () => unknown; readonly text: string; readonly auth: string }[] = [
  { name: "a Proxy whose traps throw", value: hostileProxy, text: "non-error thrown: [unprintable value]", auth: "[unprintable value]" },
  { name: "null", value: () => null, text: "non-error thrown: null", auth: "null" },
  { name: "a Symbol", value: () => Symbol("s"), text: "non-error thrown: Symbol(s)", auth: "Symbol(s)" },
  { name: "an Error whose message getter throws", value: errorWithThrowingMessage, text: "[unprintable value]", auth: "[unprintable value]" },
];
const DENIED = 'tool call denied by policy: policy broker unreachable; failing closed (rule "policy-broker-unreachable")';

test("toError never throws, whatever it is given", () => {
  for (const t of THROWN) {
    assert.equal(toError(t.value()).message, t.text, t.name);
    assert.equal(thrownText(t.value()), t.auth, t.name);
  }
  assert.equal(isOmniaToolsError(hostileProxy()), false);
});

for (const t of THROWN) {
  test(`a policy that throws ${t.name}: denied (fail closed), recorded once; { decide, failOpen } lets the call through`, async () => {
    await withServer(async (server) => {
      const recorder = new MemoryRecorder();
      const closed = createToolExecutor({
        registry: registry(server.url, ""),
        recorder,
        policy: () => {
          throw t.value();
        },
      });
      const out = await closed.execute({ id: "p1", name: "t", arguments: "{}" });
      assert.deepEqual([out.status, out.status === "denied" && out.message], ["denied", DENIED]);
      const open = createToolExecutor({
        registry: registry(server.url, ""),
        recorder,
        policy: {
          decide: async () => {
            throw t.value();
          },
          failOpen: true,
        },
      });
      const allowed = await open.execute({ id: "p2", name: "t", arguments: "{}" });
      assert.deepEqual([allowed.status, allowed.status === "success" && allowed.resultJson], ["success", '{"ok":true}']);
      assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]), [["p1", "denied"], ["p2", "success"]]);
      assert.equal(server.requests.length, 1);
      await closed.close();
      await open.close();
    });
  });

  test(`a policy whose decision is ${t.name}: denied (fail closed), recorded once`, async () => {
    await withServer(async (server) => {
      const recorder = new MemoryRecorder();
      const ex = createToolExecutor({ registry: registry(server.url, ""), recorder, policy: async () => t.value() as never });
      const out = await ex.execute({ id: "p3", name: "t", arguments: "{}" });
      assert.deepEqual([out.status, out.status === "denied" && out.message], ["denied", DENIED]);
      assert.deepEqual(recorder.records.map((r) => [r.callId, r.status]), [["p3", "denied"]]);
      assert.equal(server.requests.length, 0);
      await ex.close();
    });
  });

  for (const kind of ["secrets resolver", "workload identity acquirer", "delegation minter"] as const) {
    test(`a ${kind} that throws ${t.name}: a typed error outcome, recorded once, nothing sent`, { timeout: 20_000 }, async () => {
      await withServer(async (server) => {
        const recorder = new MemoryRecorder();
        const thrower = (): never => {
          throw t.value();
        };
        const auth = kind === "secrets resolver" ? "bearer" : kind === "workload identity acquirer" ? "workload" : "delegation";
        const options: Partial<ToolExecutorOptions> = kind === "secrets resolver" ? { secrets: thrower } : kind === "workload identity acquirer" ? { workloadIdentity: thrower } : { delegation: thrower };
        const ex = createToolExecutor({ registry: registry(server.url, AUTH[auth]), recorder, ...options });
        const out = await ex.execute({ id: "s1", name: "t", arguments: "{}" });
        const expected =
          kind === "secrets resolver"
            ? ["error", "ERR_OMNIA_AUTH", `handler "h" auth: ${t.auth}`]
            : kind === "workload identity acquirer"
              ? ["error", "ERR_OMNIA_AUTH", `handler "h" auth: acquire azure token for "api://x": ${t.auth}`]
              : ["error", "ERR_OMNIA_BACKEND", t.text];
        assert.deepEqual(outcomeOf(out), expected);
        assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.errorMessage]), [["s1", "error", expected[2]]]);
        assert.equal(server.requests.length, 0);
        await ex.close();
      });
    });
  }

  test(`a recorder that throws ${t.name}: the call still succeeds, the throw is logged`, async () => {
    await withServer(async (server) => {
      const logged: string[] = [];
      const logger = { debug() {}, info() {}, warn() {}, error: (msg: string, fields?: Record<string, unknown>) => void logged.push(`${msg}: ${String(fields?.error)}`) };
      const ex = createToolExecutor({
        registry: registry(server.url, ""),
        logger,
        recorder: {
          start() {
            throw t.value();
          },
          record() {
            throw t.value();
          },
        },
      });
      const out = await ex.execute({ id: "r1", name: "t", arguments: "{}" });
      assert.deepEqual([out.status, out.status === "success" && out.resultJson], ["success", '{"ok":true}']);
      assert.deepEqual(logged, [`failed to record tool call start: ${t.text}`, `failed to record tool call: ${t.text}`]);
      await ex.close();
    });
  });

  test(`a platform tool that throws ${t.name}: an error outcome with the thrown value's text, recorded once`, async () => {
    const recorder = new MemoryRecorder();
    const ex = createToolExecutor({
      registry: registry("http://127.0.0.1:1", ""),
      recorder,
      platformTools: {
        memory__recall: {
          description: "d",
          inputSchema: { type: "object" },
          execute() {
            throw t.value();
          },
        },
      },
    });
    const out = await ex.execute({ id: "pt", name: "memory__recall", arguments: "{}" });
    assert.deepEqual(outcomeOf(out), ["error", "ERR_OMNIA_BACKEND", t.text]);
    assert.deepEqual(recorder.records.map((r) => [r.callId, r.status, r.errorMessage]), [["pt", "error", t.text]]);
    await ex.close();
  });
}

/** Two http tools on `url`: `lookup` (GET /get, arguments in the query) and `store` (POST /post, arguments as the body). */
const GET_AND_POST = (url: string): string => `
handlers:
  - name: get
    type: http
    tool: { name: lookup, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${url}/get", method: GET }
  - name: post
    type: http
    tool: { name: store, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${url}/post", method: POST }
`;

test("a policy function or a platform tool that changes its arguments changes neither the request sent (GET query, POST body) nor the record", async () => {
  await withServer(async (server) => {
    const recorder = new MemoryRecorder();
    const seen: unknown[] = [];
    const ex = createToolExecutor({
      registry: loadToolRegistry(GET_AND_POST(server.url)),
      recorder,
      policy: (request) => {
        const args = request.arguments as Record<string, unknown> | null;
        if (args !== null) {
          args["city"] = "Elsewhere";
          args["extra"] = "injected";
        }
        return { allow: true };
      },
      platformTools: {
        remember: {
          description: "d",
          inputSchema: { type: "object" },
          execute: (args) => {
            seen.push(structuredClone(args));
            (args as Record<string, unknown>)["city"] = "Changed";
            return { ok: true };
          },
        },
      },
    });
    try {
      for (const [id, name] of [["g1", "lookup"], ["p1", "store"], ["r1", "remember"]] as const) {
        const out = await ex.execute({ id, name, arguments: '{"city":"Paris"}' });
        assert.equal(out.status, "success", JSON.stringify(out));
      }
      assert.deepEqual(
        server.requests.map((r) => [r.method, r.url, r.body.toString("utf8")]),
        [
          ["GET", "/get?city=Paris", ""],
          ["POST", "/post", '{"city":"Paris"}'],
        ],
      );
      // The platform tool was given what the model sent (the policy's change did not reach it either).
      assert.deepEqual(seen, [{ city: "Paris" }]);
      // A host's own argument object that JSON would not hold (a function) is copied too, never refused: as before.
      const hostArgs = { city: "Lyon", nested: { list: [1, { deep: true }] }, f: () => 1 };
      const viaHost = await ex.execute({ id: "g2", name: "lookup", arguments: hostArgs as never });
      assert.equal(viaHost.status, "success", JSON.stringify(viaHost));
      assert.equal(server.requests.at(-1)?.url, "/get?city=Lyon&f=%3Cnil%3E&nested=map%5Blist%3A%5B1+map%5Bdeep%3Atrue%5D%5D%5D");
      assert.deepEqual(hostArgs.nested, { list: [1, { deep: true }] });
      // Nor is an object from another realm (a vm context, a sandbox) taken for a class instance and shared.
      const foreign = runInNewContext('({ city: "Nice" })') as Record<string, unknown>;
      const viaRealm = await ex.execute({ id: "g3", name: "lookup", arguments: foreign as never });
      assert.equal(viaRealm.status, "success", JSON.stringify(viaRealm));
      assert.equal(server.requests.at(-1)?.url, "/get?city=Nice");
      assert.deepEqual({ ...foreign }, { city: "Nice" });
      assert.deepEqual(
        recorder.records.slice(0, 3).map((r) => [r.callId, r.arguments]),
        [
          ["g1", { city: "Paris" }],
          ["p1", { city: "Paris" }],
          ["r1", { city: "Paris" }],
        ],
      );
    } finally {
      await ex.close();
    }
  });
});

test("a recorder that scrubs its start row in place changes neither the request sent (GET query, POST body, MCP arguments) nor the record", async () => {
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  try {
    await withServer(async (server) => {
      const records: { callId: string; arguments: unknown }[] = [];
      // Omnia's session-api recorder writes a start row; a host's may mask what it stores, in the row it was given.
      const recorder = {
        start(row: { arguments: unknown }) {
          const args = row.arguments as Record<string, unknown> | null;
          if (args !== null && typeof args === "object") args["password"] = "***";
        },
        record(row: { callId: string; arguments: unknown }) {
          records.push({ callId: row.callId, arguments: row.arguments });
        },
      };
      const ex = createToolExecutor({
        registry: loadToolRegistry(`${GET_AND_POST(server.url)}  - name: kb
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
`),
        recorder,
      });
      try {
        const text = '{"user":"u","password":"hunter2"}';
        for (const [id, name] of [["g1", "lookup"], ["p1", "store"]] as const) {
          const out = await ex.execute({ id, name, arguments: text });
          assert.equal(out.status, "success", JSON.stringify(out));
        }
        const viaMcp = await ex.execute({ id: "m1", name: "args", arguments: text });
        assert.equal(viaMcp.status === "success" && viaMcp.resultJson, '{"password":"hunter2","user":"u"}');
        assert.deepEqual(
          server.requests.map((r) => [r.method, r.url, r.body.toString("utf8")]),
          [
            ["GET", "/get?password=hunter2&user=u", ""],
            ["POST", "/post", '{"user":"u","password":"hunter2"}'],
          ],
        );
        assert.deepEqual(records, [
          { callId: "g1", arguments: { user: "u", password: "hunter2" } },
          { callId: "p1", arguments: { user: "u", password: "hunter2" } },
          { callId: "m1", arguments: { user: "u", password: "hunter2" } },
        ]);
      } finally {
        await ex.close();
      }
    });
  } finally {
    await mcp.close();
  }
});

test("a host's argument object whose reads throw, with a recorder that writes start rows: an error outcome, started and recorded once, never a rejection", async () => {
  await withServer(async (server) => {
    const rows: string[] = [];
    const recorder = {
      start: () => void rows.push("start"),
      record: (row: { status: string; errorMessage?: string }) => void rows.push(`record ${row.status} ${row.errorMessage ?? ""}`),
    };
    const ex = createToolExecutor({
      registry: loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/x", method: POST }
`),
      recorder,
    });
    try {
      let reads = 0;
      const args = {
        get g(): number {
          if (++reads >= 2) throw new Error("second read");
          return 5;
        },
      };
      const out = await ex.execute({ id: "c1", name: "t", arguments: args as never });
      assert.deepEqual([out.status, out.status === "error" && out.message], ["error", "second read"]);
      assert.deepEqual(rows, ["start", "record error second read"]);
      assert.equal(server.requests.length, 0);
    } finally {
      await ex.close();
    }
  });
});
