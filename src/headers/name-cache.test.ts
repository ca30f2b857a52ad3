import { test } from "node:test";
import assert from "node:assert/strict";
import { NameCache } from "./name-cache.js";

test("NameCache: derives once per name, caches null, and empties itself when full", () => {
  const calls: string[] = [];
  const cache = new NameCache<string | null>((name) => {
    calls.push(name);
    return name === "bad" ? null : `k-${name}`;
  }, 2);
  assert.equal(cache.get("a"), "k-a");
  assert.equal(cache.get("a"), "k-a");
  assert.equal(cache.get("bad"), null);
  assert.equal(cache.get("bad"), null);
  assert.deepEqual(calls, ["a", "bad"]);
  assert.equal(cache.get("c"), "k-c"); // full: emptied, then c stored
  assert.equal(cache.get("a"), "k-a");
  assert.deepEqual(calls, ["a", "bad", "c", "a"]);
});
