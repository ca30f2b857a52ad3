// D3, D4, D6: gRPC transport defects found by the fault suite. Fixed; kept as regression tests.
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { GrpcStatusError, serveToolService } from "../../../src/grpc/index.js";
import { faultTest, grpcRegistry, rig, closedSnapshot } from "../helpers/harness.js";
import { GRPC_OK_HEADERS, startH2Backend } from "../helpers/h2-backend.js";
import { createMismatchFixture } from "../helpers/tls.js";

/** A TCP server that drops every connection once the client's first bytes (the HTTP/2 preface) arrive. */
async function dropAfterPreface(how: "reset" | "close") {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
    s.on("error", () => {});
    s.once("data", () => (how === "reset" ? s.resetAndDestroy() : s.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

for (const how of ["reset", "close"] as const) {
  faultTest(`D3: a connection ${how === "reset" ? "reset" : "closed"} before the server's preface is UNAVAILABLE and retried by the default codes`, async (ctx) => {
    const backend = await dropAfterPreface(how);
    ctx.defer(() => backend.close());
    const r = rig(ctx, grpcRegistry(backend.endpoint, { grpcConfig: "      retryPolicy: { maxAttempts: 3, initialBackoff: 100ms }" }));
    const out = await r.call("p");
    assert.equal(out.status, "error");
    if (out.status !== "error") return;
    // Today: `rpc error: code = Canceled desc = http/2 stream closed with error code CANCEL (0x8)`, one attempt.
    assert.equal(out.error.code, "ERR_OMNIA_RETRIES_EXHAUSTED", out.message);
    assert.ok(out.message.startsWith("3 attempts exhausted: gRPC tool execution failed: rpc error: code = Unavailable desc = "), out.message);
    assert.deepEqual(r.breakers.get("t").snapshot(), closedSnapshot("t", 3, 3));
  });
}

faultTest("D3: a plaintext client against a TLS backend fails as UNAVAILABLE", async (ctx) => {
  const fx = await createMismatchFixture();
  ctx.defer(() => fx.cleanup());
  const server = await serveToolService({ t: { description: "d", inputSchema: { type: "object" }, execute: () => ({}) } }, { tls: fx.good });
  ctx.defer(() => server.close());
  const r = rig(ctx, grpcRegistry(`127.0.0.1:${server.port}`));
  const out = await r.call("plain");
  assert.ok(out.status === "error" && out.error instanceof GrpcStatusError && out.error.grpcCode === "UNAVAILABLE", JSON.stringify(out));
});

faultTest("D4: a response larger than 4 MiB is refused as RESOURCE_EXHAUSTED, never buffered (grpc-go's default receive cap)", async (ctx) => {
  const backend = await startH2Backend((stream) => {
    stream.respond(GRPC_OK_HEADERS);
    const head = Buffer.alloc(5);
    head.writeUInt32BE(0xfffffff0, 1); // a 4 GiB message is announced...
    stream.write(head);
    stream.write(Buffer.alloc(64 * 1024)); // ...and only 64 KiB ever comes
  });
  ctx.defer(() => backend.close());
  const r = rig(ctx, grpcRegistry(backend.endpoint));
  global.gc?.();
  const before = process.memoryUsage().arrayBuffers;
  const pending = r.call("big");
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  const grew = process.memoryUsage().arrayBuffers - before;
  assert.ok(grew < 64 * 1024 * 1024, `the client allocated ${(grew / 1048576).toFixed(0)} MiB for a 5-byte length prefix`);
  const out = await pending;
  assert.ok(out.status === "error" && out.error instanceof GrpcStatusError && out.error.grpcCode === "RESOURCE_EXHAUSTED", JSON.stringify(out).slice(0, 300));
});

faultTest("D4: serveToolService refuses a request announcing more than 4 MiB instead of allocating it", async (ctx) => {
  const server = await serveToolService({ t: { description: "d", inputSchema: {}, execute: () => 1 } });
  ctx.defer(() => server.close());
  const session = http2.connect(server.url);
  session.on("error", () => {});
  ctx.deferClient(() => new Promise<void>((resolve) => session.close(() => resolve())));
  const stream = session.request({ ":method": "POST", ":path": "/omnia.tools.v1.ToolService/Execute", "content-type": "application/grpc", te: "trailers" });
  stream.on("error", () => {});
  const status = new Promise<string | undefined>((resolve) => {
    stream.on("trailers", (t) => resolve(String(t["grpc-status"])));
    stream.on("response", (h) => h["grpc-status"] !== undefined && resolve(String(h["grpc-status"])));
    stream.on("close", () => resolve(undefined));
  });
  global.gc?.();
  const before = process.memoryUsage().arrayBuffers;
  const head = Buffer.alloc(5);
  head.writeUInt32BE(0xfffffff0, 1);
  stream.write(head);
  stream.write(Buffer.alloc(1000));
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  const grew = process.memoryUsage().arrayBuffers - before;
  stream.close();
  assert.ok(grew < 64 * 1024 * 1024, `the server allocated ${(grew / 1048576).toFixed(0)} MiB for a 5-byte length prefix`);
  assert.equal(await status, "8"); // RESOURCE_EXHAUSTED
});

faultTest("D6: executor.close() during a gRPC call does not count that call as a breaker failure", async (ctx) => {
  const server = await serveToolService({
    t: { description: "d", inputSchema: {}, execute: (_a, c) => new Promise((_resolve, reject) => c.signal.addEventListener("abort", () => reject(c.signal.reason))) },
  });
  ctx.defer(() => server.close());
  const breakersRig = rig(ctx, grpcRegistry(`127.0.0.1:${server.port}`, { timeout: "30s" }));
  const pending = breakersRig.ex.execute({ id: "c", name: "t", arguments: "{}" });
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  await breakersRig.ex.close();
  // Today: an error outcome `tool service client: closed while execute was in flight; …`, counted as a failure.
  await pending.catch(() => {});
  assert.deepEqual(breakersRig.breakers.get("t").snapshot(), closedSnapshot("t", 0, 0));
});
