// Security checks (issue #14), end to end through createToolExecutor with the
// bytes captured on the wire:
// - the caller's Authorization (a sentinel) never reaches a backend (HTTP or
//   gRPC), a record, a log line, an outcome or the policy broker;
// - the handler's own secrets (bearer, basic, headersFromSecret, gRPC bearer)
//   reach the backend and nothing else: no record, log line or outcome;
// - urlTemplate path injection (`../`, `?`, `#`, `@`, `//`, encoded variants)
//   is neutralised: the backend gets the value back as one path segment, on
//   the template's host;
// - CR/LF in any argument never reaches the wire as a line break.
// Known gaps are pinned in test/faults/defects/: a whole-segment `.`/`..`
// (D1), a placeholder in the query (D7), a userinfo password (D2).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../../src/core/index.js";
import { serveToolService } from "../../src/grpc/index.js";
import { identityFromMetadata, isValidHeaderName, type Identity } from "../../src/headers/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";
import type { PolicyDecide } from "../../src/policy/index.js";
import type { ToolOutcome } from "../../src/executor/index.js";
import { pathEscape } from "../../src/http/index.js";
import { settle } from "../helpers/settle.js";
import { faultTest, grpcRegistry, httpRegistry, rig, expectError, type Rig } from "../faults/helpers/harness.js";
import { httpResponse, startRawHttpBackend, type RawRequest } from "../faults/helpers/raw-http.js";

const SENTINEL = "Bearer SENTINEL-caller-7f3a";

/** The caller's identity as the facade rehydrates it, plus the token smuggled in as extra fields. */
function callerIdentity(): Identity {
  const { identity } = identityFromMetadata({ authorization: SENTINEL, "x-omnia-user-id": "u1", "x-omnia-claim-tier": "gold", "x-omnia-session-id": "s1" });
  return Object.assign(identity, { authorization: SENTINEL, Authorization: SENTINEL, token: SENTINEL }) as Identity;
}

/** Everything the process produced that someone other than the backend could read. */
function visible(r: Rig, outcomes: ToolOutcome[], extra: unknown[] = []): string {
  return JSON.stringify({ records: r.recorder.records, logs: r.logs, outcomes, extra });
}

/** Header lines of a raw request head, as [lower-case name, value]. */
function headerLines(request: RawRequest): [string, string][] {
  return request.head
    .split("\r\n")
    .slice(1)
    .map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    });
}

faultTest("the caller's Authorization never reaches an HTTP backend, a record, a log line, an outcome or the policy broker", async (ctx) => {
  const backend = await startRawHttpBackend((socket, _q, i) => {
    if (i % 3 === 0) socket.write(httpResponse(200, '{"ok":true}'));
    else if (i % 3 === 1) socket.write(httpResponse(500, "boom"));
    // i % 3 === 2: never answers (timeout)
  });
  ctx.defer(() => backend.close());
  const decisions: unknown[] = [];
  const policy: PolicyDecide = async (request) => {
    decisions.push(request);
    return { allow: true, headers: { "X-Policy": "ok" } };
  };
  const r = rig(ctx, httpRegistry(`${backend.url}/x`, { timeout: "1s", httpConfig: "      retryPolicy: { maxAttempts: 2, retryOn: [500], retryOnNetworkError: true, initialBackoff: 10ms }" }), { policy });
  const outcomes: ToolOutcome[] = [];
  for (let i = 0; i < 4; i++) outcomes.push(await settleCall(r, `c${i}`, callerIdentity()));
  // c0: 200; c1: 500, then a retry that hangs; c2: 200; c3: 500, then a hang.
  assert.deepEqual(outcomes.map((o) => (o.status === "error" ? o.message : o.status)), ["success", "2 attempts exhausted: timed out after 1000ms", "success", "2 attempts exhausted: timed out after 1000ms"]);
  assert.equal(backend.requests.length, 6);
  for (const request of backend.requests) {
    assert.ok(!request.wire.toString("latin1").includes("SENTINEL"), request.head);
    assert.ok(!headerLines(request).some(([name]) => name === "authorization"), request.head);
    assert.ok(headerLines(request).some(([name, value]) => name === "x-omnia-user-id" && value === "u1"), "the identity itself did go through");
  }
  assert.equal(decisions.length, 4);
  assert.ok(!visible(r, outcomes, decisions).includes("SENTINEL"));
  assert.ok(r.logs.some((l) => l.message === "retry attempt"), "the logs under test are not empty");
});

