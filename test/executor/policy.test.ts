// The policy decision through createToolExecutor, against a real fake broker and
// real backends on 127.0.0.1: runtime-tools.md §3.4–3.9 (P1–P22) and API.md decision 8.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { createPolicyBrokerClient, POLICY_UNREACHABLE_REASON, type PolicyBrokerClient, type PolicyBrokerClientOptions } from "../../src/policy/index.js";
import { serveToolService, type ToolServiceServer } from "../../src/grpc/index.js";
import { createManualClock, MemoryRecorder, type ManualClock } from "../../src/testing/index.js";
import { InvalidOptionError } from "../../src/core/index.js";
import { startHttpServer, withoutUnhandledRejections, type TestServer } from "../helpers/http-server.js";
import { startFakeBroker, closedPortUrl, until, type BrokerAnswer, type FakeBroker } from "../helpers/policy-broker.js";
import { startMcpHttpServer } from "../helpers/mcp-server.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { settle } from "../helpers/settle.js";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function backend(handler?: Parameters<typeof startHttpServer>[0]): Promise<TestServer> {
  const s = await startHttpServer(
    handler ??
      ((_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end('{"ok":true}');
      }),
  );
  closers.push(() => s.close());
  return s;
}

async function broker(answer?: BrokerAnswer): Promise<FakeBroker> {
  const b = await startFakeBroker(answer);
  closers.push(() => b.close());
  return b;
}

