import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../core/index.js";
import { loadToolRegistry } from "./load-tool-registry.js";

const handler = (name: string, tool: string): string => `
      - name: ${name}
        type: client
        tool: {name: ${tool}, description: d, inputSchema: {type: object}}`;

/** What `kubectl get toolregistries -o yaml` prints: a List of the resources, with server fields. */
const list = (kind: string, second: string): string => `apiVersion: v1
kind: ${kind}
metadata:
  resourceVersion: ""
items:
  - apiVersion: omnia.altairalabs.ai/v1alpha1
    kind: ToolRegistry
    metadata: {name: first, namespace: demo, resourceVersion: "123", uid: 0b1c}
    spec:
      handlers:${handler("a", "tool_a")}
    status: {phase: Ready}
  - apiVersion: omnia.altairalabs.ai/v1alpha1
    kind: ToolRegistry
    metadata: {name: second}
    spec:
      handlers:${second}
`;

for (const kind of ["List", "ToolRegistryList"]) {
  test(`kind: ${kind} loads as its items`, () => {
    const registry = loadToolRegistry(list(kind, handler("b", "tool_b")));
    assert.deepEqual(
      registry.tools.map((t) => [t.name, t.handlerName]),
      [
        ["tool_a", "a"],
        ["tool_b", "b"],
      ],
    );
    assert.equal(registry.name, "first");
    assert.equal(registry.namespace, "demo");
    assert.deepEqual(registry.warnings, []);
  });
}

test("an issue inside a List item is reported under items[<i>] with its line", () => {
  const text = list("List", handler("b", "Bad Name"));
  try {
    loadToolRegistry(text);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.issues, [{ path: "items[1].spec.handlers[0].tool.name", message: 'must match ^[a-z][a-z0-9_]*$; got "Bad Name"', line: 22 }]);
    return;
  }
  assert.fail("loaded");
});
