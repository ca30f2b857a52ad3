import { test } from "node:test";
import assert from "node:assert/strict";
import { createCaptureLogger } from "../../test/helpers/capture-logger.js";
import type { Identity } from "./identity.js";
import { mergeGrpcToolMetadata, mergeHttpToolHeaders } from "./merge.js";
import { buildHttpToolHeaders, buildOmniaGrpcMetadata, buildOmniaHeaders } from "./omnia-headers.js";

const lowerKeys = (h: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

test("H1/H6: param headers come from the original args, including ones a template consumes", () => {
  assert.deepEqual(buildOmniaHeaders({ args: { customer_id: "cust-1", count: 5, nested: { skip: true } } }), {
    "x-omnia-param-CustomerId": "cust-1",
    "x-omnia-param-Count": "5",
  });
  assert.deepEqual(buildOmniaHeaders({ args: '{"id":"7"}', toolName: "t" }), { "x-omnia-tool-name": "t", "x-omnia-param-Id": "7" });
});

test("H7: raw array args give no param header and no error", () => {
  assert.deepEqual(buildOmniaHeaders({ args: "[1,2]" }), {});
});

test("H8: the identity headers", () => {
  const identity: Identity = { agentName: "test-agent", namespace: "production", userId: "user-1", provider: "claude", claims: { team: "eng" } };
  assert.deepEqual(lowerKeys(buildOmniaHeaders({ identity })), {
    "x-omnia-agent-name": "test-agent",
    "x-omnia-namespace": "production",
    "x-omnia-user-id": "user-1",
    "x-omnia-provider": "claude",
    "x-omnia-claim-team": "eng",
  });
});

test("H9/H10: tool headers only when set; an empty context gives nothing", () => {
  assert.deepEqual(buildOmniaHeaders({ toolName: "my-tool", handlerName: "my-registry" }), {
    "x-omnia-tool-name": "my-tool",
    "x-omnia-tool-registry": "my-registry",
  });
  assert.deepEqual(buildOmniaHeaders({ toolName: "", handlerName: "" }), {});
  assert.deepEqual(buildOmniaHeaders({}), {});
  assert.deepEqual(buildOmniaGrpcMetadata({}), {});
});

const H11_IDENTITY = {
  agentName: "agent-a",
  namespace: "ns1",
  sessionId: "sess-1",
  requestId: "req-1",
  userId: "user-1",
  userEmail: "u@example.com",
  authorization: "Bearer caller-jwt",
  provider: "claude",
  model: "claude-x",
  origin: "oidc",
  workspace: "ws1",
  claims: { tier: "gold", customer_id: "c9" },
} as Identity;

test("H11: the full header set of a POST with empty args, merged with static and auth headers", () => {
  const omnia = buildOmniaHeaders({ identity: H11_IDENTITY, toolName: "my_tool", handlerName: "my-handler", args: "{}" });
  const headers = mergeHttpToolHeaders({ headers: { "X-Static": "s" }, auth: { Authorization: "Bearer tool-tok" }, omnia });
  assert.deepEqual(lowerKeys(headers), {
    authorization: "Bearer tool-tok",
    "x-omnia-agent-name": "agent-a",
    "x-omnia-claim-customer_id": "c9",
    "x-omnia-claim-tier": "gold",
    "x-omnia-model": "claude-x",
    "x-omnia-namespace": "ns1",
    "x-omnia-origin": "oidc",
    "x-omnia-provider": "claude",
    "x-omnia-request-id": "req-1",
    "x-omnia-session-id": "sess-1",
    "x-omnia-tool-name": "my_tool",
    "x-omnia-tool-registry": "my-handler",
    "x-omnia-user-email": "u@example.com",
    "x-omnia-user-id": "user-1",
    "x-omnia-workspace": "ws1",
    "x-static": "s",
  });
});

test("H13: with no tool auth there is no Authorization at all", () => {
  const omnia = buildOmniaHeaders({ identity: H11_IDENTITY, toolName: "t", args: { authorization: "x" } });
  const headers = mergeHttpToolHeaders({ contentType: "application/json", omnia });
  assert.equal(Object.keys(headers).some((k) => k.toLowerCase() === "authorization"), false);
  assert.equal(JSON.stringify(headers).includes("caller-jwt"), false);
  assert.equal(headers["x-omnia-param-Authorization"], "x");
});

test("H18/H19: an arg with a newline is skipped, the request proceeds; TAB and UTF-8 are kept", () => {
  assert.deepEqual(buildOmniaHeaders({ toolName: "t", args: { q: "a\nb" } }), { "x-omnia-tool-name": "t" });
  assert.deepEqual(buildOmniaHeaders({ args: { q: "a\tb" } }), { "x-omnia-param-Q": "a\tb" });
  assert.deepEqual(buildOmniaHeaders({ args: { q: "café ☃" } }), { "x-omnia-param-Q": "café ☃" });
});

test("delegation token (seed 004) on both hops", () => {
  assert.deepEqual(buildOmniaHeaders({ delegationToken: "eyJ.x.y" }), { "x-omnia-delegation": "eyJ.x.y" });
  assert.deepEqual(buildOmniaGrpcMetadata({ delegationToken: "eyJ.x.y" }), { "x-omnia-delegation": "eyJ.x.y" });
  assert.deepEqual(buildOmniaHeaders({ delegationToken: "" }), {});
});

test("agent info: runtime name/namespace/provider/model win; the token's workspace wins over the agent's", () => {
  const identity: Identity = { agentName: "facade-a", namespace: "facade-ns", workspace: "token-ws", provider: "facade-p", model: "facade-m" };
  const agent = { name: "agent-a", namespace: "ns1", workspace: "agent-ws", provider: "claude", model: "claude-x" };
  assert.deepEqual(buildOmniaHeaders({ identity, agent }), {
    "x-omnia-agent-name": "agent-a",
    "x-omnia-namespace": "ns1",
    "x-omnia-provider": "claude",
    "x-omnia-model": "claude-x",
    "x-omnia-workspace": "token-ws",
  });
  assert.deepEqual(buildOmniaHeaders({ identity: {}, agent }), {
    "x-omnia-agent-name": "agent-a",
    "x-omnia-namespace": "ns1",
    "x-omnia-provider": "claude",
    "x-omnia-model": "claude-x",
    "x-omnia-workspace": "agent-ws",
  });
});

test("agent info: a runtime without a provider or model sends neither, even if the facade did (seed 003)", () => {
  const identity: Identity = { agentName: "a", provider: "facade-p", model: "facade-m" };
  assert.deepEqual(buildOmniaHeaders({ identity, agent: { provider: "claude" } }), { "x-omnia-agent-name": "a", "x-omnia-provider": "claude" });
  assert.deepEqual(buildOmniaHeaders({ identity, agent: {} }), { "x-omnia-agent-name": "a" });
  // Without agent info the identity's values pass through.
  assert.deepEqual(buildOmniaHeaders({ identity }), { "x-omnia-agent-name": "a", "x-omnia-provider": "facade-p", "x-omnia-model": "facade-m" });
});

test("session id: the explicit value replaces the identity's; \"\" suppresses it (WebSocket conversations)", () => {
  const identity: Identity = { sessionId: "from-facade" };
  assert.deepEqual(buildOmniaHeaders({ identity }), { "x-omnia-session-id": "from-facade" });
  assert.deepEqual(buildOmniaHeaders({ identity, sessionId: "s2" }), { "x-omnia-session-id": "s2" });
  assert.deepEqual(buildOmniaHeaders({ identity, sessionId: "" }), {});
  assert.deepEqual(buildOmniaGrpcMetadata({ identity, sessionId: "" }), {});
});

test("subject id on the tool hop: absent when the token holder is the end user (seed 004)", () => {
  assert.deepEqual(buildOmniaHeaders({ identity: { userId: "u", subjectId: "u" } }), { "x-omnia-user-id": "u" });
  assert.deepEqual(buildOmniaHeaders({ identity: { userId: "u", subjectId: "svc" } }), { "x-omnia-user-id": "u", "x-omnia-subject-id": "svc" });
  assert.deepEqual(buildOmniaGrpcMetadata({ identity: { userId: "u", subjectId: "u" } }), { "x-omnia-user-id": "u" });
});

test("the caller's identity object is not modified", () => {
  const identity: Identity = { userId: "u", subjectId: "u", sessionId: "s" };
  buildOmniaHeaders({ identity, sessionId: "", agent: { name: "a" } });
  assert.deepEqual(identity, { userId: "u", subjectId: "u", sessionId: "s" });
});

test("gRPC: lowercase identity and tool keys, no x-omnia-param-*, then authorization and injected on top", () => {
  const md = buildOmniaGrpcMetadata({ identity: H11_IDENTITY, toolName: "my_tool", handlerName: "my-handler", args: { customer_id: "c" } });
  assert.deepEqual(md, {
    "x-omnia-agent-name": "agent-a",
    "x-omnia-namespace": "ns1",
    "x-omnia-session-id": "sess-1",
    "x-omnia-request-id": "req-1",
    "x-omnia-user-id": "user-1",
    "x-omnia-user-email": "u@example.com",
    "x-omnia-provider": "claude",
    "x-omnia-model": "claude-x",
    "x-omnia-origin": "oidc",
    "x-omnia-workspace": "ws1",
    "x-omnia-claim-tier": "gold",
    "x-omnia-claim-customer_id": "c9",
    "x-omnia-tool-name": "my_tool",
    "x-omnia-tool-registry": "my-handler",
  });
  const final = mergeGrpcToolMetadata({ omnia: md, authorization: "Bearer tool", injected: { "X-Omnia-Tool-Name": "injected" } });
  assert.equal(final.authorization, "Bearer tool");
  assert.equal(final["x-omnia-tool-name"], "injected");
  assert.equal(Object.keys(final).some((k) => k.startsWith("x-omnia-param-")), false);
});

test("invalid tool values are skipped and logged", () => {
  const logger = createCaptureLogger();
  assert.deepEqual(buildOmniaHeaders({ toolName: "a\r\nb", handlerName: "h", logger }), { "x-omnia-tool-registry": "h" });
  assert.deepEqual(buildOmniaGrpcMetadata({ toolName: "tööl", logger }), {});
  assert.deepEqual(
    logger.lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["warn", "headers: skipped a tool header with an invalid value", { header: "x-omnia-tool-name" }],
      ["warn", "headers: skipped a tool header with an invalid value", { header: "x-omnia-tool-name" }],
    ],
  );
});