/** A bare handler list: http handler `h` serving tool `t`. */
function bareRegistry(endpoint: string, httpExtra = ""): ToolRegistry {
  return loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: ${endpoint}
${httpExtra}
`);
}

/** A ToolRegistry resource named `registryName` with http handler `handler` serving `tool`. */
function namedRegistry(registryName: string, handler: string, tool: string, endpoint: string): ToolRegistry {
  return loadToolRegistry({
    apiVersion: "omnia.altairalabs.ai/v1alpha1",
    kind: "ToolRegistry",
    metadata: { name: registryName, namespace: "agents" },
    spec: { handlers: [{ name: handler, type: "http", tool: { name: tool, description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint } }] },
  });
}

interface Setup {
  readonly policy: PolicyBrokerClient;
  readonly clock: ManualClock;
  readonly recorder: MemoryRecorder;
  readonly logger: ReturnType<typeof createCaptureLogger>;
  readonly execute: (args?: string, id?: string, ctx?: Parameters<ReturnType<typeof createToolExecutor>["execute"]>[1], name?: string) => Promise<ToolOutcome>;
  readonly ex: ReturnType<typeof createToolExecutor>;
}

function setup(registry: ToolRegistry, brokerUrl: string, brokerOptions: Partial<PolicyBrokerClientOptions> = {}, options: Partial<ToolExecutorOptions> = {}): Setup {
  const clock = createManualClock(Date.UTC(2026, 10, 29));
  const recorder = new MemoryRecorder();
  const logger = createCaptureLogger();
  const policy = createPolicyBrokerClient({ url: brokerUrl, clock, logger, ...brokerOptions });
  const ex = createToolExecutor({ registry, clock, recorder, logger, policy, random: () => 0.5, ...options });
  closers.push(async () => {
    await ex.close();
    await policy.close();
  });
  const execute: Setup["execute"] = (args = "{}", id = "c1", ctx = {}, name = registry.tools[0]?.name ?? "t") => ex.execute({ id, name, arguments: args }, ctx);
  return { policy, clock, recorder, logger, execute, ex };
}

function expectDenied(out: ToolOutcome, reason: string): void {
  assert.equal(out.status, "denied", JSON.stringify(out));
  if (out.status !== "denied") return;
  assert.equal(out.reason, reason);
  assert.equal(out.message, `tool call denied by policy: ${reason}`);
}

function expectSuccess(out: ToolOutcome): void {
  assert.equal(out.status, "success", JSON.stringify(out));
  assert.deepEqual(out.status === "success" && out.result, { ok: true });
}

const UNREACHABLE_MESSAGE = 'tool call denied by policy: policy broker unreachable; failing closed (rule "policy-broker-unreachable")';

test("P1: no policy option: no broker request; the backend is called", async () => {
  const b = await broker();
  const server = await backend();
  const ex = createToolExecutor({ registry: bareRegistry(`${server.url}/t`) });
  closers.push(() => ex.close());
  expectSuccess(await ex.execute({ id: "c1", name: "t", arguments: "{}" }));
  assert.equal(server.requests.length, 1);
  assert.equal(b.decisions.length, 0);
});

test("P1: an empty broker URL disables the client: every decision is an allow and nothing is sent", async () => {
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), "");
  assert.equal(s.policy.enabled, false);
  assert.equal(s.policy.endpoint, "");
  assert.deepEqual(s.logger.lines[0], { level: "info", message: "policy broker client initialized", fields: { enabled: false } });
  expectSuccess(await s.execute());
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0]?.headers["x-omnia-tool-name"], "t");
});

test("P2: broker allows: one POST /v1/decision with JSON; the backend is called and its result returned", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), `${b.url}/`);
  assert.equal(s.policy.endpoint, `${b.url}/v1/decision`, "a trailing slash on the base URL is ignored");
  assert.deepEqual(s.logger.lines[0], { level: "info", message: "policy broker client initialized", fields: { enabled: true, url: b.url, failOpen: false } });
  expectSuccess(await s.execute('{"q":"x"}'));
  assert.equal(b.decisions.length, 1);
  const d = b.decisions[0];
  assert.equal(d?.method, "POST");
  assert.equal(d?.url, "/v1/decision");
  assert.equal(d?.contentType, "application/json");
  assert.equal(server.requests.length, 1);
  assert.equal(s.recorder.records[0]?.status, "success");
  assert.equal(s.recorder.records[0]?.policyAudit, undefined);
});

test("P3: broker denies: no backend call; denied `tool call denied by policy: nope (rule \"rule1\")`, recorded denied", async () => {
  const b = await broker({ allow: false, deniedBy: "rule1", message: "nope" });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  const out = await s.execute('{"id":1}');
  expectDenied(out, 'nope (rule "rule1")');
  assert.equal(out.status === "denied" && out.message, 'tool call denied by policy: nope (rule "rule1")');
  assert.deepEqual([out.toolName, out.callId, out.handlerType], ["t", "c1", "http"]);
  assert.equal(server.requests.length, 0, "the backend is never called");
  assert.equal(b.decisions.length, 1);
  const r = s.recorder.records[0];
  assert.deepEqual(
    { status: r?.status, errorMessage: r?.errorMessage, attempts: r?.attempts, arguments: r?.arguments, execution: r?.execution },
    { status: "denied", errorMessage: 'tool call denied by policy: nope (rule "rule1")', attempts: 0, arguments: { id: 1 }, execution: "server" },
  );
  assert.equal(s.logger.lines.filter((l) => l.level === "error").length, 0, "a denial is not a broker failure");
});

test("the denial reason keeps the rule name Go-%q-quoted, the message verbatim", async () => {
  const b = await broker({ allow: false, deniedBy: 'required-claim:team "x"', message: "team claim required: ünïcode" });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  expectDenied(await s.execute(), 'team claim required: ünïcode (rule "required-claim:team \\"x\\"")');
  assert.equal(server.requests.length, 0);
});

test("P4: injected headers reach the backend and override the handler's static header", async () => {
  const b = await broker({ allow: true, injectedHeaders: { "X-Extra-Auth": "abc123", "X-Omnia-User-Id": "injected-user" } });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`, "      headers: { X-Extra-Auth: static }"), b.url);
  expectSuccess(await s.execute("{}", "c1", { identity: { userId: "u-1" } }));
  const got = server.requests[0];
  assert.equal(got?.headers["x-extra-auth"], "abc123");
  assert.equal(got?.headers["x-omnia-user-id"], "injected-user", "injected headers win over the Omnia headers");
  assert.deepEqual(got?.rawHeaders.filter(([n]) => n.toLowerCase() === "x-extra-auth").map(([, v]) => v), ["abc123"], "sent once");
});

test("injected headers override handler auth, and lose to headerParams (seed 004 order)", async () => {
  const b = await broker({ allow: true, injectedHeaders: { Authorization: "Bearer broker-tok", "X-Tenant": "from-broker" } });
  const server = await backend();
  const registry = loadToolRegistry({
    handlers: [
      {
        name: "h",
        type: "http",
        tool: { name: "t", description: "d", inputSchema: { type: "object" } },
        httpConfig: { endpoint: `${server.url}/t`, headerParams: { tenant: "X-Tenant" } },
        auth: { type: "bearer", secretRef: { name: "s", key: "token" } },
      },
    ],
  });
  const s = setup(registry, b.url, {}, { secrets: () => "handler-tok" });
  expectSuccess(await s.execute('{"tenant":"from-args"}'));
  assert.equal(server.requests[0]?.headers["authorization"], "Bearer broker-tok");
  assert.equal(server.requests[0]?.headers["x-tenant"], "from-args");
  assert.equal(b.decisions[0]?.text.includes("handler-tok"), false, "credentials never go to the broker");
  assert.equal(b.decisions[0]?.headers["authorization"], undefined);
});

test("P5: audit mode with allow:false and wouldDeny:true proceeds; the would-be denial is on the decision and logged", async () => {
  const b = await broker({ allow: false, wouldDeny: true, deniedBy: "rule1", message: "would block", mode: "audit" });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  expectSuccess(await s.execute());
  assert.equal(server.requests.length, 1);
  assert.deepEqual(s.logger.lines.find((l) => l.message === "policy would deny (audit mode)"), {
    level: "info",
    message: "policy would deny (audit mode)",
    fields: { toolName: "t", registryName: "h", deniedBy: "rule1", message: "would block", mode: "audit" },
  });
  const decision = await s.policy.decide({ toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} });
  assert.deepEqual(decision, { allow: true, audit: { deniedBy: "rule1", message: "would block" } });
});

test("P6: audit mode with allow:true injects its headers and carries the audit", async () => {
  const b = await broker({ allow: true, wouldDeny: true, deniedBy: "r", mode: "audit", injectedHeaders: { "X-A": "1" } });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  expectSuccess(await s.execute());
  assert.equal(server.requests[0]?.headers["x-a"], "1");
  const decision = await s.policy.decide({ toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} });
  assert.deepEqual(decision, { allow: true, headers: { "X-A": "1" }, audit: { deniedBy: "r", message: "" } });
});

// The record part of audit mode needs one line in the executor (see the report):
// `ToolCallRecord.policyAudit` exists; createToolExecutor does not fill it yet.
test("audit mode: the call's record carries the would-be denial", async () => {
  const b = await broker({ allow: true, wouldDeny: true, deniedBy: "rule1", message: "would block", mode: "audit" });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  expectSuccess(await s.execute());
  const r = s.recorder.records[0];
  assert.equal(r?.status, "success");
  assert.deepEqual(r?.policyAudit, { deniedBy: "rule1", message: "would block" });
});

test("a plain allow with an empty or null injectedHeaders injects nothing and carries no audit", async () => {
  const b = await broker({ allow: true, injectedHeaders: {}, deniedBy: "ignored", mode: "" });
  const s = setup(bareRegistry("http://127.0.0.1:1/unused"), b.url);
  const request = { toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} } as const;
  assert.deepEqual(await s.policy.decide(request), { allow: true });
  b.answer({ allow: true, injectedHeaders: null });
  assert.deepEqual(await s.policy.decide(request), { allow: true });
  b.answer({ allow: false, injectedHeaders: { "X-A": "1" }, deniedBy: "d", message: "m" });
  assert.deepEqual(await s.policy.decide(request), { allow: false, reason: 'm (rule "d")' }, "a denial injects nothing");
});

test("P7: broker on a closed port, fail mode unset: denied fail-closed, logged, backend not called", async () => {
  const url = await closedPortUrl();
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), url);
  const out = await s.execute();
  expectDenied(out, POLICY_UNREACHABLE_REASON);
  assert.equal(out.status === "denied" && out.message, UNREACHABLE_MESSAGE);
  assert.ok(out.status === "denied" && out.message.includes("policy broker unreachable; failing closed") && out.message.includes("policy-broker-unreachable"));
  assert.equal(server.requests.length, 0);
  const line = s.logger.lines.find((l) => l.level === "error");
  assert.equal(line?.message, "policy broker unreachable");
  assert.deepEqual({ ...line?.fields, error: undefined }, { toolName: "t", registryName: "h", failOpen: false, error: undefined });
  assert.match(String(line?.fields?.["error"]), /^decision request failed: .*ECONNREFUSED/);
  assert.deepEqual(
    s.recorder.records.map((r) => [r.status, r.errorMessage]),
    [["denied", UNREACHABLE_MESSAGE]],
  );
});

test("P8: as P7 with failOpen: the backend is called with no injected headers", async () => {
  const url = await closedPortUrl();
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), url, { failOpen: true });
  assert.equal(s.policy.failOpen, true);
  expectSuccess(await s.execute());
  assert.equal(server.requests.length, 1);
  assert.equal(s.logger.lines.find((l) => l.level === "error")?.fields?.["failOpen"], true);
});

const BROKEN_ANSWERS: readonly (readonly [string, BrokerAnswer, RegExp])[] = [
  ["P9: HTTP 500", { status: 500, body: "boom" }, /^decision endpoint returned status 500$/],
  ["HTTP 400", { status: 400, body: "malformed" }, /^decision endpoint returned status 400$/],
  ["HTTP 204", { status: 204, body: "" }, /^decision endpoint returned status 204$/],
  ["a redirect (not followed)", { status: 307, body: "" }, /^decision endpoint returned status 307$/],
  ["P10: 200 with body not-json", { status: 200, body: "not-json" }, /^decode decision response: /],
  ["200 with an empty body", { status: 200, body: "" }, /^decode decision response: EOF$/],
  ["200 with a JSON array", { status: 200, body: "[]" }, /^decode decision response: /],
  ["200 with a mistyped field", { status: 200, body: '{"allow":"true"}' }, /^decode decision response: json: cannot unmarshal string /],
];

for (const [name, answer, logged] of BROKEN_ANSWERS) {
  test(`${name}: denied fail-closed; with failOpen the call is allowed`, async () => {
    const b = await broker(answer);
    const server = await backend();
    const closed = setup(bareRegistry(`${server.url}/t`), b.url);
    expectDenied(await closed.execute(), POLICY_UNREACHABLE_REASON);
    assert.equal(server.requests.length, 0);
    assert.match(String(closed.logger.lines.find((l) => l.message === "policy broker unreachable")?.fields?.["error"]), logged);
    const open = setup(bareRegistry(`${server.url}/t`), b.url, { failOpen: true });
    expectSuccess(await open.execute());
    assert.equal(server.requests.length, 1);
    assert.deepEqual(Object.keys(server.requests[0]?.headers ?? {}).filter((h) => !h.startsWith("x-omnia-") && !["host", "connection", "content-type", "content-length"].includes(h)), [], "no injected headers");
  });
}

test("P11: a broker that never answers: the decision gives up at 2 s on the clock, then the fail mode applies", async () => {
  await withoutUnhandledRejections(async () => {
    const b = await broker("hang");
    const server = await backend();
    for (const failOpen of [false, true]) {
      const s = setup(bareRegistry(`${server.url}/t`), b.url, { failOpen });
      const before = b.decisions.length;
      let settled = false;
      const pending = s.execute().finally(() => (settled = true));
      await until(() => b.decisions.length === before + 1, "the decision request");
      await s.clock.advanceAsync(1_999);
      assert.equal(settled, false, "still waiting at 1999 ms");
      await s.clock.advanceAsync(1);
      const out = await pending;
      if (failOpen) expectSuccess(out);
      else expectDenied(out, POLICY_UNREACHABLE_REASON);
      assert.equal(s.logger.lines.find((l) => l.message === "policy broker unreachable")?.fields?.["error"], "decision request failed: timed out after 2000ms");
      assert.equal(s.clock.pendingTimers(), 0, "no timer is left behind");
    }
    assert.equal(server.requests.length, 1, "only the fail-open call reached the backend");
  });
});

test("timeoutMs is configurable", async () => {
  const b = await broker("hang");
  const s = setup(bareRegistry("http://127.0.0.1:1/unused"), b.url, { timeoutMs: 250 });
  const pending = s.execute();
  await until(() => b.decisions.length === 1, "the decision request");
  await s.clock.advanceAsync(250);
  expectDenied(await pending, POLICY_UNREACHABLE_REASON);
  assert.equal(s.logger.lines.find((l) => l.level === "error")?.fields?.["error"], "decision request failed: timed out after 250ms");
});

test("a response body that stalls after the headers also times out", async () => {
  const b = await broker();
  b.server.handle((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"allow":');
  });
  // A dispatcher that notes when the response headers reach the client.
  const { Agent } = await import("undici");
  const agent = new Agent();
  closers.push(() => agent.close());
  let headersArrived = false;
  const spy = agent.compose((dispatch) => (opts, handler) =>
    dispatch(
      opts,
      new Proxy(handler, {
        get(target, key) {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== "function") return value;
          const method = value as (...a: unknown[]) => unknown;
          return (...args: unknown[]) => {
            if (key === "onHeaders" || key === "onResponseStart") headersArrived = true;
            return method.apply(target, args);
          };
        },
      }),
    ),
  );
  const s = setup(bareRegistry("http://127.0.0.1:1/unused"), b.url, { dispatcher: spy });
  const pending = s.execute();
  await until(() => headersArrived, "the response headers");
  await s.clock.advanceAsync(2_000);
  expectDenied(await pending, POLICY_UNREACHABLE_REASON);
  assert.equal(s.logger.lines.find((l) => l.level === "error")?.fields?.["error"], "decode decision response: timed out after 2000ms");
});

test("P12: broker answers {}: denied `tool call denied by policy:  (rule \"\")` (two spaces)", async () => {
  const b = await broker({});
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  const out = await s.execute();
  expectDenied(out, ' (rule "")');
  assert.equal(out.status === "denied" && out.message, 'tool call denied by policy:  (rule "")');
  assert.equal(server.requests.length, 0);
  b.answer({ status: 200, body: "null" });
  expectDenied(await s.execute(), ' (rule "")');
});

test("P13: the captured decision request: canonical headers, body, identity; never a credential", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  // Tool names must match ^[a-z][a-z0-9_]*$ in a manifest, so the spec's `my-tool` is `my_tool` here.
  const s = setup(namedRegistry("my-registry", "h", "my_tool", `${server.url}/t`), b.url);
  const identity = { agentName: "agent-1", userId: "user-1", claims: { role: "editor", team: "eng" }, authorization: "Bearer caller-secret" } as never;
  expectSuccess(await s.execute('{"customer_id":"cust-1"}', "c1", { identity }, "my_tool"));
  const d = b.decisions[0];
  assert.ok(d);
  assert.deepEqual(d.json.headers, {
    "X-Omnia-Agent-Name": "agent-1",
    "X-Omnia-User-Id": "user-1",
    "X-Omnia-Claim-Role": "editor",
    "X-Omnia-Claim-Team": "eng",
    "X-Omnia-Tool-Name": "my_tool",
    "X-Omnia-Tool-Registry": "my-registry",
    "X-Omnia-Param-Customerid": "cust-1",
  });
  assert.deepEqual(d.json.body, { customer_id: "cust-1" });
  assert.deepEqual(d.json.identity, { origin: "", subject: "user-1", endUser: "user-1", workspace: "", agent: "agent-1", claims: { role: "editor", team: "eng" } });
  assert.equal(
    d.text,
    '{"headers":{"X-Omnia-Agent-Name":"agent-1","X-Omnia-Claim-Role":"editor","X-Omnia-Claim-Team":"eng","X-Omnia-Param-Customerid":"cust-1",' +
      '"X-Omnia-Tool-Name":"my_tool","X-Omnia-Tool-Registry":"my-registry","X-Omnia-User-Id":"user-1"},' +
      '"body":{"customer_id":"cust-1"},' +
      '"identity":{"origin":"","subject":"user-1","endUser":"user-1","workspace":"","agent":"agent-1","claims":{"role":"editor","team":"eng"}}}',
    "Go's json.Marshal bytes",
  );
  assert.equal(/authorization|caller-secret/i.test(d.text), false, "no Authorization anywhere");
  assert.equal(d.headers["authorization"], undefined);
  assert.equal(server.requests[0]?.headers["authorization"], undefined);
});

test("the agent's own fields go into the decision headers and the identity", async () => {
  const b = await broker({ allow: true });
  const s = setup(bareRegistry("http://127.0.0.1:1/unused"), b.url, {}, { agent: { name: "support", namespace: "agents", workspace: "ws-1", provider: "openai", model: "gpt" } });
  b.answer({ allow: false, deniedBy: "x", message: "stop" });
  await s.execute('{"n":1000000,"ok":true,"nested":{"a":1},"list":[1]}', "c1", { identity: { sessionId: "s-1", requestId: "r-1", origin: "web", subjectId: "svc-1", userEmail: "a@b.c" } });
  const d = b.decisions[0];
  assert.deepEqual(d?.json.headers, {
    "X-Omnia-Agent-Name": "support",
    "X-Omnia-Namespace": "agents",
    "X-Omnia-Session-Id": "s-1",
    "X-Omnia-Request-Id": "r-1",
    "X-Omnia-User-Email": "a@b.c",
    "X-Omnia-Subject-Id": "svc-1",
    "X-Omnia-Provider": "openai",
    "X-Omnia-Model": "gpt",
    "X-Omnia-Origin": "web",
    "X-Omnia-Workspace": "ws-1",
    "X-Omnia-Tool-Name": "t",
    "X-Omnia-Tool-Registry": "h",
    "X-Omnia-Param-N": "1e+06",
    "X-Omnia-Param-Ok": "true",
  });
  assert.deepEqual(d?.json.body, { n: 1000000, ok: true, nested: { a: 1 }, list: [1] });
  assert.deepEqual(d?.json.identity, { origin: "web", subject: "svc-1", endUser: "", workspace: "ws-1", agent: "support", claims: null });
});

test("P14: no propagation fields and empty arguments: identity null, body null", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  expectSuccess(await s.execute(""));
  assert.equal(b.decisions[0]?.text, '{"headers":{"X-Omnia-Tool-Name":"t","X-Omnia-Tool-Registry":"h"},"body":null,"identity":null}');
  for (const args of ["null", "[1,2]", '"text"', "7"]) await s.execute(args);
  assert.deepEqual(
    b.decisions.slice(1).map((d) => d.json.body),
    [null, null, null, null],
    "arguments that are not a JSON object give body null",
  );
});

// Go decodes `{}` into a non-nil empty map and marshals it as `{}`: only empty
// (or non-object) arguments give `null`. buildDecisionRequest (src/executor/
// decision-request.ts) also nulls an empty object; see the report for the fix.
test("P14 detail: arguments `{}` give body {} as in Go, not null", async () => {
  const b = await broker({ allow: true });
  const s = setup(bareRegistry("http://127.0.0.1:1/unused"), b.url, {}, {});
  b.answer({ allow: false, deniedBy: "x", message: "stop" });
  await s.execute("{}");
  assert.equal(b.decisions[0]?.text, '{"headers":{"X-Omnia-Tool-Name":"t","X-Omnia-Tool-Registry":"h"},"body":{},"identity":null}');
});

test("P15: subject-id svc-9 and user-id u-1: identity.subject svc-9, identity.endUser u-1", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  expectSuccess(await s.execute("{}", "c1", { identity: { subjectId: "svc-9", userId: "u-1" } }));
  const identity = b.decisions[0]?.json.identity as { subject: string; endUser: string };
  assert.equal(identity.subject, "svc-9");
  assert.equal(identity.endUser, "u-1");
});

