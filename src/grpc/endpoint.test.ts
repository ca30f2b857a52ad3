import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, InvalidOptionError, noopLogger, type LogFields, type Logger } from "../core/index.js";
import { createTlsFixture, type TlsFixture } from "../../test/helpers/grpc-server.js";
import { resolveEndpoint } from "./endpoint.js";

let fx: TlsFixture;
before(async () => {
  fx = await createTlsFixture();
});
after(() => fx.cleanup());

function recordingLogger() {
  const lines: [string, string, LogFields | undefined][] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => void lines.push([level, message, fields]);
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

test("endpoint forms: host:port, [v6]:port, dns:///, bare host (443), http(s) URLs", () => {
  const table: [string, boolean | undefined, string, string, number][] = [
    ["weather-tools:50051", undefined, "http://weather-tools:50051", "weather-tools", 50051],
    ["127.0.0.1:9000", undefined, "http://127.0.0.1:9000", "127.0.0.1", 9000],
    ["[::1]:9000", undefined, "http://[::1]:9000", "::1", 9000],
    ["dns:///tools.svc:7000", undefined, "http://tools.svc:7000", "tools.svc", 7000],
    ["tools.example.com", undefined, "http://tools.example.com:443", "tools.example.com", 443],
    ["tools.example.com:8443", true, "https://tools.example.com:8443", "tools.example.com", 8443],
    ["http://127.0.0.1:5000", undefined, "http://127.0.0.1:5000", "127.0.0.1", 5000],
    ["https://tools.example.com", undefined, "https://tools.example.com:443", "tools.example.com", 443],
    ["https://[::1]:8443/", true, "https://[::1]:8443", "::1", 8443],
    ["::1", undefined, "http://[::1]:443", "::1", 443],
  ];
  for (const [endpoint, tls, baseUrl, host, port] of table) {
    const r = resolveEndpoint(endpoint, { tls }, noopLogger);
    assert.deepEqual([r.baseUrl, r.host, r.port], [baseUrl, host, port], endpoint);
    assert.equal(r.tls !== undefined, baseUrl.startsWith("https:"), endpoint);
  }
});

test("bad endpoints are InvalidOptionErrors naming the value", () => {
  const bad = ["", "host:port", "host:70000", ":50051", "grpc://x:1", "http://x:1/prefix", "http://u:p@x:1", "http://x:1?q=1", "[nope]:1", "a b:1"];
  for (const endpoint of bad) {
    assert.throws(
      () => resolveEndpoint(endpoint, {}, noopLogger),
      (e: unknown) => e instanceof InvalidOptionError && e.message === `createToolServiceClient: endpoint must be "host:port" or an http(s) URL; got "${endpoint}"`,
      endpoint,
    );
  }
  assert.throws(() => resolveEndpoint(42, {}, noopLogger), { message: 'createToolServiceClient: endpoint must be "host:port" or an http(s) URL; got 42' });
});

test("a scheme that contradicts an explicit tls is an error", () => {
  assert.throws(() => resolveEndpoint("http://x:1", { tls: true }, noopLogger), {
    code: "ERR_OMNIA_INVALID_OPTION",
    message: 'createToolServiceClient: endpoint scheme "http:" contradicts tls: true; got "http://x:1"',
  });
  assert.throws(() => resolveEndpoint("https://x:1", { tls: false }, noopLogger), {
    message: 'createToolServiceClient: endpoint scheme "https:" contradicts tls: false; got "https://x:1"',
  });
});

test("option types are checked", () => {
  assert.throws(() => resolveEndpoint("x:1", { tls: "yes" as unknown as boolean }, noopLogger), { message: 'createToolServiceClient: tls must be a boolean; got "yes"' });
  assert.throws(() => resolveEndpoint("x:1", { tlsCAPath: 3 as unknown as string }, noopLogger), { message: "createToolServiceClient: tlsCAPath must be a file path; got 3" });
});

test("tls off (the default): TLS paths are ignored and never read", () => {
  const { logger, lines } = recordingLogger();
  const r = resolveEndpoint("x:1", { tlsCAPath: "/does/not/exist.pem", tlsCertPath: "/nope", tlsKeyPath: "/nope" }, logger);
  assert.equal(r.tls, undefined);
  assert.deepEqual(lines, [["debug", "grpc client: tls is off, so the TLS file paths are ignored", { endpoint: "x:1" }]]);
});

test("tls on: CA, cert+key read at create time; skip-verify maps to rejectUnauthorized=false", () => {
  const r = resolveEndpoint("x:1", { tls: true, tlsCAPath: fx.paths.ca, tlsCertPath: fx.paths.clientCert, tlsKeyPath: fx.paths.clientKey }, noopLogger);
  assert.equal(r.tls?.ca?.toString(), fx.caCert);
  assert.equal(r.tls?.cert?.toString(), fx.clientCert);
  assert.equal(r.tls?.key?.toString(), fx.clientKey);
  assert.equal(r.tls?.rejectUnauthorized, true);
  assert.equal(resolveEndpoint("x:1", { tls: true, tlsInsecureSkipVerify: true }, noopLogger).tls?.rejectUnauthorized, false);
});

test("seed 004: tlsCertPath takes effect only together with tlsKeyPath (either alone is ignored, with a warning)", () => {
  const a = recordingLogger();
  const r = resolveEndpoint("x:1", { tls: true, tlsCertPath: fx.paths.clientCert }, a.logger);
  assert.equal(r.tls?.cert, undefined);
  assert.deepEqual(a.lines, [["warn", "grpc client: tlsCertPath is ignored without tlsKeyPath", {}]]);
  const b = recordingLogger();
  assert.equal(resolveEndpoint("x:1", { tls: true, tlsKeyPath: fx.paths.clientKey }, b.logger).tls?.key, undefined);
  assert.deepEqual(b.lines, [["warn", "grpc client: tlsKeyPath is ignored without tlsCertPath", {}]]);
});

test("unreadable or invalid TLS files are ConfigErrors with Omnia's texts", () => {
  assert.throws(
    () => resolveEndpoint("x:1", { tls: true, tlsCAPath: `${fx.dir}/missing.pem` }, noopLogger),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.issues.length === 1 &&
      e.issues[0]?.path === "tlsCAPath" &&
      e.message.startsWith(`tlsCAPath: failed to read CA cert: ENOENT: no such file or directory, open '${fx.dir}/missing.pem'`) &&
      e.message.endsWith(`; got "${fx.dir}/missing.pem"`),
  );
  assert.throws(() => resolveEndpoint("x:1", { tls: true, tlsCAPath: fx.paths.garbage }, noopLogger), {
    code: "ERR_OMNIA_CONFIG",
    message: `tlsCAPath: failed to parse CA cert; got "${fx.paths.garbage}"`,
  });
  assert.throws(
    () => resolveEndpoint("x:1", { tls: true, tlsCertPath: fx.paths.clientCert, tlsKeyPath: fx.paths.garbage }, noopLogger),
    (e: unknown) =>
      e instanceof ConfigError && e.message.startsWith("tlsCertPath: failed to load client cert: ") && e.message.endsWith(`; got "${fx.paths.clientCert}" and "${fx.paths.garbage}"`),
  );
});