faultTest("the caller's Authorization never reaches a gRPC backend (metadata or request), a record, a log line or an outcome", async (ctx) => {
  const seen: string[] = [];
  let n = 0;
  const server = await serveToolService({
    t: {
      description: "d",
      inputSchema: { type: "object" },
      execute: (args, c) => {
        seen.push(JSON.stringify({ args, headers: c.headers }));
        if (n++ % 2 === 1) throw new Error("tool failed");
        return { ok: true };
      },
    },
  });
  ctx.defer(() => server.close());
  const r = rig(ctx, grpcRegistry(`127.0.0.1:${server.port}`));
  const outcomes: ToolOutcome[] = [];
  for (let i = 0; i < 4; i++) outcomes.push(await settleCall(r, `g${i}`, callerIdentity()));
  assert.deepEqual(outcomes.map((o) => o.status), ["success", "error", "success", "error"]);
  assert.equal(seen.length, 4);
  for (const s of seen) {
    assert.ok(!s.includes("SENTINEL"), s);
    const headers = (JSON.parse(s) as { headers: Record<string, string> }).headers;
    assert.equal(headers["authorization"], undefined);
    assert.equal(headers["x-omnia-user-id"], "u1");
  }
  assert.ok(!visible(r, outcomes).includes("SENTINEL"));
});

faultTest("a handler's secrets reach its backend and nothing else: no record, log line or outcome", async (ctx) => {
  const SECRETS = { bearer: "tok-BEARER-91c2", basic: "svc:pw-BASIC-55e1", header: "key-HEADER-0b7d", grpc: "tok-GRPC-77aa" };
  const basicB64 = Buffer.from(SECRETS.basic).toString("base64");
  const backend = await startRawHttpBackend((socket, _q, i) => socket.write(i % 2 === 0 ? httpResponse(503, "unavailable") : httpResponse(200, "{}")));
  ctx.defer(() => backend.close());
  const grpcSeen: string[] = [];
  const server = await serveToolService({
    grpc: {
      description: "d",
      inputSchema: { type: "object" },
      execute: (_a, c) => {
        grpcSeen.push(c.headers["authorization"] ?? "");
        throw new Error("nope");
      },
    },
  });
  ctx.defer(() => server.close());
  const tool = (name: string) => ({ name, description: "d", inputSchema: { type: "object" } });
  const registry = loadToolRegistry({
    handlers: [
      { name: "b", type: "http", tool: tool("bearer"), auth: { type: "bearer", secretRef: { name: "s", key: "bearer" } }, httpConfig: { endpoint: `${backend.url}/b`, retryPolicy: { maxAttempts: 2, initialBackoff: "10ms" } } },
      { name: "p", type: "http", tool: tool("basic"), auth: { type: "basic", secretRef: { name: "s", key: "basic" } }, httpConfig: { endpoint: `${backend.url}/p` } },
      { name: "x", type: "http", tool: tool("header"), httpConfig: { endpoint: `${backend.url}/x`, headersFromSecret: { "X-Api-Key": { name: "s", key: "header" } } } },
      { name: "g", type: "grpc", tool: tool("grpc"), auth: { type: "bearer", secretRef: { name: "s", key: "grpc" } }, grpcConfig: { endpoint: `127.0.0.1:${server.port}` } },
    ],
  });
  const r = rig(ctx, registry, { secrets: (ref) => SECRETS[ref.key as keyof typeof SECRETS] });
  const outcomes: ToolOutcome[] = [];
  for (const name of ["bearer", "basic", "header", "grpc", "bearer"]) outcomes.push(await settleNamed(r, name));
  const wire = backend.requests.map((q) => q.head).join("\n");
  assert.ok(wire.includes(`Bearer ${SECRETS.bearer}`) && wire.includes(`Basic ${basicB64}`) && wire.includes(SECRETS.header), "the secrets are in use");
  assert.deepEqual(grpcSeen, [`Bearer ${SECRETS.grpc}`]);
  const text = visible(r, outcomes);
  for (const secret of [...Object.values(SECRETS), basicB64, "BEARER-91c2", "BASIC-55e1", "HEADER-0b7d", "GRPC-77aa"]) assert.ok(!text.includes(secret), `${secret} leaked`);
  assert.ok(r.logs.length > 0 && r.recorder.records.length === 5);
});