test("P16 does not arise: a tool outside the registry never reaches the broker (tool not found)", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  const s = setup(namedRegistry("orders", "h", "t", `${server.url}/t`), b.url);
  const out = await s.execute("{}", "c1", {}, "test-http-tool");
  assert.equal(out.status, "error");
  assert.equal(out.status === "error" && out.message, 'tool "test-http-tool" not found');
  assert.equal(b.decisions.length, 0);
  assert.equal(server.requests.length, 0);
});

test("P17: registry orders, handler echo: the decision names the registry; the tool request names the handler", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  const s = setup(namedRegistry("orders", "echo", "t", `${server.url}/t`), b.url);
  expectSuccess(await s.execute());
  assert.equal(b.decisions[0]?.json.headers["X-Omnia-Tool-Registry"], "orders");
  assert.equal(server.requests[0]?.headers["x-omnia-tool-registry"], "echo");
});

test("P18: no registry name (a bare handler list), handler h1: the decision names h1", async () => {
  const b = await broker({ allow: true });
  const server = await backend();
  const registry = loadToolRegistry({ handlers: [{ name: "h1", type: "http", tool: { name: "t", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: `${server.url}/t` } }] });
  const s = setup(registry, b.url);
  expectSuccess(await s.execute());
  assert.equal(b.decisions[0]?.json.headers["X-Omnia-Tool-Registry"], "h1");
  assert.equal(s.logger.lines.find((l) => l.message === "policy broker unreachable"), undefined);
});

