import { test } from "node:test";
import assert from "node:assert/strict";
import { urlTemplateLayout } from "../core/index.js";
import { expandUrlTemplate } from "./url-template.js";

function expand(template: string, values: Record<string, string>) {
  return expandUrlTemplate(template, urlTemplateLayout(template), (name) => (Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined), (name) => `argument ${JSON.stringify(name)}`);
}

test("expandUrlTemplate: one pass over declared names, each value escaped for its region", () => {
  assert.deepEqual(expand("http://h/a/{x}/b?q={x}#{x}", { x: "a b/&" }), { ok: true, url: "http://h/a/a%20b%2F&/b?q=a+b%2F%26#a+b%2F%26", used: new Set(["x"]) });
  assert.deepEqual(expand("http://h/{a}/{b}", { a: "{b}", b: "2" }), { ok: true, url: "http://h/%7Bb%7D/2", used: new Set(["a", "b"]) });
  assert.deepEqual(expand("http://h/{a}", {}), { ok: true, url: "http://h/{a}", used: new Set() });
});

test("expandUrlTemplate refuses a value that is, or makes, a dot path segment; the template's own dots are its author's", () => {
  assert.deepEqual(expand("http://h/a/{x}/b", { x: ".." }), { ok: false, message: 'argument "x" would be a dot path segment; got ".."' });
  assert.deepEqual(expand("http://h/files/.{ext}", { ext: "" }), { ok: false, message: 'argument "ext" would make the path segment "." a dot segment' });
  assert.deepEqual(expand("http://h/files/%2{e}", { e: "e" }), { ok: false, message: 'argument "e" would make the path segment "%2e" a dot segment' });
  assert.deepEqual(expand("http://h/{a}{b}", { a: ".", b: "." }), { ok: false, message: 'argument "a" would be a dot path segment; got "."' });
  assert.deepEqual(expand("http://h/{a}.", { a: "x" }), { ok: true, url: "http://h/x.", used: new Set(["a"]) });
  assert.deepEqual(expand("http://h/../{a}", { a: "x" }), { ok: true, url: "http://h/../x", used: new Set(["a"]) });
  assert.deepEqual(expand("http://h/p?q={a}", { a: ".." }), { ok: true, url: "http://h/p?q=..", used: new Set(["a"]) }, "the query is not a path");
});
