// Issue #19 item 4: a redirect to another origin carries no secret. The other
// origin is a real server on 127.0.0.2 (loopback on Linux); it records what it got.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Agent } from "undici";
import { sendHttpRequest, sensitiveHeaderNames, ALWAYS_SENSITIVE_HEADERS } from "../../src/http/transport.js";
import { startHttpServer } from "../helpers/http-server.js";

const agent = new Agent({ keepAliveTimeout: 1000 });
after(() => agent.close());

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A recording server on 127.0.0.2 that answers `{"other":true}`. */
async function otherOrigin(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.setHeader("content-type", "application/json");
      res.end('{"other":true}');
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.2:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const SECRET_HEADERS = {
  Authorization: "Bearer handler-token",
  Cookie: "session=abc",
  "X-Omnia-Delegation": "delegation-jwt",
  "X-Api-Key": "from-headersFromSecret",
  "X-Vault-Token": "from-auth",
  "X-Broker-Grant": "injected-by-policy",
  "Proxy-Authorization": "Basic cHJveHk6cHc=",
  "X-Request-Id": "req-1",
  "Content-Type": "application/json",
};
const SENSITIVE = sensitiveHeaderNames({ "X-Vault-Token": "from-auth" }, { "X-Api-Key": "from-headersFromSecret" }, { "X-Broker-Grant": "injected-by-policy" });

test("sensitiveHeaderNames lower-cases every record's names; the always-sensitive set is Go's four plus proxy and delegation", () => {
  assert.deepEqual([...SENSITIVE].sort(), ["x-api-key", "x-broker-grant", "x-vault-token"]);
  assert.deepEqual([...ALWAYS_SENSITIVE_HEADERS].sort(), ["authorization", "cookie", "cookie2", "proxy-authorization", "www-authenticate", "x-omnia-delegation"]);
});

test("a 302 to another host (127.0.0.2) drops every secret header and keeps the rest", async () => {
  const other = await otherOrigin();
  const origin = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/landing` });
    res.end();
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: `${origin.url}/start`, headers: SECRET_HEADERS }, { sensitiveHeaders: SENSITIVE });
    assert.equal(out.status, 200);
    assert.equal(Buffer.from(out.body).toString(), '{"other":true}');
    assert.equal(out.redirects, 1);
    assert.equal(origin.requests[0]?.headers["x-api-key"], "from-headersFromSecret", "the origin itself got them");
    assert.equal(other.seen.length, 1);
    const got = other.seen[0]!;
    assert.deepEqual(Object.keys(got.headers).filter((n) => !["accept", "accept-encoding", "accept-language", "connection", "host", "sec-fetch-mode", "user-agent"].includes(n)).sort(), ["x-request-id"]);
    for (const name of ["authorization", "cookie", "x-omnia-delegation", "x-api-key", "x-vault-token", "x-broker-grant", "proxy-authorization"]) {
      assert.equal(got.headers[name], undefined, `${name} reached the other origin`);
    }
    assert.equal(got.headers["x-request-id"], "req-1");
  } finally {
    await origin.close();
    await other.close();
  }
});

test("another port on the same host is another origin; the secrets stay dropped when the chain comes back", async () => {
  const second = await startHttpServer();
  const first = await startHttpServer((req, res) => {
    if (req.url === "/start") {
      res.writeHead(302, { location: `${second.url}/hop` });
      res.end();
    } else res.end('{"back":true}');
  });
  second.handle((_req, res) => {
    res.writeHead(301, { location: `${first.url}/home` });
    res.end();
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: `${first.url}/start`, headers: SECRET_HEADERS }, { sensitiveHeaders: SENSITIVE });
    assert.equal(Buffer.from(out.body).toString(), '{"back":true}');
    assert.deepEqual(
      [...first.requests, ...second.requests].map((r) => [r.url, r.headers["authorization"] ?? "-", r.headers["x-api-key"] ?? "-", r.headers["x-request-id"]]),
      [
        ["/start", "Bearer handler-token", "from-headersFromSecret", "req-1"],
        ["/home", "-", "-", "req-1"],
        ["/hop", "-", "-", "req-1"],
      ],
    );
  } finally {
    await first.close();
    await second.close();
  }
});

test("a same-origin redirect keeps every header", async () => {
  const server = await startHttpServer((req, res) => {
    if (req.url === "/a") {
      res.writeHead(307, { location: "/b" });
      res.end();
    } else res.end("{}");
  });
  try {
    await sendHttpRequest(agent, { method: "POST", url: `${server.url}/a`, headers: SECRET_HEADERS, body: '{"q":1}' }, { sensitiveHeaders: SENSITIVE });
    assert.deepEqual(
      server.requests.map((r) => [r.method, r.url, r.body.toString(), r.headers["authorization"], r.headers["x-api-key"], r.headers["x-omnia-delegation"]]),
      [
        ["POST", "/a", '{"q":1}', "Bearer handler-token", "from-headersFromSecret", "delegation-jwt"],
        ["POST", "/b", '{"q":1}', "Bearer handler-token", "from-headersFromSecret", "delegation-jwt"],
      ],
    );
  } finally {
    await server.close();
  }
});

test("a 307 and a 308 that would resend a POST body to another origin are not followed: the redirect is the answer", async () => {
  for (const status of [307, 308]) {
    const other = await otherOrigin();
    const origin = await startHttpServer((_req, res) => {
      res.writeHead(status, { location: `${other.url}/steal`, "content-type": "text/plain" });
      res.end("moved");
    });
    try {
      const out = await sendHttpRequest(agent, { method: "POST", url: `${origin.url}/submit`, headers: SECRET_HEADERS, body: '{"card":"4111"}' }, { sensitiveHeaders: SENSITIVE });
      assert.equal(out.status, status);
      assert.equal(Buffer.from(out.body).toString(), "moved");
      assert.equal(out.redirects, 0);
      assert.equal(other.seen.length, 0, "nothing reached the other origin");
    } finally {
      await origin.close();
      await other.close();
    }
  }
});

test("a 303 after a POST to another origin becomes a bodiless GET without secrets (Go's rule)", async () => {
  const other = await otherOrigin();
  const origin = await startHttpServer((_req, res) => {
    res.writeHead(303, { location: `${other.url}/done` });
    res.end();
  });
  try {
    const out = await sendHttpRequest(agent, { method: "POST", url: `${origin.url}/submit`, headers: SECRET_HEADERS, body: '{"card":"4111"}' }, { sensitiveHeaders: SENSITIVE });
    assert.equal(out.status, 200);
    assert.deepEqual(
      other.seen.map((s) => [s.method, s.url, s.body, s.headers["content-type"] ?? "-", s.headers["authorization"] ?? "-", s.headers["x-api-key"] ?? "-"]),
      [["GET", "/done", "", "-", "-", "-"]],
    );
  } finally {
    await origin.close();
    await other.close();
  }
});

test("without sensitiveHeaders, Authorization, Cookie and x-omnia-delegation are still dropped", async () => {
  const other = await otherOrigin();
  const origin = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/x` });
    res.end();
  });
  try {
    await sendHttpRequest(agent, { method: "GET", url: `${origin.url}/`, headers: SECRET_HEADERS });
    const got = other.seen[0]!.headers;
    assert.deepEqual([got["authorization"], got["cookie"], got["x-omnia-delegation"], got["proxy-authorization"], got["x-api-key"]], [undefined, undefined, undefined, undefined, "from-headersFromSecret"]);
  } finally {
    await origin.close();
    await other.close();
  }
});

