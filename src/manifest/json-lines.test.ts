import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LineCounter, parseDocument } from "yaml";
import type { PathSegment } from "./issues.js";
import { jsonLineLookup } from "./json-lines.js";

/** The line the YAML parser's node ranges give (what JSON text got before the scan). */
function yamlLine(text: string, path: readonly PathSegment[]): number | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  for (let length = path.length; length >= 0; length--) {
    const node = doc.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
    if (node?.range !== undefined) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}

/** Every path in a JSON value, and one missing child under each container. */
function paths(value: unknown, at: PathSegment[] = []): PathSegment[][] {
  const out: PathSegment[][] = [at];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...paths(v, [...at, i])));
    out.push([...at, value.length], [...at, "x"]);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
    out.push([...at, "missing"], [...at, 0]);
  }
  return out;
}

const texts = [
  '{\n  "handlers": [\n    {\n      "name": "a",\n      "type": "http",\n      "tool": {"name": "a", "description": "A", "inputSchema": {}}\n    }\n  ]\n}\n',
  '  \r\n{"a":1,"b":[true,false,null,-1.5e3,{"c":"x\\"y\\\\"}],\n"k\\u0065y":\n\n  {"d" : [ ]\n, "e": {}},"f":"}]{["}',
  '[\n1,\n[2,\n[3]],\n{"\\"":"v"}\n]',
];

describe("jsonLineLookup", () => {
  for (const [n, text] of texts.entries()) {
    test(`gives the YAML parser's line for every path, present or missing (text ${n})`, () => {
      const lookup = jsonLineLookup(text);
      for (const path of paths(JSON.parse(text))) assert.equal(lookup(path), yamlLine(text, path), JSON.stringify(path));
    });
  }

  test("text nested 100,000 deep costs no stack", () => {
    const text = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)},\n"b":1}`;
    assert.equal(jsonLineLookup(text)(["b"]), 2);
    assert.equal(jsonLineLookup(text)(["a", 0, 0, 0]), 1);
  });
});