faultTest("a secret that is not a legal header value fails the call with the header's name only; nothing is sent", async (ctx) => {
  const backend = await startRawHttpBackend((socket) => socket.write(httpResponse(200, "{}")));
  ctx.defer(() => backend.close());
  const registry = loadToolRegistry({
    handlers: [
      { name: "h", type: "http", tool: { name: "t", description: "d", inputSchema: { type: "object" } }, auth: { type: "bearer", secretRef: { name: "s", key: "k" } }, httpConfig: { endpoint: `${backend.url}/x` } },
    ],
  });
  const r = rig(ctx, registry, { secrets: () => "tok-CR-SECRET\r\nX-Injected: 1" });
  const out = await r.call("cr");
  expectError(out, "creating HTTP request: invalid Authorization header", "ERR_OMNIA_HTTP_REQUEST");
  assert.equal(backend.connections(), 0);
  assert.ok(!visible(r, [out]).includes("CR-SECRET"));
});

const PATH_PAYLOADS = [
  "../admin",
  "../../etc/passwd",
  "..%2Fadmin",
  "%2e%2e%2fadmin",
  "..\\..\\admin",
  "a/b/c",
  "//evil.example/x",
  "?admin=true",
  "x?admin=true&y=1",
  "#fragment",
  "x#/../../admin",
  "@evil.example",
  "user:pass@evil.example",
  "%00",
  "\u0000",
  "%252e%252e",
  ";jsessionid=1",
  " space ",
  "\u2025",
  "é/../",
  "\r\nHost: evil.example",
];

faultTest("urlTemplate path injection is neutralised: the backend gets each value back as one path segment, on the template's host", async (ctx) => {
  const backend = await startRawHttpBackend((socket) => socket.write(httpResponse(200, "{}")));
  ctx.defer(() => backend.close());
  const r = rig(ctx, httpRegistry(`${backend.url}/x`, { httpConfig: `      method: GET\n      urlTemplate: ${backend.url}/api/users/{id}/profile` }));
  for (const [i, id] of PATH_PAYLOADS.entries()) assert.equal((await r.call(`p${i}`, JSON.stringify({ id }))).status, "success", id);
  // A percent-encoded dot segment is refused like "." and ".." (issue #19), nothing sent.
  expectError(await r.call("dots", JSON.stringify({ id: "%2E%2E" })), 'urlTemplate: argument "id" would be a dot path segment; got "%2E%2E"', "ERR_OMNIA_HTTP_REQUEST");
  assert.equal(backend.requests.length, PATH_PAYLOADS.length);
  for (const [i, request] of backend.requests.entries()) {
    const id = PATH_PAYLOADS[i] as string;
    const target = request.head.split("\r\n")[0]?.split(" ")[1] ?? "";
    assert.equal(target, `/api/users/${pathEscape(id)}/profile`, JSON.stringify(id));
    const segments = target.split("/");
    assert.equal(segments.length, 5, target);
    assert.equal(decodeURIComponent(segments[3] ?? ""), id, "the backend can recover the value exactly");
    assert.ok(!target.includes("?") && !target.includes("#"));
    assert.deepEqual(headerLines(request).filter(([name]) => name === "host"), [["host", `127.0.0.1:${backend.port}`]]);
  }
});

