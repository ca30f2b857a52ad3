// Fuzz (issue #14): buildHttpRequest with arbitrary arguments, identities and
// handler shaping (urlTemplate, headerParams, queryParams, staticQuery,
// staticBody, bodyMapping, static headers, auth), 10,000 runs per property.
// The handler comes either straight from the generator or through
// loadToolRegistry (what the executor really passes).
//
// Scope: the model controls the arguments, the caller the identity; the
// operator's own configuration is trusted to be well-formed (static header
// names and values are drawn valid here: the manifest does not check them,
// and undici refuses such a request at send time, see the security suite).
// Templates here put placeholders in the path only; placeholders in the query,
// and dot segments, are pinned in test/faults/defects/ (D1, D7).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildHttpRequest, HttpRequestError, MappingError, type HttpRequestHandler, type HttpHeaderContext } from "../../src/http/index.js";
import { isValidHeaderName, isValidHeaderValue } from "../../src/headers/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";
import type { JsonValue } from "../../src/core/index.js";
import { argName, argValue, identity, nastyString, toolArgs } from "./arbitraries.js";

const RUNS = 10_000;

const TEMPLATES = [
  "http://b.test/api/users/{id}/profile",
  "http://b.test/{a}/{b}/{a}",
  "http://b.test:8080/u/{id}.json",
  "https://b.test/v1/{user_id}?static=1",
  "http://b.test/plain",
] as const;

const headerName = fc.constantFrom("X-Static", "Accept", "Authorization", "Content-Type", "X-Omnia-Tool-Name", "x-omnia-claim-role", "X-Api-Key");
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,12}$/);

const shaping = fc.record(
  {
    method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "get", "post", "CUSTOM"),
    urlTemplate: fc.constantFrom(...TEMPLATES),
    endpoint: fc.constantFrom("http://b.test/t", "http://b.test/t?z=1&b=old"),
    headers: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
    contentType: fc.constantFrom("application/json", "application/merge-patch+json"),
    queryParams: fc.uniqueArray(argName, { maxLength: 3 }),
    headerParams: fc.dictionary(argName, fc.constantFrom("X-User-ID", "Authorization", "X-Tenant", "Content-Type", "x-omnia-tool-name"), { maxKeys: 3 }),
    staticQuery: fc.dictionary(fc.constantFrom("api_key", "format", "id", "q"), headerValue, { maxKeys: 2 }),
    staticBody: argValue,
    bodyMapping: fc.constantFrom("@", "a", "{x: q, y: id}", "data.items", "[", "length(@)", "keys(@)", "`1`"),
  },
  { requiredKeys: ["endpoint"] },
);

const context = fc.record(
  {
    identity,
    agent: fc.record({ name: nastyString, namespace: nastyString, workspace: nastyString, provider: nastyString, model: nastyString }, { requiredKeys: [] }),
    sessionId: nastyString,
    delegationToken: nastyString,
    auth: fc.constantFrom({ Authorization: "Bearer configured-token" }, { "X-Api-Key": "configured-key" }),
    headersFromSecret: fc.constant({ "X-Secret-Header": "from-secret" }),
    injected: fc.constantFrom({ "X-Policy": "allow" }, { authorization: "Bearer injected" }),
  },
  { requiredKeys: [] },
);

type Shaping = typeof shaping extends fc.Arbitrary<infer S> ? S : never;

/** The same shaping loaded through the manifest loader, as the executor gets it. */
function viaManifest(s: Shaping): HttpRequestHandler | undefined {
  try {
    const registry = loadToolRegistry({
      handlers: [{ name: "h", type: "http", tool: { name: "t", description: "d", inputSchema: { type: "object" } }, httpConfig: s as unknown as Record<string, unknown> }],
    });
    const handler = registry.getHandler("h");
    return handler?.type === "http" ? handler : undefined;
  } catch {
    return undefined; // a shaping the loader refuses never reaches buildHttpRequest
  }
}

