import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, mkdtempSync, cpSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { fromBinary, createFileRegistry, type DescFile } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { CONTRACT_VERSION, SEMVER_PATTERN, readContractVersionMarker } from "./version.js";
import { contractSurfaceFingerprint, contractSurfaceLines } from "./surface.js";
import { Capability, hasCapability, knownCapabilities, normalizeCapabilities } from "./capabilities.js";
import { file_omnia_runtime_v1_runtime } from "../gen/omnia/runtime/v1/runtime_pb.js";

/**
 * The wire-surface fingerprint recorded for each contract version. A change to
 * runtime.proto's wire surface fails this test until CONTRACT_VERSION is raised
 * and the new fingerprint recorded under the new version.
 */
const SURFACE_FINGERPRINTS: Readonly<Record<string, string>> = {
  "1.9.0": "46f328991e51edd57e10531c46a4a4998105e4e13e2645af472a6103fc025134",
};

const PROTO_DIR = "proto";
const RUNTIME_PROTO = "omnia/runtime/v1/runtime.proto";

/** Compiles a proto tree with the project's buf and returns runtime.proto's descriptor. */
function compileRuntimeProto(protoDir: string): DescFile {
  const bytes = execFileSync("node_modules/.bin/buf", ["build", protoDir, "-o", "-#format=binpb"], { maxBuffer: 1 << 24 });
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
  const file = registry.getFile(RUNTIME_PROTO);
  assert.ok(file, `buf output has no ${RUNTIME_PROTO}`);
  return file;
}

/** What the surface test says about a (version, fingerprint) pair; empty when it holds. */
function surfaceProblem(version: string, fingerprint: string): string {
  const recorded = SURFACE_FINGERPRINTS[version];
  if (recorded === undefined) return `no fingerprint recorded for contract ${version}; record ${fingerprint}`;
  if (recorded !== fingerprint) {
    return `runtime.proto's wire surface changed (fingerprint ${fingerprint}, recorded for ${version}: ${recorded}); raise CONTRACT_VERSION and the proto marker together, then record the new fingerprint`;
  }
  return "";
}

test("CONTRACT_VERSION is plain semver and equals the proto's Contract-Version marker", () => {
  assert.equal(CONTRACT_VERSION, "1.9.0");
  assert.match(CONTRACT_VERSION, SEMVER_PATTERN);
  const marker = readContractVersionMarker(readFileSync(join(PROTO_DIR, RUNTIME_PROTO), "utf8"));
  assert.equal(marker, CONTRACT_VERSION, "runtime.proto's // Contract-Version: marker and CONTRACT_VERSION must be updated together");
});

test("the marker reader needs the exact column-0 form", () => {
  assert.equal(readContractVersionMarker("syntax = \"proto3\";\n// Contract-Version: 2.0.1\n"), "2.0.1");
  assert.equal(readContractVersionMarker("  // Contract-Version: 2.0.1\n"), undefined);
  assert.equal(readContractVersionMarker("// contract-version: 2.0.1\n"), undefined);
  assert.equal(readContractVersionMarker("no marker"), undefined);
});

test("the proto source and the generated code have the fingerprint recorded for CONTRACT_VERSION", () => {
  const fromSource = contractSurfaceFingerprint(compileRuntimeProto(PROTO_DIR));
  const fromGenerated = contractSurfaceFingerprint(file_omnia_runtime_v1_runtime);
  assert.equal(fromGenerated, fromSource, "src/gen is stale: run npm run generate");
  assert.equal(surfaceProblem(CONTRACT_VERSION, fromSource), "");
});

test("changing one field number without raising the version fails the surface check", () => {
  const dir = mkdtempSync(join(tmpdir(), "omnia-proto-"));
  try {
    cpSync(PROTO_DIR, dir, { recursive: true });
    const path = join(dir, RUNTIME_PROTO);
    const original = readFileSync(path, "utf8");
    const modified = original.replace("string final_content = 1;", "string final_content = 6;");
    assert.notEqual(modified, original);
    writeFileSync(path, modified);
    const fingerprint = contractSurfaceFingerprint(compileRuntimeProto(dir));
    assert.equal(readContractVersionMarker(modified), CONTRACT_VERSION);
    assert.match(surfaceProblem(CONTRACT_VERSION, fingerprint), /^runtime\.proto's wire surface changed \(fingerprint [0-9a-f]{64}, recorded for 1\.9\.0: [0-9a-f]{64}\); raise CONTRACT_VERSION/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the surface lists fields, oneofs, reserved numbers, enums and RPCs", () => {
  const lines = contractSurfaceLines(file_omnia_runtime_v1_runtime);
  for (const line of [
    "msg omnia.runtime.v1.ClientMessage",
    "field omnia.runtime.v1.ClientMessage.metadata 3 map<string,string>",
    "field omnia.runtime.v1.ClientMessage.record_sequence_base 9 int64 singular",
    "reserved omnia.runtime.v1.ClientMessage 6..6",
    'reserved omnia.runtime.v1.ClientMessage "consent_grants"',
    "field omnia.runtime.v1.ServerMessage.runtime_hello 8 message:omnia.runtime.v1.RuntimeHello singular oneof:message",
    "field omnia.runtime.v1.ServerMessage.heartbeat 9 message:omnia.runtime.v1.Heartbeat singular oneof:message",
    "reserved omnia.runtime.v1.ServerMessage 3..3",
    "field omnia.runtime.v1.Usage.cost_usd 3 float singular",
    "field omnia.runtime.v1.AudioInputChunk.sequence 2 uint32 singular",
    "field omnia.runtime.v1.ToolCall.categories 6 string repeated",
    "enum omnia.runtime.v1.ToolExecution.TOOL_EXECUTION_SERVER 0",
    "enum omnia.runtime.v1.VoiceMode.VOICE_MODE_CASCADED 2",
    "rpc omnia.runtime.v1.RuntimeService.Converse omnia.runtime.v1.ClientMessage omnia.runtime.v1.ServerMessage true true",
    "rpc omnia.runtime.v1.RuntimeService.WatchInvocation omnia.runtime.v1.WatchInvocationRequest omnia.runtime.v1.InvocationProgress false true",
    "rpc omnia.runtime.v1.RuntimeService.Health omnia.runtime.v1.HealthRequest omnia.runtime.v1.HealthResponse false false",
  ]) {
    assert.ok(lines.includes(line), `missing surface line: ${line}`);
  }
  assert.ok(!lines.some((l) => l.includes("MetadataEntry")), "map entries are folded into their map field");
  assert.deepEqual(lines, [...lines].sort());
});

test("capabilities: the 1.9.0 names, an open set, exact matching", () => {
  assert.deepEqual(knownCapabilities(), ["invoke", "duplex_audio", "client_tools", "media_storage_ref", "interruption"]);
  const fresh = knownCapabilities();
  fresh.push("x");
  assert.equal(knownCapabilities().length, 5);
  assert.equal(Capability.CLIENT_TOOLS, "client_tools");
  assert.ok(hasCapability(["invoke", "future_thing"], "invoke"));
  assert.ok(!hasCapability(["Invoke"], "invoke"));
  assert.deepEqual(normalizeCapabilities(["invoke", "client_tools", "invoke", "new_cap"]), ["invoke", "client_tools", "new_cap"]);
});
