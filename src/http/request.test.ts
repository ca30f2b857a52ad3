import { test } from "node:test";
import assert from "node:assert/strict";
import { buildHttpRequest, pathEscape, type HttpHeaderContext, type HttpRequestShaping } from "./request.js";
import { HttpRequestError, MappingError } from "./errors.js";
import type { JsonValue } from "../core/index.js";

const E = "http://backend.test";
const handler = (httpConfig: Partial<HttpRequestShaping> = {}) => ({
  name: "h",
  tool: { name: "t" },
  httpConfig: { endpoint: `${E}/t`, ...httpConfig },
});
/** The request target (path + query) as the backend receives it. */
const target = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const build = (config: Partial<HttpRequestShaping>, args: string | JsonValue | undefined, ctx: HttpHeaderContext = {}) =>
  buildHttpRequest(handler(config), args, ctx);
const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
const xOmnia = { "x-omnia-tool-name": "t", "x-omnia-tool-registry": "h" };

test("R1–R7: body methods send the argument text verbatim with Content-Type", () => {
  const r1 = build({ method: "POST" }, '{"key":"value"}');
  assert.equal(r1.method, "POST");
  assert.equal(r1.body, '{"key":"value"}');
  assert.deepEqual(lower(r1.headers), { "content-type": "application/json", ...xOmnia, "x-omnia-param-key": "value" });
  assert.equal(build({ method: "POST" }, '{"b":1,"a":"x"}').body, '{"b":1,"a":"x"}');
  for (const empty of ["{}", "null", "", undefined, null, {}]) {
    const r3 = build({ method: "POST" }, empty);
    assert.equal(r3.body, undefined, JSON.stringify(empty));
    assert.equal(lower(r3.headers)["content-type"], undefined);
  }
  assert.equal(build({ method: "POST" }, "{ }").body, "{ }", "only the exact text {} is empty");
  assert.equal(build({ method: "POST" }, "[1,2]").body, "[1,2]");
  assert.equal(build({}, '{"a":1}').method, "POST");
  const r6 = build({ method: "put" }, '{"a":1}');
  assert.deepEqual([r6.method, r6.body], ["PUT", '{"a":1}']);
  const r7 = build({ method: "PATCH", contentType: "application/merge-patch+json" }, '{"a":1}');
  assert.equal(lower(r7.headers)["content-type"], "application/merge-patch+json");
});

test("R8–R15: query methods send each argument as a Go-formatted query parameter", () => {
  const r8 = build({ method: "GET" }, '{"foo":"bar","n":1}');
  assert.equal(target(r8.url), "/t?foo=bar&n=1");
  assert.equal(r8.body, undefined);
  assert.equal(
    target(build({ method: "GET" }, '{"s":"a b&c=d/é~*","i":1,"f":1.5,"big":1000000,"e":123456,"small":0.00001,"t":true,"n":null,"neg":-0,"huge":1e21}').url),
    "/t?big=1e%2B06&e=123456&f=1.5&huge=1e%2B21&i=1&n=%3Cnil%3E&neg=-0&s=a+b%26c%3Dd%2F%C3%A9~%2A&small=1e-05&t=true",
  );
  assert.equal(
    target(build({ method: "GET" }, '{"arr":["a b",1,true,null],"obj":{"z":1,"a":{"k":"v"}},"empty":[],"eo":{}}').url),
    "/t?arr=%5Ba+b+1+true+%3Cnil%3E%5D&empty=%5B%5D&eo=map%5B%5D&obj=map%5Ba%3Amap%5Bk%3Av%5D+z%3A1%5D",
  );
  assert.equal(
    target(build({ method: "GET" }, '{"a":12345678,"b":9007199254740993,"c":100,"d":0.1,"e":1e-7,"f":123456.789,"g":2.5e6}').url),
    "/t?a=1.2345678e%2B07&b=9.007199254740992e%2B15&c=100&d=0.1&e=1e-07&f=123456.789&g=2.5e%2B06",
  );
  const r12 = build({ method: "DELETE" }, '{"id":"5"}');
  assert.deepEqual([target(r12.url), r12.body], ["/t?id=5", undefined]);
  for (const m of ["HEAD", "OPTIONS", "CUSTOM"]) assert.equal(target(build({ method: m }, '{"a":1}').url), "/t?a=1");
  // The endpoint's own query is fixed (issue #19): an argument of the same name is dropped (1.3.0: it replaced the value).
  assert.equal(target(build({ method: "GET", endpoint: `${E}/t?z=1&b=old&flag` }, '{"b":"new","a":"x"}').url), "/t?a=x&b=old&flag=&z=1");
  assert.equal(build({ method: "GET", endpoint: `${E}/t?z=1&b=2` }, "{}").url, `${E}/t?z=1&b=2`);
});

