// TLS and mTLS between createToolServiceClient and serveToolService (and a
// grpc-js mTLS server), with certificates generated at test time by selfsigned.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { GrpcStatusError } from "../src/index.js";
import { createToolServiceClient, serveToolService, type ToolServiceServer } from "../src/grpc.js";
import { createTlsFixture, settledLeaks, startGrpcJsToolServer, type TlsFixture } from "./helpers/grpc-server.js";
import { withoutUnhandledRejections } from "./helpers/http-server.js";

const tools = {
  whoami: {
    description: "Says hello",
    inputSchema: { type: "object" },
    execute: (args: unknown, ctx: { headers: Readonly<Record<string, string>> }) => ({ args, auth: ctx.headers["authorization"] ?? null }),
  },
};

let fx: TlsFixture;
let baseline: string[];
let tlsServer: ToolServiceServer;
let mtlsServer: ToolServiceServer;

before(async () => {
  baseline = process.getActiveResourcesInfo();
  fx = await createTlsFixture();
  tlsServer = await serveToolService(tools, { tls: { cert: fx.serverCert, key: fx.serverKey } });
  mtlsServer = await serveToolService(tools, { tls: { cert: fx.serverCert, key: fx.serverKey, ca: fx.caCert, requireClientCert: true } });
});

after(async () => {
  await tlsServer.close();
  await mtlsServer.close();
  fx.cleanup();
  assert.deepEqual(await settledLeaks(baseline), []);
});

/** The Node TLS error at the root of a failed call (its code and message). */
function nodeCause(error: unknown): { code: string; message: string } | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && !code.startsWith("ERR_OMNIA")) return { code, message: current.message.trim() };
    current = current.cause;
  }
  return undefined;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => assert.fail("expected a rejection"),
    (e: unknown) => e,
  );
}

test("tls: true with tlsCAPath verifies the server; the call and its authorization go through", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: `127.0.0.1:${tlsServer.port}`, tls: true, tlsCAPath: fx.paths.ca });
    try {
      assert.equal(client.baseUrl, `https://127.0.0.1:${tlsServer.port}`);
      const r = await client.execute("whoami", '{"a":1}', { headers: { authorization: "Bearer tls-cred" } });
      assert.equal(r.resultJson, '{"args":{"a":1},"auth":"Bearer tls-cred"}');
    } finally {
      await client.close();
    }
  });
});

test("an https:// endpoint turns TLS on", async () => {
  const client = createToolServiceClient({ endpoint: tlsServer.url, tlsCAPath: fx.paths.ca });
  try {
    assert.equal((await client.execute("whoami", "{}")).resultJson, '{"args":{},"auth":null}');
  } finally {
    await client.close();
  }
});

test("mTLS: tlsCertPath + tlsKeyPath present the client certificate", async () => {
  const client = createToolServiceClient({ endpoint: mtlsServer.url, tlsCAPath: fx.paths.ca, tlsCertPath: fx.paths.clientCert, tlsKeyPath: fx.paths.clientKey });
  try {
    assert.equal((await client.execute("whoami", "{}")).resultJson, '{"args":{},"auth":null}');
  } finally {
    await client.close();
  }
});

test("mTLS: a certificate without its key is ignored (seed 004), so a server requiring one refuses: UNAVAILABLE", async () => {
  await withoutUnhandledRejections(async () => {
    const warnings: string[] = [];
    const client = createToolServiceClient({
      endpoint: mtlsServer.url,
      tlsCAPath: fx.paths.ca,
      tlsCertPath: fx.paths.clientCert,
      logger: { debug: () => {}, info: () => {}, warn: (m) => warnings.push(m), error: () => {} },
    });
    try {
      assert.deepEqual(warnings, ["grpc client: tlsCertPath is ignored without tlsKeyPath"]);
      const error = await rejection(client.execute("whoami", "{}", { timeoutMs: 10_000 }));
      assert.ok(error instanceof GrpcStatusError, String(error));
      assert.equal(error.grpcCode, "UNAVAILABLE");
      const cause = nodeCause(error.cause);
      assert.ok(cause !== undefined);
      assert.equal(cause.code, "ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED");
      // The same text on every Node: Node 24's `--use-system-ca` hint is not the model's to read.
    assert.equal(error.message, `rpc error: code = Unavailable desc = ${cause.message.replace("; if the root CA is installed locally, try running Node.js with --use-system-ca", "")}`);
    assert.equal(error.message.includes("--use-system-ca"), false);
    } finally {
      await client.close();
    }
  });
});

