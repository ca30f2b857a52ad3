// docs/manifest.md cannot drift from the loader's zod schema (issue #23 item 8): every leaf field of the
// ToolRegistry schema has a row, no row names a field the schema lacks, and the defaults are written as in YAML.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { formatGoDuration } from "../../src/core/index.js";
import { handlerSchema, toolRegistryResourceSchema } from "../../src/manifest/schemas.js";
import {
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_HTTP_RETRY_ON,
  DEFAULT_GRPC_RETRYABLE_STATUS_CODES,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_PROBE_INTERVAL_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_HTTP_METHOD,
  DEFAULT_CONTENT_TYPE,
  DEFAULT_WORKLOAD_IDENTITY_HEADER,
  TOOL_REGISTRY_API_VERSION,
} from "../../src/manifest/defaults.js";
import { schemaLeaves } from "../helpers/schema-leaves.js";

const DOC = readFileSync("docs/manifest.md", "utf8");
/** field path -> the row's cells (type, default, what it does). */
const ROWS = new Map<string, string[]>();
for (const line of DOC.split("\n")) {
  const m = /^\| `([^`]+)` \|(.*)\|$/.exec(line);
  if (m === null) continue;
  assert.ok(!ROWS.has(m[1] as string), `${m[1]} has two rows`);
  ROWS.set(m[1] as string, (m[2] as string).split(" | ").map((c) => c.trim()));
}
const LEAVES = schemaLeaves(toolRegistryResourceSchema, { "spec.handlers[]": handlerSchema });

test("every leaf of the ToolRegistry schema has a row, and every row is a field of the schema", () => {
  assert.ok(LEAVES.length > 80, `${LEAVES.length} leaves`);
  assert.deepEqual(LEAVES.filter((path) => !ROWS.has(path)), [], "fields the doc does not list");
  assert.deepEqual([...ROWS.keys()].filter((path) => !LEAVES.includes(path)), [], "rows for fields the schema lacks");
});

test("defaults are written as in YAML and agree with the loader's constants", () => {
  assert.doesNotMatch(DOC, /\b(timeoutMs|initialBackoffMs|maxBackoffMs|intervalMs)\b(?!`\))/, "no normalised field name");
  const defaultOf = (path: string): string => ROWS.get(path)?.[1] ?? "";
  const duration = (ms: number): string => `\`${formatGoDuration(ms).replace(/m0s$/, "m")}\``;
  assert.equal(defaultOf("spec.handlers[].timeout"), duration(DEFAULT_HANDLER_TIMEOUT_MS));
  assert.equal(defaultOf("spec.probe.interval"), duration(DEFAULT_PROBE_INTERVAL_MS));
  assert.equal(defaultOf("spec.probe.timeout"), duration(DEFAULT_PROBE_TIMEOUT_MS));
  assert.equal(defaultOf("apiVersion"), `\`${TOOL_REGISTRY_API_VERSION}\``);
  assert.equal(defaultOf("spec.handlers[].httpConfig.method"), `\`${DEFAULT_HTTP_METHOD}\``);
  assert.equal(defaultOf("spec.handlers[].httpConfig.contentType"), `\`${DEFAULT_CONTENT_TYPE}\``);
  assert.equal(defaultOf("spec.handlers[].auth.workloadIdentity.header"), `\`${DEFAULT_WORKLOAD_IDENTITY_HEADER}\``);
  for (const block of ["httpConfig", "grpcConfig", "mcpConfig", "openAPIConfig"]) {
    const at = `spec.handlers[].${block}.retryPolicy`;
    assert.equal(defaultOf(`${at}.initialBackoff`), duration(DEFAULT_INITIAL_BACKOFF_MS), block);
    assert.equal(defaultOf(`${at}.maxBackoff`), duration(DEFAULT_MAX_BACKOFF_MS), block);
    assert.equal(defaultOf(`${at}.backoffMultiplier`), '`"2.0"`', block);
  }
  for (const block of ["httpConfig", "openAPIConfig"]) assert.equal(defaultOf(`spec.handlers[].${block}.retryPolicy.retryOn`), `\`[${DEFAULT_HTTP_RETRY_ON.join(", ")}]\``);
  assert.equal(defaultOf("spec.handlers[].grpcConfig.retryPolicy.retryableStatusCodes"), `\`[${DEFAULT_GRPC_RETRYABLE_STATUS_CODES.join(", ")}]\``);
});