/** The authority and path-segment count of a URL's raw text (no dot-segment resolution). */
function rawShape(url: string): { origin: string; segments: number; queryKeys: string[]; fragment: boolean } {
  const parsed = new URL(url.replace(/\{[^}]*\}/g, "x"));
  const afterAuthority = url.slice(url.indexOf("/", url.indexOf("//") + 2) >>> 0);
  const path = afterAuthority.split(/[?#]/)[0] ?? "";
  const query = url.includes("?") ? (url.split("?")[1] ?? "").split("#")[0] ?? "" : "";
  return {
    origin: parsed.origin,
    segments: path.split("/").length,
    queryKeys: query === "" ? [] : query.split("&").map((kv) => decodeURIComponent((kv.split("=")[0] ?? "").replace(/\+/g, " "))),
    fragment: url.includes("#"),
  };
}

function argKeys(args: string | JsonValue): string[] {
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch {
      return [];
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

test("buildHttpRequest: only its typed errors; valid headers without CR/LF/NUL; no caller Authorization; same origin and path depth; a JSON body", () => {
  let built = 0;
  fc.assert(
    fc.property(shaping, toolArgs, context, fc.boolean(), (s, args, ctx, loaded) => {
      const handler: HttpRequestHandler | undefined = loaded ? viaManifest(s) : { name: "h", tool: { name: "t" }, httpConfig: s };
      if (handler === undefined) return;
      let request;
      try {
        request = buildHttpRequest(handler, args, ctx as HttpHeaderContext);
      } catch (e) {
        if (e instanceof HttpRequestError || e instanceof MappingError) return;
        throw e;
      }
      built++;
      const text = JSON.stringify(request);
      assert.ok(!text.includes("SENTINEL"), "the caller's token is somewhere in the request");

      for (const [name, value] of Object.entries(request.headers)) {
        assert.ok(isValidHeaderName(name), `invalid header name ${JSON.stringify(name)}`);
        assert.ok(isValidHeaderValue(value) && !/[\r\n\0]/.test(value), `invalid value for ${name}: ${JSON.stringify(value)}`);
      }
      const names = Object.keys(request.headers).map((n) => n.toLowerCase());
      assert.equal(new Set(names).size, names.length, "a header name appears twice (case-insensitively)");
      if (names.includes("authorization")) {
        const configured =
          ctx.auth?.Authorization !== undefined ||
          ctx.injected?.authorization !== undefined ||
          Object.keys(s.headers ?? {}).some((n) => n.toLowerCase() === "authorization") ||
          Object.values(s.headerParams ?? {}).some((n) => n.toLowerCase() === "authorization");
        assert.ok(configured, `an Authorization header nobody configured: ${JSON.stringify(request.headers)}`);
      }

      const template = s.urlTemplate ?? s.endpoint;
      const want = rawShape(handler.httpConfig.urlTemplate ?? handler.httpConfig.endpoint);
      const got = rawShape(request.url);
      assert.match(request.url, /^[\x21-\x7e]+$/, "the URL holds a control, space or non-ASCII character");
      assert.equal(got.origin, want.origin, `origin changed: ${template} -> ${request.url}`);
      assert.equal(got.segments, want.segments, `path depth changed: ${template} -> ${request.url}`);
      assert.equal(got.fragment, false);
      // Keys compared as their UTF-8 round trip: a lone surrogate goes on the wire as U+FFFD, as in Go.
      const wellFormed = (k: string) => Buffer.from(k, "utf8").toString("utf8");
      const allowedKeys = new Set([...want.queryKeys, ...Object.keys(s.staticQuery ?? {}), ...argKeys(args)].map(wellFormed));
      for (const k of got.queryKeys) assert.ok(allowedKeys.has(k), `query key ${JSON.stringify(k)} from nowhere: ${request.url}`);
      assert.doesNotThrow(() => new URL(request.url));

      if (request.body !== undefined) assert.doesNotThrow(() => JSON.parse(request.body as string), `body is not JSON: ${request.body}`);
      assert.ok(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "CUSTOM"].includes(request.method));
    }),
    { numRuns: RUNS },
  );
  assert.ok(built > RUNS / 3, `only ${built} of ${RUNS} runs built a request: the generator is too narrow`);
});