test("P19: gRPC tool: injected headers become lowercase metadata, overriding identity metadata; the handler's bearer stays", async () => {
  const b = await broker({ allow: true, injectedHeaders: { "x-omnia-user-id": "injected-user", "X-Injected-Auth": "secret-token" } });
  const seen: Record<string, string>[] = [];
  const grpc: ToolServiceServer = await serveToolService({
    t: {
      description: "d",
      inputSchema: { type: "object" },
      execute: (_args, ctx) => {
        seen.push({ ...ctx.headers });
        return { ok: true };
      },
    },
  });
  closers.push(() => grpc.close());
  const registry = loadToolRegistry({
    handlers: [
      {
        name: "g",
        type: "grpc",
        tool: { name: "t", description: "d", inputSchema: { type: "object" } },
        grpcConfig: { endpoint: `127.0.0.1:${grpc.port}` },
        auth: { type: "bearer", secretRef: { name: "s", key: "token" } },
      },
    ],
  });
  const s = setup(registry, b.url, {}, { secrets: () => "grpc-tok" });
  expectSuccess(await s.execute('{"a":1}', "c1", { identity: { userId: "real-user" } }));
  const md = seen[0];
  assert.ok(md);
  assert.equal(md["x-injected-auth"], "secret-token");
  assert.equal(md["x-omnia-user-id"], "injected-user");
  assert.equal(md["authorization"], "Bearer grpc-tok");
  assert.equal(b.decisions[0]?.json.headers["X-Omnia-Tool-Registry"], "g");
});