test("R16, R29: arguments of the wrong shape fail before sending, with Go's message", () => {
  assert.throws(
    () => build({ method: "GET" }, "[1,2]"),
    (e: unknown) =>
      e instanceof HttpRequestError &&
      e.message === "building query params: unmarshalling query args: json: cannot unmarshal array into Go value of type map[string]interface {}",
  );
  assert.throws(() => build({ method: "GET" }, '"x"'), { message: /cannot unmarshal string into Go value/ });
  assert.throws(
    () => build({ method: "GET", urlTemplate: `${E}/u/{id}` }, "[1]"),
    (e: unknown) =>
      e instanceof HttpRequestError &&
      e.message === "unmarshalling args for advanced config: json: cannot unmarshal array into Go value of type map[string]interface {}",
  );
  assert.throws(() => build({ method: "POST", urlTemplate: `${E}/u/{id}` }, "true"), { message: /cannot unmarshal bool into/ });
});

test("R17, R18: Content-Type only with a body; a static Content-Type header wins", () => {
  assert.equal(lower(build({ method: "GET", contentType: "text/plain" }, '{"a":1}').headers)["content-type"], undefined);
  assert.equal(lower(build({ method: "POST", headers: { "Content-Type": "text/x" } }, '{"a":1}').headers)["content-type"], "text/x");
  assert.equal(lower(build({ method: "GET", headers: { "Content-Type": "text/x" } }, "{}").headers)["content-type"], "text/x");
});