test("buildHttpToolHeaders: the same names, values and order as merging Content-Type with buildOmniaHeaders", () => {
  const identity: Identity = { agentName: "a", namespace: "ns", sessionId: "s-1", requestId: "r-1", userId: "u", userEmail: "u@example.com", claims: { tier: "gold", "bad\nclaim": "x", Team: "pay\u00e9" } };
  const contexts = [
    { identity, toolName: "get_weather", handlerName: "weather", args: '{"city":"Paris","days":3,"ok":true,"deep":{"x":1}}' },
    { identity, toolName: "t", handlerName: "h", sessionId: "s-2", delegationToken: "tok", args: { q: "a b", n: 1.5 } },
    { toolName: "t" },
    { identity: {}, toolName: "", handlerName: "", args: "not json" },
  ];
  for (const ctx of contexts) {
    for (const contentType of [undefined, "application/json", "text/plain; charset=utf-8"]) {
      const direct = buildHttpToolHeaders(contentType, { ...ctx, logger: createCaptureLogger() });
      const merged = mergeHttpToolHeaders({ contentType, omnia: buildOmniaHeaders({ ...ctx, logger: createCaptureLogger() }) });
      assert.deepEqual(Object.entries(direct), Object.entries(merged), `${JSON.stringify(ctx)} ${contentType}`);
    }
  }
  assert.deepEqual(Object.keys(buildHttpToolHeaders("application/json", contexts[0]!)).slice(0, 2), ["Content-Type", "x-omnia-agent-name"]);
});