// The executor does not execute MCP tools yet (the lead is wiring MCP/OpenAPI).
test("P20: MCP streamable-http with bearer mcp-tok: a broker-injected Authorization wins on the MCP requests", async () => {
  const b = await broker({ allow: true, injectedHeaders: { Authorization: "Bearer broker-tok" } });
  const mcp = await startMcpHttpServer({ transport: "streamable-http" });
  closers.push(() => mcp.close());
  const registry = loadToolRegistry({
    handlers: [{ name: "docs", type: "mcp", mcpConfig: { transport: "streamable-http", endpoint: mcp.url }, auth: { type: "bearer", secretRef: { name: "s", key: "token" } } }],
  });
  const s = setup(registry, b.url, {}, { secrets: () => "mcp-tok" });
  const out = await s.execute('{"text":"hi"}', "c1", {}, "echo");
  assert.equal(out.status, "success", JSON.stringify(out));
  const calls = mcp.requests.filter((r) => r.rpcMethod === "tools/call");
  assert.equal(calls.length, 1);
  assert.equal(calls[0]?.headers["authorization"], "Bearer broker-tok");
});

test("P21: a client tool never asks the broker", async () => {
  const b = await broker({ allow: false, deniedBy: "all", message: "no" });
  const registry = loadToolRegistry({
    handlers: [{ name: "geolocation", type: "client", tool: { name: "get_location", description: "d", inputSchema: { type: "object" } } }],
  });
  const s = setup(registry, b.url);
  const out = await s.execute('{"x":1}', "c1", { clientToolsAvailable: true });
  assert.equal(out.status, "client");
  const denied = await s.execute('{"x":1}', "c2", {});
  assert.equal(denied.status, "denied");
  assert.equal(b.decisions.length, 0);
});

