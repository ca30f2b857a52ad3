import { test } from "node:test";
import assert from "node:assert/strict";
import { pathTemplateLayout, urlTemplateLayout, urlTemplatePlacementProblem } from "./url-template.js";

const fields = (template: string) => urlTemplateLayout(template).placeholders.map((p) => [p.name, p.field]);

test("urlTemplateLayout places each placeholder where the WHATWG URL parser will read it", () => {
  assert.deepEqual(fields("http://u:{pw}@{h}:{p}/a/{x}?q={q}#{f}"), [["pw", "userinfo"], ["h", "host"], ["p", "port"], ["x", "path"], ["q", "query"], ["f", "fragment"]]);
  assert.deepEqual(fields("https:\\\\{h}\\{x}"), [["h", "host"], ["x", "path"]]);
  assert.deepEqual(fields("{s}://h/{x}"), [["s", "scheme"], ["x", "path"]]);
  assert.deepEqual(fields("http://[::1]:{p}/"), [["p", "port"]]);
  assert.deepEqual(fields("http://[{h}]/"), [["h", "host"]]);
  assert.deepEqual(fields("mailto:{to}"), [["to", "path"]]);
  assert.deepEqual(fields("http://h/{{x}}/{a{b}/{}"), [["x", "path"], ["b", "path"], ["", "path"]]);
  assert.deepEqual(fields("http://h/p#x?{q}"), [["q", "fragment"]]);
  assert.equal(urlTemplateLayout("http://h:8080/a").pathStart, "http://h:8080".length);
  assert.equal(urlTemplateLayout("http://h").pathStart, "http://h".length);
});

test("urlTemplatePlacementProblem names the first placeholder outside the path and query", () => {
  assert.equal(urlTemplatePlacementProblem(urlTemplateLayout("http://h/{a}?b={b}#{c}")), undefined);
  assert.equal(urlTemplatePlacementProblem(urlTemplateLayout("http://h:{p}/{a}")), 'placeholder "{p}" stands in the port; a placeholder may stand only in the path or the query');
});

test("pathTemplateLayout reads all of an OpenAPI path as path, up to a ? or #", () => {
  assert.deepEqual(pathTemplateLayout("/a:{x}/{y}?{z}").placeholders.map((p) => [p.name, p.field]), [["x", "path"], ["y", "path"], ["z", "query"]]);
});
