// Issue #36 part 1: a cassette is a file a harness keeps in its repository and
// replays later; a tampered or hostile one must end in a typed error naming the
// line, in linear time, and a recorded one must hold no credential.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidOptionError } from "../../src/core/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createManualClock, recordCassette, replayCassette, startHttpToolBackend } from "../../src/testing/index.js";

const dir = mkdtempSync(join(tmpdir(), "omnia-cassette-sec-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a recorded cassette holds no bearer token, headersFromSecret value, staticQuery value or redacted argument", async () => {
  const backend = await startHttpToolBackend({ routes: { "POST /t": { ok: true } } });
  after(() => backend.close());
  const registry = loadToolRegistry(`handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    auth: { type: bearer, secretRef: { name: s, key: token } }
    httpConfig:
      endpoint: "${backend.url}/t"
      headersFromSecret: { X-Api-Key: { name: s, key: api } }
      staticQuery: { api_key: STATIC-Q-VALUE }
`);
  const secrets: Record<string, string> = { token: "BEARER-VALUE", api: "HEADER-SECRET-VALUE" };
  const executor = createToolExecutor({ registry, clock: createManualClock(0), secrets: (ref) => secrets[ref.key] ?? "" });
  const path = join(dir, "secrets.jsonl");
  const recording = recordCassette(executor, { path, redact: ["password"] });
  const out = await recording.execute({ id: "1", name: "t", arguments: '{"user":"ada","password":"PASSWORD-VALUE","nested":{"password":"NESTED-PW"}}' });
  assert.equal(out.status, "success");
  await recording.close();
  // The secrets did reach the backend, and the file has none of them.
  assert.equal(backend.requests[0]?.headers["authorization"], "Bearer BEARER-VALUE");
  assert.equal(backend.requests[0]?.headers["x-api-key"], "HEADER-SECRET-VALUE");
  const text = readFileSync(path, "utf8");
  for (const secret of ["BEARER-VALUE", "HEADER-SECRET-VALUE", "STATIC-Q-VALUE", "PASSWORD-VALUE", "NESTED-PW"]) assert.equal(text.includes(secret), false, secret);
});

test("a tampered or hostile cassette (bad JSON, 100,000 levels of nesting, prototype keys, a 5 MB line) is an InvalidOptionError naming the line, never another throw", () => {
  const good = '{"v":1,"kind":"tools","tools":[]}';
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const cases: [string, RegExp][] = [
    [`${good}\n{not json`, /line 2/],
    [`${good}\n${deep}`, /line 2/],
    [`${good}\n{"v":1,"kind":"call","__proto__":{"polluted":true}}`, /line 2/],
    [`${good}\n{"v":2,"kind":"call"}`, /line 2/],
    [`${good}\n{"v":1,"kind":"call","tool":"${"x".repeat(5_000_000)}"}`, /line 2/],
  ];
  cases.forEach(([text, line], i) => {
    const path = join(dir, `bad-${i}.jsonl`);
    writeFileSync(path, text);
    assert.throws(() => replayCassette(path), (e: unknown) => e instanceof InvalidOptionError && line.test(e.message), `case ${i}`);
  });
  assert.equal(({} as { polluted?: boolean }).polluted, undefined);
});
