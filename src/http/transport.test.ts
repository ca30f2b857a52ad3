import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "undici";
import { sendHttpRequest, MAX_RESPONSE_BYTES } from "./transport.js";
import { HttpTransportError } from "./errors.js";
import { AttemptAbort } from "../retry/index.js";
import { startHttpServer, withoutUnhandledRejections } from "../../test/helpers/http-server.js";

const agent = new Agent({ keepAliveTimeout: 1000 });
after(() => agent.close());

test("P26: a 301 after a POST becomes a GET without a body", async () => {
  const server = await startHttpServer((req, res) => {
    if (req.url === "/r301") {
      res.writeHead(301, { location: "/final" });
      res.end("moved");
    } else {
      res.setHeader("content-type", "application/json");
      res.end('{"final":true}');
    }
  });
  try {
    const out = await sendHttpRequest(agent, {
      method: "POST",
      url: `${server.url}/r301`,
      headers: { "Content-Type": "application/json", "X-Keep": "1" },
      body: '{"a":1}',
    });
    assert.equal(out.status, 200);
    assert.equal(Buffer.from(out.body).toString(), '{"final":true}');
    assert.equal(out.redirects, 1);
    assert.deepEqual(
      server.requests.map((r) => [r.method, r.url, r.body.toString(), r.headers["content-type"], r.headers["x-keep"]]),
      [
        ["POST", "/r301", '{"a":1}', "application/json", "1"],
        ["GET", "/final", "", undefined, "1"],
      ],
    );
  } finally {
    await server.close();
  }
});

test("P27: a 307 resends the method and the body", async () => {
  const server = await startHttpServer((req, res) => {
    if (req.url === "/r307") {
      res.writeHead(307, { location: "/final" });
      res.end();
    } else res.end("ok");
  });
  try {
    const out = await sendHttpRequest(agent, { method: "POST", url: `${server.url}/r307`, headers: {}, body: '{"a":1}' });
    assert.equal(out.status, 200);
    assert.deepEqual(
      server.requests.map((r) => [r.method, r.url, r.body.toString()]),
      [
        ["POST", "/r307", '{"a":1}'],
        ["POST", "/final", '{"a":1}'],
      ],
    );
  } finally {
    await server.close();
  }
});

test("P28: an endless redirect loop stops after 10 redirects with a transport error", async () => {
  const server = await startHttpServer((_req, res) => {
    res.writeHead(302, { location: "/loop" });
    res.end();
  });
  try {
    await assert.rejects(
      sendHttpRequest(agent, { method: "GET", url: `${server.url}/loop`, headers: {} }),
      (e: unknown) => e instanceof HttpTransportError && e.message === `Get "${server.url}/loop": stopped after 10 redirects` && !e.networkClass,
    );
    assert.equal(server.requests.length, 11);
  } finally {
    await server.close();
  }
});

test("a 3xx without Location is returned as a status", async () => {
  const server = await startHttpServer((_req, res) => {
    res.writeHead(302);
    res.end("moved");
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} });
    assert.equal(out.status, 302);
    assert.equal(Buffer.from(out.body).toString(), "moved");
  } finally {
    await server.close();
  }
});

test("P29/P30: a body over 10 MiB is cut at exactly 10,485,760 bytes and marked truncated", async () => {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = await startHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    let sent = 0;
    const total = MAX_RESPONSE_BYTES + 100;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!res.write(chunk.subarray(0, n))) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} });
    assert.equal(out.status, 200);
    assert.equal(out.body.byteLength, MAX_RESPONSE_BYTES);
    assert.equal(out.truncated, true);
    const exact = await sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} }, { maxBodyBytes: MAX_RESPONSE_BYTES + 100 });
    assert.equal(exact.truncated, false, "a body that ends exactly at the cap is not truncated");
  } finally {
    await server.close();
  }
});

test("a non-2xx body is read only as far as the error text needs", async () => {
  const server = await startHttpServer((_req, res) => {
    res.writeHead(500);
    res.end("e".repeat(100_000));
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} });
    assert.equal(out.status, 500);
    assert.equal(out.body.byteLength, 513);
    assert.equal(out.truncated, false);
  } finally {
    await server.close();
  }
});

test("P31: a refused connection is a network-class transport error", async () => {
  await withoutUnhandledRejections(async () => {
    const server = await startHttpServer();
    const url = server.url;
    await server.close();
    await assert.rejects(
      sendHttpRequest(agent, { method: "POST", url: `${url}/x`, headers: {}, body: "{}" }),
      (e: unknown) =>
        e instanceof HttpTransportError &&
        e.networkClass &&
        e.causeCode === "ECONNREFUSED" &&
        e.message === `Post "${url}/x": dial tcp ${url.slice(7)}: connect: connection refused`,
    );
  });
});

test("a relative or non-HTTP URL fails before sending, as Go's unsupported protocol scheme", async () => {
  await assert.rejects(sendHttpRequest(agent, { method: "POST", url: "/users/1", headers: {} }), {
    message: 'Post "/users/1": unsupported protocol scheme ""',
  });
  await assert.rejects(sendHttpRequest(agent, { method: "GET", url: "ftp://x/y", headers: {} }), {
    message: 'Get "ftp://x/y": unsupported protocol scheme "ftp"',
  });
});

