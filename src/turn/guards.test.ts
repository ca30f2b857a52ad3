import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalArgs, repeatedCallText, LoopState } from "./guards.js";
import { noopLogger } from "../core/index.js";

test("canonicalArgs: Go's decode and re-encode (sorted keys, compact, HTML escapes); raw text when Go cannot decode; empty stays empty", () => {
  assert.equal(canonicalArgs('{"q":"a","n":1}'), canonicalArgs('{ "n" : 1, "q" : "a" }'));
  assert.equal(canonicalArgs('{"b":[1.0,{"z":1,"a":"<"}],"a":null}'), '{"a":null,"b":[1,{"a":"\\u003c","z":1}]}');
  assert.equal(canonicalArgs(""), "");
  assert.equal(canonicalArgs("{bad"), "{bad");
  assert.equal(canonicalArgs('{"a":1} trailing'), '{"a":1} trailing');
  assert.equal(canonicalArgs('{"a":1e400}'), '{"a":1e400}');
  assert.equal(canonicalArgs('{"a":"\\ud800"}'), canonicalArgs('{"a":"\\udbff"}'));
  assert.equal(canonicalArgs('{"a":1,"a":2}'), '{"a":2}');
});

test("repeatedCallText: the name Go-quoted, the threshold, the U+2014 dash", () => {
  assert.equal(
    repeatedCallText('se"arch', 3),
    'Repeated call ignored: "se\\"arch" has been called 3 times with identical arguments and was NOT executed again \u2014 the result will not change. Stop repeating this exact call: change the arguments, use a different tool, or finish the task.',
  );
});

test("LoopState counts identical calls across rounds and marks every call at or past the threshold", () => {
  const loop = new LoopState();
  assert.equal(loop.repeatedCalls([{ id: "1", name: "t", text: "{}" }], 3), undefined);
  const found = loop.repeatedCalls(
    [
      { id: "2", name: "u", text: "{}" },
      { id: "3", name: "t", text: "{ }" },
      { id: "4", name: "t", text: "{}" },
    ],
    3,
  );
  assert.deepEqual(found, { ids: new Set(["4"]), first: "t" });
  assert.equal(loop.repeatedCalls([{ id: "5", name: "t", text: "{}" }], 0), undefined);
});

test("LoopState excludes a tool at its second failure, once", () => {
  const loop = new LoopState();
  assert.equal(loop.countFailures([{ name: "a", isError: true }, { name: "b", isError: false }], noopLogger), false);
  assert.equal(loop.countFailures([{ name: "a", isError: true }], noopLogger), true);
  assert.equal(loop.countFailures([{ name: "a", isError: true }], noopLogger), false);
  assert.deepEqual([...loop.excluded], ["a"]);
});

test("canonicalArgs: hostile nesting past Go's 10000 levels is kept as raw text, without a stack overflow", () => {
  const deep = "[".repeat(200_000) + "]".repeat(200_000);
  assert.equal(canonicalArgs(deep), deep);
  const ok = "[".repeat(100) + "]".repeat(100);
  assert.equal(canonicalArgs(ok), ok);
});

test("canonicalArgs: a repeated key (left to Go's decoder) keys as the text it collapses to", () => {
  const text = '{"b":"<","a":[1.0,-0],"a":2}';
  assert.equal(canonicalArgs(text), '{"a":2,"b":"\\u003c"}');
  assert.equal(canonicalArgs("{bad"), "{bad");
  const loop = new LoopState();
  for (const id of ["1", "2"]) assert.equal(loop.repeatedCalls([{ id, name: "t", text }], 3), undefined);
  assert.deepEqual(loop.repeatedCalls([{ id: "3", name: "t", text: '{"a":2,"b":"<"}' }], 3), { ids: new Set(["3"]), first: "t" });
});
