// Issue #19 item 19 and issue #20 item 8: where undici and Go's client differ,
// the model sees Go's words, never an undici assertion. Each case is a raw
// HTTP/1.1 server on 127.0.0.1 that writes exactly the bytes under test.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Agent } from "undici";
import { sendHttpRequest, createDefaultDispatcher } from "../../src/http/transport.js";
import { HttpTransportError } from "../../src/http/errors.js";
import { startRawHttpBackend, httpResponse } from "../faults/helpers/raw-http.js";
import { closedPort } from "../helpers/resources.js";
import { goLocationError } from "../../src/http/go-location.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";

const agent = new Agent({ keepAliveTimeout: 1000 });
const own = createDefaultDispatcher();
after(async () => {
  await agent.close();
  await own.close();
});

async function failure(raw: string | Buffer, url = ""): Promise<{ message: string; networkClass: boolean; requests: number; base: string }> {
  const server = await startRawHttpBackend((socket) => socket.end(raw));
  try {
    const base = `${server.url}${url}`;
    const error = await sendHttpRequest(agent, { method: "POST", url: base, headers: {}, body: "{}" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpTransportError, `expected HttpTransportError, got ${String(error)}`);
    return { message: error.message, networkClass: error.networkClass, requests: server.requests.length, base };
  } finally {
    await server.close();
  }
}

const BROKEN = "net/http: HTTP/1.x transport connection broken: ";

test("status 000 and 099: Go's malformed-status text, not undici's assert(statusCode >= 100)", async () => {
  for (const code of ["000", "099"]) {
    const out = await failure(`HTTP/1.1 ${code} Zero\r\nContent-Length: 2\r\n\r\nhi`);
    assert.equal(out.message, `Post "${out.base}": ${BROKEN}malformed HTTP status code "${code}"`);
    assert.equal(out.networkClass, false);
    assert.ok(!out.message.includes("assert"));
  }
});

test("a status that is not digits, a four-digit status, a response that is not HTTP: Go's ReadResponse texts", async () => {
  assert.equal((await failure("HTTP/1.1 abc X\r\nContent-Length: 0\r\n\r\n")).message.split(": ").slice(1).join(": "), `${BROKEN}malformed HTTP status code "abc"`);
  assert.equal((await failure("HTTP/1.1 1000 X\r\nContent-Length: 0\r\n\r\n")).message.split(": ").slice(1).join(": "), `${BROKEN}malformed HTTP status code`);
  assert.equal((await failure("NOT-HTTP\r\n\r\n")).message.split(": ").slice(1).join(": "), `${BROKEN}malformed HTTP response "NOT-HTTP"`);
});

test("response headers: 1 MiB is read through the executor's own Agent (Go's limit is 10 MiB); past 10 MiB, Go's text", async () => {
  const big = await startRawHttpBackend((socket) => socket.end(httpResponse(200, '{"ok":1}', { "x-big": "a".repeat(1024 * 1024) })));
  try {
    const out = await sendHttpRequest(own, { method: "GET", url: `${big.url}/x`, headers: {} });
    assert.equal(out.status, 200);
    assert.equal(Buffer.from(out.body).toString(), '{"ok":1}');
    assert.equal((out.headers["x-big"] as string).length, 1024 * 1024);
  } finally {
    await big.close();
  }
  const huge = await startRawHttpBackend((socket) => socket.end(httpResponse(200, "{}", { "x-big": "a".repeat(10 * 1024 * 1024 + 1) })));
  try {
    await assert.rejects(sendHttpRequest(own, { method: "GET", url: `${huge.url}/x`, headers: {} }), {
      message: `Get "${huge.url}/x": ${BROKEN}net/http: server response headers exceeded 10485760 bytes; aborted`,
    });
  } finally {
    await huge.close();
  }
});

test("an unsolicited 100 Continue: a typed transport error naming it (undici drops the connection; Go would skip it)", async () => {
  const out = await failure("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  assert.equal(out.message, `Post "${out.base}": ${BROKEN}unsolicited 100 Continue response`);
});

test("an unparsable Location: Go's `failed to parse Location header` text, and nothing is sent on", async () => {
  for (const [location, reason] of [
    ["http://[::1", `parse "http://[::1": missing ']' in host`],
    ["http://a b/", `parse "http://a b/": invalid character " " in host name`],
    ["/x%zz", `parse "/x%zz": invalid URL escape "%zz"`],
    ["http://h:8o/", `parse "http://h:8o/": invalid port ":8o" after host`],
    [":nope", `parse ":nope": missing protocol scheme`],
  ] as const) {
    const out = await failure(httpResponse(302, "", { location }), "/start");
    assert.equal(out.message, `Post "${out.base}": failed to parse Location header ${JSON.stringify(location)}: ${reason}`);
    assert.equal(out.requests, 1);
  }
});

test("two Location headers: the first is followed, as Go's Header.Get reads it", async () => {
  const server = await startRawHttpBackend((socket, request) => {
    if (request.head.startsWith("GET /start ")) socket.write(httpResponse(302, "", { location: "/first", "x-dup": "1" }).toString("latin1").replace("x-dup: 1\r\n", "location: /second\r\n"));
    else socket.write(httpResponse(200, `{"at":"${request.head.split(" ")[1]}"}`));
  });
  try {
    const out = await sendHttpRequest(agent, { method: "GET", url: `${server.url}/start`, headers: {} });
    assert.equal(Buffer.from(out.body).toString(), '{"at":"/first"}');
    assert.deepEqual(
      server.requests.map((r) => r.head.split("\r\n")[0]),
      ["GET /start HTTP/1.1", "GET /first HTTP/1.1"],
    );
  } finally {
    await server.close();
  }
});

test("an endpoint with an empty path is printed as Go's url.URL.String() prints it: no / added", async () => {
  const port = await closedPort();
  for (const [url, shown] of [
    [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
    [`http://127.0.0.1:${port}?a=1`, `http://127.0.0.1:${port}?a=1`],
    [`http://127.0.0.1:${port}/`, `http://127.0.0.1:${port}/`],
    [`http://127.0.0.1:${port}/x`, `http://127.0.0.1:${port}/x`],
  ] as const) {
    await assert.rejects(sendHttpRequest(agent, { method: "POST", url, headers: {}, body: "{}" }), {
      message: `Post "${shown}": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
  }
});

test("goLocationError accepts what Go's url.Parse accepts", () => {
  for (const ok of ["/a/b?c=%zz", "http://h:80/p", "https://[::1]:8/x", "mailto:x@y", "rel/path", "//host/p", "http://u:p@h/", "#frag", "http://h/%41"]) {
    assert.equal(goLocationError(ok), undefined, ok);
  }
  assert.equal(goLocationError("/a#%zz"), `parse "/a#%zz": invalid URL escape "%zz"`);
  assert.equal(goLocationError("a:b/c"), undefined);
  assert.equal(goLocationError("a/b:c"), undefined);
  assert.equal(goLocationError("1a:b"), `parse "1a:b": first path segment in URL cannot contain colon`);
  assert.equal(goLocationError("/x\u0001"), `parse "/x\\x01": net/url: invalid control character in URL`);
});

test("a 100 Continue written on its own before the 200: the same typed outcome through the executor, sent once; a 103 is skipped as in Go", async () => {
  for (const [interim, expected] of [
    ["HTTP/1.1 100 Continue\r\n\r\n", "error"],
    ["HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n", "success"],
  ] as const) {
    const server = await startRawHttpBackend((socket) => {
      socket.write(interim);
      // The final response in a later write, as a backend that sends the 1xx first would.
      setImmediate(() => socket.end(httpResponse(200, '{"ok":true}', { "content-type": "application/json" })));
    });
    const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/x", method: POST }
`);
    const executor = createToolExecutor({ registry });
    try {
      const out = await executor.execute({ id: "c1", name: "t", arguments: "{}" });
      assert.equal(out.status, expected);
      if (out.status === "error") {
        assert.equal(out.message, `Post "${server.url}/x": ${BROKEN}unsolicited 100 Continue response`);
        assert.ok(out.error instanceof HttpTransportError);
        assert.equal(out.error.causeCode, "UND_ERR_SOCKET");
      } else if (out.status === "success") {
        assert.deepEqual(out.result, { ok: true });
      }
      assert.equal(server.requests.length, 1);
    } finally {
      await executor.close();
      await server.close();
    }
  }
});
