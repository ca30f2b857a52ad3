// loadToolRegistry: the nearest known field for a typo, a numeric backoffMultiplier, and `strict` (issues #23, #20).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../core/index.js";
import { inspectToolRegistry, loadToolRegistry } from "./load-tool-registry.js";

const TEXT = `apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: { name: r }
spec:
  handlers:
    - name: kb
      type: mcp
      mcpConfig:
        transport: streamable-http
        endpoint: http://kb/mcp
        retryPolicy: { maxAttempts: 2, backoffMultiplier: 1.5, maxBackof: 1s }
        toolfilter: { allowlist: [a] }
`;

test("warnings name the known field nearest to a typo, at any depth, and flag a numeric backoffMultiplier", () => {
  const registry = loadToolRegistry(TEXT);
  assert.deepEqual(
    registry.warnings.map((w) => [w.line, w.path, w.message]),
    [
      [11, "spec.handlers[0].mcpConfig.retryPolicy.maxBackof", 'unknown field; it is ignored (did you mean "maxBackoff"?)'],
      [12, "spec.handlers[0].mcpConfig.toolfilter", 'unknown field; it is ignored (did you mean "toolFilter"?)'],
      [11, "spec.handlers[0].mcpConfig.retryPolicy.backoffMultiplier", 'expected a string matching ^[0-9]+(\\.[0-9]+)?$ (the CRD\'s type); got the number 1.5: write "1.5" for the Kubernetes API server to accept it'],
    ],
  );
});

test("strict: the same findings are a ConfigError; a string multiplier and known fields pass", () => {
  assert.throws(
    () => loadToolRegistry(TEXT, { strict: true }),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.issues.map((i) => i.message).join("\n") ===
        [
          'unknown field (did you mean "maxBackoff"?); the Kubernetes API server rejects it under strict field validation',
          'unknown field (did you mean "toolFilter"?); the Kubernetes API server rejects it under strict field validation',
          'expected a string matching ^[0-9]+(\\.[0-9]+)?$ (the CRD\'s type); got the number 1.5: write "1.5" for the Kubernetes API server to accept it',
        ].join("\n"),
  );
  const fixed = TEXT.replace("backoffMultiplier: 1.5, maxBackof: 1s", 'backoffMultiplier: "1.5", maxBackoff: 1s').replace("toolfilter", "toolFilter");
  assert.equal(loadToolRegistry(fixed, { strict: true }).warnings.length, 0);
});

test("inspectToolRegistry: the error and the warnings of one load", () => {
  const out = inspectToolRegistry("handlers:\n  - name: a\n    type: http\n    tool: {name: a, description: d, inputSchema: {}}\n    httpconfig: {endpoint: http://x}\n");
  assert.equal(out.registry, undefined);
  assert.deepEqual(out.error?.issues.map((i) => i.message), ["httpConfig is required for http handlers"]);
  assert.deepEqual(out.warnings.map((w) => w.message), ['unknown field; it is ignored (did you mean "httpConfig"?)']);
});

test("an enum value's typo names the value meant; strict refuses another apiVersion", () => {
  assert.throws(
    () => loadToolRegistry("handlers:\n  - name: kb\n    type: mcp\n    mcpConfig: { transport: stdin, command: x }\n"),
    (e: unknown) => e instanceof ConfigError && e.issues[0]?.message === 'expected one of sse|streamable-http|stdio; got "stdin" (did you mean "stdio"?)',
  );
  const other = TEXT.replace("omnia.altairalabs.ai/v1alpha1", "omnia.altairalabs.ai/v1beta1");
  assert.ok(loadToolRegistry(other).warnings.some((w) => w.path === "apiVersion"));
  assert.throws(
    () => loadToolRegistry(other, { strict: true }),
    (e: unknown) => e instanceof ConfigError && e.issues[0]?.path === "apiVersion" && e.issues[0].message === 'expected omnia.altairalabs.ai/v1alpha1; got "omnia.altairalabs.ai/v1beta1"; the Kubernetes API server serves no other version of ToolRegistry',
  );
});
