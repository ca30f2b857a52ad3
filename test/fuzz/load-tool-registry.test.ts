// Fuzz (issue #14): loadToolRegistry on arbitrary YAML and JSON, 10,000 runs per
// property. Whatever the input, it returns a frozen registry or throws a
// ConfigError (DuplicateToolError is one) whose issues each carry a path and a
// message: never a TypeError, a RangeError or the YAML parser's own error.
// (src/manifest/load-tool-registry.property.test.ts fuzzes structured objects
// at 2,000 runs; this adds raw text, mutated valid manifests and any JSON.)
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { stringify } from "yaml";
import { ConfigError } from "../../src/core/index.js";
import { loadToolRegistry } from "../../src/manifest/index.js";

const RUNS = 10_000;

function loadsOrConfigError(input: unknown): void {
  let registry;
  try {
    registry = loadToolRegistry(input as Parameters<typeof loadToolRegistry>[0]);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    assert.equal(e.code, "ERR_OMNIA_CONFIG");
    assert.ok(e.issues.length > 0);
    for (const issue of e.issues) assert.ok(typeof issue.path === "string" && typeof issue.message === "string" && issue.message !== "", JSON.stringify(issue));
    return;
  }
  assert.ok(Object.isFrozen(registry));
  for (const tool of registry.tools) assert.ok(registry.getHandler(tool.handlerName) !== undefined);
}

const TOKENS = [
  "handlers:",
  "spec:",
  "kind: ToolRegistry",
  "\n",
  "\n  ",
  "\n    ",
  "- ",
  "  - ",
  ": ",
  "name: h",
  "name: t",
  "type: http",
  "type: grpc",
  "type: mcp",
  "type: client",
  "tool:",
  "tool: {name: t, description: d, inputSchema: {}}",
  "httpConfig:",
  "httpConfig: {endpoint: 'http://x'}",
  "grpcConfig: {endpoint: 'x:1'}",
  "endpoint: http://x",
  "retryPolicy:",
  "maxAttempts: 99",
  "timeout: 1s",
  "timeout: -1s",
  "timeout: 1e400s",
  "{",
  "}",
  "[",
  "]",
  ",",
  "&a ",
  "*a",
  "<<: *a",
  "!!binary AAAA",
  "!!str",
  "!!js/function 'f'",
  "---",
  "...",
  "%YAML 1.2",
  "\t",
  "'",
  '"',
  "#",
  "|",
  ">",
  "? ",
  "@",
  "`",
  "0x1F",
  ".inf",
  ".nan",
  "~",
  "null",
  "true",
  "__proto__:",
  "constructor:",
  "toString:",
  "\u0000",
  "\ufeff",
  "\u2028",
];

const yamlish = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TOKENS) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) }), { maxLength: 30 }).map((parts) => parts.join(""));

const VALID = {
  handlers: [
    { name: "web", type: "http", timeout: "5s", tool: { name: "lookup", description: "d", inputSchema: { type: "object" } }, httpConfig: { endpoint: "http://x/l", method: "GET", retryPolicy: { maxAttempts: 3 } } },
    { name: "rpc", type: "grpc", tool: { name: "calc", description: "d", inputSchema: { type: "object" } }, grpcConfig: { endpoint: "x:50051", tls: false } },
    { name: "ui", type: "client", tool: { name: "confirm", description: "d", inputSchema: { type: "object" } }, clientConfig: { consentMessage: "ok?" } },
  ],
};
const VALID_TEXTS = [stringify(VALID), JSON.stringify(VALID), stringify({ apiVersion: "omnia.altairalabs.ai/v1alpha1", kind: "ToolRegistry", metadata: { name: "r" }, spec: VALID })];

/** A valid manifest's text with a few characters deleted, replaced or inserted. */
const mutated = fc
  .tuple(
    fc.constantFrom(...VALID_TEXTS),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: "binary", maxLength: 3 }))), { minLength: 1, maxLength: 4 }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [at, remove, insert] of edits) {
      const i = at % (out.length + 1);
      out = out.slice(0, i) + insert + out.slice(i + remove);
    }
    return out;
  });

test("loadToolRegistry on arbitrary YAML-ish text: a registry or a ConfigError", () => {
  fc.assert(fc.property(yamlish, loadsOrConfigError), { numRuns: RUNS });
});

test("loadToolRegistry on valid manifests with random edits: a registry or a ConfigError", () => {
  fc.assert(fc.property(mutated, loadsOrConfigError), { numRuns: RUNS });
});

test("loadToolRegistry on any JSON value, as a value and as text: a registry or a ConfigError", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, asText) => {
      if (!asText && (typeof value !== "object" || value === null)) return loadsOrConfigError(JSON.stringify(value));
      loadsOrConfigError(asText ? JSON.stringify(value) : value);
    }),
    { numRuns: RUNS },
  );
});

test("a YAML alias bomb is refused as a ConfigError, fast", () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(",")}]`);
  lines.push("handlers: *i");
  assert.throws(() => loadToolRegistry(lines.join("\n")), (e: unknown) => e instanceof ConfigError && e.message === "invalid YAML at line 5: YAML aliases expand the document by more than 50000 nodes (alias *d); refusing it as a resource exhaustion attack");
});
