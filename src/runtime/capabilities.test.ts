import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveCapabilities } from "./capabilities.js";
import type { RuntimeHandler } from "./types.js";

const converse = (): void => {};
const invoke = () => ({ outputJson: "{}" });

test("resolveCapabilities: the handler's list, de-duplicated in first-occurrence order", () => {
  const h: RuntimeHandler = { converse, invoke, capabilities: () => ["invoke", "client_tools", "invoke", "custom_x", "client_tools"] };
  assert.deepEqual(resolveCapabilities(h, undefined), ["invoke", "client_tools", "custom_x"]);
});

test("resolveCapabilities: duplex_audio and interruption only when the handler implements duplex", () => {
  const h: RuntimeHandler = { converse, capabilities: () => ["duplex_audio", "client_tools", "interruption"] };
  assert.deepEqual(resolveCapabilities(h, undefined), ["client_tools"]);
  const duplex = async (): Promise<void> => {};
  assert.deepEqual(resolveCapabilities({ ...h, duplex }, undefined), ["duplex_audio", "client_tools", "interruption"]);
  assert.deepEqual(resolveCapabilities({ converse, duplex }, undefined), ["duplex_audio"]);
  assert.deepEqual(resolveCapabilities({ converse, invoke, duplex }, undefined), ["invoke", "duplex_audio"]);
});

test("resolveCapabilities: invoke only when the handler implements invoke", () => {
  assert.deepEqual(resolveCapabilities({ converse, capabilities: () => ["invoke", "client_tools"] }, undefined), ["client_tools"]);
  assert.deepEqual(resolveCapabilities({ converse, invoke }, undefined), ["invoke"]);
  assert.deepEqual(resolveCapabilities({ converse }, undefined), []);
});

test("resolveCapabilities: the option wins over handler.capabilities()", () => {
  const h: RuntimeHandler = { converse, invoke, capabilities: () => ["client_tools"] };
  assert.deepEqual(resolveCapabilities(h, ["invoke", "media_storage_ref"]), ["invoke", "media_storage_ref"]);
});
