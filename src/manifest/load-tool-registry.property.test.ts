// Whatever the input, loadToolRegistry returns a registry or throws a ConfigError:
// never a TypeError from a half-validated manifest.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ConfigError } from "../core/index.js";
import { loadToolRegistry } from "./load-tool-registry.js";

const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 20 }), fc.constantFrom("", "x", "1s", "-1s", "0.5", "2.0", "GET", "azure", "stdio", "sse", "bearer"));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ maxDepth: 3 }, scalar, fc.array(tie("any"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("name", "key", "type", "x"), tie("any"), { maxKeys: 3 })),
})).any;

const retry = fc.record(
  { maxAttempts: fc.oneof(fc.integer({ min: -1, max: 12 }), value), initialBackoff: fc.oneof(fc.constantFrom("1s", "bad", "100ms"), value), backoffMultiplier: fc.oneof(fc.constantFrom("0.5", "2.0", "abc", 3), value), maxBackoff: fc.oneof(fc.constantFrom("2s", "10ms"), value), retryOn: fc.oneof(fc.array(fc.integer()), value), retryableStatusCodes: fc.oneof(fc.constantFrom(["UNAVAILABLE"], ["NOPE"]), value) },
  { requiredKeys: [] },
);
const handler = fc.record(
  {
    name: fc.oneof(fc.constantFrom("a", "b", "Bad"), value),
    type: fc.oneof(fc.constantFrom("http", "grpc", "mcp", "openapi", "client", "ftp"), value),
    tool: fc.oneof(fc.record({ name: fc.constantFrom("t", "u", "Bad"), description: fc.constant("d"), inputSchema: fc.oneof(fc.constant({}), value) }, { requiredKeys: [] }), value),
    httpConfig: fc.oneof(fc.record({ endpoint: fc.oneof(fc.constant("https://x"), value), method: value, retryPolicy: retry, authType: value, authSecretRef: value, staticBody: value, headers: value }, { requiredKeys: [] }), value),
    grpcConfig: fc.oneof(fc.record({ endpoint: value, tls: value, tlsCertPath: value, retryPolicy: retry }, { requiredKeys: [] }), value),
    mcpConfig: fc.oneof(fc.record({ transport: fc.oneof(fc.constantFrom("sse", "stdio", "streamable-http"), value), endpoint: value, command: value, toolFilter: value, retryPolicy: retry }, { requiredKeys: [] }), value),
    openAPIConfig: fc.oneof(fc.record({ specURL: value, authSecretRef: value, retryPolicy: retry }, { requiredKeys: [] }), value),
    clientConfig: value,
    auth: fc.oneof(fc.record({ type: fc.oneof(fc.constantFrom("none", "bearer", "basic", "serviceAccount", "workloadIdentity"), value), secretRef: value, serviceAccount: value, workloadIdentity: value }, { requiredKeys: [] }), value),
    timeout: value,
    delegation: value,
    sandbox: value,
  },
  { requiredKeys: [] },
);

test("any manifest either loads or throws a ConfigError", () => {
  fc.assert(
    fc.property(fc.oneof(fc.record({ handlers: fc.array(handler, { maxLength: 3 }) }), fc.record({ spec: fc.record({ handlers: fc.array(handler, { maxLength: 3 }) }) }), value), (input) => {
      try {
        const registry = loadToolRegistry(input as object);
        assert.ok(Object.isFrozen(registry));
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        assert.ok(error.issues.length > 0);
      }
    }),
    { numRuns: 2000 },
  );
});