test("P22: retryPolicy max 3, backend 503 twice then 200: exactly one broker request for the whole call", async () => {
  const b = await broker({ allow: true, injectedHeaders: { "X-Obligation": "o" } });
  const server = await backend((_req, res, i) => {
    if (i < 2) {
      res.statusCode = 503;
      res.end("busy");
    } else res.end('{"ok":true}');
  });
  const s = setup(bareRegistry(`${server.url}/t`, "      retryPolicy: { maxAttempts: 3, initialBackoff: 10ms }"), b.url);
  const out = await settle(s.execute(), s.clock);
  expectSuccess(out);
  assert.equal(server.requests.length, 3);
  assert.equal(b.decisions.length, 1);
  assert.deepEqual(server.requests.map((r) => r.headers["x-obligation"]), ["o", "o", "o"], "the injected headers go on every attempt");
  assert.equal(s.recorder.records[0]?.attempts, 3);
});

test("a denial never touches the breaker: 12 denials, then the broker allows and the call goes through", async () => {
  const b = await broker({ allow: false, deniedBy: "r", message: "m" });
  const server = await backend();
  const s = setup(bareRegistry(`${server.url}/t`), b.url);
  for (let i = 0; i < 12; i++) expectDenied(await s.execute("{}", `d${i}`), 'm (rule "r")');
  const url = await closedPortUrl();
  const down = setup(bareRegistry(`${server.url}/t`), url);
  for (let i = 0; i < 12; i++) expectDenied(await down.execute("{}", `u${i}`), POLICY_UNREACHABLE_REASON);
  b.answer({ allow: true });
  expectSuccess(await s.execute("{}", "ok"));
  assert.equal(server.requests.length, 1);
});