test("non-ASCII header values go out as their UTF-8 bytes, as Go sends them", async () => {
  const server = await startHttpServer();
  try {
    await sendHttpRequest(agent, { method: "GET", url: server.url, headers: { "X-Omnia-Param-City": "café ☃" } });
    const got = server.requests[0]?.rawHeaders.find(([n]) => n === "X-Omnia-Param-City");
    assert.deepEqual(got, ["X-Omnia-Param-City", "café ☃"]);
  } finally {
    await server.close();
  }
});

test("a body that breaks off after the headers is a body-read error carrying the status", async () => {
  const server = await startHttpServer((req, res) => {
    res.writeHead(200, { "content-length": "1000" });
    res.write("partial");
    setImmediate(() => req.socket.destroy());
  });
  try {
    await assert.rejects(
      sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} }),
      (e: unknown) => e instanceof HttpTransportError && e.status === 200 && e.message.startsWith("reading response body: "),
    );
  } finally {
    await server.close();
  }
});

test("an aborted signal rejects with the signal's reason", async () => {
  const server = await startHttpServer(() => {
    /* never answers */
  });
  try {
    const controller = new AbortController();
    const reason = new Error("stop");
    const pending = sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} }, { signal: controller.signal });
    setImmediate(() => controller.abort(reason));
    await assert.rejects(pending, (e: unknown) => e === reason);
  } finally {
    await server.close();
  }
});

test("the endpoint's userinfo (user and password) never appears in a transport error (Go hides the password only)", async () => {
  const server = await startHttpServer();
  const port = server.port;
  await server.close();
  await assert.rejects(
    sendHttpRequest(agent, { method: "GET", url: `http://svc:s3cret@127.0.0.1:${port}/x`, headers: {} }),
    (e: unknown) => e instanceof HttpTransportError && e.message === `Get "http://***:***@127.0.0.1:${port}/x": dial tcp 127.0.0.1:${port}: connect: connection refused` && !e.message.includes("s3cret"),
  );
  await assert.rejects(sendHttpRequest(agent, { method: "GET", url: "ftp://u:pw@x/y", headers: {} }), { message: 'Get "ftp://***:***@x/y": unsupported protocol scheme "ftp"' });
});

test("an abort hook settles a request still waiting for a connection at once, and the request never goes out", async () => {
  let arrived = 0;
  const server = await startHttpServer(() => {
    arrived++; // never answers: the one connection stays busy
  });
  const single = new Agent({ connections: 1, pipelining: 1 });
  try {
    const first = new AttemptAbort();
    const busy = sendHttpRequest(single, { method: "GET", url: `${server.url}/a`, headers: {} }, { abort: first });
    const queued = new AttemptAbort();
    const waiting = sendHttpRequest(single, { method: "GET", url: `${server.url}/b`, headers: {} }, { abort: queued });
    const reason = new Error("conversation ended");
    await new Promise((resolve) => setTimeout(resolve, 20));
    queued.abort(reason);
    await assert.rejects(waiting, (e: unknown) => e === reason);
    first.abort(reason);
    await assert.rejects(busy, (e: unknown) => e === reason);
    assert.equal(arrived, 1);
  } finally {
    await single.destroy();
    await server.close();
  }
});

test("an abort hook that has already fired sends nothing", async () => {
  let arrived = 0;
  const server = await startHttpServer((_req, res) => {
    arrived++;
    res.end("ok");
  });
  try {
    const abort = new AttemptAbort();
    const reason = new Error("gone");
    abort.abort(reason);
    await assert.rejects(sendHttpRequest(agent, { method: "GET", url: server.url, headers: {} }, { abort }), (e: unknown) => e === reason);
    assert.equal(arrived, 0);
  } finally {
    await server.close();
  }
});

test("a redirect is followed whatever its body does: past the 64 KiB drain, or broken off (its body is never used)", async () => {
  const bodies: Record<string, (res: import("node:http").ServerResponse) => void> = {
    "past the drain limit": (res) => {
      res.writeHead(302, { location: "/to", "content-length": String(200 * 1024) });
      res.end(Buffer.alloc(200 * 1024, 0x61));
    },
    "broken off": (res) => {
      res.writeHead(307, { location: "/to", "content-length": "1000" });
      res.write("partial");
      setImmediate(() => res.destroy());
    },
  };
  for (const [name, respond] of Object.entries(bodies)) {
    const server = await startHttpServer((req, res) => {
      if (req.url === "/from") respond(res);
      else res.end("arrived");
    });
    try {
      const out = await sendHttpRequest(agent, { method: "GET", url: `${server.url}/from`, headers: {} });
      assert.equal(out.status, 200, name);
      assert.equal(out.redirects, 1, name);
      assert.equal(Buffer.from(out.body).toString(), "arrived", name);
    } finally {
      await server.close();
    }
  }
});

test("a dispatcher that throws synchronously is a transport error, not an unhandled exception", async () => {
  const broken = {
    dispatch() {
      throw Object.assign(new Error("boom"), { code: "ECONNRESET" });
    },
  } as unknown as Agent;
  await assert.rejects(sendHttpRequest(broken, { method: "POST", url: "http://127.0.0.1:1/x", headers: {}, body: "{}" }), {
    name: "HttpTransportError",
    message: 'Post "http://127.0.0.1:1/x": read tcp 127.0.0.1:1: connection reset by peer',
  });
});
