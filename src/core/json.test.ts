import { test } from "node:test";
import assert from "node:assert/strict";
import { runInNewContext } from "node:vm";
import { copyJsonValue } from "./json.js";

test("copyJsonValue shares no array or plain object, keeps an own __proto__ key, -0, and anything else as it is", () => {
  const date = new Date(0);
  const fn = (): number => 1;
  const source = JSON.parse('{"a":[1,{"b":2}],"__proto__":{"polluted":true},"z":-0,"n":null,"s":"x"}') as Record<string, unknown>;
  source["date"] = date;
  source["fn"] = fn;
  const copy = copyJsonValue(source);
  assert.notEqual(copy, source);
  assert.notEqual(copy["a"], source["a"]);
  assert.notEqual((copy["a"] as unknown[])[1], (source["a"] as unknown[])[1]);
  assert.deepEqual(Object.keys(copy), ["a", "__proto__", "z", "n", "s", "date", "fn"]);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value, { polluted: true });
  assert.ok(Object.is(copy["z"], -0));
  assert.equal(copy["date"], date);
  assert.equal(copy["fn"], fn);
  (copy["a"] as { b: number }[])[1]!.b = 3;
  assert.deepEqual(source["a"], [1, { b: 2 }]);
  assert.equal(JSON.stringify(copyJsonValue(JSON.parse('{"__proto__":1,"k":[[]]}'))), '{"__proto__":1,"k":[[]]}');
  for (const v of [null, 1, "s", true]) assert.equal(copyJsonValue(v), v);
});

test("copyJsonValue copies another realm's plain objects, copies a shared object once (linear on a graph of shared paths), and keeps a cycle a cycle", () => {
  const foreign = runInNewContext('({ city: "Paris", nested: { n: 1 }, list: [{ x: 1 }] })') as { city: string; nested: { n: number }; list: { x: number }[] };
  const copy = copyJsonValue(foreign);
  assert.notEqual(copy, foreign);
  assert.notEqual(copy.nested, foreign.nested);
  assert.notEqual(copy.list[0], foreign.list[0]);
  copy.nested.n = 99;
  assert.equal(foreign.nested.n, 1);
  // 2^40 paths through 40 shared arrays: copied once each.
  let graph: unknown = { leaf: true };
  for (let i = 0; i < 40; i++) graph = [graph, graph];
  const copied = copyJsonValue(graph) as unknown[];
  assert.equal(copied[0], copied[1]);
  assert.notEqual(copied, graph);
  const cycle: Record<string, unknown> = { a: 1 };
  cycle["self"] = cycle;
  const cycled = copyJsonValue(cycle);
  assert.equal(cycled["self"], cycled);
  assert.notEqual(cycled, cycle);
  const holes = copyJsonValue([1, , 3]);
  assert.equal(1 in holes, false);
  assert.equal(holes.length, 3);
});
