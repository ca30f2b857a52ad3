import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { goStdlib } from "../../test/helpers/go-stdlib.js";
import { appendQuery } from "./query.js";

test("appendQuery: every go-stdlib.json query row (url.Parse + Query + Set + Encode + String)", () => {
  assert.equal(goStdlib.query.length, 14);
  for (const row of goStdlib.query) {
    assert.equal(appendQuery(row.base, JSON.parse(row.args) as Record<string, unknown>), row.result, `${row.base} + ${row.args}`);
  }
});

const E = "http://127.0.0.1:8080";

test("appendQuery: http.md §4.1 R8, R9, R10, R11, R12, R14 and R41 targets", () => {
  assert.equal(appendQuery(`${E}/t`, { foo: "bar", n: 1 }), `${E}/t?foo=bar&n=1`);
  assert.equal(
    appendQuery(`${E}/t`, JSON.parse(
      '{"s":"a b&c=d/é~*","i":1,"f":1.5,"big":1000000,"e":123456,"small":0.00001,"t":true,"n":null,"neg":-0,"huge":1e21}',
    ) as Record<string, unknown>),
    `${E}/t?big=1e%2B06&e=123456&f=1.5&huge=1e%2B21&i=1&n=%3Cnil%3E&neg=-0&s=a+b%26c%3Dd%2F%C3%A9~%2A&small=1e-05&t=true`,
  );
  assert.equal(
    appendQuery(`${E}/t`, { arr: ["a b", 1, true, null], obj: { z: 1, a: { k: "v" } }, empty: [], eo: {} }),
    `${E}/t?arr=%5Ba+b+1+true+%3Cnil%3E%5D&empty=%5B%5D&eo=map%5B%5D&obj=map%5Ba%3Amap%5Bk%3Av%5D+z%3A1%5D`,
  );
  assert.equal(
    appendQuery(`${E}/t`, JSON.parse('{"a":12345678,"b":9007199254740993,"c":100,"d":0.1,"e":1e-7,"f":123456.789,"g":2.5e6}') as Record<
      string,
      unknown
    >),
    `${E}/t?a=1.2345678e%2B07&b=9.007199254740992e%2B15&c=100&d=0.1&e=1e-07&f=123456.789&g=2.5e%2B06`,
  );
  assert.equal(appendQuery(`${E}/t`, { id: "5" }), `${E}/t?id=5`);
  assert.equal(appendQuery(`${E}/t?z=1&b=old&flag`, { b: "new", a: "x" }), `${E}/t?a=x&b=new&flag=&z=1`);
  assert.equal(appendQuery(`${E}/t`, { api_key: "k1", q: "test" }), `${E}/t?api_key=k1&q=test`);
});

test("appendQuery: R15, no params leaves the URL untouched (no re-encoding)", () => {
  assert.equal(appendQuery(`${E}/t?z=1&b=2`, {}), `${E}/t?z=1&b=2`);
  assert.equal(appendQuery(`${E}/t?`, {}), `${E}/t?`);
});

test("appendQuery: R40 and the http.md §2.10.2 example", () => {
  assert.equal(appendQuery(`${E}/t?x=1`, { api_key: "s e/cret", format: "json" }), `${E}/t?api_key=s+e%2Fcret&format=json&x=1`);
  assert.equal(appendQuery("http://h/x", { s: "a b&c=d/é~*" }), "http://h/x?s=a+b%26c%3Dd%2F%C3%A9~%2A");
});

test("appendQuery: Go's ParseQuery drops bad escapes and semicolons, keeps undecodable bytes", () => {
  assert.equal(appendQuery("http://h/x?a=%zz&b=1;c=2&d=%41+b&&=v", { e: "1" }), "http://h/x?=v&d=A+b&e=1");
  assert.equal(appendQuery("http://h/x?k=%FF%fe", { a: "1" }), "http://h/x?a=1&k=%FF%FE");
  assert.equal(appendQuery("http://h/x?a=1#", { b: "2" }), "http://h/x?a=1&b=2");
  assert.equal(appendQuery("http://h/x#f?g", { b: "2" }), "http://h/x?b=2#f?g");
  assert.equal(appendQuery("http://h/x", { "é": "ü" }), "http://h/x?%C3%A9=%C3%BC");
});

test("property: every param reads back through WHATWG URLSearchParams", () => {
  const key = fc.string({ unit: "binary", minLength: 1 });
  fc.assert(
    fc.property(fc.dictionary(key, fc.string({ unit: "binary" }), { minKeys: 1 }), (params) => {
      const out = appendQuery("http://h/x?pre=1", params);
      const search = new URL(out).searchParams;
      for (const [k, v] of Object.entries(params)) assert.deepEqual(search.getAll(k), [v]);
      const keys = [...search.keys()];
      const sorted = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      assert.deepEqual(keys, sorted);
      assert.match(out.slice(out.indexOf("?") + 1), /^[A-Za-z0-9\-_.~+%=&]*$/);
    }),
    { numRuns: 10_000 },
  );
});