test("a wrong CA is an error: UNAVAILABLE with the certificate failure as desc, and nothing leaks", async () => {
  await withoutUnhandledRejections(async () => {
    const before = process.getActiveResourcesInfo();
    const client = createToolServiceClient({ endpoint: tlsServer.url, tlsCAPath: fx.paths.otherCa });
    const error = await rejection(client.execute("whoami", "{}"));
    assert.ok(error instanceof GrpcStatusError, String(error));
    assert.equal(error.code, "ERR_OMNIA_GRPC_STATUS");
    assert.equal(error.grpcCode, "UNAVAILABLE");
    const cause = nodeCause(error.cause);
    assert.ok(cause !== undefined);
    assert.ok(["SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY"].includes(cause.code), cause.code);
    // The same text on every Node: Node 24's `--use-system-ca` hint is not the model's to read.
    assert.equal(error.message, `rpc error: code = Unavailable desc = ${cause.message.replace("; if the root CA is installed locally, try running Node.js with --use-system-ca", "")}`);
    assert.equal(error.message.includes("--use-system-ca"), false);
    await client.close();
    assert.deepEqual(await settledLeaks(before), []);
  });
});

test("no tlsCAPath: the system roots do not know our CA, so the call fails", async () => {
  const client = createToolServiceClient({ endpoint: tlsServer.url });
  try {
    const error = await rejection(client.execute("whoami", "{}"));
    assert.ok(error instanceof GrpcStatusError);
    assert.equal(error.grpcCode, "UNAVAILABLE");
  } finally {
    await client.close();
  }
});

test("tlsInsecureSkipVerify accepts the wrong CA", async () => {
  const client = createToolServiceClient({ endpoint: tlsServer.url, tlsCAPath: fx.paths.otherCa, tlsInsecureSkipVerify: true });
  try {
    assert.equal((await client.execute("whoami", "{}")).resultJson, '{"args":{},"auth":null}');
  } finally {
    await client.close();
  }
});

test("tls defaults to false: a plaintext client cannot talk to a TLS server", async () => {
  await withoutUnhandledRejections(async () => {
    const client = createToolServiceClient({ endpoint: `127.0.0.1:${tlsServer.port}`, tlsCAPath: fx.paths.ca });
    try {
      assert.equal(client.baseUrl, `http://127.0.0.1:${tlsServer.port}`);
      const error = await rejection(client.execute("whoami", "{}", { timeoutMs: 10_000 }));
      assert.ok(error instanceof GrpcStatusError, String(error));
    } finally {
      await client.close();
    }
  });
});

test("interop: our client with mTLS against a grpc-js mTLS server", async () => {
  const server = await startGrpcJsToolServer(
    (call) => ({ result_json: JSON.stringify({ tool: call.request.tool_name }) }),
    grpc.ServerCredentials.createSsl(Buffer.from(fx.caCert), [{ private_key: Buffer.from(fx.serverKey), cert_chain: Buffer.from(fx.serverCert) }], true),
  );
  const client = createToolServiceClient({ endpoint: server.endpoint, tls: true, tlsCAPath: fx.paths.ca, tlsCertPath: fx.paths.clientCert, tlsKeyPath: fx.paths.clientKey });
  try {
    assert.equal((await client.execute("secure_tool", "{}")).resultJson, '{"tool":"secure_tool"}');
  } finally {
    await client.close();
    await server.close();
  }
});