test("R19–R28: urlTemplate substitutes %v text, percent-encoded as a path segment (decision 6)", () => {
  const r19 = build({ method: "POST", urlTemplate: `${E}/users/{id}/posts` }, '{"id":"123","title":"Hello"}');
  assert.equal(target(r19.url), "/users/123/posts");
  assert.equal(r19.body, '{"title":"Hello"}');
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}/{f}/{b}/{n}` }, '{"id":42,"f":1000000,"b":true,"n":null,"x":"y"}').url), "/u/42/1e+06/true/%3Cnil%3E?x=y");
  // Decision 6: a value can no longer add a path segment, start a query or a fragment.
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}` }, '{"id":"a b/c"}').url), "/u/a%20b%2Fc");
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}` }, '{"id":"x?y=1","q":"2"}').url), "/u/x%3Fy=1?q=2");
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}` }, '{"id":"x#frag"}').url), "/u/x%23frag");
  assert.equal(new URL(build({ method: "GET", urlTemplate: `${E}/u/{id}` }, '{"id":"../../admin"}').url).pathname, "/u/..%2F..%2Fadmin");
  // A placeholder in the host is refused before anything is built (issue #19).
  assert.throws(() => build({ method: "GET", urlTemplate: "http://{host}.internal/x" }, '{"host":"evil.com/"}'), {
    name: "HttpRequestError",
    message: 'urlTemplate: placeholder "{host}" stands in the host; a placeholder may stand only in the path or the query',
  });
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}` }, '{"id":"café"}').url), "/u/caf%C3%A9");
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}/{other}` }, '{"id":"1"}').url), "/u/1/%7Bother%7D");
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}` }, "{}").url), "/u/%7Bid%7D");
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{id}/{id}` }, '{"id":"1"}').url), "/u/1/1");
  const r27 = build({ method: "POST", urlTemplate: `${E}/u/{id}` }, '{"id":"1"}');
  assert.deepEqual([target(r27.url), r27.body, lower(r27.headers)["content-type"]], ["/u/1", "{}", "application/json"]);
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/search?q={q}&x=1` }, '{"q":"a b","r":"z"}').url), "/search?q=a+b&r=z&x=1");
});

test("R30–R32: queryParams move listed args to the query; GET drops the rest", () => {
  const r30 = build({ method: "POST", queryParams: ["page", "limit"] }, '{"page":"1","limit":"10","data":"value"}');
  assert.deepEqual([target(r30.url), r30.body], ["/t?limit=10&page=1", '{"data":"value"}']);
  const r31 = build({ method: "GET", queryParams: ["page"] }, '{"page":2,"data":"value"}');
  assert.deepEqual([target(r31.url), r31.body], ["/t?page=2", undefined]);
  const r32 = build({ method: "POST", queryParams: ["page"] }, '{"data":"value"}');
  assert.deepEqual([target(r32.url), r32.body], ["/t", '{"data":"value"}']);
});

test("R33–R38: headerParams send args as headers and win over every other source", () => {
  const r33 = build({ method: "POST", headerParams: { user_id: "X-User-ID" } }, '{"user_id":"abc","query":"hello"}');
  assert.equal(r33.headers["X-User-ID"], "abc");
  assert.equal(r33.body, '{"query":"hello"}');
  const r34 = build({ method: "POST", headerParams: { user_id: "X-User-ID", tenant: "X-Tenant" } }, '{"user_id":"abc","tenant":"t1","query":"hello"}');
  assert.deepEqual([r34.headers["X-User-ID"], r34.headers["X-Tenant"], r34.body], ["abc", "t1", '{"query":"hello"}']);
  const r35 = build({ method: "POST", headerParams: { n: "X-N", o: "X-O", nul: "X-Nul" } }, '{"n":1000000,"o":{"a":1},"nul":null,"q":1}');
  assert.deepEqual([r35.headers["X-N"], r35.headers["X-O"], r35.headers["X-Nul"], r35.body], ["1e+06", "map[a:1]", "<nil>", '{"q":1}']);
  const r36 = build({ method: "GET", headerParams: { user_id: "X-User-ID" } }, '{"user_id":"abc","q":"x"}');
  assert.deepEqual([r36.headers["X-User-ID"], target(r36.url)], ["abc", "/t?q=x"]);
  const r37 = build(
    { method: "POST", urlTemplate: `${E}/resources/{id}`, staticQuery: { api_key: "k1" }, headerParams: { token: "Authorization" } },
    '{"id":"99","token":"Bearer xyz","data":"payload"}',
  );
  assert.deepEqual([target(r37.url), lower(r37.headers)["authorization"], r37.body], ["/resources/99?api_key=k1", "Bearer xyz", '{"data":"payload"}']);
  const r38 = build({ method: "POST", headerParams: { token: "Authorization" } }, '{"token":"Bearer xyz","d":1}', { auth: { Authorization: "Bearer cfg" } });
  assert.deepEqual([lower(r38.headers)["authorization"], r38.body], ["Bearer xyz", '{"d":1}']);
});

test("R39–R41: staticQuery is set on both paths; an argument of the same name is dropped (issue #19; 1.3.0 let it win)", () => {
  const r39 = build({ method: "POST", staticQuery: { api_key: "secret123", format: "json" } }, "{}");
  assert.deepEqual([target(r39.url), r39.body], ["/t?api_key=secret123&format=json", undefined]);
  assert.equal(target(build({ method: "POST", endpoint: `${E}/t?x=1`, staticQuery: { api_key: "s e/cret", format: "json" } }, "{}").url), "/t?api_key=s+e%2Fcret&format=json&x=1");
  assert.equal(target(build({ method: "GET", staticQuery: { api_key: "k1" } }, '{"q":"test"}').url), "/t?api_key=k1&q=test");
  assert.equal(target(build({ method: "GET", staticQuery: { api_key: "k1" } }, '{"api_key":"evil","q":"t"}').url), "/t?api_key=k1&q=t");
});

test("R42–R47: staticBody is shallow-merged with the args, its keys fixed (issue #19), and re-serialised Go-style", () => {
  const r42 = build({ method: "POST", staticBody: { version: "2.0", default: "static_val", override: "stays_fixed" } }, '{"override":"from_args","extra":"dynamic"}');
  assert.equal(r42.body, '{"default":"static_val","extra":"dynamic","override":"stays_fixed","version":"2.0"}');
  assert.equal(build({ method: "POST", staticBody: { nested: { a: 1 }, v: 1 } }, '{"nested":{"b":2}}').body, '{"nested":{"a":1},"v":1}');
  for (const empty of ["{}", "null"]) {
    const r44 = build({ method: "POST", staticBody: { v: 1 } }, empty);
    assert.deepEqual([r44.body, lower(r44.headers)["content-type"]], ['{"v":1}', "application/json"]);
  }
  assert.equal(build({ method: "POST", staticBody: [1, 2] }, "{}").body, "[1,2]");
  assert.equal(build({ method: "POST", staticBody: [1, 2] }, '{"a":1}').body, '{"a":1}');
  const r46 = build({ method: "GET", staticBody: { v: 1 } }, '{"a":1}');
  assert.deepEqual([target(r46.url), r46.body], ["/t?a=1", undefined]);
  assert.equal(build({ method: "GET", staticBody: { v: 1 } }, "{}").body, undefined);
  const r47 = build({ method: "POST", queryParams: ["zz"] }, '{"b":1, "a":"<&>", "big":12345678901234567890, "f":1.0}');
  assert.equal(r47.body, '{"a":"\\u003c\\u0026\\u003e","b":1,"big":12345678901234567000,"f":1}');
});

test("R48–R54: bodyMapping reshapes an existing body with JMESPath", () => {
  assert.equal(build({ method: "POST", bodyMapping: "query" }, '{"query":"hello","page":1}').body, '"hello"');
  assert.equal(build({ method: "POST", bodyMapping: "{query: query, filters: {page: page}}" }, '{"query":"hello","page":1}').body, '{"filters":{"page":1},"query":"hello"}');
  const r50 = build({ method: "POST", bodyMapping: "nope" }, '{"query":"hello"}');
  assert.deepEqual([r50.body, lower(r50.headers)["content-type"]], ["null", "application/json"]);
  assert.throws(
    () => build({ method: "POST", bodyMapping: "{a: " }, '{"query":"hello"}'),
    (e: unknown) => e instanceof MappingError && e.message.startsWith('body mapping: JMESPath expression "{a: ": '),
  );
  assert.equal(target(build({ method: "GET", bodyMapping: "query" }, '{"query":"hello"}').url), "/t?query=hello");
  assert.equal(build({ method: "POST", bodyMapping: "query" }, "{}").body, undefined);
  assert.equal(build({ method: "POST", staticBody: { source: "omnia" }, bodyMapping: "{q: query, src: source}" }, '{"query":"x"}').body, '{"q":"x","src":"omnia"}');
});

test("R55: an invalid method fails before sending", () => {
  assert.throws(() => build({ method: "GE T" }, "{}"), (e: unknown) => e instanceof HttpRequestError && e.message === 'creating HTTP request: net/http: invalid method "GE T"');
});

test("H6, H7, H11–H13, H15–H17: the header sources merge in seed 004's order; the caller's Authorization never appears", () => {
  assert.equal(build({ method: "POST", urlTemplate: `${E}/u/{id}` }, '{"id":"7"}').headers["x-omnia-param-Id"], "7");
  assert.deepEqual(Object.keys(build({ method: "POST" }, "[1,2]").headers).filter((k) => k.startsWith("x-omnia-param")), []);
  const identity = {
    agentName: "agent-a",
    namespace: "ns1",
    sessionId: "sess-1",
    requestId: "req-1",
    userId: "user-1",
    userEmail: "u@example.com",
    provider: "claude",
    model: "claude-x",
    origin: "oidc",
    workspace: "ws1",
    claims: { tier: "gold", customer_id: "c9" },
  };
  const h11 = buildHttpRequest({ name: "my-handler", tool: { name: "my_tool" }, httpConfig: { endpoint: `${E}/t`, method: "POST", headers: { "X-Static": "s" } } }, "{}", {
    identity: { ...identity, authorization: "Bearer caller-jwt" } as typeof identity,
    auth: { Authorization: "Bearer tool-tok" },
  });
  assert.deepEqual(lower(h11.headers), {
    "x-static": "s",
    authorization: "Bearer tool-tok",
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
  const h13 = build({ method: "POST" }, "{}", { identity: { userId: "u", authorization: "Bearer caller-jwt" } as never });
  assert.equal(lower(h13.headers)["authorization"], undefined);
  const h15 = build({ method: "POST" }, "{}", {
    identity: { userId: "user-1" },
    auth: { Authorization: "Bearer tool-tok" },
    injected: { Authorization: "Bearer injected", "X-Omnia-User-Id": "inj" },
  });
  assert.deepEqual([lower(h15.headers)["authorization"], lower(h15.headers)["x-omnia-user-id"]], ["Bearer injected", "inj"]);
  assert.equal(lower(build({ method: "POST", headers: { Authorization: "static" } }, "{}", { auth: { Authorization: "Bearer tool-tok" } }).headers)["authorization"], "Bearer tool-tok");
  assert.equal(lower(build({ method: "POST", headers: { "X-Omnia-Tool-Name": "static" } }, "{}").headers)["x-omnia-tool-name"], "t");
});

test("precedence, pair by pair, in mixed case: each later source wins", () => {
  const sources = ["static", "auth", "secret", "omnia", "injected", "param"] as const;
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      const lowSrc = sources[i] as (typeof sources)[number];
      const highSrc = sources[j] as (typeof sources)[number];
      // The Omnia layer owns x-omnia-tool-name; other pairs collide on a custom header.
      const involvesOmnia = lowSrc === "omnia" || highSrc === "omnia";
      const name = involvesOmnia ? "x-omnia-tool-name" : "x-custom";
      const set = (src: (typeof sources)[number], value: string, casing: string) => {
        const layer = { [casing]: value };
        return {
          headers: src === "static" ? layer : undefined,
          auth: src === "auth" ? layer : undefined,
          headersFromSecret: src === "secret" ? layer : undefined,
          injected: src === "injected" ? layer : undefined,
          param: src === "param" ? casing : undefined,
        };
      };
      const lo = set(lowSrc, "low", involvesOmnia ? name.toUpperCase() : "x-Custom");
      const hi = set(highSrc, "high", involvesOmnia ? "X-Omnia-TOOL-name" : "X-CUSTOM");
      const cfg: { -readonly [K in keyof HttpRequestShaping]?: HttpRequestShaping[K] } = { method: "POST" };
      if (lo.headers || hi.headers) cfg.headers = { ...lo.headers, ...hi.headers };
      let args = '{"v":"high"}';
      if (lowSrc === "param" || highSrc === "param") cfg.headerParams = { v: (highSrc === "param" ? hi.param : lo.param) as string };
      if (lowSrc === "param") args = '{"v":"low"}';
      const ctx: HttpHeaderContext = {
        auth: { ...lo.auth, ...hi.auth },
        headersFromSecret: { ...lo.headersFromSecret, ...hi.headersFromSecret },
        injected: { ...lo.injected, ...hi.injected },
      };
      const req = build(cfg, args, ctx);
      const matching = Object.entries(req.headers).filter(([k]) => k.toLowerCase() === name);
      assert.equal(matching.length, 1, `${lowSrc} vs ${highSrc}: one header`);
      const expected = highSrc === "omnia" ? "t" : "high";
      assert.equal(matching[0]?.[1], expected, `${lowSrc} < ${highSrc}`);
    }
  }
});

test("pathEscape follows Go's url.PathEscape", () => {
  assert.equal(pathEscape("a b/c?d#e%f"), "a%20b%2Fc%3Fd%23e%25f");
  assert.equal(pathEscape("$&+,:;=@-_.~"), "$&+,:;=@-_.~");
  assert.equal(pathEscape("é☃"), "%C3%A9%E2%98%83");
});

test("urlTemplate: a dot-segment value is refused; a value in the template's query is query-escaped", () => {
  for (const id of [".", "..", "%2e%2e", "%2E", ".%2e", "%2e."]) {
    assert.throws(
      () => build({ method: "GET", urlTemplate: `${E}/api/users/{id}/profile` }, JSON.stringify({ id })),
      (e: unknown) => e instanceof HttpRequestError && e.message === `urlTemplate: argument "id" would be a dot path segment; got ${JSON.stringify(id)}`,
    );
  }
  for (const id of ["a/../..", "...", "%2e%2e%2e"]) {
    const path = new URL(build({ method: "GET", urlTemplate: `${E}/api/users/{id}/profile` }, JSON.stringify({ id })).url).pathname;
    assert.ok(path.startsWith("/api/users/") && path.endsWith("/profile") && path.split("/").length === 5, path);
  }
  const url = new URL(build({ method: "GET", urlTemplate: `${E}/search?q={q}` }, JSON.stringify({ q: "x&admin=true" })).url);
  assert.deepEqual([...url.searchParams], [["q", "x&admin=true"]]);
  // The same key in the path and in the query is escaped for each place.
  assert.equal(target(build({ method: "GET", urlTemplate: `${E}/u/{k}?k2={k}` }, '{"k":"a&b c"}').url), "/u/a&b%20c?k2=a%26b+c");
});
