import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "../core/index.js";
import { loadToolRegistry } from "./load-tool-registry.js";

test("CRD parity: a workloadIdentity cloud other than azure, and a probe without enabled, are ConfigErrors with their paths", () => {
  const text = `apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
spec:
  probe: {interval: 30s}
  handlers:
    - name: h
      type: http
      httpConfig: {endpoint: "http://127.0.0.1:1/x"}
      tool: {name: t, description: d, inputSchema: {type: object}}
      auth: {type: workloadIdentity, workloadIdentity: {cloud: aws, audience: api://x}}
`;
  try {
    loadToolRegistry(text);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.issues, [
      { path: "spec.probe.enabled", message: "is required", line: 4 },
      { path: "spec.handlers[0].auth.workloadIdentity.cloud", message: 'expected azure; got "aws"', line: 10 },
    ]);
    return;
  }
  assert.fail("loaded");
});