test("the caller's signal cancels the decision request, which then counts as a transport failure", async () => {
  await withoutUnhandledRejections(async () => {
    const b = await broker("hang");
    const clock = createManualClock();
    const logger = createCaptureLogger();
    const policy = createPolicyBrokerClient({ url: b.url, clock, logger });
    closers.push(() => policy.close());
    const request = { toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} } as const;
    const controller = new AbortController();
    const pending = policy.decide(request, controller.signal);
    await until(() => b.decisions.length === 1, "the decision request");
    controller.abort();
    assert.deepEqual(await pending, { allow: false, reason: POLICY_UNREACHABLE_REASON });
    assert.match(String(logger.lines.find((l) => l.level === "error")?.fields?.["error"]), /^decision request failed: aborted: /);
    assert.equal(clock.pendingTimers(), 0);

    const already = new AbortController();
    already.abort(new Error("gone"));
    assert.deepEqual(await policy.decide(request, already.signal), { allow: false, reason: POLICY_UNREACHABLE_REASON });
    assert.equal(b.decisions.length, 1, "an aborted call sends nothing");
    assert.equal(logger.lines.filter((l) => l.level === "error").at(-1)?.fields?.["error"], "decision request failed: aborted: gone");

    const open = createPolicyBrokerClient({ url: b.url, clock, failOpen: true });
    closers.push(() => open.close());
    assert.deepEqual(await open.decide(request, already.signal), { allow: true });
  });
});