// Issue #31 item 3: a hop to a third-party origin carries no identity, PII or trace context either.
const IDENTITY_HEADERS = {
  "X-Omnia-User-Id": "u-42",
  "X-Omnia-User-Email": "alice@example.com",
  "X-Omnia-Claim-Tenant": "acme",
  "X-Omnia-Param-Q": "model text",
  traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
  tracestate: "vendor=secret",
  baggage: "tenant=acme,user=alice",
  "X-Request-Id": "req-1",
};

test("a 302 to another origin drops every x-omnia-* header and traceparent, tracestate and baggage; a same-origin hop keeps them", async () => {
  const other = await otherOrigin();
  const origin = await startHttpServer((req, res) => {
    if (req.url === "/start") {
      res.writeHead(302, { location: "/again" });
      return void res.end();
    }
    res.writeHead(302, { location: `${other.url}/landing` });
    res.end();
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: `${origin.url}/start`, headers: IDENTITY_HEADERS });
    assert.equal(out.redirects, 2);
    const names = Object.keys(IDENTITY_HEADERS).map((n) => n.toLowerCase());
    const present = (headers: IncomingMessage["headers"]): string[] => names.filter((n) => headers[n] !== undefined);
    assert.deepEqual(
      origin.requests.map((r) => [r.url, present(r.headers)]),
      [
        ["/start", names],
        ["/again", names],
      ],
    );
    assert.deepEqual(other.seen.map((s) => [s.url, present(s.headers)]), [["/landing", ["x-request-id"]]]);
  } finally {
    await origin.close();
    await other.close();
  }
});