faultTest("CR/LF in any argument never reaches the wire as a line break: body, query, path, headerParams and x-omnia-param-* all hold", async (ctx) => {
  const backend = await startRawHttpBackend((socket) => socket.write(httpResponse(200, "{}")));
  ctx.defer(() => backend.close());
  const evil = "v\r\nX-Injected: 1\r\n\r\nGET /smuggled HTTP/1.1";
  const nul = "n\u0000ul";
  const post = rig(ctx, httpRegistry(`${backend.url}/x`, { httpConfig: `      method: POST\n      urlTemplate: ${backend.url}/items/{id}\n      headerParams: { user: X-User }\n      queryParams: [page]` }));
  const out1 = await post.call("post", JSON.stringify({ id: evil, user: evil, page: evil, note: evil, tag: nul, [evil]: 1 }));
  assert.equal(out1.status, "success");
  const get = rig(ctx, httpRegistry(`${backend.url}/x`, { httpConfig: "      method: GET" }));
  const out2 = await get.call("get", JSON.stringify({ q: evil, tag: nul }));
  assert.equal(out2.status, "success");
  // A caller identity whose claim value carries CR/LF is skipped, never sent.
  const out3 = await settleCall(get, "claim", { userId: "u1", claims: { role: evil } });
  assert.equal(out3.status, "success");
  assert.equal(backend.requests.length, 3, "exactly the three requests sent: nothing smuggled");
  for (const request of backend.requests) {
    const lines = request.head.split("\r\n");
    assert.match(lines[0] ?? "", /^(POST|GET) \/[\x21-\x7e]* HTTP\/1\.1$/);
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      assert.ok(colon > 0 && isValidHeaderName(line.slice(0, colon)) && !/[\r\n\0]/.test(line), `header line ${JSON.stringify(line)}`);
    }
    assert.ok(!headerLines(request).some(([name]) => name === "x-injected"), request.head);
    assert.ok(!/[\r\n]/.test(request.body.toString("latin1")), "a raw line break in the body");
  }
  // The POST body carries the values JSON-escaped, exactly.
  const body = JSON.parse(backend.requests[0]?.body.toString("utf8") ?? "null") as Record<string, unknown>;
  assert.deepEqual(body, { note: evil, tag: nul, [evil]: 1 });
  // What was dropped is logged by header name only.
  assert.ok(post.logs.some((l) => l.message === "skipping a headerParams header with an invalid value" && JSON.stringify(l.fields) === '{"header":"X-User","tool":"t"}'));
  assert.ok(!JSON.stringify([post.logs, get.logs]).includes("X-Injected: 1"));
});

test("a static header with CR/LF in the manifest is refused at load, before any call", () => {
  assert.throws(
    () => httpRegistry("http://127.0.0.1:9/x", { httpConfig: '      headers: { X-A: "v\\r\\nX-Injected: 1" }' }),
    (e: unknown) => e instanceof ConfigError && e.message === 'handlers[0].httpConfig.headers["X-A"]: invalid header value: it holds a control character (CR, LF, NUL, ...)',
  );
});

/** One call of tool `t` with a caller identity, driven on the manual clock. */
function settleCall(r: Rig, id: string, identity: Identity): Promise<ToolOutcome> {
  return settle(r.ex.execute({ id, name: "t", arguments: '{"q":"x"}' }, { identity }), r.clock);
}

/** One call of the named tool, driven on the manual clock. */
function settleNamed(r: Rig, name: string): Promise<ToolOutcome> {
  return settle(r.ex.execute({ id: `${name}-${r.recorder.records.length}`, name, arguments: "{}" }, { identity: callerIdentity() }), r.clock);
}