test("close() closes the client's own agent; a decision after close fails per the fail mode", async () => {
  const b = await broker({ allow: true });
  const policy = createPolicyBrokerClient({ url: b.url });
  const request = { toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} } as const;
  assert.deepEqual(await policy.decide(request), { allow: true });
  await policy.close();
  await policy.close();
  assert.deepEqual(await policy.decide(request), { allow: false, reason: POLICY_UNREACHABLE_REASON });
  assert.equal(b.decisions.length, 1);
});

test("a host dispatcher is used and left open", async () => {
  const { Agent } = await import("undici");
  const agent = new Agent();
  closers.push(() => agent.close());
  const b = await broker({ allow: true });
  const policy = createPolicyBrokerClient({ url: b.url, dispatcher: agent });
  const request = { toolName: "t", handlerName: "h", handlerType: "http", registryName: "h", arguments: null, identity: null, headers: {} } as const;
  assert.deepEqual(await policy.decide(request), { allow: true });
  await policy.close();
  assert.equal(agent.closed, false);
  assert.deepEqual(await createPolicyBrokerClient({ url: b.url, dispatcher: agent }).decide(request), { allow: true });
});

test("options are validated at creation", () => {
  const bad: [unknown, string][] = [
    [{ url: "http://x", timeout: 5 }, 'createPolicyBrokerClient: unknown option "timeout" (did you mean "timeoutMs"?); expected one of url, timeoutMs, failOpen, dispatcher, clock, logger'],
    [{}, "createPolicyBrokerClient: url must be a string (empty to disable); got undefined"],
    [{ url: "localhost:8083" }, 'createPolicyBrokerClient: url must be an http:// or https:// URL; got "localhost:8083"'],
    [{ url: "not a url" }, 'createPolicyBrokerClient: url must be an http:// or https:// URL; got "not a url"'],
    [{ url: "http://x", timeoutMs: 0 }, "createPolicyBrokerClient: timeoutMs must be a positive number of ms; got 0"],
    [{ url: "http://x", timeoutMs: Number.NaN }, "createPolicyBrokerClient: timeoutMs must be a positive number of ms; got NaN"],
    [{ url: "http://x", failOpen: "open" }, 'createPolicyBrokerClient: failOpen must be a boolean; got "open"'],
    [null, "createPolicyBrokerClient: options must be an object; got null"],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => createPolicyBrokerClient(options as PolicyBrokerClientOptions), (e: unknown) => {
      assert.ok(e instanceof InvalidOptionError);
      assert.equal(e.code, "ERR_OMNIA_INVALID_OPTION");
      assert.equal(e.message, message);
      return true;
    });
  }
});

test("a policy function that throws denies (fail closed) unless failOpen, and the broker client never throws", async () => {
  const server = await backend();
  const registry = bareRegistry(`${server.url}/t`);
  const clock = createManualClock();
  const throwing = () => {
    throw new Error("policy engine down");
  };
  const closed = createToolExecutor({ registry, clock, policy: throwing });
  const open = createToolExecutor({ registry, clock, policy: { decide: throwing, failOpen: true } });
  closers.push(() => closed.close(), () => open.close());
  expectDenied(await closed.execute({ id: "a", name: "t", arguments: "{}" }), POLICY_UNREACHABLE_REASON);
  expectSuccess(await open.execute({ id: "b", name: "t", arguments: "{}" }));
  assert.equal(server.requests.length, 1);
});
