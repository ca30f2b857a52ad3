import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { LogFields, Logger } from "../core/index.js";
import { outboundMetadata } from "./metadata.js";

function recordingLogger() {
  const lines: { level: string; message: string; fields: LogFields | undefined }[] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => void lines.push({ level, message, fields });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

test("keys are lower-cased and authorization passes through as given", () => {
  const { logger, lines } = recordingLogger();
  const out = outboundMetadata(
    {
      "X-Omnia-Tool-Name": "get_weather",
      "x-omnia-tool-registry": "weather-handler",
      "x-omnia-claim-Team": "gold",
      Authorization: "Bearer handler-cred",
    },
    logger,
  );
  assert.deepEqual(out, {
    authorization: "Bearer handler-cred",
    "x-omnia-claim-team": "gold",
    "x-omnia-tool-name": "get_weather",
    "x-omnia-tool-registry": "weather-handler",
  });
  assert.deepEqual(lines, []);
});

test("x-omnia-param-* entries are never sent, whatever their case (logged at debug)", () => {
  const { logger, lines } = recordingLogger();
  const out = outboundMetadata({ "x-omnia-param-City": "Paris", "X-Omnia-Param-Units": "metric", "x-omnia-agent-name": "a" }, logger);
  assert.deepEqual(out, { "x-omnia-agent-name": "a" });
  assert.deepEqual(
    lines.map((l) => [l.level, l.message, l.fields]),
    [
      ["debug", "grpc metadata: dropped an x-omnia-param-* entry (gRPC tools get no param metadata)", { key: "X-Omnia-Param-Units" }],
      ["debug", "grpc metadata: dropped an x-omnia-param-* entry (gRPC tools get no param metadata)", { key: "x-omnia-param-City" }],
    ],
  );
});

test("an illegal or reserved key is skipped and logged at warn; the call goes on (API.md decision 11)", () => {
  const { logger, lines } = recordingLogger();
  const out = outboundMetadata(
    {
      "x-omnia-claim-https://example.com/roles": "admin",
      "x omnia": "v",
      "": "v",
      "grpc-timeout": "1S",
      "Content-Type": "text/plain",
      te: "gzip",
      "user-agent": "me",
      connection: "close",
      "x-ok": "yes",
    },
    logger,
  );
  assert.deepEqual(out, { "x-ok": "yes" });
  assert.deepEqual(
    lines.map((l) => [l.level, l.fields]),
    [
      ["warn", { key: "" }],
      ["warn", { key: "Content-Type" }],
      ["warn", { key: "connection" }],
      ["warn", { key: "grpc-timeout" }],
      ["warn", { key: "te" }],
      ["warn", { key: "user-agent" }],
      ["warn", { key: "x omnia" }],
      ["warn", { key: "x-omnia-claim-https://example.com/roles" }],
    ],
  );
  assert.equal(lines[0]?.message, "grpc metadata: skipped an entry with an illegal or reserved key");
});

test("a value outside printable ASCII is skipped and logged without the value", () => {
  const { logger, lines } = recordingLogger();
  const out = outboundMetadata({ "x-a": "line\nbreak", "x-b": "café", "x-c": "tab\there", "x-d": "", "x-e": " ~!" }, logger);
  assert.deepEqual(out, { "x-d": "", "x-e": " ~!" });
  assert.deepEqual(
    lines.map((l) => [l.level, l.message, l.fields]),
    ["x-a", "x-b", "x-c"].map((key) => ["warn", "grpc metadata: skipped an entry whose value is not a valid metadata value", { key }]),
  );
  assert.ok(!JSON.stringify(lines).includes("café"));
});

test("-bin keys need base64 values (the caller encodes them)", () => {
  const { logger, lines } = recordingLogger();
  assert.deepEqual(outboundMetadata({ "x-declare-bin": "AAEC/w==", "x-raw-bin": "not base64!" }, logger), { "x-declare-bin": "AAEC/w==" });
  assert.equal(lines.length, 1);
});

test("keys that lower-case alike: ascending code-unit order, last wins, so the lower-case key wins", () => {
  const { logger } = recordingLogger();
  assert.deepEqual(outboundMetadata({ "x-omnia-user-id": "exact", "X-Omnia-User-Id": "mixed" }, logger), { "x-omnia-user-id": "exact" });
  assert.deepEqual(outboundMetadata({ "X-Omnia-User-Id": "mixed", "x-omnia-user-id": "exact" }, logger), { "x-omnia-user-id": "exact" });
});

test("no headers → no metadata; __proto__ stays a plain key", () => {
  const { logger } = recordingLogger();
  assert.deepEqual(outboundMetadata(undefined, logger), {});
  const out = outboundMetadata(JSON.parse('{"__proto__":"x"}') as Record<string, string>, logger);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out), ["__proto__"]);
});

test("property: whatever comes in, only legal, non-param, lower-case entries go out, each from the input", () => {
  const { logger } = recordingLogger();
  const key = fc.oneof(
    fc.string(),
    fc.constantFrom("x-omnia-param-City", "X-Omnia-Tool-Name", "authorization", "grpc-status", "x-a-bin", "TE"),
    fc.stringMatching(/^[0-9A-Za-z_.-]{1,12}$/),
  );
  const value = fc.oneof(fc.string(), fc.stringMatching(/^[\x20-\x7e]{0,16}$/), fc.base64String());
  fc.assert(
    fc.property(fc.dictionary(key, value), (input) => {
      const out = outboundMetadata(input, logger);
      const lowered = new Map<string, string[]>();
      for (const [k, v] of Object.entries(input)) lowered.set(k.toLowerCase(), [...(lowered.get(k.toLowerCase()) ?? []), v]);
      for (const [k, v] of Object.entries(out)) {
        assert.match(k, /^[0-9a-z_.-]+$/);
        assert.ok(!k.startsWith("x-omnia-param-") && !k.startsWith("grpc-") && k !== "te");
        assert.match(v, k.endsWith("-bin") ? /^[A-Za-z0-9+/]*={0,2}$/ : /^[\x20-\x7e]*$/);
        assert.ok(lowered.get(k)?.includes(v));
      }
    }),
    { numRuns: 500 },
  );
});
